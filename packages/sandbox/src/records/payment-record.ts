import type { Payment, PaymentStatus } from '@dcbkit/core';
import type { SandboxOffer } from '../config/config-schema.js';
import type { CreatePaymentRequest, ErrorCode, Metadata } from '../shared/service-types.js';

/** Why a payment failed, kept for the checkout's result page (the API has no field for it). */
export type PaymentFailureReason =
  | 'INSUFFICIENT_BALANCE'
  | 'DECLINED'
  | 'ABANDONED'
  | 'CONSENT_FAILED'
  | 'TRIAL_ALREADY_USED'
  | 'ALREADY_OWNED';

export interface PaymentFailure {
  reason: PaymentFailureReason;
  /** The spec's code for refusals at the charge (PAY-101, PAY-103, SUB-108, CAT-109). */
  code?: ErrorCode;
}

/** A payment as the sandbox stores it. Only `toPaymentView` decides what a partner sees. */
export interface PaymentRecord {
  paymentUid: string;
  clientId: string;
  offer: SandboxOffer;
  request: CreatePaymentRequest;
  status: PaymentStatus;
  createdAt: Date;
  expiresAt: Date;
  checkoutUrl: string;
  metadata: Metadata;
  /** Set once money moved: never for a trial start. */
  orderId?: string;
  /** Set once the subscriber gave consent. */
  subscriberUid?: string;
  subscriptionUid?: string;
  /** The line charged. Never leaves the sandbox: partners get subscriberUid instead. */
  msisdn?: string;
  operatorCode?: string;
  /** The last number the checkout refused, and why (SBR-102, SBR-104, RSK-101…): why an abandon ended it. */
  lastRefusal?: ErrorCode;
  failure?: PaymentFailure;
}

/** The Payment resource of the spec. */
export function toPaymentView(record: PaymentRecord): Payment {
  return {
    object: 'payment',
    paymentUid: record.paymentUid,
    mode: 'HOSTED',
    status: record.status,
    checkoutUrl: record.checkoutUrl,
    productUid: record.offer.productUid,
    offerUid: record.offer.offerUid,
    expiresAt: record.expiresAt.toISOString(),
    metadata: record.metadata,
    ...(record.orderId !== undefined ? { orderId: record.orderId } : {}),
    ...(record.subscriberUid !== undefined ? { subscriberUid: record.subscriberUid } : {}),
    ...(record.subscriptionUid !== undefined ? { subscriptionUid: record.subscriptionUid } : {}),
    // Not in the spec (docs/spec-gaps.md): the spec's code of why a FAILED payment failed, and of
    // why the checkout refused the last number of one that then EXPIRED (CAT-109 for a line that
    // already owns the item): the partner's read says why the subscriber never paid.
    ...(failureCodeOf(record) !== undefined ? { failureCode: failureCodeOf(record) } : {}),
  };
}

function failureCodeOf(record: PaymentRecord): ErrorCode | undefined {
  if (record.status === 'FAILED') return record.failure?.code;
  if (record.status === 'EXPIRED') return record.lastRefusal;
  return undefined;
}
