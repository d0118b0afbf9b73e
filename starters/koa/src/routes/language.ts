import Router from '@koa/router';
import { isLanguage } from '../i18n.js';
import { seeOther } from '../redirect.js';
import { localPath } from '../same-origin.js';
import { updateSession } from '../session.js';

/** The language switcher: remembers the choice in the session and goes back to the page. */
export function languageRoutes(): Router {
  const router = new Router();
  router.get('/language', (ctx) => {
    if (isLanguage(ctx.query.lang)) updateSession(ctx, { lang: ctx.query.lang });
    seeOther(ctx, localPath(ctx.query.next));
  });
  return router;
}
