import type { SandboxClock } from '../clock/clock.js';
import type { Catalog } from '../config/catalog.js';
import type { SandboxOffer } from '../config/config-schema.js';
import type { EnvironmentApplication } from '../config/environment-config.js';
import { type AcceptedLine, lookUpNumber } from '../operator/number-lookup.js';
import type { PaymentRecord } from '../records/payment-record.js';
import { PaymentRefusal } from '../refusals/refusals.js';
import { RetentionQueue } from '../retention/retention-queue.js';
import { subscriberUidFor } from '../shared/ids.js';
import type { CreatePaymentRequest } from '../shared/service-types.js';
import type { SubscriptionEngine } from '../subscriptions/subscription-engine.js';
import type { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import { newPaymentRecord, offerToSell } from './new-payment.js';
import { failPayment, hasPaymentEnded, type SettleContext, settlePayment } from './operator-answer.js';
import { PurchaseHistory, type PurchaseRefusalCode, type Refusal } from './purchase-history.js';

export interface PaymentServiceOptions {
  catalog: Catalog;
  clock: SandboxClock;
  outbox: WebhookOutbox;
  subscriptions: SubscriptionEngine;
  checkoutBaseUrl: string;
  log: (line: string) => void;
}

/** Whether a number may pay for an offer, and if not, why. */
export type LineCheck = AcceptedLine | Refusal<PurchaseRefusalCode>;

/**
 * Payments and their transitions: created (`new-payment.ts`), consented, charged by the mock
 * operator (`operator-answer.ts`), expired, cancelled.
 */
export class PaymentService {
  private readonly payments = new Map<string, PaymentRecord>();
  private readonly history: PurchaseHistory;
  /** Ended payments, freed after the config's retention. */
  private readonly ended: RetentionQueue<string>;
  private readonly settling: SettleContext;

  constructor(private readonly options: PaymentServiceOptions) {
    const seconds = options.catalog.config.retention.endedPaymentsSeconds;
    this.ended = new RetentionQueue(seconds === null ? null : seconds * 1000);
    this.history = new PurchaseHistory(options.subscriptions);
    this.settling = {
      ...options,
      history: this.history,
      ended: (record) => this.ended.add(record.paymentUid, options.clock.now().getTime()),
    };
  }

  /**
   * Creates a REQUIRES_ACTION payment for a request already checked with checkCreatePaymentRequest.
   * Throws PaymentRefusal CAT-102/104/103, SBR-104 (operator hint), SBR-102/104, RSK-101, SUB-108, CAT-109
   * (prefilled number).
   */
  create(application: EnvironmentApplication, request: CreatePaymentRequest): PaymentRecord {
    const { catalog, clock } = this.options;
    const offer = offerToSell(catalog, application, request);
    if (request.prefill?.msisdn !== undefined) {
      const line = this.checkLine(application.clientId, offer, request.operator, request.prefill.msisdn);
      if (!line.ok) throw new PaymentRefusal(line.code, line.message);
    }
    const now = clock.now();
    this.ended.sweep(now.getTime(), (paymentUid) => this.payments.delete(paymentUid));
    const checkoutBaseUrl = this.options.checkoutBaseUrl;
    const record = newPaymentRecord(catalog, application, offer, request, { now, checkoutBaseUrl });
    this.payments.set(record.paymentUid, record);
    this.scheduleExpiry(record);
    this.options.log(`payment ${record.paymentUid} created for ${offer.offerUid}`);
    return record;
  }

  /**
   * Takes back payments from a state file: each is stored again, an open one expires on the clock
   * as before, and a slow line's charge still PROCESSING is answered at once (the operator answered
   * while the sandbox was stopped).
   */
  restore(records: PaymentRecord[], owned: readonly string[] = []): void {
    const { clock } = this.options;
    this.history.restore(owned);
    for (const record of records) {
      this.payments.set(record.paymentUid, record);
      if (hasPaymentEnded(record)) this.ended.add(record.paymentUid, clock.now().getTime());
      if (record.status === 'REQUIRES_ACTION') {
        this.scheduleExpiry(record);
      } else if (record.status === 'PROCESSING') {
        clock.schedule(clock.now(), `operator answer ${record.paymentUid}`, () =>
          settlePayment(this.settling, record, 'SUCCESS'),
        );
      }
    }
  }

  /** Owned one-time items, for the state file. */
  ownedKeys(): string[] {
    return this.history.ownedKeys();
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
    return this.history.refusalFor(clientId, offer, subscriberUid) ?? line;
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
      clock.schedule(answerAt, `operator answer ${record.paymentUid}`, () =>
        settlePayment(this.settling, record, 'SUCCESS'),
      );
      return;
    }
    settlePayment(this.settling, record, line.behaviour);
  }

  /** The subscriber gave up, or failed consent too often: FAILED with payment.failed. */
  abandon(record: PaymentRecord, reason: 'ABANDONED' | 'CONSENT_FAILED'): void {
    if (record.status !== 'REQUIRES_ACTION') return;
    // A subscriber who gives up after a refused number failed for that reason.
    failPayment(this.settling, record, {
      reason,
      ...(record.lastRefusal ? { code: record.lastRefusal } : {}),
    });
  }

  /** Expiry is also applied on every read; the task makes it happen in time order when the clock moves. */
  private scheduleExpiry(record: PaymentRecord): void {
    this.options.clock.schedule(new Date(record.expiresAt.getTime() + 1), `expire ${record.paymentUid}`, () =>
      this.refresh(record),
    );
  }

  private refresh(record: PaymentRecord): PaymentRecord {
    const now = this.options.clock.now().getTime();
    if (record.status === 'REQUIRES_ACTION' && now > record.expiresAt.getTime()) {
      record.status = 'EXPIRED';
      this.ended.add(record.paymentUid, now);
      this.options.log(`payment ${record.paymentUid} EXPIRED`);
    }
    return record;
  }
}
