/** docs/doctor.md keeps up with the doctor: a section per finding, with the fix the report prints, and every probe. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCTOR_FINDINGS } from '../../packages/core/src/cli/doctor/findings.js';
import { planProbes } from '../../packages/core/src/cli/doctor/probe-plan.js';

const doc = readFileSync(new URL('../../docs/doctor.md', import.meta.url), 'utf8');
const words = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('docs/doctor.md', () => {
  it.each(Object.entries(DOCTOR_FINDINGS))(
    'documents %s with its severity and the fix the report prints',
    (code, row) => {
      const start = doc.indexOf(`### \`${code}\` (${row.severity})`);
      expect(start, `a "### \`${code}\` (${row.severity})" section`).toBeGreaterThan(-1);
      const end = doc.indexOf('\n### ', start + 1);
      const section = words(doc.slice(start, end === -1 ? undefined : end));
      expect(section).toContain(`**Fix.** ${words(row.fix)}`);
    },
  );

  it('lists every probe the doctor sends', () => {
    const sends = doc.slice(doc.indexOf('## What it sends'), doc.indexOf('## Safe against production'));
    const probes = planProbes({ secret: 's', foreignSecret: 'f', runId: 'r', now: new Date() });
    for (const { id } of probes) expect(sends, id).toContain(`\`${id}\``);
  });
});
