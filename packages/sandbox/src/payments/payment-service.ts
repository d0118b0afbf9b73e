import type { WebhookEvent } from '@dcbkit/core';
import type { SandboxClock } from '../clock/clock.js';
import type { Catalog } from '../config/catalog.js';
import type { SandboxOffer } from '../config/config-schema.js';
import type { EnvironmentApplication } from '../config/environment-config.js';
import {
  type AcceptedLine,
  type ChargeBehaviour,
  lookUpNumber,
  type NumberRefusalCode,
} from '../operator/number-lookup.js';
import { paymentEventPayload } from '../records/event-payloads.js';
import type { PaymentFailure, PaymentRecord } from '../records/payment-record.js';
import { PaymentRefusal } from '../refusals/refusals.js';
import { RetentionQueue } from '../retention/retention-queue.js';
import { newId, subscriberUidFor } from '../shared/ids.js';
import type { CreatePaymentRequest } from '../shared/service-types.js';
import type { SubscriptionEngine } from '../subscriptions/subscription-engine.js';
import type { WebhookOutbox } from '../webhooks/webhook-outbox.js';

export interface PaymentServiceOptions {
  catalog: Catalog;
  clock: SandboxClock;
  outbox: WebhookOutbox;
  subscriptions: SubscriptionEngine;
  checkoutBaseUrl: string;
  log: (line: string) => void;
}

/** Refusals because of what the subscriber already has: a trial used, a one-time item owned. */
export type HistoryRefusalCode = 'SUB-108' | 'CAT-109';
export type PurchaseRefusalCode = NumberRefusalCode | HistoryRefusalCode;

interface Refusal<Code extends PurchaseRefusalCode> {
  ok: false;
  code: Code;
  message: string;
}

/** Whether a number may pay for an offer, and if not, why. */
export type LineCheck = AcceptedLine | Refusal<PurchaseRefusalCode>;

/** Payments and their transitions: created, consented, charged, expired, cancelled. */
export class PaymentService {
  private readonly payments = new Map<string, PaymentRecord>();
  /** One-time items owned, `clientId\nsubscriberUid\nproductUid`: CAT-109 without a scan, and after the payment is freed. */
  private readonly owned = new Set<string>();
  /** Ended payments, freed after the config's retention. */
  private readonly ended: RetentionQueue<string>;

  constructor(private readonly options: PaymentServiceOptions) {
    const seconds = options.catalog.config.retention.endedPaymentsSeconds;
    this.ended = new RetentionQueue(seconds === null ? null : seconds * 1000);
  }

  /**
   * Creates a REQUIRES_ACTION payment for a request already checked with checkCreatePaymentRequest.
   * Throws PaymentRefusal CAT-102/104/103, SBR-104 (operator hint), SBR-102/104, RSK-101, SUB-108, CAT-109
   * (prefilled number).
   */
  create(application: EnvironmentApplication, request: CreatePaymentRequest): PaymentRecord {
    const { catalog, clock } = this.options;
    const offer = catalog.offer(request.offerUid);
    if (!offer) throw new PaymentRefusal('CAT-102', `Offer ${request.offerUid} not found.`);
    if (!offer.applications.includes(application.clientId)) {
      throw new PaymentRefusal('CAT-104', `The application is not authorised for offer ${offer.offerUid}.`);
    }
    if (!offer.active) throw new PaymentRefusal('CAT-103', `Offer ${offer.offerUid} is not active.`);
    if (request.operator !== undefined && !offer.operators.includes(request.operator)) {
      throw new PaymentRefusal(
        'SBR-104',
        `Offer ${offer.offerUid} is not sold on operator ${request.operator}.`,
      );
    }
    if (request.prefill?.msisdn !== undefined) {
      const line = this.checkLine(application.clientId, offer, request.operator, request.prefill.msisdn);
      if (!line.ok) throw new PaymentRefusal(line.code, line.message);
    }
    const now = clock.now();
    this.freeEnded(now);
    const paymentUid = newId('pay');
    const record: PaymentRecord = {
      paymentUid,
      clientId: application.clientId,
      offer,
      request,
      status: 'REQUIRES_ACTION',
      createdAt: now,
      expiresAt: new Date(now.getTime() + catalog.config.payments.expirySeconds * 1000),
      checkoutUrl: `${this.options.checkoutBaseUrl}/c/${paymentUid}`,
      metadata: structuredClone(request.metadata ?? {}),
    };
    this.payments.set(paymentUid, record);
    // Expiry is also applied on every read; the task makes it happen in time order when the clock moves.
    clock.schedule(new Date(record.expiresAt.getTime() + 1), `expire ${paymentUid}`, () =>
      this.refresh(record),
    );
    this.options.log(`payment ${paymentUid} created for ${offer.offerUid}`);
    return record;
  }

