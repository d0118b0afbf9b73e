import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_BODY_BYTES } from '../../http/limits.js';
import { memoryLedger } from '../../ledger/memory-ledger.js';
import { isKnownEventName } from '../../schemas/event-names.js';
import { memoryStore } from '../../store/memory-store.js';
import { createWebhookHandler } from '../../webhooks/create-webhook-handler.js';
import { verifyWebhook } from '../../webhooks/verify-webhook.js';
import { WebhookVerificationError } from '../../webhooks/webhook-verification-error.js';
import {
  PROBE_EVENT_NAME,
  type Probe,
  type ProbeId,
  planProbes,
  SIGNATURE_HEADER_NAME,
} from './probe-plan.js';

const SECRET = 'whsec_the_environments_secret';
const NOW = new Date('2030-01-01T12:00:00.000Z');
const probes = planProbes({ secret: SECRET, foreignSecret: 'whsec_of_no_one', runId: 'run42', now: NOW });
const probe = (id: ProbeId): Probe => {
  const found = probes.find((candidate) => candidate.id === id);
  if (found === undefined) throw new Error(`no ${id} probe`);
  return found;
};

/** What verifyWebhook says of a probe on a receiver whose clock is `skewSeconds` off. */
function verdict(id: ProbeId, skewSeconds = 0): string {
  const { body, headers } = probe(id);
  try {
    const event = verifyWebhook({
      rawBody: body,
      signature: headers[SIGNATURE_HEADER_NAME],
      secrets: SECRET,
      now: new Date(NOW.getTime() + skewSeconds * 1000),
    });
    return `accepted ${event.event}`;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.code;
    throw error;
  }
}

describe('planProbes', () => {
  it('plans every probe once, the valid one first', () => {
    expect(probes.map(({ id }) => id)).toEqual([
      'valid',
      'duplicate',
      'reformatted',
      'clock_past',
      'clock_future',
      'tampered',
      'foreign_secret',
      'unsigned',
      'stale',
      'oversize',
    ]);
  });

  it('makes each probe pass or fail verification exactly as its expectation says, on a clock in step', () => {
    expect(Object.fromEntries(probes.map(({ id }) => [id, verdict(id)]))).toEqual({
      valid: 'accepted dcbkit.probe',
      duplicate: 'accepted dcbkit.probe',
      reformatted: 'accepted dcbkit.probe',
      clock_past: 'accepted dcbkit.probe',
      clock_future: 'accepted dcbkit.probe',
      tampered: 'signature_mismatch',
      foreign_secret: 'signature_mismatch',
      unsigned: 'header_missing',
      stale: 'timestamp_out_of_tolerance',
      oversize: 'accepted dcbkit.probe',
    });
    for (const { id, expect: expectation } of probes) {
      expect(verdict(id).startsWith('accepted') ? 'accepted' : 'refused', id).toBe(
        id === 'oversize' ? 'accepted' : expectation,
      );
    }
  });

  it('signs the clock probes so that a receiver more than a minute off refuses one of them', () => {
    for (const skew of [-59, 0, 59]) {
      expect([verdict('valid', skew), verdict('clock_past', skew), verdict('clock_future', skew)]).toEqual([
        'accepted dcbkit.probe',
        'accepted dcbkit.probe',
        'accepted dcbkit.probe',
      ]);
    }
    expect(verdict('clock_past', 61)).toBe('timestamp_out_of_tolerance');
    expect(verdict('clock_future', 61)).toBe('accepted dcbkit.probe');
    expect(verdict('clock_future', -61)).toBe('timestamp_out_of_tolerance');
    expect(verdict('clock_past', -61)).toBe('accepted dcbkit.probe');
    // More than the spec's 300 s off, the fresh probe is refused and the one signed towards the receiver's clock passes.
    expect(verdict('valid', 301)).toBe('timestamp_out_of_tolerance');
    expect(verdict('clock_future', 301)).toBe('accepted dcbkit.probe');
  });

  it('sends the duplicate as the very same delivery as the valid probe', () => {
    expect(probe('duplicate').body).toBe(probe('valid').body);
    expect(probe('duplicate').headers).toEqual(probe('valid').headers);
  });

  it('reformats one body so that only raw-byte verification passes it', () => {
    const { body } = probe('reformatted');
    expect(body).toContain('\n  ');
    expect(Object.keys(JSON.parse(body))[0]).toBe('occurredAt');
    // A receiver that verifies JSON.stringify(req.body) hashes other bytes than were signed…
    expect(JSON.stringify(JSON.parse(body))).not.toBe(body);
    // …while it passes the compact probe by luck.
    expect(JSON.stringify(JSON.parse(probe('valid').body))).toBe(probe('valid').body);
  });

  it('tampers with the product of a signed body', () => {
    expect(JSON.parse(probe('tampered').body).productUid).toBe('dcbkit_probe_premium');
  });

  it('makes the oversize probe one byte over the kit’s default limit, in ASCII JSON', () => {
    const { body } = probe('oversize');
    expect(Buffer.byteLength(body, 'utf8')).toBe(DEFAULT_MAX_BODY_BYTES + 1);
    expect(body.length).toBe(DEFAULT_MAX_BODY_BYTES + 1);
    expect(JSON.parse(body).event).toBe(PROBE_EVENT_NAME);
  });

  it('names the run in every probe and harms no catalogue: no account, no status, no real product', () => {
    for (const { id, body } of probes) {
      const event = JSON.parse(body);
      expect(event.event, id).toBe(PROBE_EVENT_NAME);
      expect(event.metadata.dcbkitDoctor, id).toBe('run42');
      expect(event.paymentUid, id).toMatch(/^dcbkit_probe_run42_/);
      expect(event.metadata.accountKey, id).toBeUndefined();
      expect(event.status, id).toBeUndefined();
    }
    expect(isKnownEventName(PROBE_EVENT_NAME)).toBe(false);
  });

  it('sends probes a dcbkit receiver answers "ignored" without writing anything', async () => {
    const store = memoryStore();
    const handler = createWebhookHandler({
      secrets: SECRET,
      store,
      ledger: memoryLedger(),
      offers: [],
      now: () => NOW,
      logger: {},
    });
    for (const id of ['valid', 'duplicate', 'reformatted', 'clock_past', 'clock_future'] as const) {
      const { body, headers } = probe(id);
      const answer = await handler({
        rawBody: body,
        headers: { 'service-signature': headers[SIGNATURE_HEADER_NAME] },
      });
      expect(answer.body, id).toBe('{"received":true,"outcome":"ignored"}');
    }
    expect(await store.listHistory({ limit: 100 })).toEqual([]);
    expect(handler.health()).toMatchObject({ accepted: 5, duplicate: 0 });
  });
});
