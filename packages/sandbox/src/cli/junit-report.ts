import type { PartnerCheckReport } from '../testing/partner-check-report.js';

/**
 * XML text and attribute values. Written here rather than with an XML library: JUnit needs five
 * escapes and control characters dropped, and the sandbox's CLI stays free of another dependency.
 */
function xml(text: string): string {
  return (
    text
      // XML 1.0 has no place for most control characters, even escaped: matching them is the point.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML cannot hold
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll('"', '&quot;')
      .replaceAll("'", '&apos;')
  );
}

/**
 * The report as JUnit XML, the format every CI reads: one test case per check, a failed check's
 * summary as its failure message and its fix and evidence as the failure's text, a skipped one
 * with why.
 */
export function junitReport(report: PartnerCheckReport, seconds: number): string {
  const failures = report.checks.filter((check) => check.outcome === 'failed').length;
  const skipped = report.checks.filter((check) => check.outcome === 'skipped').length;
  const counts = `tests="${report.checks.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds.toFixed(3)}"`;
  const cases = report.checks.map((check) => {
    const open = `    <testcase classname="dcbkit-sandbox.check" name="${xml(check.name)}" time="0">`;
    if (check.outcome === 'passed') {
      return `${open}\n      <system-out>${xml(check.summary)}</system-out>\n    </testcase>`;
    }
    if (check.outcome === 'skipped')
      return `${open}\n      <skipped message="${xml(check.summary)}"/>\n    </testcase>`;
    const body = [`Fix: ${check.fix ?? ''}`, ...check.evidence.map((line) => `- ${line}`)].join('\n');
    return `${open}\n      <failure message="${xml(check.summary)}" type="finding">${xml(body)}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="dcbkit-sandbox check" ${counts}>`,
    `  <testsuite name="${xml(`partner check of ${report.appUrl} (seed ${report.seed})`)}" ${counts}>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
