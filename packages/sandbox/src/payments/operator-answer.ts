import type { WebhookEvent } from '@dcbkit/core';
import type { SandboxClock } from '../clock/clock.js';
import type { ChargeBehaviour } from '../operator/number-lookup.js';
import { paymentEventPayload } from '../records/event-payloads.js';
import type { PaymentFailure, PaymentRecord } from '../records/payment-record.js';
import { newId } from '../shared/ids.js';
import type { SubscriptionEngine } from '../subscriptions/subscription-engine.js';
import type { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import type { PurchaseHistory } from './purchase-history.js';

/** What settling a payment works with; `ended` queues a payment that nothing more can happen to. */
export interface SettleContext {
  clock: SandboxClock;
  outbox: WebhookOutbox;
  subscriptions: SubscriptionEngine;
  history: PurchaseHistory;
  log: (line: string) => void;
  ended(record: PaymentRecord): void;
}

/** Ended for good: nothing more can happen to it (a subscription's payment lives on with it). */
export function hasPaymentEnded(record: PaymentRecord): boolean {
  if (record.status === 'SUCCEEDED') return record.offer.type !== 'SUBSCRIPTION';
  return record.status === 'FAILED' || record.status === 'EXPIRED' || record.status === 'CANCELED';
}

/** The mock operator's answer to a PROCESSING payment's charge, as the line's test number behaves. */
export function settlePayment(
  context: SettleContext,
  record: PaymentRecord,
  behaviour: ChargeBehaviour,
): void {
  if (record.status !== 'PROCESSING') return;
  // Checked again at the charge: another payment of the same subscriber may have completed since
  // this one passed the number step.
  const refusal =
    record.subscriberUid === undefined
      ? undefined
      : context.history.refusalFor(record.clientId, record.offer, record.subscriberUid);
  if (refusal) {
    const reason = refusal.code === 'SUB-108' ? 'TRIAL_ALREADY_USED' : 'ALREADY_OWNED';
    failPayment(context, record, { reason, code: refusal.code });
    return;
  }
  // A trial start charges nothing, so the line's balance cannot refuse it.
  const charged = !context.subscriptions.startsWithTrial(record);
  if (charged && behaviour === 'INSUFFICIENT_BALANCE') {
    failPayment(context, record, { reason: 'INSUFFICIENT_BALANCE', code: 'PAY-101' });
  } else if (charged && behaviour === 'DECLINED') {
    failPayment(context, record, { reason: 'DECLINED', code: 'PAY-103' });
  } else {
    succeed(context, record, charged);
  }
}

/** SUCCEEDED: payment.succeeded, then what a purchase of its offer type says (a subscription's start). */
function succeed(context: SettleContext, record: PaymentRecord, charged: boolean): void {
  const now = context.clock.now();
  record.status = 'SUCCEEDED';
  if (charged) record.orderId = newId('ord');
  context.history.recordPurchase(record);
  if (hasPaymentEnded(record)) context.ended(record);
  const events: WebhookEvent[] = [];
  if (record.offer.type === 'SUBSCRIPTION') {
    const { subscription, followUpEvents } = context.subscriptions.start(record);
    events.push(paymentEventPayload('payment.succeeded', record, now, subscription), ...followUpEvents);
  } else {
    events.push(paymentEventPayload('payment.succeeded', record, now));
    if (record.offer.type === 'NON_CONSUMABLE')
      events.push(paymentEventPayload('entitlement.granted', record, now));
  }
  context.log(
    `payment ${record.paymentUid} SUCCEEDED${record.orderId ? ` (order ${record.orderId})` : ' (nothing charged)'}`,
  );
  for (const event of events) context.outbox.emit(record.clientId, event);
}

/** FAILED with payment.failed. */
export function failPayment(context: SettleContext, record: PaymentRecord, failure: PaymentFailure): void {
  record.status = 'FAILED';
  context.ended(record);
  record.failure = failure;
  context.log(`payment ${record.paymentUid} FAILED ${failure.code ?? failure.reason}`);
  context.outbox.emit(record.clientId, paymentEventPayload('payment.failed', record, context.clock.now()));
}
