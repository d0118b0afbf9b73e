import type { GracePolicy, OfferType } from '../shared/service-types.js';
import type { Sandbox } from '../start/start-sandbox.js';
import { PartnerCheckError } from './partner-check-error.js';

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

const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
const MAX_REQUEST_TIMEOUT_MS = 120_000;
const LOOPBACK = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/;

function invalid(message: string): PartnerCheckError {
  return new PartnerCheckError('invalid_partner_check_options', `runPartnerCheck: ${message}`);
}

function isSandbox(value: unknown): value is Sandbox {
  const candidate = value as Partial<Sandbox> | undefined;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.apiBaseUrl === 'string' &&
    typeof candidate.webhooks === 'function' &&
    typeof candidate.replayWebhook === 'function' &&
    typeof candidate.advanceClock === 'function' &&
    typeof candidate.config === 'object'
  );
}

function appUrlOf(value: unknown): URL {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw invalid(`appUrl must be your app's base URL, like 'http://127.0.0.1:3000' (got ${String(value)}).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid(`appUrl must be an http(s) URL (got ${url.href}).`);
  }
  // The check posts purchases and spends units as real accounts: never at an app beyond this machine.
  if (!LOOPBACK.test(url.hostname)) {
    throw invalid(`appUrl must be on this machine (127.0.0.1, localhost or [::1]); got ${url.hostname}.`);
  }
  url.pathname = url.pathname.replace(/\/+$/, '');
  url.search = '';
  url.hash = '';
  return url;
}

function pathOf(name: string, value: unknown, fallback: string): string;
function pathOf(name: string, value: unknown, fallback?: undefined): string | undefined;
function pathOf(name: string, value: unknown, fallback?: string): string | undefined {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) {
    throw invalid(`${name} must be a path on your app starting with one '/' (got ${JSON.stringify(value)}).`);
  }
  return value;
}

function productsOf(sandbox: Sandbox, given: unknown): CheckedProduct[] {
  const list = given === undefined ? DEFAULT_PRODUCTS : given;
  if (!Array.isArray(list) || list.length === 0) {
    throw invalid('products must list at least one offer to buy ({ offerUid, gatePath?, spendPath? }).');
  }
  const seen = new Map<string, string>();
  return list.map((entry: unknown, index) => {
    const product = entry as Partial<PartnerCheckProduct> | undefined;
    const offer = sandbox.config.offers.find((candidate) => candidate.offerUid === product?.offerUid);
    if (!offer) {
      const known = sandbox.config.offers.map((candidate) => candidate.offerUid).join(', ');
      throw invalid(
        `products[${index}].offerUid ${JSON.stringify(product?.offerUid)} is not an offer of the sandbox's config (${known}).`,
      );
    }
    const twin = seen.get(offer.productUid);
    if (twin !== undefined) {
      throw invalid(
        `${twin} and ${offer.offerUid} sell the same product ${offer.productUid}: name one offer per product.`,
      );
    }
    seen.set(offer.productUid, offer.offerUid);
    const spendPath = pathOf(`products[${index}].spendPath`, product?.spendPath);
    if (spendPath !== undefined && offer.type !== 'CONSUMABLE') {
      throw invalid(
        `products[${index}].spendPath is for a CONSUMABLE offer; ${offer.offerUid} is ${offer.type}.`,
      );
    }
    return {
      offerUid: offer.offerUid,
      productUid: offer.productUid,
      type: offer.type,
      gracePolicy: offer.gracePolicy,
      unitAccessSeconds: offer.unitAccessSeconds,
      gatePath: pathOf(`products[${index}].gatePath`, product?.gatePath),
      spendPath,
    };
  });
}

function accountsOf(given: unknown): Record<AccountRole, string> {
  if (given !== undefined && (typeof given !== 'object' || given === null)) {
    throw invalid('accounts must be an object: { renewing?, lapsing?, expiring? }.');
  }
  const accounts = { ...DEFAULT_ACCOUNTS, ...(given as PartnerCheckAccounts | undefined) };
  for (const [role, key] of Object.entries(accounts)) {
    if (typeof key !== 'string' || key === '') {
      throw invalid(`accounts.${role} must be a non-empty account key.`);
    }
  }
  if (new Set(Object.values(accounts)).size !== 3) {
    throw invalid(
      'accounts.renewing, accounts.lapsing and accounts.expiring must be three different accounts.',
    );
  }
  return accounts;
}

/** Checks the options and fills in the defaults. Throws PartnerCheckError `invalid_partner_check_options`. */
export function resolvePartnerCheckOptions(options: PartnerCheckOptions): ResolvedPartnerCheck {
  if (typeof options !== 'object' || options === null) {
    throw invalid('options are required: { sandbox, appUrl, signIn }.');
  }
  if (!isSandbox(options.sandbox)) {
    throw invalid('sandbox must be the running sandbox startSandbox() resolved with.');
  }
  const purchaseThrough = options.purchaseThrough ?? 'app';
  if (purchaseThrough !== 'app' && purchaseThrough !== 'service') {
    throw invalid(`purchaseThrough must be 'app' or 'service' (got ${JSON.stringify(purchaseThrough)}).`);
  }
  const appClock = options.appClock ?? 'sandbox';
  if (appClock !== 'sandbox' && appClock !== 'own') {
    throw invalid(`appClock must be 'sandbox' or 'own' (got ${JSON.stringify(appClock)}).`);
  }
  const signInNeeded = purchaseThrough === 'app' || options.signIn !== undefined;
  if (signInNeeded && typeof options.signIn !== 'function') {
    throw invalid(
      "signIn(accountKey) must return the headers that make a request the account’s (or pass purchaseThrough: 'service' for a webhook receiver without pages).",
    );
  }
  if (options.formFields !== undefined && typeof options.formFields !== 'function') {
    throw invalid('formFields, when given, must be a function of the account key.');
  }
  const seed = options.seed ?? 1;
  if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 32 - 1) {
    throw invalid(`seed must be a whole number from 0 to 2^32 - 1 (got ${String(seed)}).`);
  }
  const timeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  if (!Number.isInteger(timeout) || timeout < 1 || timeout > MAX_REQUEST_TIMEOUT_MS) {
    throw invalid(`requestTimeoutMs must be a whole number of ms from 1 to ${MAX_REQUEST_TIMEOUT_MS}.`);
  }
  const paths = options.paths ?? {};
  return {
    sandbox: options.sandbox,
    appUrl: appUrlOf(options.appUrl),
    signIn: options.signIn,
    purchaseThrough,
    appClock,
    formFields: options.formFields,
    products: productsOf(options.sandbox, options.products),
    paths: {
      webhook: pathOf('paths.webhook', paths.webhook, DEFAULT_PATHS.webhook),
      checkout: pathOf('paths.checkout', paths.checkout, DEFAULT_PATHS.checkout),
      offersPage: pathOf('paths.offersPage', paths.offersPage, DEFAULT_PATHS.offersPage),
      accountPage: pathOf('paths.accountPage', paths.accountPage, DEFAULT_PATHS.accountPage),
    },
    accounts: accountsOf(options.accounts),
    seed,
    requestTimeoutMs: timeout,
  };
}