  /**
   * Takes back payments from a state file: each is stored again, an open one expires on the clock
   * as before, and a slow line's charge still PROCESSING is answered at once (the operator answered
   * while the sandbox was stopped).
   */
  restore(records: PaymentRecord[], owned: readonly string[] = []): void {
    const { clock } = this.options;
    for (const key of owned) this.owned.add(key);
    for (const record of records) {
      this.payments.set(record.paymentUid, record);
      if (this.hasEnded(record)) this.ended.add(record.paymentUid, clock.now().getTime());
      if (record.status === 'REQUIRES_ACTION') {
        clock.schedule(new Date(record.expiresAt.getTime() + 1), `expire ${record.paymentUid}`, () =>
          this.refresh(record),
        );
      } else if (record.status === 'PROCESSING') {
        clock.schedule(clock.now(), `operator answer ${record.paymentUid}`, () =>
          this.settle(record, 'SUCCESS'),
        );
      }
    }
  }

  /** Owned one-time items, for the state file. */
  ownedKeys(): string[] {
    return [...this.owned];
  }

  /** A payment by id, with expiry applied. */
  find(paymentUid: string): PaymentRecord | undefined {
    const record = this.payments.get(paymentUid);
    return record ? this.refresh(record) : undefined;
  }

  /** Every payment, oldest first, expiry applied. */
  list(): PaymentRecord[] {
    return [...this.payments.values()].map((record) => this.refresh(record));
  }

  /** The application's payment; another application's is not found. Throws PAY-107. */
  findForClient(clientId: string, paymentUid: string): PaymentRecord {
    const record = this.find(paymentUid);
    if (!record || record.clientId !== clientId)
      throw new PaymentRefusal('PAY-107', `Payment ${paymentUid} not found.`);
    return record;
  }

  /** Cancels a payment still waiting on the customer. Throws PAY-107, PAY-106. */
  cancel(clientId: string, paymentUid: string): PaymentRecord {
    const record = this.findForClient(clientId, paymentUid);
    if (record.status !== 'REQUIRES_ACTION') {
      throw new PaymentRefusal(
        'PAY-106',
        `Payment ${paymentUid} is ${record.status}; only REQUIRES_ACTION can be cancelled.`,
      );
    }
    record.status = 'CANCELED';
    this.ended.add(record.paymentUid, this.options.clock.now().getTime());
    this.options.log(`payment ${paymentUid} CANCELED`);
    return record;
  }

  /**
   * Whether this number may pay for the offer: operator sold on, hint respected, test number
   * outcome, then the subscriber's history (a second trial of the product is SUB-108, a one-time
   * item already owned is CAT-109).
   */
  checkLine(
    clientId: string,
    offer: SandboxOffer,
    operatorHint: string | undefined,
    msisdn: string,
  ): LineCheck {
    const { config } = this.options.catalog;
    const line = lookUpNumber(config, msisdn);
    if (!line.ok) return line;
    if (
      !offer.operators.includes(line.operator.code) ||
      (operatorHint !== undefined && operatorHint !== line.operator.code)
    ) {
      return { ok: false, code: 'SBR-104', message: `${line.operator.name} does not sell this offer.` };
    }
    const subscriberUid = subscriberUidFor(config.subscriberUidKey, clientId, line.msisdn);
    return this.historyRefusal(clientId, offer, subscriberUid) ?? line;
  }

  /**
   * The subscriber consented on checkout: the payment is PROCESSING and the mock operator charges
   * the line, at once or, for a slow line, later on the clock.
   */
  consent(record: PaymentRecord, line: AcceptedLine): void {
    if (record.status !== 'REQUIRES_ACTION') return;
    const { catalog, clock } = this.options;
    record.status = 'PROCESSING';
    record.msisdn = line.msisdn;
    record.operatorCode = line.operator.code;
    record.subscriberUid = subscriberUidFor(catalog.config.subscriberUidKey, record.clientId, line.msisdn);
    this.options.log(`payment ${record.paymentUid} PROCESSING on ${line.operator.code}`);
    if (line.behaviour === 'SLOW') {
      const answerAt = new Date(clock.now().getTime() + catalog.config.payments.slowOperatorSeconds * 1000);
      clock.schedule(answerAt, `operator answer ${record.paymentUid}`, () => this.settle(record, 'SUCCESS'));
      return;
    }
    this.settle(record, line.behaviour);
  }

  /** The subscriber gave up, or failed consent too often: FAILED with payment.failed. */
  abandon(record: PaymentRecord, reason: 'ABANDONED' | 'CONSENT_FAILED'): void {
    if (record.status !== 'REQUIRES_ACTION') return;
    // A subscriber who gives up after a refused number failed for that reason.
    this.fail(record, { reason, ...(record.lastRefusal ? { code: record.lastRefusal } : {}) });
  }

