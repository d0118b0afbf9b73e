import type { Sandbox } from '../start/start-sandbox.js';
import { PartnerCheckError } from './partner-check-error.js';
import {
  type AccountRole,
  type CheckedProduct,
  DEFAULT_ACCOUNTS,
  DEFAULT_PATHS,
  DEFAULT_PRODUCTS,
  type PartnerCheckAccounts,
  type PartnerCheckOptions,
  type PartnerCheckProduct,
  type ResolvedPartnerCheck,
} from './partner-check-options.js';

// runPartnerCheck's options checked and given their defaults, before anything runs: every mistake
// is a PartnerCheckError `invalid_partner_check_options` naming the option.

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
