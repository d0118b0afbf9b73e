import { type Entitlement, memoryLedger, memoryStore, type WebhookEvent } from '@dcbkit/core';
import type { EntitlementStore } from '@dcbkit/core/store';
import { createWebhookHandler } from '@dcbkit/core/web';
import { offers, SECRET, signed } from './event-stream.js';

/** What one instance fed every event once, in the order the service emitted them, ends with. */
export async function referenceStore(events: readonly WebhookEvent[]): Promise<EntitlementStore> {
  const store = memoryStore();
  const quiet = { error() {}, warn() {}, info() {}, debug() {} };
  const handler = createWebhookHandler({
    secrets: SECRET,
    store,
    ledger: memoryLedger(),
    offers,
    logger: quiet,
  });
  for (const event of events) {
    const { body, headers } = signed(event);
    const { status, body: answer } = await handler({ rawBody: Buffer.from(body), headers });
    if (status !== 200 || !answer?.includes('"applied"'))
      throw new Error(`reference answered ${status} ${answer}`);
  }
  return store;
}

/** Every entitlement of these accounts, account by account: the state to compare. */
export async function stateOf(
  store: EntitlementStore,
  accounts: readonly string[],
): Promise<Entitlement[][]> {
  return Promise.all(accounts.map((account) => store.listByAccount(account)));
}

/**
 * For every payment uid of the events, in uid order, the entitlement the store finds by it
 * ('accountKey/productUid', or null): the other half of the state, kept beside the records.
 */
export async function paymentOwners(
  store: EntitlementStore,
  events: readonly WebhookEvent[],
): Promise<Array<[paymentUid: string, owner: string | null]>> {
  const uids = [...new Set(events.flatMap((event) => (event.paymentUid ? [event.paymentUid] : [])))].sort();
  return Promise.all(
    uids.map(async (uid): Promise<[string, string | null]> => {
      const found = await store.findByPaymentUid(uid);
      return [uid, found ? `${found.accountKey}/${found.productUid}` : null];
    }),
  );
}

export function accountsOf(events: readonly WebhookEvent[]): string[] {
  const accounts = new Set<string>();
  for (const event of events) if (event.metadata?.accountKey) accounts.add(String(event.metadata.accountKey));
  return [...accounts].sort();
}
