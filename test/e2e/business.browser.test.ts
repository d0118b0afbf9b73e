import type { RequestListener } from 'node:http';
import { fileURLToPath } from 'node:url';
import { formatPrice, memoryStore } from '@dcbkit/core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShopApp } from '../../starters/shop/src/framework/express/create-shop-app.js';
import { createLogger } from '../../starters/shop/src/logger.js';
import { startShopReconciler } from '../../starters/shop/src/reconciler.js';
import { chromiumAvailable } from '../browser/chromium.js';
import {
  MONTHS,
  PLANTED_UNTIL,
  type PlantedWorld,
  plantThreeMonths,
  startPlantedWorld,
} from '../metrics/planted-world.js';
import { type Counted, sandboxTruth, withoutEmpty } from '../metrics/sandbox-truth.js';
import { listen, type RunningServer } from '../support/listen.js';
import { expectAccessible, screenshot } from './support/phone.js';
import { signInAsOperator as signInAsShopOperator, useChromium, usePhones } from './support/walk.js';

const LANGUAGES = ['en', 'fr', 'ar'] as const;
type Language = (typeof LANGUAGES)[number];
const DOCS_IMAGE = fileURLToPath(new URL('../../docs/images/ops-business.png', import.meta.url));
const CHART_IDS = ['active', 'growth', 'renewals', 'churn', 'collected'];
/** Every chart of the page, view by view: kit.metrics' first, then the funnels', the revenue's and the cohorts'. */
const BUCKET_CHART_IDS = [
  ...CHART_IDS,
  'checkoutOutcomes',
  'checkoutCodes',
  'trialOutcomes',
  'revenueMoves',
  'mrr',
];
/** The cohorts' charts: by month whatever the interval, so their last label is a month's. */
const COHORT_CHART_IDS = ['cohortSizes', 'retention'];
const ALL_CHART_IDS = [...BUCKET_CHART_IDS, ...COHORT_CHART_IDS];
const PASSWORD = 'an-operator-password-for-the-business-walk';
const TRIAL_OFFER = 'offer_premium_monthly';

/** What each chart's table shows per bucket, in its columns' order, from a row of the truth. */
const TABLE_COLUMNS: Record<string, Array<(row: Counted) => number>> = {
  active: [(row) => row.activeSubscribers],
  growth: [(row) => row.newSubscriptions, (row) => row.trialsStarted, (row) => row.trialsConverted],
  renewals: [(row) => row.renewalsCollected, (row) => row.renewalsFailed, (row) => row.graceRecovered],
  churn: [
    (row) => row.churned.canceled,
    (row) => row.churned.expired,
    (row) => row.churned.suspended,
    (row) => row.churned.revoked,
  ],
  collected: [(row) => row.collected],
};