  private refresh(record: PaymentRecord): PaymentRecord {
    if (
      record.status === 'REQUIRES_ACTION' &&
      this.options.clock.now().getTime() > record.expiresAt.getTime()
    ) {
      record.status = 'EXPIRED';
      this.ended.add(record.paymentUid, this.options.clock.now().getTime());
      this.options.log(`payment ${record.paymentUid} EXPIRED`);
    }
    return record;
  }

  private historyRefusal(
    clientId: string,
    offer: SandboxOffer,
    subscriberUid: string,
  ): Refusal<HistoryRefusalCode> | undefined {
    const { productUid } = offer;
    if (
      offer.type === 'SUBSCRIPTION' &&
      offer.trialDays > 0 &&
      this.options.subscriptions.hasHadTrial(clientId, subscriberUid, productUid)
    ) {
      return {
        ok: false,
        code: 'SUB-108',
        message: `This subscriber has already had a trial of ${productUid}.`,
      };
    }
    if (offer.type === 'NON_CONSUMABLE' && this.owns(clientId, subscriberUid, productUid)) {
      return { ok: false, code: 'CAT-109', message: `This subscriber already owns ${productUid}.` };
    }
    return undefined;
  }

  private owns(clientId: string, subscriberUid: string, productUid: string): boolean {
    return this.owned.has(ownedKey(clientId, subscriberUid, productUid));
  }

  /** Ended for good: nothing more can happen to it (a subscription's payment lives on with it). */
  private hasEnded(record: PaymentRecord): boolean {
    if (record.status === 'SUCCEEDED') return record.offer.type !== 'SUBSCRIPTION';
    return record.status === 'FAILED' || record.status === 'EXPIRED' || record.status === 'CANCELED';
  }

  /** Frees the payments whose retention has passed. */
  private freeEnded(now: Date): void {
    this.ended.sweep(now.getTime(), (paymentUid) => this.payments.delete(paymentUid));
  }

  private settle(record: PaymentRecord, behaviour: ChargeBehaviour): void {
    if (record.status !== 'PROCESSING') return;
    // Checked again at the charge: another payment of the same subscriber may have completed since
    // this one passed the number step.
    const refusal =
      record.subscriberUid === undefined
        ? undefined
        : this.historyRefusal(record.clientId, record.offer, record.subscriberUid);
    if (refusal) {
      const reason = refusal.code === 'SUB-108' ? 'TRIAL_ALREADY_USED' : 'ALREADY_OWNED';
      this.fail(record, { reason, code: refusal.code });
      return;
    }
    // A trial start charges nothing, so the line's balance cannot refuse it.
    const charged = !this.options.subscriptions.startsWithTrial(record);
    if (charged && behaviour === 'INSUFFICIENT_BALANCE') {
      this.fail(record, { reason: 'INSUFFICIENT_BALANCE', code: 'PAY-101' });
    } else if (charged && behaviour === 'DECLINED') {
      this.fail(record, { reason: 'DECLINED', code: 'PAY-103' });
    } else {
      this.succeed(record, charged);
    }
  }

  private succeed(record: PaymentRecord, charged: boolean): void {
    const now = this.options.clock.now();
    record.status = 'SUCCEEDED';
    if (charged) record.orderId = newId('ord');
    if (record.offer.type === 'NON_CONSUMABLE' && record.subscriberUid !== undefined) {
      this.owned.add(ownedKey(record.clientId, record.subscriberUid, record.offer.productUid));
    }
    if (this.hasEnded(record)) this.ended.add(record.paymentUid, now.getTime());
    const events: WebhookEvent[] = [];
    if (record.offer.type === 'SUBSCRIPTION') {
      const { subscription, followUpEvents } = this.options.subscriptions.start(record);
      events.push(paymentEventPayload('payment.succeeded', record, now, subscription), ...followUpEvents);
    } else {
      events.push(paymentEventPayload('payment.succeeded', record, now));
      if (record.offer.type === 'NON_CONSUMABLE')
        events.push(paymentEventPayload('entitlement.granted', record, now));
    }
    this.options.log(
      `payment ${record.paymentUid} SUCCEEDED${record.orderId ? ` (order ${record.orderId})` : ' (nothing charged)'}`,
    );
    for (const event of events) this.options.outbox.emit(record.clientId, event);
  }

  private fail(record: PaymentRecord, failure: PaymentFailure): void {
    record.status = 'FAILED';
    this.ended.add(record.paymentUid, this.options.clock.now().getTime());
    record.failure = failure;
    this.options.log(`payment ${record.paymentUid} FAILED ${failure.code ?? failure.reason}`);
    this.options.outbox.emit(
      record.clientId,
      paymentEventPayload('payment.failed', record, this.options.clock.now()),
    );
  }
}

function ownedKey(clientId: string, subscriberUid: string, productUid: string): string {
  return `${clientId}\n${subscriberUid}\n${productUid}`;
}
