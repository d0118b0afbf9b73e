import {
  describeAnswer,
  isAccepted,
  isAnswered,
  isFailed,
  kitCodeOf,
  kitWordOf,
  type ProbeAnswer,
} from './probe-answer.js';
import type { DoctorCheckout, DoctorReport } from './run-doctor.js';

// The report in words for a terminal, and as JSON for a script (`--json`). Neither ever holds a
// secret: the probes' headers are not part of the report.

const WIDTH = 100;

/** True when the probe got what a receiver that follows the spec answers. */
export function asExpected(answer: ProbeAnswer): boolean {
  if (answer.expect === 'accepted') return isAccepted(answer);
  // A refused oversize body may be cut off by a reset rather than answered: still refused.
  return isAnswered(answer)
    ? !isAccepted(answer)
    : answer.probe === 'oversize' && answer.failure !== 'timeout';
}

/** What a dcbkit receiver did with this run, for the note under the report; undefined for any other receiver. */
export function dcbkitNote(answers: readonly ProbeAnswer[]): string | undefined {
  if (!answers.some((answer) => kitWordOf(answer) !== undefined)) return undefined;
  const refusals = new Map<string, number>();
  for (const answer of answers) {
    const code = kitCodeOf(answer);
    if (code !== undefined) refusals.set(code, (refusals.get(code) ?? 0) + 1);
  }
  const counted = [...refusals].map(([code, count]) => `${code} ${count}`).join(', ');
  const accepted = answers.filter(isAccepted);
  const allIgnored = accepted.length > 0 && accepted.every((answer) => kitWordOf(answer) === 'ignored');
  return [
    'The receiver is dcbkit.',
    allIgnored
      ? 'It answered the probes it accepted "ignored", before its ledger and store: no entitlement changed.'
      : '',
    counted === ''
      ? ''
      : `It counted the probes it refused in kit.webhookHealth() (${counted}) and logged them; an operations view shows them until the process restarts.`,
  ]
    .filter((sentence) => sentence !== '')
    .join(' ');
}

/** The report for a terminal. */
export function formatReport(report: DoctorReport): string {
  const lines = [`dcbkit doctor: POST ${report.url} (run ${report.runId})`, ''];
  lines.push(row(' ', 'probe', 'expected', 'answer', 'time'));
  for (const answer of report.answers) {
    lines.push(
      row(
        asExpected(answer) ? ' ' : '!',
        answer.probe,
        answer.expect === 'accepted' ? '2xx' : 'refusal',
        describeAnswer(answer),
        `${Math.round(answer.latencyMs)} ms`,
      ),
    );
  }
  if (report.checkout) lines.push('', ...wrap(checkoutLine(report.checkout), 2));
  lines.push('');
  const { findings } = report;
  if (findings.length === 0) {
    lines.push('Healthy: every probe was answered as the spec expects.');
  } else {
    lines.push(`${findings.length} finding${findings.length === 1 ? '' : 's'}:`);
    for (const { code, severity, summary, fix } of findings) {
      lines.push('', `${severity.padEnd(8)} ${code}`);
      lines.push(...wrap(summary, 9), ...wrap(`Fix: ${fix}`, 9));
    }
  }
  const note = dcbkitNote(report.answers);
  if (note !== undefined) lines.push('', ...wrap(note, 0));
  return lines.join('\n');
}

/** The report for a script: stable keys, every finding's code and severity, each probe's answer. */
export function reportJson(report: DoctorReport): string {
  const { dateSkewSeconds, verifyingOffsets } = report.clock;
  return JSON.stringify(
    {
      url: report.url,
      runId: report.runId,
      startedAt: report.startedAt,
      healthy: report.findings.length === 0,
      findings: report.findings,
      probes: report.answers.map((answer) => ({
        probe: answer.probe,
        expected: answer.expect,
        asExpected: asExpected(answer),
        answer: describeAnswer(answer),
        ...(isAnswered(answer) ? { status: answer.status } : {}),
        ...(kitWordOf(answer) !== undefined ? { dcbkit: kitWordOf(answer) } : {}),
        ...(isFailed(answer) ? { failure: answer.failure, message: answer.message } : {}),
        latencyMs: Math.round(answer.latencyMs),
      })),
      clock: {
        dateSkewSeconds: dateSkewSeconds ?? null,
        // JSON has no Infinity: an open end is null.
        verifyingOffsets:
          verifyingOffsets?.map(({ min, max }) => ({
            min: Number.isFinite(min) ? min : null,
            max: Number.isFinite(max) ? max : null,
          })) ?? null,
      },
      ...(report.checkout ? { checkout: checkoutJson(report.checkout) } : {}),
      notes: [dcbkitNote(report.answers)].filter((note) => note !== undefined),
    },
    null,
    2,
  );
}

/** The checkout the doctor opened, in one sentence under the probes. */
function checkoutLine({ result, checkoutBaseUrl }: DoctorCheckout): string {
  const against = `checkout host ${checkoutBaseUrl ?? '(DCB_CHECKOUT_BASE_URL not set)'}`;
  if (result.outcome === 'failed') {
    return `checkout: POST /v1/payments for ${result.offerUid} failed (${result.code ?? 'no code'}); ${against}`;
  }
  const ended = result.canceled ? 'cancelled' : 'NOT cancelled';
  return `checkout: ${result.offerUid} -> ${result.checkoutUrl ?? '(no checkout URL)'} (${result.paymentUid}, ${ended}); ${against}`;
}

function checkoutJson({ result, checkoutBaseUrl }: DoctorCheckout) {
  return { ...result, checkoutBaseUrl: checkoutBaseUrl ?? null };
}

function row(mark: string, probe: string, expected: string, answer: string, time: string): string {
  return `${mark} ${probe.padEnd(15)} ${expected.padEnd(9)} ${answer.padEnd(44)} ${time.padStart(8)}`.trimEnd();
}

/** Words wrapped to WIDTH columns, every line indented by `indent`. */
function wrap(text: string, indent: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && indent + line.length + 1 + word.length > WIDTH) {
      lines.push(' '.repeat(indent) + line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(' '.repeat(indent) + line);
  return lines;
}
