import { randomInt } from 'node:crypto';
import type { SandboxClock } from '../clock/clock.js';
import type { ConsentPolicy } from '../config/config-schema.js';
import {
  type ConsentContext,
  type ConsentDice,
  type ConsentOutcome,
  type ConsentRefusal,
  type ConsentSession,
  type ConsentSms,
  changeNumber,
  confirmHeaderEnrichment,
  resendPin,
  sendKeyword,
  submitNumber,
  submitPin,
  switchMethod,
} from '../consent/consent-session.js';
import type { Network } from '../operator/consent-methods.js';
import type { AcceptedLine } from '../operator/number-lookup.js';
import type { SmsInbox } from '../operator/sms-inbox.js';
import type { PaymentService } from '../payments/payment-service.js';
import type { PurchaseRefusalCode } from '../payments/purchase-history.js';
import type { PaymentRecord } from '../records/payment-record.js';
import type { ConsentMethod } from '../shared/service-types.js';
import { offerName, priceLine } from './checkout-pages.js';
import type { Locale } from './locale.js';
import { messagesFor } from './messages.js';

export interface CheckoutFlowDeps {
  clock: SandboxClock;
  payments: PaymentService;
  sms: SmsInbox;
  policy: ConsentPolicy;
  /** Default: codes and keywords from node:crypto. */
  dice?: ConsentDice;
}

/** What a step did, for the routes to answer: move on (post/redirect/get), or show a refusal. */
export type StepResult =
  | { kind: 'moved-on' }
  | { kind: 'number-refused'; code: PurchaseRefusalCode }
  | { kind: 'no-method' }
  | { kind: 'consent-refused'; session: ConsentSession; refusal: ConsentRefusal };

const MOVED_ON: StepResult = { kind: 'moved-on' };

const cryptoDice: ConsentDice = {
  pinCode: (length) => String(randomInt(0, 10 ** length)).padStart(length, '0'),
  keyword: () => `PAY ${randomInt(1000, 10_000)}`,
};

/**
 * Runs each payment's consent session against the world: keeps the sessions by paymentUid, has the
 * mock operator carry the SMS a step calls for (in the page's language), and tells the payment
 * service once consent is given or has failed. The decisions are consent-session.ts's.
 */
export class CheckoutFlow {
  private readonly sessions = new Map<string, ConsentSession>();
  private readonly dice: ConsentDice;

  constructor(private readonly deps: CheckoutFlowDeps) {
    this.dice = deps.dice ?? cryptoDice;
  }

  /** The consent step a payment is at, or undefined at the number step. */
  session(paymentUid: string): ConsentSession | undefined {
    return this.sessions.get(paymentUid);
  }

  submitNumber(payment: PaymentRecord, typed: string, network: Network, locale: Locale): StepResult {
    const { payments } = this.deps;
    const verdict = payments.checkLine(payment.clientId, payment.offer, payment.request.operator, typed);
    const outcome = submitNumber(verdict, network, payment.offer, this.context());
    if (outcome.kind === 'number-refused') {
      payment.lastRefusal = outcome.code;
      return { kind: 'number-refused', code: outcome.code };
    }
    if (outcome.kind === 'no-method') return outcome;
    return this.settle(payment, outcome.session.line, outcome, locale);
  }

  submitPin(payment: PaymentRecord, typed: string, locale: Locale): StepResult {
    return this.step(payment, locale, (session) => submitPin(session, typed, this.context()));
  }

  resendPin(payment: PaymentRecord, locale: Locale): StepResult {
    return this.step(payment, locale, (session) => resendPin(session, this.context()));
  }

  confirmHeaderEnrichment(payment: PaymentRecord, locale: Locale): StepResult {
    return this.step(payment, locale, confirmHeaderEnrichment);
  }

  sendKeyword(payment: PaymentRecord, text: string, locale: Locale): StepResult {
    return this.step(payment, locale, (session) => sendKeyword(session, text));
  }

  switchMethod(payment: PaymentRecord, method: ConsentMethod | undefined, locale: Locale): StepResult {
    return this.step(payment, locale, (session) => switchMethod(session, method, this.context()));
  }

  changeNumber(payment: PaymentRecord, locale: Locale): StepResult {
    const locked = payment.request.prefill?.msisdnEditable === false;
    return this.step(payment, locale, (session) => changeNumber(session, locked));
  }

  /** The subscriber gave up: FAILED, at whichever step. */
  abandon(payment: PaymentRecord): StepResult {
    this.sessions.delete(payment.paymentUid);
    this.deps.payments.abandon(payment, 'ABANDONED');
    return MOVED_ON;
  }

  // A consent-step action posted without a session (a stale tab) just shows where the checkout is.
  private step(
    payment: PaymentRecord,
    locale: Locale,
    transition: (session: ConsentSession) => ConsentOutcome,
  ): StepResult {
    const session = this.sessions.get(payment.paymentUid);
    if (!session) return MOVED_ON;
    return this.settle(payment, session.line, transition(session), locale);
  }

  private settle(
    payment: PaymentRecord,
    line: AcceptedLine,
    outcome: ConsentOutcome,
    locale: Locale,
  ): StepResult {
    const { paymentUid } = payment;
    if ('sms' in outcome && outcome.sms) this.carry(payment, line, outcome.sms, locale);
    switch (outcome.kind) {
      case 'waiting':
        this.sessions.set(paymentUid, outcome.session);
        return MOVED_ON;
      case 'refused':
        this.sessions.set(paymentUid, outcome.session);
        return { kind: 'consent-refused', session: outcome.session, refusal: outcome.refusal };
      case 'consented':
        this.sessions.delete(paymentUid);
        this.deps.payments.consent(payment, outcome.line);
        return MOVED_ON;
      case 'failed':
        this.sessions.delete(paymentUid);
        this.deps.payments.abandon(payment, 'CONSENT_FAILED');
        return MOVED_ON;
      case 'number':
        this.sessions.delete(paymentUid);
        return MOVED_ON;
    }
  }

  private carry(payment: PaymentRecord, line: AcceptedLine, sms: ConsentSms, locale: Locale): void {
    const { offer, paymentUid } = payment;
    if (sms.direction === 'MT') {
      // The terms the checkout page shows: a free trial charges nothing today, so no bare price.
      const text = messagesFor(locale).pinSms(sms.pin, offerName(offer, locale), priceLine(offer, locale));
      this.deps.sms.record({ direction: 'MT', from: line.operator.name, to: line.msisdn, text, paymentUid });
    } else {
      const to = this.deps.policy.moSms.shortCode;
      this.deps.sms.record({ direction: 'MO', from: line.msisdn, to, text: sms.text, paymentUid });
    }
  }

  private context(): ConsentContext {
    return { now: this.deps.clock.now(), policy: this.deps.policy, dice: this.dice };
  }
}
