import { isLanguage } from '../i18n.js';
import { seeOther } from '../web/shop-answer.js';
import type { ShopRoute } from '../web/shop-route.js';
import { localPath } from './same-origin.js';

/** The language switcher: remembers the choice in the session and goes back to the page. */
export function languageRoutes(): ShopRoute[] {
  return [
    {
      method: 'GET',
      path: '/language',
      handle: (request) => {
        const { lang, next } = request.query;
        if (isLanguage(lang)) request.session.update({ lang });
        return seeOther(localPath(next));
      },
    },
  ];
}
