import type { PartnerCheckReport } from '../testing/partner-check-report.js';

const MARK = { passed: 'ok  ', failed: 'FAIL', skipped: 'skip' } as const;
// Enough to see the pattern in a terminal or a CI log; the JUnit file keeps every line.
const EVIDENCE_SHOWN = 8;

/** The report as the terminal shows it: a line per check, then each finding's fix and evidence. */
export function checkReportText(report: PartnerCheckReport): string {
  const lines = [`Partner check of ${report.appUrl} (chaos seed ${report.seed})`, ''];
  const width = Math.max(...report.checks.map((check) => check.name.length));
  for (const check of report.checks) {
    lines.push(`  ${MARK[check.outcome]}  ${check.name.padEnd(width)}  ${check.summary}`);
    if (check.outcome !== 'failed') continue;
    if (check.fix !== null) lines.push(`        Fix: ${check.fix}`);
    for (const line of check.evidence.slice(0, EVIDENCE_SHOWN)) lines.push(`        - ${line}`);
    const more = check.evidence.length - EVIDENCE_SHOWN;
    if (more > 0) lines.push(`        - and ${more} more (in the JUnit report)`);
  }
  const { deliveries } = report;
  lines.push(
    '',
    `Deliveries: ${deliveries.events} events in ${deliveries.attemptsToApp} posts to the app (${deliveries.duplicates} duplicates, ${deliveries.heldBack} held back, ${deliveries.delayed} delayed, ${deliveries.indented} indented, ${deliveries.deadLettered} dead-lettered and ${deliveries.replays} replayed).`,
  );
  const findings = report.checks.filter((check) => check.outcome === 'failed').length;
  lines.push(
    findings === 0 ? 'Passed.' : `${findings} finding${findings === 1 ? '' : 's'}: see each fix above.`,
  );
  return lines.join('\n');
}
