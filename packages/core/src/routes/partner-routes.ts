import { hasAccess } from '../access/has-access.js';
import { cancelPayment } from './cancel-payment-route.js';
import { checkout } from './checkout-route.js';
import { createFormToken, verifyFormToken } from './form-token.js';
import type { PartnerRoutes, PartnerRoutesOptions } from './partner-route-types.js';
import { returnPage } from './return-page-route.js';
import { routeContextOf } from './route-context.js';
import { signedIn } from './route-guard.js';
import { spendUnit } from './spend-unit-route.js';
import { changeSubscription } from './subscription-change-route.js';

// The types stay importable from here, where createPartnerRoutes is.
export type { PartnerRoutes, PartnerRoutesOptions, RouteFields, RouteInput } from './partner-route-types.js';

/**
 * The decisions behind a partner's billing pages, for any framework: the adapters (Express, Koa,
 * Fastify, Hono, Next.js) only collect fields and write the RouteResult back. Every route acts for
 * the signed-in account only: a payment or subscription of another account is "not found". Each
 * route lives in its own module (`checkout-route.ts`, `return-page-route.ts`…) over the context
 * made here once from the options.
 *
 * @example
 * const routes = createPartnerRoutes({ client, store, offers, grantSucceededPayment: kit.grantFromPayment, returnUrl });
 * const result = await routes.checkout({ accountKey: user.id, fields: { offerUid, nonce } });
 */
export function createPartnerRoutes(options: PartnerRoutesOptions): PartnerRoutes {
  const context = routeContextOf(options);
  const { formKeys, store, now } = context;
  return {
    checkout: (input) => checkout(context, input),
    returnPage: (input) => returnPage(context, input),
    cancelPayment: (input) => cancelPayment(context, input),
    spendUnit: (input) => spendUnit(context, input),
    cancelSubscription: (input) => changeSubscription(context, input, 'cancel'),
    resumeSubscription: (input) => changeSubscription(context, input, 'resume'),
    formToken: (accountKey, session) =>
      createFormToken(formKeys, { accountKey: signedIn(accountKey), session }, Date.now()),
    verifyFormToken: (accountKey, token, session) =>
      typeof accountKey === 'string' &&
      accountKey !== '' &&
      verifyFormToken(formKeys, { accountKey, session }, token, Date.now()) !== undefined,
    checkoutHealth: () => context.checkoutRefusals.snapshot(),
    async checkAccess(accountKey, productUid) {
      if (accountKey === undefined || accountKey === '') return { allowed: false, entitlement: undefined };
      const entitlement = await store.get(accountKey, productUid);
      return { allowed: hasAccess(entitlement, now()), entitlement };
    },
  };
}
