import { describe, expect, it } from 'vitest';
import { isDcbError } from '../../errors/dcb-error.js';
import { diagnose } from './diagnose.js';
import { DOCTOR_FINDINGS, type Finding } from './findings.js';
import type { ProbeAnswer } from './probe-answer.js';
import type { ProbeId } from './probe-plan.js';
import {
  answered,
  answersOf,
  failed,
  HEALTHY_KIT,
  kit,
  kitAnswers,
  PROBE_IDS,
} from './test-support/recorded-answers.js';

const codes = (answers: readonly ProbeAnswer[]) => diagnose(answers).map(({ code }) => code);

function only(answers: readonly ProbeAnswer[]): Finding {
  const findings = diagnose(answers);
  expect(findings.map(({ code }) => code)).toHaveLength(1);
  return findings[0] as Finding;
}

/** Another framework's receiver that verifies as the spec says and answers in its own words. */
function plainReceiver(probe: ProbeId): [number, string] {
  if (probe === 'unsigned') return [401, 'missing signature'];
  if (probe === 'tampered' || probe === 'foreign_secret') return [401, 'bad signature'];
  if (probe === 'stale') return [401, 'too old'];
  if (probe === 'oversize') return [413, 'Payload Too Large'];
  return [204, ''];
}

describe('diagnose', () => {
  it('finds nothing wrong with a healthy dcbkit receiver, nor with a healthy receiver of another framework', () => {
    expect(diagnose(kitAnswers())).toEqual([]);
    expect(diagnose(answersOf(plainReceiver))).toEqual([]);
    // …nor when a limit resets the connection rather than answering the oversize body.
    expect(
      diagnose(
        answersOf((probe) => (probe === 'oversize' ? failed(probe, 'connection') : plainReceiver(probe))),
      ),
    ).toEqual([]);
  });

  it('gives one finding when the URL cannot be reached, by what failed', () => {
    expect(codes([failed('valid', 'dns')])).toEqual(['dns_failed']);
    expect(codes([failed('valid', 'tls')])).toEqual(['tls_failed']);
    expect(codes([failed('valid', 'connection')])).toEqual(['connection_failed']);
    expect(codes([failed('valid', 'other')])).toEqual(['connection_failed']);
    const timedOut = only([failed('valid', 'timeout', 10_000)]);
    expect(timedOut).toMatchObject({ code: 'timed_out', severity: 'error' });
    expect(timedOut.summary).toContain('10000 ms');
  });

  it('refuses to diagnose without the valid probe’s answer', () => {
    expect(() => diagnose([kit('tampered', 'signature_mismatch')])).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
    let error: unknown;
    try {
      diagnose([]);
    } catch (caught) {
      error = caught;
    }
    expect(isDcbError(error, 'invalid_option')).toBe(true);
  });

  describe('a valid delivery refused', () => {
    it('reads a wrong secret from dcbkit’s signature_mismatch', () => {
      const signed = Object.fromEntries(
        PROBE_IDS.filter((id) => id !== 'unsigned' && id !== 'oversize').map((id) => [
          id,
          'signature_mismatch',
        ]),
      );
      const wrong = only(kitAnswers(signed));
      expect(wrong).toMatchObject({ code: 'wrong_secret', severity: 'error' });
      expect(wrong.summary).toContain('401 signature_mismatch');
      expect(wrong.fix).toContain('DCB_WEBHOOK_SECRET');
    });

    it('reads a wrong secret from any receiver that answers it as it answers a foreign signature', () => {
      const answers = answersOf((probe) => {
        if (probe === 'unsigned') return [401, 'missing signature'];
        if (probe === 'oversize') return [413];
        return [401, 'bad signature'];
      });
      expect(codes(answers)).toEqual(['wrong_secret']);
    });

    it('reads a dropped header from dcbkit’s header_missing, or from answers like the unsigned probe’s', () => {
      const dropped = Object.fromEntries(PROBE_IDS.map((id) => [id, 'header_missing']));
      expect(codes(kitAnswers({ ...dropped, oversize: 'body_too_large' }))).toEqual([
        'signature_header_dropped',
      ]);
      // Another framework's receiver behind the same proxy: every probe arrives unsigned, the
      // foreign-signed one too, so its answers cannot tell this from a wrong secret on a receiver
      // that answers both alike. The doctor says so rather than guess.
      const plain = answersOf((probe) => (probe === 'oversize' ? [413] : [401, 'missing signature']));
      expect(codes(plain)).toEqual(['signature_refused']);
      // Answered as the unsigned probe, and unlike the foreign-signed one: the header is what is missing.
      const likeUnsigned = answersOf((probe) =>
        probe === 'foreign_secret'
          ? [401, 'bad signature']
          : probe === 'oversize'
            ? [413]
            : [401, 'missing signature'],
      );
      expect(codes(likeUnsigned)).toEqual(['signature_header_dropped']);
    });

    it('says it cannot tell a wrong secret from a dropped header when every refusal reads alike', () => {
      const answers = answersOf((probe) => (probe === 'oversize' ? [413] : [401, 'Unauthorized']));
      const refused = only(answers);
      expect(refused.code).toBe('signature_refused');
      expect(refused.fix).toMatch(/DCB_WEBHOOK_SECRET.*Service-Signature.*raw bytes/);
    });

    it('reads a lost raw body from dcbkit’s body_not_raw', () => {
      expect(codes(answersOf((probe) => kit(probe, 'body_not_raw')))).toEqual(['raw_body_lost']);
    });

    it('reports a redirect with where it points', () => {
      const answers = answersOf((probe) =>
        answered(probe, 308, '', { location: 'https://shop.example/webhooks/dcb' }),
      );
      const redirected = only(answers);
      expect(redirected.code).toBe('valid_redirected');
      expect(redirected.summary).toContain('to https://shop.example/webhooks/dcb');
    });

    it('tells a missing route, a failing app and a refusal apart by status', () => {
      expect(codes(answersOf(() => [404, 'Cannot POST /webhooks/dcbb']))).toEqual(['valid_not_found']);
      expect(codes(answersOf(() => [405, 'Method Not Allowed']))).toEqual(['valid_not_found']);
      expect(codes(answersOf(() => [500, '<h1>Internal Server Error</h1>']))).toEqual(['valid_failed']);
      expect(codes(kitAnswers({ valid: 'processing_failed' }))).toEqual(['valid_failed']);
      const unknownEvent = answersOf((probe) =>
        PROBE_IDS.indexOf(probe) < 5 ? [400, 'unknown event dcbkit.probe'] : plainReceiver(probe),
      );
      const refused = only(unknownEvent);
      expect(refused.code).toBe('valid_refused');
      expect(refused.summary).toContain('400 unknown event dcbkit.probe');
    });
  });

  describe('the clock', () => {
    it('reads a clock minutes ahead from the probes and the Date header, as a warning while fresh deliveries pass', () => {
      const ahead = kitAnswers(
        { clock_past: 'timestamp_out_of_tolerance', stale: 'timestamp_out_of_tolerance' },
        { dateSkewSeconds: 180 },
      );
      const drift = only(ahead);
      expect(drift).toMatchObject({ code: 'clock_drift', severity: 'warning' });
      expect(drift.summary).toContain('180 s ahead of');
      expect(drift.summary).toContain('61 to 300 s ahead');
    });

    it('explains a stale delivery accepted by a clock behind, rather than blaming the check', () => {
      const behind = kitAnswers(
        { clock_future: 'timestamp_out_of_tolerance', stale: 'ignored' },
        { dateSkewSeconds: -120 },
      );
      const drift = only(behind);
      expect(drift.code).toBe('clock_drift');
      expect(drift.summary).toContain('120 s behind');
      expect(drift.summary).toContain('61 to 300 s behind');
      expect(drift.summary).toContain('also why it accepted a probe signed 360 s ago');
    });

    it('calls a clock that refuses fresh deliveries an error, with its size and direction', () => {
      const timed = Object.fromEntries(
        (['valid', 'duplicate', 'reformatted', 'clock_past', 'clock_future', 'stale'] as const).map((id) => [
          id,
          'timestamp_out_of_tolerance',
        ]),
      );
      const skew = only(kitAnswers(timed, { dateSkewSeconds: 600 }));
      expect(skew).toMatchObject({ code: 'clock_skew', severity: 'error' });
      expect(skew.summary).toContain('600 s ahead of');
      expect(skew.summary).toContain('more than 540 s off, behind or ahead');
      // Another framework, no Date header: the probe signed ahead passing tells the direction.
      const plain = answersOf((probe) =>
        probe === 'clock_future'
          ? answered(probe, 204, '', { noDate: true })
          : PROBE_IDS.indexOf(probe) < 4 || probe === 'stale'
            ? answered(probe, 401, 'expired', { noDate: true })
            : answered(probe, ...plainReceiver(probe), { noDate: true }),
      );
      const fromProbes = only(plain);
      expect(fromProbes.code).toBe('clock_skew');
      expect(fromProbes.summary).toContain('301 to 540 s ahead');
    });

    it('reads a Date header off by half a minute when the probes cannot see it, and lets ten seconds pass', () => {
      expect(codes(kitAnswers({}, { dateSkewSeconds: -45 }))).toEqual(['clock_drift']);
      expect(only(kitAnswers({}, { dateSkewSeconds: -45 })).summary).toContain('45 s behind');
      expect(codes(kitAnswers({}, { dateSkewSeconds: 10 }))).toEqual([]);
    });

    it('reads a tolerance narrower than the spec’s when both clock probes are refused', () => {
      const narrow = kitAnswers({
        clock_past: 'timestamp_out_of_tolerance',
        clock_future: 'timestamp_out_of_tolerance',
      });
      expect(codes(narrow)).toEqual(['narrow_tolerance']);
    });
  });

  it('finds a body re-serialised before verification: compact passes, reformatted fails', () => {
    const reserialised = only(kitAnswers({ reformatted: 'signature_mismatch' }));
    expect(reserialised.code).toBe('body_reserialised');
    expect(reserialised.summary).toContain('401 signature_mismatch');
    expect(reserialised.fix).toContain('express.raw');
    expect(
      codes(
        answersOf((probe) => (probe === 'reformatted' ? [400, 'Invalid signature'] : plainReceiver(probe))),
      ),
    ).toEqual(['body_reserialised']);
  });

  it('finds a duplicate delivery refused', () => {
    expect(
      codes(
        answersOf((probe) => (probe === 'duplicate' ? [409, 'already processed'] : plainReceiver(probe))),
      ),
    ).toEqual(['duplicate_refused']);
  });

  it('finds a receiver that does not verify, and one that verifies the signature but not its age', () => {
    const everything = only(answersOf(() => [200, 'ok']).filter(({ probe }) => probe !== 'oversize'));
    expect(everything.code).toBe('signature_not_verified');
    expect(everything.summary).toBe(
      'Accepted: the tampered probe (200 ok), the probe signed with another secret (200 ok), the unsigned probe (200 ok), the probe signed 360 s ago (200 ok).',
    );
    expect(codes(answersOf(() => [200, 'ok']))).toEqual(['signature_not_verified', 'no_body_limit']);
    expect(codes(kitAnswers({ stale: 'ignored' }))).toEqual(['stale_accepted']);
  });

  it('finds slow answers and probes left unanswered, the oversize upload aside', () => {
    const slow = only(kitAnswers({}, { latencyMs: 2500 }));
    expect(slow).toMatchObject({ code: 'slow_answers', severity: 'warning' });
    expect(slow.summary).toBe('9 of 9 answers took longer than 2 s (the slowest: valid, 2500 ms).');
    const someTimedOut = kitAnswers().map((answer) =>
      answer.probe === 'stale' || answer.probe === 'tampered'
        ? failed(answer.probe, 'timeout', 10_000)
        : answer,
    );
    expect(only(someTimedOut).summary).toBe('No answer in time to tampered, stale.');
    const slowUpload = kitAnswers().map((answer) =>
      answer.probe === 'oversize' ? kit('oversize', 'body_too_large', { latencyMs: 9000 }) : answer,
    );
    expect(codes(slowUpload)).toEqual([]);
  });

  it('finds an oversize body accepted, or left hanging', () => {
    expect(codes(kitAnswers({ oversize: 'ignored' }))).toEqual(['no_body_limit']);
    const hanging = kitAnswers().map((answer) =>
      answer.probe === 'oversize' ? failed('oversize', 'timeout', 10_000) : answer,
    );
    expect(codes(hanging)).toEqual(['oversize_not_refused']);
  });

  it('puts errors before warnings', () => {
    const answers = kitAnswers(
      { oversize: 'ignored', reformatted: 'signature_mismatch' },
      { latencyMs: 3000 },
    );
    expect(diagnose(answers).map(({ code, severity }) => `${severity} ${code}`)).toEqual([
      'error body_reserialised',
      'warning slow_answers',
      'warning no_body_limit',
    ]);
  });

  it('gives every finding the severity and fix of its row', () => {
    for (const found of diagnose(answersOf(() => [200, 'ok']))) {
      expect(found.severity).toBe(DOCTOR_FINDINGS[found.code].severity);
      expect(found.fix).toBe(DOCTOR_FINDINGS[found.code].fix);
    }
    expect(HEALTHY_KIT.valid).toBe('ignored');
  });
});
