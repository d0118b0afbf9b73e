import { randomBytes } from 'node:crypto';
import { optionError } from '../errors/option-error.js';
import { type OptionNames, refuseUnknownOptions } from '../errors/unknown-options.js';
import { isAcceptedReturnUrl, webOriginOf } from '../schemas/return-url.js';
import { DEFAULT_FORM_TOKEN_MAX_AGE_MS, type FormTokenKeys } from './form-token.js';
import type { PartnerRoutesOptions } from './partner-route-types.js';

// The partner routes' options checked once, when the routes are made: a mistake is refused at
// startup with its fix rather than at the first subscriber's checkout.

const WHERE = 'createPartnerRoutes';

const PARTNER_ROUTES_OPTIONS: OptionNames<PartnerRoutesOptions> = {
  client: true,
  store: true,
  offers: true,
  grantSucceededPayment: true,
  returnUrl: true,
  accountKeyField: true,
  prefill: true,
  logger: true,
  onError: true,
  allowedOrigins: true,
  formSecret: true,
  formTokenMaxAgeMs: true,
  checkoutBaseUrl: true,
  now: true,
  history: true,
  metrics: true,
};

/**
 * Refuses an option createPartnerRoutes does not know. The old `grantFromPayment` above all: passed
 * as it was, the routes started and the first return page of a succeeded payment threw
 * "context.grantSucceededPayment is not a function".
 */
export function refuseUnknownRouteOptions(options: object): void {
  if (typeof options !== 'object' || options === null) {
    throw optionError(
      WHERE,
      'options',
      'are required: { client, store, offers, grantSucceededPayment, returnUrl }.',
    );
  }
  refuseUnknownOptions(WHERE, options, PARTNER_ROUTES_OPTIONS, {
    grantFromPayment: {
      to: 'grantSucceededPayment',
      hint: 'Pass grantSucceededPayment: (payment) => kit.grantFromPayment(payment), or grantFromPayment bound to your store and offers.',
    },
  });
}

/** The form token keys the options describe: a random one per process when none is given. */
export function formKeysOf(
  formSecret: string | readonly string[] | undefined,
  maxAgeMs = DEFAULT_FORM_TOKEN_MAX_AGE_MS,
): FormTokenKeys {
  const secrets = formSecret === undefined ? [randomBytes(32).toString('base64url')] : [formSecret].flat();
  if (secrets.length === 0 || !secrets.every((secret) => typeof secret === 'string' && secret !== '')) {
    throw optionError(WHERE, 'formSecret', 'must be a non-empty string or a non-empty list of them.');
  }
  if (!(Number.isSafeInteger(maxAgeMs) && maxAgeMs > 0)) {
    throw optionError(WHERE, 'formTokenMaxAgeMs', 'must be a whole number of milliseconds > 0.');
  }
  return { secrets, maxAgeMs };
}

/**
 * The checkout host, checked. In production it is required: the spec sends the subscriber to that
 * environment's checkout host only, and "any https host" would leave a wrong host to be found by
 * a buyer.
 */
export function checkoutBaseUrlOf(value: string | URL | undefined, environment?: string): URL | undefined {
  if (value === undefined) {
    if (environment !== 'production') return undefined;
    throw optionError(
      WHERE,
      'checkoutBaseUrl',
      "is needed in production (DCB_CHECKOUT_BASE_URL): the production environment's checkout host, the only one the routes send a buyer to.",
    );
  }
  const text = String(value);
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) {
    throw optionError(WHERE, 'checkoutBaseUrl', 'must be the absolute http(s) URL of the checkout host.');
  }
  return new URL(text);
}

/**
 * Checks `returnUrl` as the spec types it (`uri`: any absolute URI, except the schemes that carry
 * script) and gives the origins whose pages may post to the routes: `allowedOrigins` when given,
 * else the return page's own. A deep link (`myapp://done`) has no web origin to derive them from,
 * so it needs `allowedOrigins`: an empty default would refuse the app's own form posts wherever a
 * browser sends `Origin` without `Sec-Fetch-Site`.
 */
export function allowedOriginsOf(
  returnUrl: unknown,
  allowedOrigins: readonly string[] | undefined,
): readonly string[] {
  if (!isAcceptedReturnUrl(returnUrl)) {
    throw optionError(
      WHERE,
      'returnUrl',
      "must be an absolute URL (your return page, or your app's deep link), never javascript:, data: or vbscript:.",
    );
  }
  if (allowedOrigins !== undefined) return allowedOrigins;
  const origin = webOriginOf(returnUrl);
  if (origin === null) {
    throw optionError(
      WHERE,
      'allowedOrigins',
      `is needed with a ${new URL(returnUrl).protocol} returnUrl, which has no web origin: name the origins of the pages that post to checkout, cancel and resume.`,
    );
  }
  return [origin];
}
