import { describe, expect, it } from 'vitest';
import type { Entitlement } from '../schemas/entitlement.js';
import type { WebhookEvent } from '../schemas/webhook-event.js';
import { webhookHistoryEntry } from './webhook-history.js';

const event = {
  event: 'payment.failed',
  occurredAt: '2026-01-01T00:00:00Z',
  paymentUid: 'pay_1',
  status: 'FAILED',
  productUid: 'prod_1',
  offerUid: 'off_1',
} as WebhookEvent;

const applied = {
  outcome: 'applied' as const,
  accountKey: 'alice',
  previous: undefined,
  entitlement: undefined,
  changesAccess: false,
  tieSettled: false,
};

describe('webhookHistoryEntry', () => {
  it('records an event that changed nothing against the account and product it names', () => {
    const entry = webhookHistoryEntry(event, 'key_1', applied);
    expect(entry).toMatchObject({
      accountKey: 'alice',
      productUid: 'prod_1',
      source: 'webhook',
      decision: 'unchanged',
      eventKey: 'key_1',
    });
  });

  it('gives nothing when the event names no account', () => {
    expect(webhookHistoryEntry(event, 'key_1', { ...applied, accountKey: undefined })).toBeUndefined();
  });

  it('records against the entitlement written, when there is one', () => {
    const entitlement = { accountKey: 'bob', productUid: 'prod_2', status: 'ACTIVE' } as Entitlement;
    const entry = webhookHistoryEntry(event, 'key_1', { ...applied, entitlement, changesAccess: true });
    expect(entry).toMatchObject({ accountKey: 'bob', productUid: 'prod_2' });
    expect(entry?.decision).not.toBe('unchanged');
  });
});
