import type { GracePolicy, OfferType } from '../shared/service-types.js';
import type { Sandbox } from '../start/start-sandbox.js';

/** Headers that make a request the account's: a session cookie from your sign-in, or your test header. */
export type PartnerCheckHeaders = Readonly<Record<string, string>>;

/** A form's fields besides the ones the check fills (offerUid): your form token, typically. */
export type PartnerCheckFormFields = Readonly<Record<string, string>>;

/**
 * The three accounts the check plays. Each must be able to sign in and must have bought nothing yet
 * (the check fails the gate before any purchase otherwise).
 */
export interface PartnerCheckAccounts {
  /**
   * Subscribes and renews: access all along. Also buys the consumable twice (once while your
   * webhook is unreachable) and the one-time item. Default 'partner-check-renewing'.
   */
  renewing?: string;
  /**
   * Subscribes, then its renewal fails until the grace ends and the subscription is suspended.
   * Also buys the consumable and the one-time item once. Default 'partner-check-lapsing'.
   */
  lapsing?: string;
  /**
   * Subscribes, cancels and resumes at one instant, cancels at period end and expires. Also buys
   * the one-time item while your webhook is unreachable. Default 'partner-check-expiring'.
   */
  expiring?: string;
}

/** One offer the check buys, and where the app shows what it granted. */
export interface PartnerCheckProduct {
  /** An offer of the sandbox's config: SUBSCRIPTION, CONSUMABLE or NON_CONSUMABLE. */
  offerUid: string;
  /**
   * A page behind your access gate for the offer's product, e.g. '/premium': 2xx with access;
   * 401, 403, 404 or a redirect without. `{accountKey}` and `{productUid}` in it are replaced,
   * URL-encoded (`/access?account={accountKey}&product={productUid}`). Without it, the gate is
   * not checked for this product.
   */
  gatePath?: string;
  /**
   * CONSUMABLE: the route that spends one unit (POST), 2xx or a redirect while a unit is left, 4xx
   * once none is. Without it, units are not counted for this product. `{accountKey}` and
   * `{productUid}` are filled in as in `gatePath`; with `purchaseThrough: 'service'` (and no
   * `formFields`) it is posted with no fields.
   */
  spendPath?: string;
}

/** Where the app's pages and routes are. The defaults are the dcbkit starters'. */
export interface PartnerCheckPaths {
  /** Your webhook route, which the check points the sandbox at. Default '/webhooks/dcb'. */
  webhook?: string;
  /** Your checkout route (POST, form fields offerUid and your form token). Default '/checkout'. */
  checkout?: string;
  /** The page whose forms post to the checkout route, read when `formFields` is not given. Default '/'. */
  offersPage?: string;
  /** The page whose forms post to a `spendPath`, read when `formFields` is not given. Default '/account'. */
  accountPage?: string;
}

export interface PartnerCheckOptions {
  /**
   * The sandbox the app is configured against, started by your test (`startSandbox`): its
   * `apiBaseUrl`, its first application's `credentials` and webhook secret. The check points its
   * webhooks at your app and sets delivery chaos, and puts both back when it ends.
   */
  sandbox: Sandbox;
  /** Your running app, on this machine: 'http://127.0.0.1:3000'. */
  appUrl: string;
  /**
   * Signs an account in and returns the headers that make a request its own: a session cookie
   * (`{ cookie }`), or the header your test build reads. Called once per account; cookies the app
   * sets afterwards are kept, as a browser keeps them. Required when purchases go through the app;
   * with `purchaseThrough: 'service'`, optional (without it, the gate is asked with no headers).
   */
  signIn?: (accountKey: string) => PartnerCheckHeaders | Promise<PartnerCheckHeaders>;
  /**
   * Who makes the purchases. 'app' (the default): your app's checkout route, as each signed-in
   * account. 'service': the check creates each HOSTED payment itself through the service's API,
   * with the account in `metadata.accountKey` (as dcbkit's kit writes it), and pays it on the
   * sandbox's checkout: for a webhook receiver without pages, in any language, which grants from
   * the events alone. Name each product's gate with `{accountKey}` and `{productUid}` in it then.
   */
  purchaseThrough?: 'app' | 'service';
  /**
   * Whose clock your app judges time by. 'sandbox' (the default): the sandbox's (`now: () =>
   * sandbox.clock.now()` in `createDcbKit`), so the check can move time past the end of a pass
   * spent and ask your gate again. 'own': your app keeps its own clock (another process, as
   * `dcbkit-sandbox check` runs it); the check then leaves out that last checkpoint, which only a
   * shared clock can judge.
   */
  appClock?: 'sandbox' | 'own';
  /**
   * The fields your forms carry for an account (your form token: `{ token: kit.routes.formToken(accountKey) }`),
   * called before every form post. Without it, the check reads the form from your page
   * (`paths.offersPage`, `paths.accountPage`), as a browser would.
   */
  formFields?: (accountKey: string) => PartnerCheckFormFields | Promise<PartnerCheckFormFields>;
  /**
   * What to buy. Default: the starters' offers of the sandbox's default config:
   * `offer_premium_monthly` behind '/premium', `offer_day_pass` spent at
   * '/account/passes/prod_day_pass/use', and `offer_full_unlock`. One offer per product.
   */
  products?: readonly PartnerCheckProduct[];
  paths?: PartnerCheckPaths;
  accounts?: PartnerCheckAccounts;
  /** Seeds the delivery chaos: the same seed gives the same duplicates, reordering and delays. Default 1. */
  seed?: number;
  /** The longest the check waits for one answer of the app. Default 10 000 ms. */
  requestTimeoutMs?: number;
}

/** A product to buy, with what the sandbox's config says of its offer. */
export interface CheckedProduct {
  offerUid: string;
  productUid: string;
  type: OfferType;
  gracePolicy: GracePolicy;
  /** CONSUMABLE that sells time: how long a spent unit gives access (the offer's `unitAccessSeconds`). */
  unitAccessSeconds: number | undefined;
  gatePath: string | undefined;
  spendPath: string | undefined;
}

export type AccountRole = keyof Required<PartnerCheckAccounts>;

/** The options, checked and with their defaults. */
export interface ResolvedPartnerCheck {
  sandbox: Sandbox;
  appUrl: URL;
  signIn: PartnerCheckOptions['signIn'];
  purchaseThrough: 'app' | 'service';
  appClock: 'sandbox' | 'own';
  formFields: PartnerCheckOptions['formFields'] | undefined;
  products: CheckedProduct[];
  paths: Required<PartnerCheckPaths>;
  accounts: Record<AccountRole, string>;
  seed: number;
  requestTimeoutMs: number;
}

export const DEFAULT_PRODUCTS: readonly PartnerCheckProduct[] = [
  { offerUid: 'offer_premium_monthly', gatePath: '/premium' },
  { offerUid: 'offer_day_pass', spendPath: '/account/passes/prod_day_pass/use' },
  { offerUid: 'offer_full_unlock' },
];

export const DEFAULT_PATHS: Required<PartnerCheckPaths> = {
  webhook: '/webhooks/dcb',
  checkout: '/checkout',
  offersPage: '/',
  accountPage: '/account',
};

export const DEFAULT_ACCOUNTS: Record<AccountRole, string> = {
  renewing: 'partner-check-renewing',
  lapsing: 'partner-check-lapsing',
  expiring: 'partner-check-expiring',
};
