import type { ConsentMethod } from '@dcbkit/core';
import type { Network } from '../operator/consent-methods.js';
import type { AcceptedLine } from '../payments/payment-service.js';

export interface PinChallenge {
  code: string;
  expiresAt: Date;
  attemptsLeft: number;
}

/** Where a subscriber is in a checkout once the number was accepted. Before that there is none. */
export interface ConsentSession {
  line: AcceptedLine;
  network: Network;
  /** Methods open to this subscriber, in order; `method` is the one shown. */
  methods: ConsentMethod[];
  method: ConsentMethod;
  pin?: PinChallenge;
  /** The keyword the MO_SMS method asks the subscriber to send. */
  keyword?: string;
}

/** Consent sessions by paymentUid. */
export class CheckoutSessions {
  private readonly sessions = new Map<string, ConsentSession>();

  get(paymentUid: string): ConsentSession | undefined {
    return this.sessions.get(paymentUid);
  }

  set(paymentUid: string, session: ConsentSession): void {
    this.sessions.set(paymentUid, session);
  }

  delete(paymentUid: string): void {
    this.sessions.delete(paymentUid);
  }
}
