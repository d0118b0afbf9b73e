import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from '../../browser/chromium.js';
import { newPhone } from './phone.js';

type Language = 'en' | 'fr' | 'ar';

/**
 * Debian's Chromium for the describe block it is called in: launched before its tests, closed
 * after them. Read it inside a test or a hook (it is not there yet while tests are collected).
 */
export function useChromium(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (browser === undefined) throw new Error('Chromium is launched in beforeAll');
    return browser;
  };
}

/** Phones (a context each, see newPhone) opened by the block's tests, all closed after them. */
export function usePhones(browser: () => Browser): (language: Language) => Promise<Page> {
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });
  return async (language) => {
    const context = await newPhone(browser(), language);
    contexts.push(context);
    return context.newPage();
  };
}

/** Signs a demo account in on the shop's sign-in page, by its name as the page lists it. */
export async function signInAs(page: Page, shopUrl: string, name: string): Promise<void> {
  await page.goto(`${shopUrl}/sign-in`);
  await page.getByLabel(name).check();
  await Promise.all([
    page.waitForURL(`${shopUrl}/`),
    page.locator('form[action="/sign-in"] button[type=submit]').click(),
  ]);
}

/** Signs the operator in on the operations view's sign-in page. */
export async function signInAsOperator(page: Page, shopUrl: string, password: string): Promise<void> {
  await page.goto(`${shopUrl}/ops/sign-in`);
  await page.locator('#operator-password').fill(password);
  await Promise.all([
    page.waitForURL(`${shopUrl}/ops`),
    page.locator('form[action="/ops/sign-in"] button').click(),
  ]);
}
