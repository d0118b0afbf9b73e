import type { DcbKit } from '@dcbkit/core';
import type { CheckoutHealth } from '@dcbkit/core/web';
import type { ShopReconciler } from '../reconciler.js';
import { type AccountView, accountView } from './account-view.js';
import type { HistoryRow, Words } from './history-rows.js';
import { OPERATOR_FORM_ACCOUNT } from './operator-session.js';
import { type RunView, runView } from './run-view.js';
import { type HealthView, healthView, recentDeliveries } from './webhook-view.js';

// The data of each operations page, the same for every framework: a route reads the request,
// calls one of these and renders views/ops-*.eta with the result.

/** What every page of a signed-in operator gets: the layout's operator parts, the signature and checkout host notices. */
export function opsFrame(kit: DcbKit, operatorId: string) {
  return {
    operator: {
      /** The hidden `token` of an operator's form: bound to this operator sign-in. */
      token: () => kit.routes.formToken(OPERATOR_FORM_ACCOUNT, operatorId),
    },
    accountHref: (accountKey: string) => `/ops/account?${new URLSearchParams({ key: accountKey })}`,
    lineHref: (subscriberUid: string) => `/ops/line?${new URLSearchParams({ line: subscriberUid })}`,
    // Shown on every page while it is above zero: webhooks are being lost now.
    signatureMismatches: kit.webhookHealth().refused.signature_mismatch ?? 0,
    // Shown on every page once a checkout was refused: buyers cannot pay now.
    checkoutRefused: checkoutNotice(kit.routes.checkoutHealth()),
  };
}

/** The checkout host notice: undefined until the checkout route refused a checkout URL. */
export function checkoutNotice(health: CheckoutHealth) {
  const last = health.lastRefused;
  if (health.refusedUrls === 0 || last === null) return undefined;
  return {
    count: health.refusedUrls,
    receivedUrl: last.receivedUrl,
    /** The host to set when the URL has the spec's shape: the configured one is then the mistake. */
    receivedHost: last.receivedCheckoutHost,
    configuredHost: last.configuredCheckoutHost,
    canceled: last.canceled,
  };
}

/** The account key typed in the search form or carried by a link; undefined when there is none. */
export function accountKeyFrom(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const key = value.trim();
  return key === '' || key.length > 200 ? undefined : key;
}

/** GET /ops: the search form and the webhook counts. */
export function homePage(kit: DcbKit): { health: HealthView } {
  return { health: healthView(kit.webhookHealth()) };
}

/** GET /ops/webhooks: the counts, and the latest deliveries the kit recorded. */
export async function webhooksPage(
  kit: DcbKit,
  words: Words,
): Promise<{ health: HealthView; deliveries: HistoryRow[] | undefined }> {
  return {
    health: healthView(kit.webhookHealth()),
    deliveries: await recentDeliveries(kit.store, words, kit.offers),
  };
}

/** GET /ops/reconcile: how often the reconciler runs, and its last runs on this instance. */
export function reconcilePage(
  reconciler: ShopReconciler,
  kit: DcbKit,
  words: Words,
): { everyMinutes: number; runs: RunView[] } {
  return {
    everyMinutes: reconciler.everyMinutes,
    runs: reconciler.runs.list().map((run) => runView(run, words, kit.offers)),
  };
}

/**
 * GET /ops/account?key=…: `kit.explain`; with `read` (the "read from the service" button) it also
 * reads each subscription from the service, so an ordinary page view costs the service nothing.
 */
export async function accountPage(
  kit: DcbKit,
  accountKey: string,
  { read, words }: { read: boolean; words: Words },
): Promise<{ account: AccountView }> {
  const explanation = await kit.explain(accountKey, { read });
  return { account: accountView(explanation, words, kit.offers) };
}

/** POST /ops/account/reconcile: this account's reads now (`kit.reconcile({ accountKey })`), kept with the runs. */
export async function reconcileAccountNow(
  kit: DcbKit,
  reconciler: ShopReconciler,
  accountKey: string,
  words: Words,
): Promise<{ result: RunView }> {
  const report = await kit.reconcile({ accountKey });
  return { result: runView(reconciler.runs.add(report, accountKey), words, kit.offers) };
}
