import { describe, expect, it } from 'vitest';
import type { PartnerCheckReport } from '../testing/partner-check-report.js';
import { junitReport } from './junit-report.js';

const report: PartnerCheckReport = {
  passed: false,
  appUrl: 'http://127.0.0.1:8000',
  seed: 1,
  checks: [
    {
      name: 'checkout',
      outcome: 'passed',
      summary: "9 purchases <through> the app's checkout.",
      fix: null,
      evidence: [],
    },
    {
      name: 'units',
      outcome: 'failed',
      summary: '2 accounts spent more units than they paid for.',
      fix: 'count a unit once per order & answer 2xx',
      evidence: ['acct "a": 1 paid, 2 spent\u0007'],
    },
    { name: 'access-gate', outcome: 'skipped', summary: 'No gate named.', fix: null, evidence: [] },
  ],
  purchases: [],
  gates: [],
  deliveries: {
    events: 0,
    attemptsToApp: 0,
    duplicates: 0,
    heldBack: 0,
    delayed: 0,
    indented: 0,
    deadLettered: 0,
    replays: 0,
  },
};

describe('junitReport', () => {
  const xml = junitReport(report, 1.5);

  it('counts the cases as CI tools read them', () => {
    expect(xml).toContain(
      '<testsuites name="dcbkit-sandbox check" tests="3" failures="1" errors="0" skipped="1" time="1.500">',
    );
  });

  it('gives a failure its summary as the message, and its fix and evidence as the text', () => {
    expect(xml).toContain(
      '<testcase classname="dcbkit-sandbox.check" name="units" time="0">\n      <failure message="2 accounts spent more units than they paid for." type="finding">Fix: count a unit once per order &amp; answer 2xx\n- acct &quot;a&quot;: 1 paid, 2 spent</failure>',
    );
    expect(xml).toContain('<skipped message="No gate named."/>');
  });

  it('escapes markup and drops control characters XML cannot hold', () => {
    expect(xml).toContain('9 purchases &lt;through&gt; the app&apos;s checkout.');
    expect(xml).not.toContain('\u0007');
  });
});
