import type { DcbKit } from '@dcbkit/core';
import { type Request, type RequestHandler, Router } from 'express';
import { type OperatorAccess, passwordMatches } from '../ops/operator-password.js';
import { operatorPostRefusal } from '../ops/operator-post.js';
import { newOperatorSession, operatorIdOf } from '../ops/operator-session.js';
import { localPath, sameOriginOnly } from '../same-origin.js';
import { sessionOf, updateSession } from '../session.js';
import type { Views } from '../views.js';

/** The signed-in operator's id, or undefined (a demo account is never an operator). */
export function operatorIdOfRequest(req: Request): string | undefined {
  return operatorIdOf(sessionOf(req), Date.now());
}

/** Operations pages: anyone but a signed-in operator goes to the operator sign-in, and back afterwards. */
export const requireOperator: RequestHandler = (req, res, next) => {
  if (operatorIdOfRequest(req) !== undefined) return next();
  res.redirect(303, `/ops/sign-in?${new URLSearchParams({ next: req.originalUrl })}`);
};

/** Operations posts: a signed-in operator's form from this shop, with its token; 403 for anything else. */
export function operatorPostOnly({ kit, shopOrigin }: { kit: DcbKit; shopOrigin: string }): RequestHandler {
  return (req, res, next) => {
    const post = {
      operatorId: operatorIdOfRequest(req),
      origin: req.get('origin'),
      secFetchSite: req.get('sec-fetch-site'),
      token: req.body?.token,
    };
    const refusal = operatorPostRefusal(post, { kit, shopOrigin });
    if (refusal === undefined) return next();
    res.status(403).type('text').send(refusal);
  };
}

/** The operator's own sign-in (OPERATOR_PASSWORD) and sign-out, apart from the demo accounts'. */
export function opsAuthRoutes({
  kit,
  views,
  shopOrigin,
  access,
}: {
  kit: DcbKit;
  views: Views;
  shopOrigin: string;
  access: OperatorAccess;
}): Router {
  const router = Router();

  router.get('/ops/sign-in', (req, res) => {
    const next = localPath(req.query.next, '/ops');
    if (operatorIdOfRequest(req) !== undefined) return res.redirect(303, next);
    views.render(req, res, 'ops-sign-in', { next, generated: access.generated, wrong: false });
  });

  router.post('/ops/sign-in', sameOriginOnly(shopOrigin), (req, res) => {
    const next = localPath(req.body?.next, '/ops');
    if (!passwordMatches(req.body?.password, access.password)) {
      req.log.warn('operator sign-in refused: wrong password');
      views.render(req, res, 'ops-sign-in', { next, generated: access.generated, wrong: true }, 401);
      return;
    }
    updateSession(req, { operator: newOperatorSession(Date.now()) });
    req.log.info('operator signed in');
    res.redirect(303, next);
  });

  router.post('/ops/sign-out', operatorPostOnly({ kit, shopOrigin }), (req, res) => {
    updateSession(req, { operator: undefined });
    res.redirect(303, '/ops/sign-in');
  });

  return router;
}
