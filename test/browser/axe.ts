import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What axe.run reports per rule broken (the part read here). */
interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: Array<{ target: unknown[] }>;
}

/** One axe-core finding, short enough to read in a failed assertion. */
export interface AxeFinding {
  id: string;
  impact: string | null;
  targets: string[];
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules, and best practices) on the page as it stands and returns
 * its violations. The context must be created with `bypassCSP: true`: the checkout's CSP admits only
 * its own nonce-bound script, so the injected axe would be blocked otherwise.
 */
export async function axeViolations(page: Page): Promise<AxeFinding[]> {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run();
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      targets: violation.nodes.map((node) => node.target.map(String).join(' ')),
    }));
  });
}
