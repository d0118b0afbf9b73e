import { createCheckoutDriver } from '@dcbkit/sandbox/testing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, postForm, tokenOn } from '../test-support/browser-session.js';
import { type ShopUnderTest, shopUnderTest, TEST_OPERATOR } from '../test-support/shop-under-test.js';

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
    expect(cellsOf(html, 'growth')).toEqual([[expect.any(String), '0', '1', '0']]);
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
    await operator.get('/language?lang=ar&next=/ops');
    const arabic = pageText(await operator.get(`/ops/business?from=${today}&to=${today}&interval=day`));
    expect(arabic).toContain('<html lang="ar" dir="rtl">');
    expect(arabic).toContain('"lang":"ar","rtl":true');
    expect(arabic).toContain('<th scope="col">تجارب بدأت</th>');
    const day = new Intl.DateTimeFormat('ar', { dateStyle: 'medium', timeZone: 'UTC' }).format(
      new Date(today),
    );
    const number = new Intl.NumberFormat('ar');
    expect(cellsOf(arabic, 'growth')[0]).toEqual([day, ...[0, 1, 0].map((n) => number.format(n))]);
    await operator.get('/language?lang=en&next=/ops');
  });
});
