import type { ErrorCode } from '../shared/service-types.js';

/** What the payment service refuses, with the spec's codes. */
export type PaymentRefusalCode =
  | 'CAT-102'
  | 'CAT-103'
  | 'CAT-104'
  | 'CAT-109'
  | 'SBR-102'
  | 'SBR-104'
  | 'RSK-101'
  | 'SUB-108'
  | 'PAY-106'
  | 'PAY-107';

/** What the subscription engine refuses. */
export type SubscriptionRefusalCode = 'SUB-101' | 'SUB-104' | 'SUB-105';

/** What the request guards refuse: idempotency keys in use or reused, the rate limit. */
export type RequestRefusalCode = 'PAY-104' | 'PAY-105' | 'SEC-001';

/**
 * A refusal of one of the sandbox's services, in the service's own terms: the spec's code, a
 * message for the partner, and when a retry may succeed. The services know nothing of HTTP; the
 * HTTP layer (http/error-envelope.ts) maps every refusal to the spec's error envelope and status.
 */
export abstract class SandboxRefusal<Code extends ErrorCode = ErrorCode> extends Error {
  readonly code: Code;
  /** Set when a retry after this many seconds could succeed (PAY-104, SEC-001). */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: Code, message: string, options: { retryAfterSeconds?: number } = {}) {
    super(message);
    this.code = code;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export class PaymentRefusal extends SandboxRefusal<PaymentRefusalCode> {
  override readonly name = 'PaymentRefusal';
}

export class SubscriptionRefusal extends SandboxRefusal<SubscriptionRefusalCode> {
  override readonly name = 'SubscriptionRefusal';
}

export class RequestRefusal extends SandboxRefusal<RequestRefusalCode> {
  override readonly name = 'RequestRefusal';
}
