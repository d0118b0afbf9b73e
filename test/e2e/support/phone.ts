import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

/** Where each page's screenshot goes (gitignored; a few are copied into docs/images/ by hand). */
export const ARTIFACTS = new URL('../artifacts/', import.meta.url);

/** A phone-sized screen (an iPhone 12/13/14's CSS pixels), at 1x so screenshots stay small. */
export const PHONE = { width: 390, height: 844 };

export function newPhone(browser: Browser, language: 'en' | 'fr' | 'ar'): Promise<BrowserContext> {
  return browser.newContext({
    viewport: PHONE,
    deviceScaleFactor: 1,
    isMobile: true,
    hasTouch: true,
    locale: language,
    extraHTTPHeaders: { 'accept-language': language },
  });
}

/** Saves a full-page screenshot as artifacts/<name>.png; `name` may start with a folder (`koa/offers`). */
export async function screenshot(page: Page, name: string): Promise<void> {
  const file = new URL(`${name}.png`, ARTIFACTS);
  mkdirSync(new URL('./', file), { recursive: true });
  await page.screenshot({ path: fileURLToPath(file), fullPage: true });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core (WCAG A and AA, and best practices) on the page as it stands and expects no finding.
 * axe is evaluated through the DevTools protocol rather than a <script> tag: the shop's CSP admits
 * only its own script files, and the test keeps that CSP as a visitor gets it.
 */
export async function expectAccessible(page: Page, options: { except?: string[] } = {}): Promise<void> {
  await page.evaluate(axeSource);
  const except = options.except ?? [];
  const findings = await page.evaluate(async (disabled) => {
    type Violation = { id: string; impact: string | null; nodes: Array<{ target: unknown[] }> };
    type Axe = { run(options: object): Promise<{ violations: Violation[] }> };
    const axe = (globalThis as unknown as { axe: Axe }).axe;
    const rules = Object.fromEntries(disabled.map((id) => [id, { enabled: false }]));
    const { violations } = await axe.run({ rules });
    return violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      targets: violation.nodes.map((node) => node.target.map(String).join(' ')),
    }));
  }, except);
  expect(findings, `axe findings on ${page.url()}`).toEqual([]);
}
