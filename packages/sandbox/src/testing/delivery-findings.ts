import type { DeliveryAttempt, WebhookDelivery } from '../webhooks/delivery-record.js';
import type { ForgedDelivery } from './forged-event.js';
import {
  type DeliveryStats,
  failed,
  type PartnerCheckResult,
  passed,
  skipped,
} from './partner-check-report.js';

/** The events of a run, and where the app's webhook route was. */
export interface RunDeliveries {
  deliveries: readonly WebhookDelivery[];
  /** The app's webhook URL: attempts elsewhere (the check's stand-in while the app was down) are not the app's answers. */
  appWebhookUrl: string;
  /** The event signed with another secret, posted before the story began (undefined if it did not get that far). */
  forged?: ForgedDelivery | undefined;
}

// What dcbkit's handler answers when a body parser consumed the raw body before it.
const RAW_BODY_GONE = /body_not_raw|body_consumed/;
const QUOTED_CHARACTERS = 120;

/** Whether the sandbox sent other bytes than `JSON.stringify` of the payload: what a re-serialising receiver gets wrong. */
export function hasIndentedBody(delivery: WebhookDelivery): boolean {
  return delivery.body !== JSON.stringify(delivery.payload);
}

function attemptsToApp(delivery: WebhookDelivery, appWebhookUrl: string): DeliveryAttempt[] {
  return delivery.attempts.filter((attempt) => attempt.url === appWebhookUrl);
}

function describeAttempt(delivery: WebhookDelivery, attempt: DeliveryAttempt): string {
  const kind = attempt.replay ? ' (replay)' : attempt.chaos === 'duplicate' ? ' (duplicate)' : '';
  const body = hasIndentedBody(delivery) ? 'indented body' : 'compact body';
  const answer =
    attempt.httpStatus === null
      ? `no answer (${attempt.error ?? 'failed'})`
      : `${attempt.httpStatus}${attempt.responseBody ? ` ${attempt.responseBody.replace(/\s+/g, ' ').slice(0, QUOTED_CHARACTERS)}` : ''}`;
  return `${delivery.event} ${delivery.id} (${body}), attempt ${attempt.number}${kind}: ${answer}`;
}

