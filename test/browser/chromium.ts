import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium: a browser download at install time is not possible here. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Browser tests run wherever Chromium is installed, and always in CI (.ci/run installs it):
 * there a missing browser fails the run instead of quietly skipping it.
 */
export const chromiumAvailable = existsSync(CHROMIUM_PATH) || process.env.CI === 'true';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}
