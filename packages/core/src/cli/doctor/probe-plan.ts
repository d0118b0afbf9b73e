import { DEFAULT_MAX_BODY_BYTES } from '../../http/limits.js';
import { signWebhook } from '../../webhooks/sign-webhook.js';
import { DEFAULT_TOLERANCE_SECONDS } from '../../webhooks/verify-checks.js';

// What `dcbkit doctor` sends, as data: planProbes is pure (the clock, the run id and the secrets
// come in), so a test checks every probe with verifyWebhook and diagnose() reads answers to them.

/**
 * The event name of every probe. Not one of the spec's: dcbkit answers it 200 `ignored` right after
 * verifying, before its ledger or store is touched, and a receiver that follows the spec ("answer
 * 2xx", ignore what you do not handle) does nothing with it. So a run against production changes
 * no entitlement.
 */
export const PROBE_EVENT_NAME = 'dcbkit.probe';

/** The spec's tolerance: a `t` more than 300 s from the receiver's now is refused. */
export const SPEC_TOLERANCE_SECONDS = DEFAULT_TOLERANCE_SECONDS;

/**
 * How far inside the tolerance the two clock probes are signed (240 s before and after now): a
 * receiver whose clock is more than this far off refuses one of them while still accepting a
 * fresh delivery. The same margin puts the stale probe 360 s in the past.
 */
export const CLOCK_MARGIN_SECONDS = 60;

/** The oversize probe's size: one byte more than dcbkit accepts by default (1 MiB). */
export const OVERSIZE_BODY_BYTES = DEFAULT_MAX_BODY_BYTES + 1;

/** The header the service signs with, as the spec spells it. */
export const SIGNATURE_HEADER_NAME = 'Service-Signature';

/**
 * - `valid`: compact JSON, signed now; `duplicate` is the same bytes and header sent again.
 * - `reformatted`: the same event with spaces and other key order: passes only raw-byte verification.
 * - `clock_past`, `clock_future`: signed 240 s before and after now, inside the tolerance.
 * - `tampered`: signed, then one value changed; `foreign_secret`: signed with a secret of no one;
 *   `unsigned`: no header; `stale`: signed 360 s ago; `oversize`: valid, one byte over 1 MiB.
 */
export type ProbeId =
  | 'valid'
  | 'reformatted'
  | 'duplicate'
  | 'clock_past'
  | 'clock_future'
  | 'tampered'
  | 'foreign_secret'
  | 'unsigned'
  | 'stale'
  | 'oversize';

/** What a receiver that verifies as the spec says answers: a 2xx, or a refusal (anything else). */
export type ProbeExpectation = 'accepted' | 'refused';

