import type { ConsentMethod } from '../shared/service-types.js';

/** The parts of `GET /sandbox/config` the test helper reads to choose numbers. */
export interface ConfigView {
  operators: Array<{
    code: string;
    numbering: { prefixes: string[]; digits: number };
    consentMethods: ConsentMethod[];
  }>;
  offers: Array<{
    offerUid: string;
    type: string;
    trialDays: number;
    operators: string[];
    consentMethods?: ConsentMethod[];
  }>;
  consentPolicy: {
    allowedByOfferType: Partial<Record<string, ConsentMethod[]>>;
    pin: { maxAttempts: number; length: number };
  };
  testNumbers: Record<string, string>;
}

/** The parts of `GET /sandbox/payments/{paymentUid}` the test helper reads. */
export interface PaymentControlView {
  paymentUid: string;
  offerUid: string;
  status: string;
  checkoutUrl: string;
  request: {
    operator: string | null;
    prefill: { msisdn?: string; msisdnEditable?: boolean } | null;
  };
}

/** An SMS as `GET /sandbox/sms` lists it. */
export interface SmsView {
  direction: 'MT' | 'MO';
  from: string;
  to: string;
  text: string;
  sentAt: string;
  paymentUid: string;
}