/** `401`, `400 or 401`, `400, 401 or 500`. */
function listOf(statuses: readonly number[]): string {
  const words = statuses.map(String);
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** An attempt the receiver refused as unauthentic or unreadable, or answered "the raw body is gone". */
function refusedAsUnsigned(attempt: DeliveryAttempt): boolean {
  if (attempt.chaos === 'stale-signature') return false;
  const status = attempt.httpStatus;
  return status === 400 || status === 401 || status === 403 || RAW_BODY_GONE.test(attempt.responseBody ?? '');
}

/**
 * `signature`: the app refused an event signed with another secret, and verified every signed body
 * the sandbox sent, whatever its bytes.
 */
export function signatureResult({ deliveries, appWebhookUrl, forged }: RunDeliveries): PartnerCheckResult {
  if (forged?.status !== undefined && forged.status !== null && forged.status >= 200 && forged.status < 300) {
    return failed(
      'signature',
      'The app accepted an event signed with another secret than the sandbox’s: anyone who finds the webhook URL could grant themselves access.',
      'verify the Service-Signature of every delivery (HMAC-SHA256 of "t.rawBody" with your webhook secret, t within five minutes) before reading it, and answer 401 when it does not match.',
      [
        `${forged.event} for ${forged.accountKey}, ${forged.productUid}, signed with another secret: answered ${forged.status} ${forged.responseBody}`,
      ],
    );
  }
  const posted = deliveries.filter((delivery) => attemptsToApp(delivery, appWebhookUrl).length > 0);
  if (posted.length === 0) return skipped('signature', 'No event reached the app’s webhook route.');
  const refused = posted.filter((delivery) => attemptsToApp(delivery, appWebhookUrl).some(refusedAsUnsigned));
  const indented = posted.filter(hasIndentedBody);
  if (refused.length === 0) {
    const forgery =
      forged === undefined
        ? ''
        : ` An event signed with another secret was refused (${forged.status ?? 'no answer'}).`;
    return passed(
      'signature',
      `Every one of ${posted.length} events was accepted, ${indented.length} of them with an indented body.${forgery}`,
    );
  }
  const refusals = refused.map((delivery) => ({
    delivery,
    attempt: attemptsToApp(delivery, appWebhookUrl).find(refusedAsUnsigned) as DeliveryAttempt,
  }));
  const evidence = refusals.map(({ delivery, attempt }) => describeAttempt(delivery, attempt));
  // The statuses the app gave, not the ones the check looks for: a body parser's 500 is not a 401.
  const statuses = [...new Set(refusals.map(({ attempt }) => attempt.httpStatus ?? 0))].sort((a, b) => a - b);
  const summary = `${refused.length} of ${posted.length} events were refused as unsigned or unreadable (answered ${listOf(statuses)}).`;
  const compactAccepted = posted.some(
    (delivery) => !hasIndentedBody(delivery) && !refused.includes(delivery),
  );
  if (refused.every(hasIndentedBody) && compactAccepted) {
    return failed(
      'signature',
      `${summary} Every refused body was indented; compact ones passed.`,
      'your receiver verifies a re-serialised body (JSON.stringify of the parsed JSON), which matches the signed bytes only when the sender wrote compact JSON. Verify the signature over the raw request bytes, exactly as received, and parse them only afterwards.',
      evidence,
    );
  }
  if (
    refused.some((delivery) =>
      attemptsToApp(delivery, appWebhookUrl).some((a) => RAW_BODY_GONE.test(a.responseBody ?? '')),
    )
  ) {
    return failed(
      'signature',
      `${summary} The receiver says the raw body was gone.`,
      'a body parser read the webhook body before the webhook handler: mount the webhook route before any JSON body parser, or keep the raw bytes (express.json({ verify: (req, _res, buf) => { req.rawBody = buf } })).',
      evidence,
    );
  }
  return failed(
    'signature',
    summary,
    'verify the signature over the raw body (not a re-serialised one) with the sandbox’s webhook secret (sandbox.credentials.webhookSecret), and answer 401 only when it does not match.',
    evidence,
  );
}

/** `duplicates`: a second copy of an event already processed was answered 2xx. */
export function duplicatesResult({ deliveries, appWebhookUrl }: RunDeliveries): PartnerCheckResult {
  const copies = deliveries.flatMap((delivery) =>
    attemptsToApp(delivery, appWebhookUrl)
      .filter((attempt) => attempt.chaos === 'duplicate')
      .map((attempt) => ({ delivery, attempt })),
  );
  if (copies.length === 0)
    return skipped('duplicates', 'No duplicate was sent (an event is duplicated once the app accepted it).');
  const refused = copies.filter(({ attempt }) => !attempt.ok);
  if (refused.length === 0)
    return passed('duplicates', `All ${copies.length} duplicate deliveries were answered 2xx.`);
  return failed(
    'duplicates',
    `${refused.length} of ${copies.length} duplicate deliveries were not answered 2xx.`,
    'answer 2xx to an event you processed before (the service delivers at least once): de-duplicate on the event’s key and acknowledge the copy; any other answer makes the service retry it, then dead-letter it.',
    refused.map(({ delivery, attempt }) => describeAttempt(delivery, attempt)),
  );
}

/** `delivery`: nothing lost: every event ended DELIVERED, replays included. */
export function deliveryResult({ deliveries, appWebhookUrl }: RunDeliveries): PartnerCheckResult {
  if (deliveries.length === 0) return skipped('delivery', 'The run produced no event.');
  const lost = deliveries.filter((delivery) => delivery.status !== 'DELIVERED');
  if (lost.length === 0) {
    return passed(
      'delivery',
      `All ${deliveries.length} events were answered 2xx in the end, replays included.`,
    );
  }
  const lastAnswers = lost.map((delivery) => attemptsToApp(delivery, appWebhookUrl).at(-1));
  const evidence = lost.map((delivery, index) => {
    const last = lastAnswers[index];
    return last === undefined
      ? `${delivery.event} ${delivery.id}: ${delivery.status}, never posted to the app`
      : `${delivery.status}: ${describeAttempt(delivery, last)}`;
  });
  const unsigned = lastAnswers.every((last) => last !== undefined && refusedAsUnsigned(last));
  return failed(
    'delivery',
    `${lost.length} of ${deliveries.length} events were never answered 2xx, even when replayed: the service gives up on them.`,
    unsigned
      ? 'the app refused each of them as unsigned to the end: fix what the signature check says, and they are delivered.'
      : 'answer 2xx once an event is processed, or was processed before; answer 5xx (or 409) only for a failure a retry can fix. An event refused every time is dead-lettered and lost to the app.',
    evidence,
  );
}

/** Counts for the report. `deadLettered`: events that went dead while the app's webhook was down. */
export function deliveryStats(
  { deliveries, appWebhookUrl }: RunDeliveries,
  deadLettered: number,
): DeliveryStats {
  const attempts = deliveries.flatMap((delivery) => attemptsToApp(delivery, appWebhookUrl));
  return {
    events: deliveries.length,
    attemptsToApp: attempts.length,
    duplicates: attempts.filter((attempt) => attempt.chaos === 'duplicate').length,
    heldBack: deliveries.filter((delivery) => delivery.chaos.some((note) => note.startsWith('held back')))
      .length,
    delayed: deliveries.filter((delivery) =>
      delivery.chaos.some((note) => note.startsWith('first attempt delayed')),
    ).length,
    indented: deliveries.filter(hasIndentedBody).length,
    deadLettered,
    replays: attempts.filter((attempt) => attempt.replay).length,
  };
}
