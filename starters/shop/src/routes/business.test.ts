import { createCheckoutDriver } from '@dcbkit/sandbox/testing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type BrowserSession, postForm, tokenOn } from '../test-support/browser-session.js';
import { type ShopUnderTest, shopUnderTest, TEST_OPERATOR } from '../test-support/shop-under-test.js';

/** The headline cards as text: each figure's id, its value, its note and its change, spaces squeezed. */
const figuresOf = (
  html: string,
): Record<string, { value: string; note?: string; change: string; words: string }> =>
  Object.fromEntries(
    [...html.matchAll(/<div class="card figure" id="figure-([\w-]+)">(.*?)<\/div>/g)].map(([, id, card]) => {
      const part = (pattern: RegExp) => pattern.exec(card ?? '')?.[1]?.trim();
      const note = part(/<dd class="figure-note small">(.*?)<\/dd>/);
      return [
        id,
        {
          value: part(/<dd class="figure-value">(.*?)<\/dd>/) ?? '',
          ...(note === undefined ? {} : { note }),
          change: part(/<bdi>(.*?)<\/bdi>/) ?? '',
          words: part(/<span class="visually-hidden">(.*?)<\/span>/) ?? '',
        },
      ];
    }),
  );

// The Business page and its CSV over HTTP, after a trial and a day pass bought through the embedded sandbox.
describe('the Business page', () => {
  let shop: ShopUnderTest;
  let operator: BrowserSession;
  let today: string;

  beforeAll(async () => {
    shop = await shopUnderTest();
    const { sandbox } = shop.billing;
    if (!sandbox) throw new Error('the shop should run the embedded sandbox');
    const customer = request.agent(shop.app);
    await postForm(customer, '/sign-in', { accountId: 'demo-lea' });
    for (const offerUid of ['offer_premium_monthly', 'offer_day_pass']) {
      const checkout = await postForm(customer, '/checkout', {
        offerUid,
        token: await tokenOn(customer, '/'),
      });
      const outcome = await createCheckoutDriver(sandbox).pay(checkout.headers.location ?? '');
      expect(outcome.status).toBe('SUCCEEDED');
      // The return page reads the payment: its facts are counted then, whatever the webhook does.
      const returnUrl = new URL(outcome.returnUrl?.toString() ?? '/', shop.url);
      await customer.get(`${returnUrl.pathname}${returnUrl.search}`);
    }
    today = shop.billing.kit.now().toISOString().slice(0, 10);
    operator = request.agent(shop.app);
    await postForm(operator, '/ops/sign-in', { password: TEST_OPERATOR.password });
  });
  afterAll(() => shop?.close());

  const pageText = (response: { status: number; text: string }) => {
    expect(response.status).toBe(200);
    return response.text.replace(/\s+/g, ' ');
  };
  /** A table's body row for this bucket: its cells, as text. */
  const cellsOf = (html: string, chartId: string): string[][] => {
    const section = html.slice(html.indexOf(`<section class="card chart" id="${chartId}"`));
    const body = section.slice(section.indexOf('<tbody>'), section.indexOf('</tbody>'));
    return [...body.matchAll(/<tr>(.*?)<\/tr>/g)].map(([, row]) =>
      [...(row ?? '').matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map(([, cell]) => cell ?? ''),
    );
  };

  it('charts the planted numbers, each chart with its table, from the nav', async () => {
    const html = pageText(await operator.get(`/ops/business?from=${today}&to=${today}&interval=day`));
    expect(html).toContain('<a href="/ops/business" aria-current="page">Business</a>');
    expect(html).toContain('<h1>Business at a glance</h1>');
    for (const id of ['active', 'growth', 'renewals', 'churn', 'collected']) {
      expect(html).toContain(`<canvas id="chart-${id}" role="img" aria-label="Chart: `);
    }
    // One bucket (today): one trial started, one subscriber, 1.000 TND for the pass.
    expect(cellsOf(html, 'growth')).toEqual([[expect.any(String), '1', '0', '0']]);
    expect(cellsOf(html, 'active')[0]?.[1]).toBe('1');
    expect(cellsOf(html, 'collected')[0]?.[1]).toMatch(/^TND\s?1\.000$/);
    // The data for the charts, as JSON the page's own script reads; Chart.js from the shop itself.
    expect(html).toMatch(/<script type="application\/json" id="business-data">\{"lang":"en","rtl":false,/);
    expect(html).toMatch(/<script src="\/ops\/assets\/chart-4\.[0-9.]+\.umd\.min\.js" defer><\/script>/);
    expect(html).toContain('<script src="/static/business-charts.js" defer></script>');
    expect(html).toContain(
      `href="/ops/business/metrics.csv?from=${today}&amp;to=${today}&amp;interval=day" download>Download “Subscribers, renewals, churn and money” as CSV`,
    );
    // One view today, its charts under its heading; one day is one page, so no paging.
    expect(html).toContain('<h2 id="view-metrics-title">Subscribers, renewals, churn and money</h2>');
    expect(html).toContain('<h3 id="active-title">Active subscribers</h3>');
    // Each table a real one: a caption for screen readers, headers for its columns and rows.
    expect(html).toContain('<caption class="visually-hidden">Active subscribers: the numbers</caption>');
    expect(html).toContain('<th scope="col">Active subscribers</th>');
    expect(html).not.toContain('business-paging');
  });

  it('puts the headline figures of the period first, each beside the period before it', async () => {
    const html = pageText(await operator.get(`/ops/business?from=${today}&to=${today}&interval=day`));
    expect(html.indexOf('<h2 id="headline-title">The whole period at a glance</h2>')).toBeLessThan(
      html.indexOf('<form'),
    );
    const figures = figuresOf(html);
    expect(Object.keys(figures)).toEqual([
      'activeSubscribers',
      'recurringRevenue',
      'trialConversionRate',
      'churnRate',
      'firstAttemptCollectionRate',
      'graceRecoveryRate',
      'checkoutConversionRate',
    ]);
    // Today: one trial started and live; yesterday, nothing.
    expect(figures.activeSubscribers).toEqual({
      value: '1',
      change: '+1 · before: 0',
      words: 'Up 1 from 0 in the previous period.',
    });
    // Nothing ended of the one subscription live or started: 0 %, and no rate the day before.
    expect(figures.churnRate).toEqual({
      value: '0%',
      change: 'before: —',
      words: 'Previous period: no data.',
    });
    // No charge was due yet: a dash and why, never a made-up 0 %.
    expect(figures.firstAttemptCollectionRate?.value).toBe('—');
    expect(figures.firstAttemptCollectionRate?.note).toBe(
      'No data: no renewal and no trial’s first charge was due in the period.',
    );
    // Today's checkouts through the routes were paid: every checkout that ended converted.
    expect(figures.checkoutConversionRate?.value).toBe('100%');
    // The trial has not ended: no trial of the period to rate yet, and no paid subscription live.
    expect(figures.trialConversionRate?.value).toBe('—');
    expect(figures.trialConversionRate?.note).toContain('no trial that started in the period has ended');
    expect(figures.recurringRevenue?.value).toBe('—');
  });

  it('gives the figures of the whole period on every page of its buckets', async () => {
    const from = new Date(Date.parse(today) - 199 * 86_400_000).toISOString().slice(0, 10);
    const dayName = (day: string) =>
      new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(day));
    for (const page of [1, 3]) {
      const html = pageText(
        await operator.get(`/ops/business?from=${from}&to=${today}&interval=day&page=${page}`),
      );
      expect(html).toContain(`From ${dayName(from)} to ${dayName(today)}: every bucket of the period`);
      // The earliest page's buckets hold nothing; the figures still count today's subscriber.
      expect(figuresOf(html).activeSubscribers?.value).toBe('1');
    }
  });

  it('tells the two premium offers apart in the offer filter: price, period and trial', async () => {
    const html = pageText(await operator.get('/ops/business'));
    expect(html).toContain(
      '<option value="offer_premium_monthly">Premium, monthly — TND 4.500 per month, free trial of 7 days</option>',
    );
    expect(html).toContain(
      '<option value="offer_premium_monthly_paid">Premium, monthly — TND 4.500 per month</option>',
    );
    expect(html).toContain('<option value="offer_day_pass">Day pass — TND 1.000</option>');
  });

  it('pages a daily view over years, at most 92 buckets and well under 300 KB a page, the latest first', async () => {
    const from = new Date(Date.parse(today) - 3 * 365 * 86_400_000).toISOString().slice(0, 10);
    const years = `from=${from}&to=${today}&interval=day`;
    const latest = await operator.get(`/ops/business?${years}`);
    // The bound of issue 49: a daily view over several years answers under 300 KB (timings: bench/).
    expect(Buffer.byteLength(latest.text)).toBeLessThan(300 * 1024);
    const html = pageText(latest);
    expect(cellsOf(html, 'active')).toHaveLength(92);
    expect(html).toMatch(/Buckets [\d,]+ to [\d,]+ of [\d,]+: a page shows at most 92\./);
    expect(html).toContain(
      `href="/ops/business?${years.replaceAll('&', '&amp;')}&amp;page=2">Earlier buckets</a>`,
    );
    expect(html).not.toContain('Later buckets');
    // The most recent page ends on the form's last day.
    const dayName = (day: string) =>
      new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(day));
    expect(cellsOf(html, 'active').at(-1)?.[0]).toBe(dayName(today));
    // The earliest page starts on the form's first day, and links back to the later ones.
    const earliest = pageText(await operator.get(`/ops/business?${years}&page=999`));
    expect(cellsOf(earliest, 'active')[0]?.[0]).toBe(dayName(from));
    expect(earliest).toContain('Later buckets</a>');
    expect(earliest).not.toContain('Earlier buckets');
    // The CSV holds every bucket of the period, whatever the page.
    const csv = await operator.get(`/ops/business/metrics.csv?${years}`);
    const days = (Date.parse(today) - Date.parse(from)) / 86_400_000 + 1;
    expect(csv.text.trimEnd().split('\r\n')).toHaveLength(1 + days * shop.billing.kit.offers.list.length);
  });

  it('serves Chart.js and the page’s script itself, Chart.js cached for good', async () => {
    const html = (await operator.get('/ops/business')).text;
    const library = html.match(/src="(\/ops\/assets\/[^"]+)"/)?.[1] ?? '';
    const served = await request(shop.app).get(library);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.text).toContain('Chart.js v4');
    const script = await request(shop.app).get('/static/business-charts.js');
    expect(script.status).toBe(200);
    expect(script.text).toContain("getElementById('business-data')");
  });

  it('filters by offer: the day pass alone has no trial', async () => {
    const html = pageText(
      await operator.get(`/ops/business?from=${today}&to=${today}&interval=day&offer=offer_day_pass`),
    );
    expect(html).toContain('<option value="offer_day_pass" selected>Day pass — TND 1.000</option>');
    expect(cellsOf(html, 'growth')).toEqual([[expect.any(String), '0', '0', '0']]);
    expect(cellsOf(html, 'collected')[0]?.[1]).toMatch(/^TND\s?1\.000$/);
    // The figures follow the filter: a pass is no subscription, so no churn rate either.
    const figures = figuresOf(html);
    expect(figures.activeSubscribers).toEqual({
      value: '0',
      change: '0 · before: 0',
      words: 'Unchanged from the previous period (0).',
    });
    expect(figures.churnRate?.note).toBe('No data: no subscription was live or started in the period.');
  });

  it('sends the CSV’s address of before the views to the metrics CSV, with its query', async () => {
    const response = await operator.get(`/ops/business.csv?from=${today}&to=${today}&interval=day`);
    expect(response.status).toBe(301);
    expect(response.headers.location).toBe(
      `/ops/business/metrics.csv?from=${today}&to=${today}&interval=day`,
    );
  });

  it('downloads the same rows as CSV, one line per offer and bucket', async () => {
    const response = await operator.get(`/ops/business/metrics.csv?from=${today}&to=${today}&interval=day`);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="business-metrics-${today}-${today}-day.csv"`,
    );
    expect(response.headers['cache-control']).toBe('no-store');
    const lines = response.text.trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^start,offerUid,productUid,activeSubscribers,trialsStarted,/);
    expect(lines).toContain(
      `${today}T00:00:00.000Z,offer_premium_monthly,prod_premium,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,TND`,
    );
    expect(lines).toContain(
      `${today}T00:00:00.000Z,offer_day_pass,prod_day_pass,0,0,0,0,0,0,0,0,0,0,0,1,0,0,1000,TND`,
    );
    // Every offer the shop sells has its row, and nothing else.
    expect(lines).toHaveLength(1 + shop.billing.kit.offers.list.length);
  });

  it('shows the checkout funnel: two checkouts started today, both succeeded, and its CSV', async () => {
    const html = pageText(await operator.get(`/ops/business?from=${today}&to=${today}&interval=day`));
    expect(html).toContain('<h2 id="view-checkouts-title">Checkout funnel</h2>');
    // started, succeeded, refused, failed, expired, canceled, pending.
    expect(cellsOf(html, 'checkoutOutcomes')).toEqual([
      [expect.any(String), '2', '2', '0', '0', '0', '0', '0'],
    ]);
    // No code refused or failed: the codes' table has its buckets and no column of codes.
    expect(cellsOf(html, 'checkoutCodes')).toEqual([[expect.any(String)]]);
    const pass = pageText(
      await operator.get(`/ops/business?from=${today}&to=${today}&interval=day&offer=offer_day_pass`),
    );
    expect(cellsOf(pass, 'checkoutOutcomes')[0]?.slice(1, 3)).toEqual(['1', '1']);
    const csv = await operator.get(`/ops/business/checkouts.csv?from=${today}&to=${today}&interval=day`);
    expect(csv.status).toBe(200);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'start,offerUid,productUid,started,succeeded,refused,failed,expired,canceled,pending,refusedCodes,failedCodes',
    );
    expect(lines).toContain(`${today}T00:00:00.000Z,offer_day_pass,prod_day_pass,1,1,0,0,0,0,0,,`);
  });

  it('shows the trial funnel: today’s one trial still running, none for the pass, and its CSV', async () => {
    const html = pageText(await operator.get(`/ops/business?from=${today}&to=${today}&interval=day`));
    expect(html).toContain('<h2 id="view-trials-title">Trial funnel</h2>');
    // begun, converted, still in trial, canceled, failed to pay.
    expect(cellsOf(html, 'trialOutcomes')).toEqual([[expect.any(String), '1', '0', '1', '0', '0']]);
    const pass = pageText(
      await operator.get(`/ops/business?from=${today}&to=${today}&interval=day&offer=offer_day_pass`),
    );
    expect(cellsOf(pass, 'trialOutcomes')).toEqual([[expect.any(String), '0', '0', '0', '0', '0']]);
    const csv = await operator.get(
      `/ops/business/trials.csv?from=${today}&to=${today}&interval=day&offer=offer_premium_monthly`,
    );
    expect(csv.status).toBe(200);
    expect(csv.text.trimEnd().split('\r\n')).toEqual([
      'start,offerUid,productUid,started,converted,inTrial,canceled,failedToPay',
      `${today}T00:00:00.000Z,offer_premium_monthly,prod_premium,1,0,1,0,0`,
    ]);
  });

  it('shows the recurring revenue’s movements per currency, today’s bucket marked so far, and its CSV', async () => {
    const html = pageText(await operator.get(`/ops/business?from=${today}&to=${today}&interval=day`));
    expect(html).toContain('<h2 id="view-revenue-title">Recurring revenue movements</h2>');
    // The trial has not converted: nothing moved yet, in TND, and today is not over.
    const soFar = 'TND 0.000 (so far)';
    expect(cellsOf(html, 'revenueMoves')).toEqual([[expect.any(String), soFar, soFar, soFar, soFar]]);
    expect(cellsOf(html, 'mrr')).toEqual([[expect.any(String), soFar]]);
    const csv = await operator.get(`/ops/business/revenue.csv?from=${today}&to=${today}&interval=day`);
    expect(csv.status).toBe(200);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^start,offerUid,productUid,currency,newSubscriptions,newMinorUnits,/);
    expect(lines).toContain(
      `${today}T00:00:00.000Z,offer_premium_monthly,prod_premium,TND,0,0,0,0,0,0,0,0,false`,
    );
  });

  it('answers a bad date with the form and a message, never a failure', async () => {
    const html = pageText(await operator.get('/ops/business?from=2030-02-30&to=2030-03-01'));
    expect(html).toContain('<p class="alert" role="alert">A date could not be read');
    expect(html).toContain('value="2030-02-30"');
    expect(html).not.toContain('<canvas');
    expect(html).not.toContain('chart.umd');
    // Ten years at most: the CSV reads the whole period at once, and kit.metrics answers no more.
    const tooLong = pageText(await operator.get('/ops/business?from=2000-01-01&to=2030-01-01'));
    expect(tooLong).toContain('The kit cannot answer this period (ten years at most)');
    const csv = await operator.get('/ops/business/metrics.csv?from=2030-05-02&to=2030-05-01');
    expect(csv.status).toBe(400);
    expect(csv.text).toBe('The end of the period comes before its start.');
  });

  it('speaks French and Arabic (right to left), numbers and dates in the language', async () => {
    await operator.get('/language?lang=fr&next=/ops');
    const french = pageText(await operator.get(`/ops/business?from=${today}&to=${today}&interval=day`));
    expect(french).toContain('<html lang="fr" dir="ltr">');
    expect(french).toContain('<h1>L’activité en un coup d’œil</h1>');
    expect(french).toContain('<th scope="col">Essais commencés</th>');
    expect(cellsOf(french, 'collected')[0]?.[1]).toMatch(/^1,000\s?TND$/);
    // The headline figures too: percents and signs as Intl writes them in the language.
    expect(french).toContain('<h2 id="headline-title">Toute la période en un coup d’œil</h2>');
    // pageText squeezes spaces: French's narrow no-break space before % too.
    const percentIn = (lang: string) =>
      new Intl.NumberFormat(lang, { style: 'percent' }).format(0).replace(/\s+/g, ' ');
    expect(figuresOf(french).churnRate?.value).toBe(percentIn('fr'));
    expect(figuresOf(french).activeSubscribers?.words).toBe(
      'En hausse de 1 par rapport à 0 sur la période précédente.',
    );
    await operator.get('/language?lang=ar&next=/ops');
    const arabic = pageText(await operator.get(`/ops/business?from=${today}&to=${today}&interval=day`));
    expect(arabic).toContain('<html lang="ar" dir="rtl">');
    expect(arabic).toContain('"lang":"ar","rtl":true');
    expect(arabic).toContain('<th scope="col">تجارب بدأت</th>');
    const day = new Intl.DateTimeFormat('ar', { dateStyle: 'medium', timeZone: 'UTC' }).format(
      new Date(today),
    );
    const number = new Intl.NumberFormat('ar');
    expect(cellsOf(arabic, 'growth')[0]).toEqual([day, ...[1, 0, 0].map((n) => number.format(n))]);
    expect(figuresOf(arabic).churnRate?.value).toBe(percentIn('ar'));
    expect(figuresOf(arabic).activeSubscribers?.value).toBe(number.format(1));
    expect(figuresOf(arabic).recurringRevenue?.words).toBe('الفترة السابقة: لا بيانات.');
    await operator.get('/language?lang=en&next=/ops');
  });
});

// The headline figures against a history planted on the sandbox's clock: two trials and a pass
// bought on day 0, one trial cancelled now on day 2, the other converting on day 7.
describe('the Business page’s headline figures, on a small planted history', () => {
  let shop: ShopUnderTest;
  let operator: BrowserSession;
  let day0: number;
  const DAY_MS = 86_400_000;
  const dayOf = (days: number) => new Date(day0 + days * DAY_MS).toISOString().slice(0, 10);

  beforeAll(async () => {
    shop = await shopUnderTest();
    const { sandbox, kit } = shop.billing;
    if (!sandbox) throw new Error('the shop should run the embedded sandbox');
    day0 = Date.parse(kit.now().toISOString().slice(0, 10));
    const customers: Record<string, BrowserSession> = {};
    for (const [accountId, offerUid] of [
      ['demo-lea', 'offer_premium_monthly'],
      ['demo-amira', 'offer_premium_monthly'],
      ['demo-youssef', 'offer_day_pass'],
    ] as const) {
      const customer = request.agent(shop.app);
      customers[accountId] = customer;
      await postForm(customer, '/sign-in', { accountId });
      const checkout = await postForm(customer, '/checkout', {
        offerUid,
        token: await tokenOn(customer, '/'),
      });
      const outcome = await createCheckoutDriver(sandbox).pay(checkout.headers.location ?? '');
      expect(outcome.status).toBe('SUCCEEDED');
      const returnUrl = new URL(outcome.returnUrl?.toString() ?? '/', shop.url);
      await customer.get(`${returnUrl.pathname}${returnUrl.search}`);
    }
    await sandbox.advanceClock(2 * 86_400);
    const amira = customers['demo-amira'] as BrowserSession;
    const held = await kit.store.listByAccount('demo-amira');
    const uid = held.find((one) => one.type === 'SUBSCRIPTION')?.subscriptionUid ?? '';
    const cancelled = await postForm(amira, `/account/subscriptions/${uid}/cancel`, {
      when: 'NOW',
      token: await tokenOn(amira, `/account/subscriptions/${uid}/cancel?when=NOW`),
    });
    expect(cancelled.status).toBeLessThan(400);
    // Léa's trial ends on day 7: its first charge is collected, told by a webhook.
    await sandbox.advanceClock(6 * 86_400);
    await vi.waitFor(async () => {
      const report = await kit.metrics({ from: new Date(day0), to: new Date(day0 + 9 * DAY_MS) });
      expect(report.rows.reduce((sum, row) => sum + row.trialsConverted, 0)).toBe(1);
    });
    operator = request.agent(shop.app);
    await postForm(operator, '/ops/sign-in', { password: TEST_OPERATOR.password });
  });
  afterAll(() => shop?.close());

  const figuresAt = async (query: string) => {
    const response = await operator.get(`/ops/business?${query}`);
    expect(response.status).toBe(200);
    return figuresOf(response.text.replace(/\s+/g, ' '));
  };

  it('compares days 1 to 14 with the 14 days before: one subscriber lost, half of them churned', async () => {
    const figures = await figuresAt(`from=${dayOf(1)}&to=${dayOf(14)}&interval=day`);
    // Two trials live as day 0 ended; Léa's alone as day 14 ends.
    expect(figures.activeSubscribers).toEqual({
      value: '1',
      change: '-1 · before: 2',
      words: 'Down 1 from 2 in the previous period.',
    });
    // One ended of the two live as the period began (none started in it); none the period before.
    expect(figures.churnRate).toEqual({
      value: '50%',
      change: '+50 pts · before: 0%',
      words: 'Up 50 percentage points from 0% in the previous period.',
    });
    // Léa's trial's first charge, collected at once; nothing was due the period before.
    expect(figures.firstAttemptCollectionRate).toEqual({
      value: '100%',
      change: 'before: —',
      words: 'Previous period: no data.',
    });
    expect(figures.graceRecoveryRate?.value).toBe('—');
  });

  it('colours a rising churn and a falling count of subscribers as bad news', async () => {
    const html = (await operator.get(`/ops/business?from=${dayOf(1)}&to=${dayOf(14)}&interval=day`)).text;
    expect(html).toMatch(/id="figure-churnRate">[\s\S]*?<dd class="figure-change trend-up tone-bad">/);
    expect(html).toMatch(
      /id="figure-activeSubscribers">[\s\S]*?<dd class="figure-change trend-down tone-bad">/,
    );
  });

  it('follows the offer filter: the pass has no subscriber, the trial offer all of them', async () => {
    const period = `from=${dayOf(1)}&to=${dayOf(14)}&interval=day`;
    const pass = await figuresAt(`${period}&offer=offer_day_pass`);
    expect(pass.activeSubscribers?.value).toBe('0');
    expect(pass.churnRate?.value).toBe('—');
    const trial = await figuresAt(`${period}&offer=offer_premium_monthly`);
    expect(trial.activeSubscribers?.change).toBe('-1 · before: 2');
    expect(trial.churnRate?.value).toBe('50%');
    // The same offer's plan without a trial sold nothing.
    const paid = await figuresAt(`${period}&offer=offer_premium_monthly_paid`);
    expect(paid.activeSubscribers?.value).toBe('0');
    expect(paid.firstAttemptCollectionRate?.value).toBe('—');
  });

  it('counts the whole period by week, as the weeks before it', async () => {
    // Days 0 to 14 by week: the weeks holding them, against as many weeks before (nothing).
    const figures = await figuresAt(`from=${dayOf(0)}&to=${dayOf(14)}&interval=week`);
    expect(figures.activeSubscribers?.change).toBe('+1 · before: 0');
    // Two started, one ended: 50 %.
    expect(figures.churnRate?.value).toBe('50%');
    expect(figures.firstAttemptCollectionRate?.value).toBe('100%');
  });
  /** A table's body rows of one chart: its cells, as text. */
  const rowsOf = (html: string, chartId: string): string[][] => {
    const section = html.slice(html.indexOf(`<section class="card chart" id="${chartId}"`));
    const body = section.slice(section.indexOf('<tbody>'), section.indexOf('</tbody>'));
    return [...body.matchAll(/<tr>(.*?)<\/tr>/g)].map(([, row]) =>
      [...(row ?? '').matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map(([, cell]) => cell ?? ''),
    );
  };

  /** A CSV's column summed over its lines of one offer: the period may straddle two months. */
  const csvSum = (csv: string, column: string, offerUid = 'offer_premium_monthly'): number => {
    const [header = '', ...lines] = csv.trimEnd().split('\r\n');
    const names = header.split(',');
    return lines
      .map((line) => line.split(','))
      .filter((cells) => cells[names.indexOf('offerUid')] === offerUid)
      .reduce((sum, cells) => sum + Number(cells[names.indexOf(column)]), 0);
  };

  it('tells the trials, the recurring revenue and the cohorts of the planted history, page and CSV', async () => {
    const period = `from=${dayOf(0)}&to=${dayOf(14)}&interval=month`;
    const html = (await operator.get(`/ops/business?${period}`)).text.replace(/\s+/g, ' ');
    for (const id of ['trials', 'revenue', 'cohorts']) expect(html).toContain(`id="view-${id}"`);
    expect(html).toContain('Always by month, whatever the interval chosen above');
    // Two trials: Léa's converted, Amira's cancelled during it.
    const trials = (await operator.get(`/ops/business/trials.csv?${period}`)).text;
    expect(
      ['started', 'converted', 'inTrial', 'canceled', 'failedToPay'].map((n) => csvSum(trials, n)),
    ).toEqual([2, 1, 0, 1, 0]);
    // Léa's conversion: 4.500 TND a month of new recurring revenue, none churned (Amira never paid).
    const revenue = (await operator.get(`/ops/business/revenue.csv?${period}`)).text;
    expect(csvSum(revenue, 'newMinorUnits')).toBe(4500);
    expect(csvSum(revenue, 'churnedMinorUnits')).toBe(0);
    expect(csvSum(revenue, 'netMinorUnits')).toBe(4500);
    expect(rowsOf(html, 'mrr').at(-1)?.[1]).toBe('TND 4.500 (so far)');
    // One cohort of one (Léa), still paying, in a month not over yet: said in words.
    const cohorts = (await operator.get(`/ops/business/cohorts.csv?${period}`)).text;
    expect(cohorts.split('\r\n')[0]).toBe('start,offerUid,productUid,size,monthsAfter,end,retained,complete');
    expect(rowsOf(html, 'cohortSizes').map((row) => row[1])).toContain('1');
    expect(html).toContain('<td>100% (month not over)</td>');
    // The pass sells no subscription: no cohort of it.
    const pass = (await operator.get(`/ops/business?${period}&offer=offer_day_pass`)).text.replace(
      /\s+/g,
      ' ',
    );
    expect(rowsOf(pass, 'cohortSizes').every((row) => row[1] === '0')).toBe(true);
  });
});