// Issue 36's planted history (test/metrics/planted-history.test.ts proves kit.metrics equals the
// sandbox's records on every store) behind the shop's own app, walked in Debian's Chromium as an
// operator would: sign in, open Business, ask for January to April by month, read each table. Every
// cell is checked against what the sandbox itself recorded, formatted as the page's language writes
// it; so is every number of the CSV. The page is the same on every framework (its routes are data,
// src/web/shop-route.ts; the HTTP tests run it on both), so the browser walks it on Express.
describe.runIf(chromiumAvailable)('the Business page in a browser, on a planted history', () => {
  const browser = useChromium();
  const phone = usePhones(browser);
  let world: PlantedWorld<ReturnType<typeof memoryStore>>;
  let shop: RunningServer;
  /** The sandbox's records by `<month>|<offerUid>`. */
  let truth: Map<string, Counted>;

  const signInAsOperator = (page: Page) => signInAsShopOperator(page, shop.url, PASSWORD);

  /** Fills the page's form as an operator does and asks for the view. */
  async function ask(page: Page, view: { from: string; to: string; interval: string; offer?: string }) {
    await page.locator('#business-from').fill(view.from);
    await page.locator('#business-to').fill(view.to);
    await page.locator('#business-interval').selectOption(view.interval);
    await page.locator('#business-offer').selectOption(view.offer ?? '');
    await Promise.all([
      page.waitForURL(/\/ops\/business\?/),
      page.locator('form.business-form button').click(),
    ]);
  }

  /** Each chart's table as the page shows it: its rows' cells, the bucket's name left out. */
  async function tables(page: Page): Promise<Record<string, string[][]>> {
    const shown: Record<string, string[][]> = {};
    for (const id of CHART_IDS) {
      const rows = page.locator(`section#${id} tbody tr`);
      shown[id] = await Promise.all(
        (await rows.all()).map(async (row) =>
          (await row.locator('td').allTextContents()).map((cell) => cell.trim()),
        ),
      );
    }
    return shown;
  }

  /** The same tables from the truth, for the months of the planted history, over one offer or all. */
  function expectedTables(language: Language, offerUid = ''): Record<string, string[][]> {
    const number = new Intl.NumberFormat(language);
    const monthTotal = (month: string, pick: (row: Counted) => number) =>
      [...truth]
        .filter(([key]) => key.startsWith(`${month}|`) && (offerUid === '' || key.endsWith(`|${offerUid}`)))
        .reduce((sum, [, row]) => sum + pick(row), 0);
    return Object.fromEntries(
      Object.entries(TABLE_COLUMNS).map(([id, columns]) => [
        id,
        MONTHS.map((month) =>
          columns.map((pick) => {
            const value = monthTotal(month, pick);
            return id === 'collected'
              ? formatPrice({ amount: value, currency: 'TND' }, language)
              : number.format(value);
          }),
        ),
      ]),
    );
  }

  /** The headline card of active subscribers, as the page shows it. */
  async function activeAtTheEnd(page: Page): Promise<string | undefined> {
    return (await page.locator('#figure-activeSubscribers .figure-value').textContent())?.trim();
  }

  /** The subscribers the sandbox holds live as April ended (the last bucket), over one offer or all. */
  function activeInApril(offerUid = ''): number {
    return [...truth]
      .filter(
        ([key]) => key.startsWith(`${MONTHS.at(-1)}|`) && (offerUid === '' || key.endsWith(`|${offerUid}`)),
      )
      .reduce((sum, [, row]) => sum + row.activeSubscribers, 0);
  }

  beforeAll(async () => {
    world = await startPlantedWorld(memoryStore());
    await plantThreeMonths(world);
    truth = withoutEmpty(
      await sandboxTruth(
        world.sandbox,
        { from: MONTHS[0] as string, to: PLANTED_UNTIL, interval: 'month' },
        world.spent,
      ),
    );
    const logger = createLogger('silent');
    const billing = {
      kit: world.kit,
      checkoutBaseUrl: world.sandbox.checkoutBaseUrl,
      sandbox: world.sandbox,
      description: 'the planted history of issue 36',
      reconciler: startShopReconciler(world.kit, 0),
      close: async () => {},
    };
    // Listening first: the app allows forms posted from its own origin only, known once it listens.
    let app: RequestListener = (_request, response) => response.writeHead(503).end();
    shop = await listen((request, response) => app(request, response));
    app = createShopApp({
      billing,
      publicUrl: shop.url,
      sessionSecret: 'a-session-secret-of-at-least-32-characters',
      trustProxy: 0,
      logger,
      operatorAccess: { password: PASSWORD, generated: false },
    });
  }, 240_000);

  afterAll(async () => {
    await shop?.close();
    await world?.close();
  });

  it.each(LANGUAGES)('shows the planted months as charts and tables, accessible (%s)', async (language) => {
    const page = await phone(language);
    // A script the CSP blocked, or Chart.js failing, shows in the console first.
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await signInAsOperator(page);
    await Promise.all([
      page.waitForURL(`${shop.url}/ops/business`),
      page.locator('nav a[href="/ops/business"]').click(),
    ]);
    expect(await page.locator('html').getAttribute('lang')).toBe(language);
    expect(await page.locator('html').getAttribute('dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
    expect(await page.locator('nav a[href="/ops/business"]').getAttribute('aria-current')).toBe('page');
    await ask(page, { from: '2030-01-01', to: '2030-04-30', interval: 'month' });

    // Every chart drawn by Chart.js on its canvas, in the page's direction.
    // The canvases are in the HTML; Chart.js (a deferred script) has drawn on each once getChart finds it.
    const drawn = await page.evaluate(() => {
      // The page's globals, typed here: the tests compile without the DOM's types.
      type Canvas = { id: string; width: number };
      type ChartJs = {
        getChart(canvas: Canvas):
          | {
              options: { plugins: { legend: { rtl: boolean } } };
              scales: { x: { ticks: Array<{ label: unknown }> } };
            }
          | undefined;
      };
      const page = globalThis as unknown as {
        Chart?: ChartJs;
        document: { querySelectorAll(selector: string): Iterable<Canvas> };
      };
      return [...page.document.querySelectorAll('canvas')].map((canvas) => {
        const chart = page.Chart?.getChart(canvas);
        return {
          id: canvas.id,
          width: canvas.width,
          rtl: chart?.options.plugins.legend.rtl,
          // The x axis's drawn labels, null where a bucket is left unlabelled.
          ticks: chart?.scales.x.ticks.map((tick) => tick.label ?? null),
        };
      });
    });
    expect(drawn.map(({ id }) => id)).toEqual(ALL_CHART_IDS.map((id) => `chart-${id}`));
    const april = new Intl.DateTimeFormat(language, {
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date('2030-04-01T00:00:00Z'));
    for (const canvas of drawn) {
      expect(canvas.width).toBeGreaterThan(100);
      expect(canvas.rtl).toBe(language === 'ar');
      // The last bucket always has its label on the axis.
      expect(canvas.ticks?.at(-1)).toBe(april);
    }

    // The headline figures first, one card each; active subscribers as April ended, as the sandbox holds them.
    expect(await page.locator('dl.headline-figures > div.figure').count()).toBeGreaterThanOrEqual(7);
    expect(await activeAtTheEnd(page)).toBe(new Intl.NumberFormat(language).format(activeInApril()));

    // Every cell of every table, January to April, as the sandbox recorded it.
    expect(await tables(page)).toEqual(expectedTables(language));
    // Something of each kind: the walk does not compare two empty tables.
    expect(expectedTables('en').growth?.map((row) => row[2])).toContain('12');

    expect(consoleErrors).toEqual([]);
    await expectAccessible(page);
    await screenshot(page, `express/ops-business-${language}`);
  });

  it('narrows to one offer, and the CSV of the same view holds every number the sandbox recorded', async () => {
    const page = await phone('en');
    await signInAsOperator(page);
    await page.goto(`${shop.url}/ops/business`);
    await ask(page, { from: '2030-01-01', to: '2030-04-30', interval: 'month', offer: TRIAL_OFFER });
    expect(await tables(page)).toEqual(expectedTables('en', TRIAL_OFFER));
    // The headline figures follow the filter too.
    expect(await activeAtTheEnd(page)).toBe(String(activeInApril(TRIAL_OFFER)));
    // The filter tells this offer from the same product's offer without a trial.
    expect(await page.locator('#business-offer option:checked').textContent()).toMatch(
      /^.+ — TND\s?[\d.]+ per month, free trial of \d+ days?$/,
    );

    await ask(page, { from: '2030-01-01', to: '2030-04-30', interval: 'month' });
    const csvHref = await page.locator('a[href^="/ops/business/metrics.csv"]').getAttribute('href');
    const csv = await page.evaluate(async (href) => (await fetch(href)).text(), csvHref ?? '');
    const [header, ...lines] = csv
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    const column = (line: string[], name: string) => line[(header ?? []).indexOf(name)] ?? '';
    const count = (line: string[], name: string) => Number(column(line, name));
    const rows = new Map<string, Counted>(
      lines.map((line) => [
        `${column(line, 'start')}|${column(line, 'offerUid')}`,
        {
          offerUid: column(line, 'offerUid'),
          activeSubscribers: count(line, 'activeSubscribers'),
          trialsStarted: count(line, 'trialsStarted'),
          trialsConverted: count(line, 'trialsConverted'),
          newSubscriptions: count(line, 'newSubscriptions'),
          renewalsCollected: count(line, 'renewalsCollected'),
          renewalsFailed: count(line, 'renewalsFailed'),
          graceRecovered: count(line, 'graceRecovered'),
          churned: {
            canceled: count(line, 'churnedCanceled'),
            expired: count(line, 'churnedExpired'),
            suspended: count(line, 'churnedSuspended'),
            revoked: count(line, 'churnedRevoked'),
          },
          unitsSold: count(line, 'unitsSold'),
          unitsSpent: count(line, 'unitsSpent'),
          unlocksSold: count(line, 'unlocksSold'),
          collected: count(line, 'collectedMinorUnits'),
        },
      ]),
    );
    expect(Object.fromEntries(withoutEmpty(rows))).toEqual(Object.fromEntries(truth));

    // A daily view over the planted months and more is paged: the most recent page still labels
    // its last bucket on every chart however many buckets the axis holds.
    await ask(page, { from: '2029-06-01', to: '2030-04-30', interval: 'day' });
    expect(await page.locator('nav.business-paging').textContent()).toContain('a page shows at most 92');
    const lastTicks = await page.evaluate(() => {
      type Canvas = { id: string };
      const page = globalThis as unknown as {
        Chart: { getChart(canvas: Canvas): { scales: { x: { ticks: Array<{ label: unknown }> } } } };
        document: { querySelectorAll(selector: string): Iterable<Canvas> };
      };
      return [...page.document.querySelectorAll('canvas')].map(
        (canvas) => page.Chart.getChart(canvas).scales.x.ticks.at(-1)?.label,
      );
    });
    expect(lastTicks).toEqual([
      ...Array(BUCKET_CHART_IDS.length).fill('Apr 30, 2030'),
      ...Array(COHORT_CHART_IDS.length).fill('Apr 2030'),
    ]);
    await expectAccessible(page);

    // The docs' picture of the page (docs/operations.md, the shop's README): the planted history
    // by week, to the sandbox's today.
    await page.setViewportSize({ width: 1100, height: 900 });
    await ask(page, { from: '2030-01-01', to: '2030-04-07', interval: 'week' });
    expect(await page.locator('canvas').count()).toBe(ALL_CHART_IDS.length);
    await expectAccessible(page);
    // The top of the page, as the docs describe it: the headline figures and kit.metrics' charts
    // (the whole page, five views, would be a picture of 13,000 pixels and a megabyte).
    await page.screenshot({
      path: DOCS_IMAGE,
      fullPage: true,
      clip: { x: 0, y: 0, width: 1100, height: 2400 },
    });
  });
});
