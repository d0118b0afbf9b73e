import type { DcbKit } from '@dcbkit/core';
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { type OperatorAccess, passwordMatches } from '../ops/operator-password.js';
import { operatorPostRefusal } from '../ops/operator-post.js';
import { newOperatorSession, operatorIdOf } from '../ops/operator-session.js';
import { seeOther } from '../redirect.js';
import { localPath, sameOriginOnly } from '../same-origin.js';
import { sessionOf, updateSession } from '../session.js';
import type { Views } from '../views.js';
import { formOf } from './auth.js';

/** The signed-in operator's id, or undefined (a demo account is never an operator). */
export function operatorIdOfRequest(ctx: Context): string | undefined {
  return operatorIdOf(sessionOf(ctx), Date.now());
}

/** Operations pages: anyone but a signed-in operator goes to the operator sign-in, and back afterwards. */
export const requireOperator: Middleware = async (ctx, next) => {
  if (operatorIdOfRequest(ctx) !== undefined) return next();
  seeOther(ctx, `/ops/sign-in?${new URLSearchParams({ next: ctx.originalUrl })}`);
};

/** Operations posts: a signed-in operator's form from this shop, with its token; 403 for anything else. */
export function operatorPostOnly({ kit, shopOrigin }: { kit: DcbKit; shopOrigin: string }): Middleware {
  return async (ctx, next) => {
    const post = {
      operatorId: operatorIdOfRequest(ctx),
      // ctx.get answers '' for a missing header; the check needs undefined for "not sent".
      origin: ctx.get('origin') || undefined,
      secFetchSite: ctx.get('sec-fetch-site') || undefined,
      token: formOf(ctx).token,
    };
    const refusal = operatorPostRefusal(post, { kit, shopOrigin });
    if (refusal === undefined) return next();
    ctx.status = 403;
    ctx.type = 'text';
    ctx.body = refusal;
  };
}

/** The operator's own sign-in (OPERATOR_PASSWORD) and sign-out, apart from the demo accounts'. */
export function opsAuthRoutes({
  kit,
  views,
  shopOrigin,
  access,
  logger,
}: {
  kit: DcbKit;
  views: Views;
  shopOrigin: string;
  access: OperatorAccess;
  logger: { info(message: string): void; warn(message: string): void };
}): Router {
  const router = new Router();

  router.get('/ops/sign-in', (ctx) => {
    const next = localPath(ctx.query.next, '/ops');
    if (operatorIdOfRequest(ctx) !== undefined) return seeOther(ctx, next);
    views.render(ctx, 'ops-sign-in', { next, generated: access.generated, wrong: false });
  });

  router.post('/ops/sign-in', sameOriginOnly(shopOrigin), (ctx) => {
    const form = formOf(ctx);
    const next = localPath(form.next, '/ops');
    if (!passwordMatches(form.password, access.password)) {
      logger.warn('operator sign-in refused: wrong password');
      views.render(ctx, 'ops-sign-in', { next, generated: access.generated, wrong: true }, 401);
      return;
    }
    updateSession(ctx, { operator: newOperatorSession(Date.now()) });
    logger.info('operator signed in');
    seeOther(ctx, next);
  });

  router.post('/ops/sign-out', operatorPostOnly({ kit, shopOrigin }), (ctx) => {
    updateSession(ctx, { operator: undefined });
    seeOther(ctx, '/ops/sign-in');
  });

  return router;
}
