// The spec's status enumerations as plain constants, so zod-free code (webhook verification) can use them.

export const PAYMENT_STATUSES = [
  'REQUIRES_ACTION',
  'REQUIRES_START',
  'REQUIRES_CODE',
  'PROCESSING',
  'SUCCEEDED',
  'FAILED',
  'EXPIRED',
  'CANCELED',
] as const;

export const SUBSCRIPTION_STATUSES = [
  'TRIALING',
  'ACTIVE',
  'PRE_CANCELED',
  'IN_GRACE',
  'SUSPENDED',
  'CANCELED',
  'EXPIRED',
] as const;
