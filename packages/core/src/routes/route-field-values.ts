import type { Presentation } from '../schemas/create-payment.js';
import type { SubscriptionCancelWhen } from '../schemas/subscription.js';
import type { ShownOffer, ShownTrial } from '../store/reconcile-store.js';
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

/** The longest text of what the page showed that is kept (a name or a price, not a page). */
const MAX_SHOWN_LENGTH = 200;
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/;

/**
 * What the checkout form says its page showed for the offer (`shownName`, `shownPrice`,
 * `shownPeriod`, `shownLanguage`, and for a free trial `shownTrialDays` and `shownFirstCharge`), as rendered, for the record kept with the pending payment.
 * Undefined when the form says nothing (a partner whose page does not send it); refused as
 * `invalid_request` when it says it badly: no language, a field too long or not text.
 */
export function shownOfferOf(fields: RouteFields, at: Date): ShownOffer | undefined {
  const { shownName, shownPrice, shownPeriod, shownLanguage } = fields;
  const trial = shownTrialOf(fields);
  if (shownName === undefined && shownPrice === undefined) return undefined;
  const name = shownText(shownName, 'shownName');
  const price = shownText(shownPrice, 'shownPrice');
  const period =
    shownPeriod === undefined || shownPeriod === '' ? undefined : shownText(shownPeriod, 'shownPeriod');
  if (typeof shownLanguage !== 'string' || !LANGUAGE_TAG.test(shownLanguage)) {
    throw routeError('invalid_request', 'shownLanguage must be the language tag of the page (e.g. "fr").');
  }
  return {
    name,
    price,
    ...(period !== undefined ? { period } : {}),
    language: shownLanguage,
    ...(trial !== undefined ? { trial } : {}),
    at: at.toISOString(),
  };
}

/** The longest trial a page may say it showed: ten years, far past any offer's. */
const MAX_TRIAL_DAYS = 3650;

/**
 * The free trial the page showed (`shownTrialDays`, `shownFirstCharge`): both or neither, since
 * a trial's length without the date it ends in a charge is not what the subscriber read.
 */
function shownTrialOf(fields: RouteFields): ShownTrial | undefined {
  const { shownTrialDays, shownFirstCharge } = fields;
  const absent = (value: unknown) => value === undefined || value === '';
  if (absent(shownTrialDays) && absent(shownFirstCharge)) return undefined;
  const days =
    typeof shownTrialDays === 'string' && /^\d{1,4}$/.test(shownTrialDays)
      ? Number(shownTrialDays)
      : Number.NaN;
  if (!(days >= 1 && days <= MAX_TRIAL_DAYS)) {
    throw routeError(
      'invalid_request',
      `shownTrialDays must be the trial's length in days as shown (1 to ${MAX_TRIAL_DAYS}), with shownFirstCharge.`,
    );
  }
  return { days, firstCharge: shownText(shownFirstCharge, 'shownFirstCharge') };
}

function shownText(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_SHOWN_LENGTH) {
    throw routeError(
      'invalid_request',
      `${name} must be the text the page showed (1 to ${MAX_SHOWN_LENGTH} characters).`,
    );
  }
  return value.trim();
}
