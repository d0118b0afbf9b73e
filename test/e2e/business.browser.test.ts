import type { RequestListener } from 'node:http';
import { fileURLToPath } from 'node:url';
import { memoryStore } from '@dcbkit/core';
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
import { listen, type RunningServer } from '../support/listen.js';
import { expectedHeadline, expectedPage, type ShownPage } from './support/business-expected.js';
import {
  askBusiness,
  checkoutsOfCsv,
  cohortsOfCsv,
  countedOfCsv,
  readCsv,
  readShownPage,
  revenueOfCsv,
  trialsOfCsv,
} from './support/business-page.js';
import { type BusinessTruth, businessTruth } from './support/business-truth.js';
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
const DAY_MS = 86_400_000;
/** The day after the sandbox's today, April 7: the end of the weekly view the docs picture. */
const APRIL_8 = '2030-04-08T00:00:00.000Z';
const PASSWORD = 'an-operator-password-for-the-business-walk';
const TRIAL_OFFER = 'offer_premium_monthly';
const PASS_OFFER = 'offer_day_pass';
/** The views' ids, as their CSVs are named (/ops/business/<id>.csv). */
const VIEW_IDS = ['metrics', 'checkouts', 'trials', 'revenue', 'cohorts'];

// Issue 36's planted history (test/metrics/planted-history.test.ts proves the kit's reports equal
// the sandbox's records on every store), with checkouts started through the kit's routes, behind
// the shop's own app, walked in Debian's Chromium as an operator would: sign in, open Business,
// ask for January to April by month, read every headline card and every table of every view, and
// download every view's CSV. Each is checked against what the sandbox itself recorded
// (support/business-truth.ts), formatted as the page's language writes it
// (support/business-expected.ts). The page is the same on every framework (its routes are data,
// src/web/shop-route.ts; the HTTP tests run it on both), so the browser walks it on Express.
describe.runIf(chromiumAvailable)('the Business page in a browser, on a planted history', () => {
  const browser = useChromium();
  const phone = usePhones(browser);
  let world: PlantedWorld<ReturnType<typeof memoryStore>>;
  let shop: RunningServer;
  let truth: BusinessTruth;

  const signInAsOperator = (page: Page) => signInAsShopOperator(page, shop.url, PASSWORD);

  /** The page the sandbox's records say the operator must read, in `language`, for one offer or all. */
  async function expected(language: Language, offerUid = ''): Promise<ShownPage> {
    return expectedPage(truth, await truth.figures(offerUid), language, offerUid);
  }

  beforeAll(async () => {
    world = await startPlantedWorld(memoryStore());
    await plantThreeMonths(world);
    truth = await businessTruth(world);
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

  it.each(LANGUAGES)(
    'shows the planted months as charts and tables, accessible (%s)',
    async (language) => {
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
      await askBusiness(page, { from: '2030-01-01', to: '2030-04-30', interval: 'month' });

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

      // Every headline card and every cell of every table, January to April, as the sandbox recorded it.
      const shown = await readShownPage(page, ALL_CHART_IDS);
      const wanted = await expected(language);
      expect(shown.headline).toEqual(wanted.headline);
      expect(shown.tables).toEqual(wanted.tables);
      // Something of each kind: the walk does not compare two empty pages.
      if (language === 'en') expectSomethingOfEachKind(wanted);

      expect(consoleErrors).toEqual([]);
      await expectAccessible(page);
      await screenshot(page, `express/ops-business-${language}`);
    },
    60_000,
  );

  // Longer than one page: a CSV of every view, and a daily view of eleven months, each with its truth.
  it('narrows to an offer, and every CSV, the daily and the weekly view hold what the sandbox recorded', async () => {
    const page = await phone('en');
    await signInAsOperator(page);
    await page.goto(`${shop.url}/ops/business`);
    // The headline figures follow the filter too: the kit narrows them itself. A pass has no
    // recurring revenue, no trial and no cohort: those views show it as empty as the records are.
    for (const offer of [PASS_OFFER, TRIAL_OFFER]) {
      await askBusiness(page, { from: '2030-01-01', to: '2030-04-30', interval: 'month', offer });
      expect(await readShownPage(page, ALL_CHART_IDS)).toEqual(await expected('en', offer));
    }
    // The filter tells this offer from the same product's offer without a trial.
    expect(await page.locator('#business-offer option:checked').textContent()).toMatch(
      /^.+ — TND\s?[\d.]+ per month, free trial of \d+ days?$/,
    );

    // Every view's CSV of the whole period, every offer, line by line against the same truth.
    await askBusiness(page, { from: '2030-01-01', to: '2030-04-30', interval: 'month' });
    const csv = Object.fromEntries(
      await Promise.all(VIEW_IDS.map(async (id) => [id, await readCsv(page, id)] as const)),
    );
    const entries = <T>(map: ReadonlyMap<string, T>) => Object.fromEntries(map);
    expect(entries(countedOfCsv(csv.metrics ?? []))).toEqual(entries(truth.counted));
    expect(entries(checkoutsOfCsv(csv.checkouts ?? []))).toEqual(entries(truth.checkouts));
    expect(entries(trialsOfCsv(csv.trials ?? []))).toEqual(entries(truth.lifecycle.trialFunnel('month')));
    const revenue = revenueOfCsv(csv.revenue ?? []);
    expect(entries(revenue.moves)).toEqual(entries(truth.lifecycle.movements('month')));
    // April is not over on the sandbox's clock: its revenue is as of now.
    expect(entries(revenue.complete)).toEqual(
      Object.fromEntries(MONTHS.map((month, index) => [month, index < MONTHS.length - 1])),
    );
    expect(entries(cohortsOfCsv(csv.cohorts ?? []))).toEqual(entries(truth.lifecycle.cohorts));

    // A daily view over the planted months and more is paged: the most recent page still labels
    // its last bucket on every chart however many buckets the axis holds.
    await askBusiness(page, { from: '2029-06-01', to: '2030-04-30', interval: 'day' });
    expect(await page.locator('nav.business-paging').textContent()).toContain('a page shows at most 92');
    // The headline figures read the whole period (334 days beside the 334 before), not the page shown.
    const days = { from: '2029-06-01T00:00:00.000Z', to: PLANTED_UNTIL };
    const before = { from: new Date(Date.parse(days.from) - 334 * DAY_MS).toISOString(), to: days.from };
    expect((await readShownPage(page, [])).headline).toEqual(
      expectedHeadline(await truth.figures('', days, before), 'en'),
    );
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
    await askBusiness(page, { from: '2030-01-01', to: '2030-04-07', interval: 'week' });
    expect(await page.locator('canvas').count()).toBe(ALL_CHART_IDS.length);
    // By week (from Monday, December 31), every card and table as the sandbox's records give them.
    const weeks = await businessTruth(world, { from: MONTHS[0] as string, to: APRIL_8, interval: 'week' });
    expect(await readShownPage(page, ALL_CHART_IDS)).toEqual(
      expectedPage(weeks, await weeks.figures(''), 'en', ''),
    );
    await expectAccessible(page);
    // The top of the page, as the docs describe it: the headline figures and kit.metrics' charts
    // (the whole page, five views, would be a picture of 13,000 pixels and a megabyte).
    await page.screenshot({
      path: DOCS_IMAGE,
      fullPage: true,
      clip: { x: 0, y: 0, width: 1100, height: 2400 },
    });
  }, 120_000);
});

/**
 * The planted history holds something of every kind the page shows: a table of zeros, or a card
 * with no value, would compare equal to an oracle as empty as it.
 */
function expectSomethingOfEachKind(page: ShownPage) {
  const cells = (id: string) => (page.tables[id] ?? []).slice(1).flatMap((row) => row.slice(1));
  // Twelve trials converted in one month; several outcomes and codes of checkouts.
  expect(page.tables.growth?.map((row) => row[2])).toContain('12');
  expect(page.tables.checkoutCodes?.[0]).toHaveLength(1 + 7);
  expect(new Set(cells('checkoutOutcomes')).size).toBeGreaterThan(3);
  for (const id of ['trialOutcomes', 'revenueMoves', 'mrr', 'cohortSizes', 'retention']) {
    expect(cells(id).filter((cell) => !/^(0|TND\s?0\.000|—)$/.test(cell)).length, id).toBeGreaterThan(0);
  }
  expect(cells('mrr').at(-1)).toMatch(/\(so far\)$/);
  expect(cells('retention')).toContain('—');
  expect(cells('retention').some((cell) => cell.endsWith('(month not over)'))).toBe(true);
  for (const card of Object.values(page.headline)) expect(card.value, card.label).not.toBe('—');
}
