import { Router } from 'express';
import { isLanguage } from '../i18n.js';
import { localPath } from '../same-origin.js';
import { updateSession } from '../session.js';

/** The language switcher: remembers the choice in the session and goes back to the page. */
export function languageRoutes(): Router {
  const router = Router();
  router.get('/language', (req, res) => {
    if (isLanguage(req.query.lang)) updateSession(req, { lang: req.query.lang });
    res.redirect(303, localPath(req.query.next));
  });
  return router;
}
