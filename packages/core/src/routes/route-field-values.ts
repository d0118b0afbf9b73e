import type { Presentation } from '../schemas/create-payment.js';
import type { SubscriptionCancelWhen } from '../schemas/subscription.js';
import type { RouteFields } from './partner-route-types.js';
import { routeError } from './route-error.js';

// The values a partner route reads from its fields, each refused as `invalid_request` when absent
// or malformed.

export function requiredText(fields: RouteFields, name: string): string {
  const value = fields[name];
  if (typeof value !== 'string' || value === '') throw routeError('invalid_request', `${name} is required.`);
  return value;
}

const IDENTIFIER = /^[A-Za-z0-9_.:-]{1,255}$/;

/** A uid of the service (payment, product, subscription): refused before it reaches a URL path. */
export function identifier(fields: RouteFields, name: string): string {
  const value = requiredText(fields, name);
  if (!IDENTIFIER.test(value)) throw routeError('invalid_request', `${name} is not a valid identifier.`);
  return value;
}

export function presentationOf(value: unknown): Presentation {
  if (value === undefined || value === '' || value === 'redirect') return 'redirect';
  if (value === 'embedded') return 'embedded';
  throw routeError('invalid_request', 'presentation must be redirect or embedded.');
}

export function cancelWhenOf(value: unknown): SubscriptionCancelWhen {
  if (value === 'NOW' || value === 'PERIOD_END') return value;
  throw routeError('invalid_request', 'when must be NOW or PERIOD_END.');
}
