import { describe, expect, it } from 'vitest';
import { clockEvidence } from './clock-evidence.js';
import { diagnose } from './diagnose.js';
import { asExpected, dcbkitNote, formatReport, reportJson } from './format-report.js';
import type { ProbeAnswer } from './probe-answer.js';
import type { DoctorReport } from './run-doctor.js';
import { answersOf, failed, kitAnswers } from './test-support/recorded-answers.js';

function reportOf(answers: ProbeAnswer[]): DoctorReport {
  return {
    url: 'https://shop.example/webhooks/dcb',
    runId: 'run42',
    startedAt: '2030-01-01T12:00:00.000Z',
    answers,
    findings: diagnose(answers),
    clock: clockEvidence(answers),
  };
}

describe('formatReport', () => {
  it('lists every probe with its answer and time, marks the unexpected ones, then each finding and its fix', () => {
    const text = formatReport(reportOf(kitAnswers({ reformatted: 'signature_mismatch' })));
    const lines = text.split('\n');
    expect(lines[0]).toBe('dcbkit doctor: POST https://shop.example/webhooks/dcb (run run42)');
    expect(lines).toContain(
      '  valid           2xx       200 ignored                                     20 ms',
    );
    expect(lines).toContain(
      '! reformatted     2xx       401 signature_mismatch                          20 ms',
    );
    expect(lines).toContain(
      '  oversize        refusal   413 body_too_large                              20 ms',
    );
    expect(text).toContain(
      '1 finding:\n\nerror    body_reserialised\n         The compact valid probe was accepted',
    );
    expect(text).toMatch(/\n {9}Fix: The receiver verifies JSON it re-serialised/);
    expect(lines.every((line) => line.length <= 100)).toBe(true);
  });

  it('says healthy when nothing was found', () => {
    expect(formatReport(reportOf(kitAnswers()))).toContain(
      '\nHealthy: every probe was answered as the spec expects.\n',
    );
  });
});

describe('reportJson', () => {
  it('gives a script the findings, each probe’s answer and the clock, with open ranges as null', () => {
    const answers = kitAnswers(
      Object.fromEntries(
        (['valid', 'duplicate', 'reformatted', 'clock_past', 'clock_future', 'stale'] as const).map((id) => [
          id,
          'timestamp_out_of_tolerance',
        ]),
      ),
      { dateSkewSeconds: 600 },
    );
    const json = JSON.parse(reportJson(reportOf(answers)));
    expect(json).toMatchObject({ url: 'https://shop.example/webhooks/dcb', runId: 'run42', healthy: false });
    expect(json.findings).toEqual([expect.objectContaining({ code: 'clock_skew', severity: 'error' })]);
    expect(json.probes[0]).toEqual({
      probe: 'valid',
      expected: 'accepted',
      asExpected: false,
      answer: '401 timestamp_out_of_tolerance',
      status: 401,
      dcbkit: 'timestamp_out_of_tolerance',
      latencyMs: 20,
    });
    expect(json.clock).toEqual({
      dateSkewSeconds: 600,
      verifyingOffsets: [
        { min: null, max: -541 },
        { min: 541, max: null },
      ],
    });
    expect(json.notes).toHaveLength(1);
  });

  it('records a failed probe’s kind and message', () => {
    const json = JSON.parse(reportJson(reportOf([failed('valid', 'tls')])));
    expect(json.probes).toEqual([
      {
        probe: 'valid',
        expected: 'accepted',
        asExpected: false,
        answer: 'no answer (tls)',
        failure: 'tls',
        message: 'tls failure',
        latencyMs: 20,
      },
    ]);
    expect(json.notes).toEqual([]);
  });
});

describe('asExpected', () => {
  it('takes a reset connection as a refusal of the oversize body, never a timeout', () => {
    expect(asExpected(failed('oversize', 'connection'))).toBe(true);
    expect(asExpected(failed('oversize', 'timeout'))).toBe(false);
    expect(asExpected(failed('stale', 'connection'))).toBe(false);
  });
});

describe('dcbkitNote', () => {
  it('tells a dcbkit receiver’s operator what the run left in its counts, and says nothing of other receivers', () => {
    expect(dcbkitNote(kitAnswers())).toBe(
      'The receiver is dcbkit. It answered the probes it accepted "ignored", before its ledger and store: no entitlement changed. It counted the probes it refused in kit.webhookHealth() (signature_mismatch 2, header_missing 1, timestamp_out_of_tolerance 1, body_too_large 1) and logged them; an operations view shows them until the process restarts.',
    );
    expect(dcbkitNote(answersOf(() => [200, 'ok']))).toBeUndefined();
  });
});