export interface Probe {
  readonly id: ProbeId;
  readonly expect: ProbeExpectation;
  /** The signature's `t` in unix seconds; undefined for the unsigned probe. */
  readonly timestamp: number | undefined;
  /** The exact bytes to send (ASCII JSON: as many bytes as characters). */
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface PlanProbesOptions {
  /** The environment's signing secret: the first of the list, as the service would sign after a rotation. */
  secret: string;
  /** A secret no receiver holds, for the `foreign_secret` probe. */
  foreignSecret: string;
  /** Names the run in every probe's payment uid and metadata. */
  runId: string;
  /** This machine's clock at the start of the run. */
  now: Date;
}

/**
 * Every probe of one run, `valid` first (it is sent alone, before the others, so that an
 * unreachable URL costs one request and `duplicate` really is a second delivery).
 *
 * @example
 * const probes = planProbes({ secret: 'whsec_…', foreignSecret: 'whsec_other', runId: 'a1b2c3', now: new Date() });
 */
export function planProbes({
  secret,
  foreignSecret,
  runId,
  now,
}: PlanProbesOptions): [valid: Probe, ...others: Probe[]] {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const tolerance = SPEC_TOLERANCE_SECONDS;
  const signed = (id: ProbeId, expect: ProbeExpectation, offsetSeconds: number, body?: string): Probe => {
    const timestamp = nowSeconds + offsetSeconds;
    const payload = body ?? compactBody(runId, id, timestamp);
    return {
      id,
      expect,
      timestamp,
      body: payload,
      headers: headersWith(signWebhook({ payload, secret, timestamp })),
    };
  };
  const valid = signed('valid', 'accepted', 0);
  const reformatted = signed('reformatted', 'accepted', 0, reformattedBody(runId, nowSeconds));
  const tamperedSource = signed('tampered', 'refused', 0);
  const foreignBody = compactBody(runId, 'foreign_secret', nowSeconds);
  const unsignedBody = compactBody(runId, 'unsigned', nowSeconds);
  return [
    valid,
    { ...valid, id: 'duplicate' },
    reformatted,
    signed('clock_past', 'accepted', -(tolerance - CLOCK_MARGIN_SECONDS)),
    signed('clock_future', 'accepted', tolerance - CLOCK_MARGIN_SECONDS),
    { ...tamperedSource, body: tamper(tamperedSource.body) },
    {
      id: 'foreign_secret',
      expect: 'refused',
      timestamp: nowSeconds,
      body: foreignBody,
      headers: headersWith(
        signWebhook({ payload: foreignBody, secret: foreignSecret, timestamp: nowSeconds }),
      ),
    },
    { id: 'unsigned', expect: 'refused', timestamp: undefined, body: unsignedBody, headers: headersWith() },
    signed('stale', 'refused', -(tolerance + CLOCK_MARGIN_SECONDS)),
    signed('oversize', 'refused', 0, oversizeBody(runId, nowSeconds)),
  ];
}

function headersWith(signature?: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'dcbkit-doctor',
    ...(signature === undefined ? {} : { [SIGNATURE_HEADER_NAME]: signature }),
  };
}

/**
 * A webhook event's shape with harmless values: a product and offer no catalogue has, no account
 * in the metadata and no status, so even a receiver that ignored the event name would grant nothing.
 */
function probeEvent(runId: string, probe: string, timestamp: number, padding?: string) {
  return {
    event: PROBE_EVENT_NAME,
    paymentUid: `dcbkit_probe_${runId}_${probe}`,
    productUid: 'dcbkit_probe',
    offerUid: 'dcbkit_probe',
    subscriberUid: 'dcbkit_probe',
    metadata: { dcbkitDoctor: runId, probe, ...(padding === undefined ? {} : { padding }) },
    occurredAt: new Date(timestamp * 1000).toISOString(),
  };
}

function compactBody(runId: string, probe: ProbeId, timestamp: number): string {
  return JSON.stringify(probeEvent(runId, probe, timestamp));
}

/**
 * The same kind of event, indented and with its keys in reverse order: JSON.stringify of the
 * parsed body gives other bytes, so a receiver that verifies re-serialised JSON refuses it.
 */
function reformattedBody(runId: string, timestamp: number): string {
  const reversed = (value: Record<string, unknown>) => Object.fromEntries(Object.entries(value).reverse());
  const event = probeEvent(runId, 'reformatted', timestamp);
  return JSON.stringify(reversed({ ...event, metadata: reversed(event.metadata) }), null, 2);
}

/** Valid JSON of exactly OVERSIZE_BODY_BYTES bytes. */
function oversizeBody(runId: string, timestamp: number): string {
  const withoutPadding = JSON.stringify(probeEvent(runId, 'oversize', timestamp, '')).length;
  return JSON.stringify(
    probeEvent(runId, 'oversize', timestamp, 'x'.repeat(OVERSIZE_BODY_BYTES - withoutPadding)),
  );
}

/** The body an attacker would send: the signed one with another product. */
function tamper(body: string): string {
  return body.replace('"productUid":"dcbkit_probe"', '"productUid":"dcbkit_probe_premium"');
}
