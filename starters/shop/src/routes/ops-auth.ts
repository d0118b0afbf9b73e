import type { DcbKit } from '@dcbkit/core';
import type { ShopLogger } from '../logger.js';
import { type OperatorAccess, passwordMatches } from '../ops/operator-password.js';
import { operatorPostRefusal } from '../ops/operator-post.js';
import { newOperatorSession, operatorIdOf } from '../ops/operator-session.js';
import type { Views } from '../views.js';
import { seeOther, textAnswer } from '../web/shop-answer.js';
import type { ShopRequest } from '../web/shop-request.js';
import type { Handler, ShopRoute } from '../web/shop-route.js';
import { localPath, sameOriginOnly } from './same-origin.js';

/** The signed-in operator's id, or undefined (a demo account is never an operator). */
export function operatorIdOfRequest(request: ShopRequest): string | undefined {
  return operatorIdOf(request.session.read(), Date.now());
}

/** Operations pages: anyone but a signed-in operator goes to the operator sign-in, and back afterwards. */
export const requireOperator: Handler = (request) =>
  operatorIdOfRequest(request) === undefined
    ? seeOther(`/ops/sign-in?${new URLSearchParams({ next: request.url })}`)
    : undefined;

/** Operations posts: a signed-in operator's form from this shop, with its token; 403 for anything else. */
export function operatorPostOnly({ kit, shopOrigin }: { kit: DcbKit; shopOrigin: string }): Handler {
  return (request) => {
    const post = {
      operatorId: operatorIdOfRequest(request),
      origin: request.header('origin'),
      secFetchSite: request.header('sec-fetch-site'),
      token: request.form.token,
    };
    const refusal = operatorPostRefusal(post, { kit, shopOrigin });
    return refusal === undefined ? undefined : textAnswer(403, refusal);
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
  logger: Pick<ShopLogger, 'info' | 'warn'>;
}): ShopRoute[] {
  return [
    {
      method: 'GET',
      path: '/ops/sign-in',
      handle: (request) => {
        const next = localPath(request.query.next, '/ops');
        if (operatorIdOfRequest(request) !== undefined) return seeOther(next);
        return views.render(request, 'ops-sign-in', { next, generated: access.generated, wrong: false });
      },
    },
    {
      method: 'POST',
      path: '/ops/sign-in',
      guards: [sameOriginOnly(shopOrigin)],
      handle: (request) => {
        const next = localPath(request.form.next, '/ops');
        if (!passwordMatches(request.form.password, access.password)) {
          logger.warn('operator sign-in refused: wrong password');
          return views.render(
            request,
            'ops-sign-in',
            { next, generated: access.generated, wrong: true },
            401,
          );
        }
        request.session.update({ operator: newOperatorSession(Date.now()) });
        logger.info('operator signed in');
        return seeOther(next);
      },
    },
    {
      method: 'POST',
      path: '/ops/sign-out',
      guards: [operatorPostOnly({ kit, shopOrigin })],
      handle: (request) => {
        request.session.update({ operator: undefined });
        return seeOther('/ops/sign-in');
      },
    },
  ];
}
