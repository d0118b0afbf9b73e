import { describe, expect, it } from 'vitest';
import { linkBack, returnParams, useCheckoutWorld } from '../test-support/checkout-world.js';
import { CheckoutBrowser } from '../testing/checkout-browser.js';
import { createCheckoutDriver } from '../testing/checkout-driver.js';

const { world, start, newPayment, readPayment, latestPin, deliveredEvents, enterNumber } = useCheckoutWorld();

describe('checkout pages', () => {
  it('locks a prefilled number when msisdnEditable is false', async () => {
    await start();
    const payment = await newPayment('offer_day_pass', {
      prefill: { msisdn: '+21620000000', msisdnEditable: false },
    });
    const browser = new CheckoutBrowser(world.sandbox.checkoutBaseUrl);
    const numberStep = await browser.open(payment.checkoutUrl);
    const form = numberStep.forms.find((candidate) => candidate.action.endsWith('/number'));
    expect(form?.fields.msisdn).toBe('+21620000000');
    expect(form?.editable).not.toContain('msisdn');
    const consent = await browser.submit(numberStep, '/number', { msisdn: '+21620000001', network: 'WIFI' });
    expect(world.sandbox.sms().map((message) => message.to)).toEqual(['+21620000000']);
    expect(consent.forms.some((candidate) => candidate.action.endsWith('/change-number'))).toBe(false);
  });

  it('prefills an editable number, and honours the operator hint', async () => {
    await start();
    const payment = await newPayment('offer_day_pass', {
      prefill: { msisdn: '+21620000000' },
      operator: 'SAHEL_MOBILE',
    });
    const browser = new CheckoutBrowser(world.sandbox.checkoutBaseUrl);
    const numberStep = await browser.open(payment.checkoutUrl);
    expect(numberStep.forms.find((form) => form.action.endsWith('/number'))?.editable).toContain('msisdn');
    const refused = await browser.submit(numberStep, '/number', { msisdn: '+21690000000' });
    expect(refused.html).toContain('(SBR-104)');
  });

  it('lets the subscriber give up: FAILED and payment.failed', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    const browser = new CheckoutBrowser(world.sandbox.checkoutBaseUrl);
    const gaveUp = await browser.submit(await browser.open(payment.checkoutUrl), '/abandon');
    expect(gaveUp.html).toContain('You cancelled the payment.');
    expect((await readPayment(payment.paymentUid)).status).toBe('FAILED');
    expect((await deliveredEvents()).map((event) => event.event)).toEqual(['payment.failed']);
  });

  it.each([
    [
      'en',
      'This line has already had the free trial of this product. (SUB-108)',
      'You cancelled the payment.',
    ],
    [
      'fr',
      'Cette ligne a déjà bénéficié de l’essai gratuit de ce produit. (SUB-108)',
      'Vous avez annulé le paiement.',
    ],
    [
      'ar',
      'سبق لهذا الخط الاستفادة من الفترة التجريبية المجانية لهذا المنتج. (SUB-108)',
      'لقد ألغيت عملية الدفع.',
    ],
  ])(
    'after a trial refusal, says why the subscriber gave up, not that they cancelled (%s, issue 54)',
    async (lang, why, cancelled) => {
      await start();
      const line = '+21620000555';
      const first = await newPayment('offer_premium_monthly');
      expect(
        (await createCheckoutDriver(world.sandbox).pay(first.checkoutUrl, { msisdn: line })).status,
      ).toBe('SUCCEEDED');
      const second = await newPayment('offer_premium_monthly');
      const browser = new CheckoutBrowser(world.sandbox.checkoutBaseUrl, lang);
      const refused = await browser.submit(await browser.open(second.checkoutUrl), '/number', {
        msisdn: line,
        network: 'WIFI',
      });
      expect(refused.html).toContain('(SUB-108)');
      const gaveUp = await browser.submit(refused, '/abandon');
      expect(gaveUp.html).toContain(why);
      expect(gaveUp.html).not.toContain(cancelled);
      expect((await readPayment(second.paymentUid)).status).toBe('FAILED');
    },
  );

  it.each([
    ['ar', 'ar', 'rtl', 'أكّد عملية الدفع'],
    ['fr-FR,fr;q=0.9,en;q=0.8', 'fr', 'ltr', 'Confirmez votre paiement'],
    ['de-DE, fr;q=0.5, ar;q=0.4', 'fr', 'ltr', 'Votre numéro de mobile'],
    ['ja', 'en', 'ltr', 'Confirm your payment'],
  ])('speaks the Accept-Language %s', async (acceptLanguage, lang, dir, text) => {
    await start();
    const payment = await newPayment('offer_premium_monthly');
    const page = await new CheckoutBrowser(world.sandbox.checkoutBaseUrl, acceptLanguage).open(
      payment.checkoutUrl,
    );
    expect(page.html).toContain(`<html lang="${lang}" dir="${dir}">`);
    expect(page.headers.get('content-language')).toBe(lang);
    expect(page.headers.get('vary')).toBe('Accept-Language');
    expect(page.html).toContain(text);
    expect(page.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  });

  it('can be completed in Arabic', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    const { browser, page } = await enterNumber(payment, '+21620000000', 'WIFI', 'ar');
    expect(page.html).toContain('أدخل الرمز المرسل عبر رسالة قصيرة');
    expect(world.sandbox.sms()[0]?.text).toContain('هو رمز تأكيد');
    expect(
      returnParams(await browser.submit(page, '/consent/pin', { pin: latestPin(payment.paymentUid) })).status,
    ).toBe('SUCCEEDED');
  });

  it.each([
    [
      'en',
      'offer_premium_monthly',
      /is your code to confirm .+ \(Free for 7 days, then TND\s4\.500 per month\)/,
    ],
    ['fr', 'offer_premium_monthly', /est votre code pour confirmer .+ \(Gratuit pendant 7 jours, puis .+\)/],
    ['ar', 'offer_premium_monthly', /هو رمز تأكيد .+ \(مجانًا لمدة .+، ثم .+\)/],
    ['en', 'offer_day_pass', /is your code to confirm .+ \(TND\s\d\.\d{3}, paid once\)/],
  ])('quotes in the PIN SMS (%s) the terms of the checkout page: %s', async (lang, offerUid, text) => {
    await start();
    const payment = await newPayment(offerUid);
    await enterNumber(payment, '+21620000000', 'WIFI', lang);
    const sms = world.sandbox.sms()[0]?.text ?? '';
    expect(sms).toMatch(text);
    // A free trial charges nothing today: the terms say so before the price, never the bare price.
  });

  it('escapes everything a partner or a subscriber controls', async () => {
    await start((config) => {
      const dayPass = config.offers.find((offer) => offer.offerUid === 'offer_day_pass');
      if (dayPass) dayPass.name = '<script>alert(1)</script>';
    });
    const payment = await newPayment('offer_day_pass', {
      returnUrl: 'https://partner.example/return?next="><script>alert(2)</script>',
      metadata: { note: '<img src=x onerror=alert(3)>' },
    });
    const browser = new CheckoutBrowser(world.sandbox.checkoutBaseUrl);
    const numberStep = await browser.open(payment.checkoutUrl);
    const refused = await browser.submit(numberStep, '/number', { msisdn: '"><img src=x onerror=alert(4)>' });
    const gaveUp = await browser.submit(refused, '/abandon');
    for (const page of [numberStep, refused, gaveUp]) {
      expect(page.html).not.toMatch(/<script>alert|<img src=x/);
      expect(page.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    }
    expect(refused.html).toContain('value="&quot;&gt;&lt;img src=x onerror=alert(4)&gt;"');
  });

  it('forbids framing of a redirect checkout, and renders an embedded one in an iframe that reports back', async () => {
    await start();
    const redirect = await newPayment('offer_day_pass');
    const redirectPage = await new CheckoutBrowser(world.sandbox.checkoutBaseUrl).open(redirect.checkoutUrl);
    expect(redirectPage.headers.get('x-frame-options')).toBe('DENY');
    expect(redirectPage.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

    const embedded = await newPayment('offer_day_pass', { presentation: 'embedded' });
    const { browser, page } = await enterNumber(embedded, '+21690000000', 'MOBILE_DATA');
    expect(page.headers.get('x-frame-options')).toBeNull();
    expect(page.headers.get('content-security-policy')).toContain('frame-ancestors *');
    const done = await browser.submit(page, '/consent/header-enrichment');
    expect(done.leftTo).toBeUndefined();
    expect(done.html).toContain('target="_top"');
    const nonce = /script-src 'nonce-([^']+)'/.exec(done.headers.get('content-security-policy') ?? '')?.[1];
    expect(done.html).toContain(`<script nonce="${nonce}">window.parent.postMessage(`);
    expect(done.html).toContain('"https://partner.example"');
    expect(returnParams({ ...done, leftTo: linkBack(done) }).status).toBe('SUCCEEDED');
  });

  it("sends the subscriber back to an app's deep link, with the hints, and posts no message without a web origin", async () => {
    await start();
    const redirect = await newPayment('offer_day_pass', { returnUrl: 'myapp://billing/done?from=shop' });
    const { browser, page } = await enterNumber(redirect, '+21690000000', 'MOBILE_DATA');
    // The consent form's redirect ends at the deep link: CSP form-action allows its scheme.
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' myapp:");
    const back = await browser.submit(page, '/consent/header-enrichment');
    const url = new URL(back.leftTo ?? '');
    expect(`${url.protocol}//${url.host}${url.pathname}`).toBe('myapp://billing/done');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      from: 'shop',
      paymentUid: redirect.paymentUid,
      status: 'SUCCEEDED',
    });

    const embedded = await newPayment('offer_day_pass', {
      presentation: 'embedded',
      returnUrl: 'myapp://done',
    });
    const framed = await enterNumber(embedded, '+21690000000', 'MOBILE_DATA');
    const done = await framed.browser.submit(framed.page, '/consent/header-enrichment');
    expect(linkBack(done)).toBe(`myapp://done?paymentUid=${embedded.paymentUid}&status=SUCCEEDED`);
    expect(done.html).toContain('target="_top"');
    expect(done.html).not.toContain('postMessage');
  });

  it('answers 404 for an unknown payment', async () => {
    await start();
    const page = await new CheckoutBrowser(world.sandbox.checkoutBaseUrl).open(
      `${world.sandbox.checkoutBaseUrl}/c/pay_nope`,
    );
    expect(page.status).toBe(404);
    expect(page.html).toContain('Payment not found');
  });
});

describe('what the pages say (issue 13)', () => {
  it('names the offer in the page’s language, and formats its price and period with core', async () => {
    await start((config) => {
      const monthly = config.offers.find((offer) => offer.offerUid === 'offer_premium_monthly');
      if (monthly?.billingPeriod) monthly.billingPeriod = { unit: 'WEEK', count: 2 };
    });
    const payment = await newPayment('offer_premium_monthly');
    const page = async (language: string) =>
      (await new CheckoutBrowser(world.sandbox.checkoutBaseUrl, language).open(payment.checkoutUrl)).html;
    const [fr, ar, de] = await Promise.all([page('fr'), page('ar'), page('de')]);
    expect(fr).toContain('<strong>Premium, mensuel</strong>');
    expect(fr).toContain('toutes les 2 semaines');
    expect(ar).toContain('<strong>بريميوم، شهري</strong>');
    expect(ar).toContain('كل أسبوعين');
    expect(ar).toContain('مجانًا لمدة 7 أيام');
    expect(de).toContain('<strong>Premium, monthly</strong>');
  });

  it('puts no punctuation after the Arabic currency abbreviation', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    const page = await new CheckoutBrowser(world.sandbox.checkoutBaseUrl, 'ar').open(payment.checkoutUrl);
    const offer = /<section class="offer">[\s\S]*?<\/section>/.exec(page.html)?.[0] ?? '';
    expect(offer).toContain('دفعة واحدة بقيمة');
    expect(offer.replace(/[\u200e\u200f]/g, '').replace(/\u00a0/g, ' ')).toContain('1.000 د.ت.</span>');
    expect(page.html).not.toMatch(/\.[\u200e\u200f\u061c]*،/);
  });

  it('offers a free trial with its own button and says nothing is charged today', async () => {
    await start();
    const payment = await newPayment('offer_premium_monthly');
    const { page } = await enterNumber(payment, '+21690000000', 'MOBILE_DATA');
    expect(page.html).toContain('<button type="submit" class="">Start the free trial</button>');
    expect(page.html).toContain('Nothing is charged today.');
    expect(page.html).not.toContain('Confirm and pay');
  });

  it('links the keyword SMS to the messages app', async () => {
    await start();
    const payment = await newPayment('offer_day_pass');
    const { browser, page } = await enterNumber(payment, '+21690000000', 'WIFI');
    const mo = await browser.submit(
      { ...page, forms: page.forms.filter((form) => form.fields.method === 'MO_SMS') },
      '/method',
    );
    const keyword = /<span class="code">(PAY [0-9]{4})<\/span>/.exec(mo.html)?.[1] ?? '';
    expect(mo.html).toContain(`href="sms:85050?body=${encodeURIComponent(keyword)}"`);
  });

  it('answers /favicon.ico with an SVG', async () => {
    await start();
    const icon = await fetch(`${world.sandbox.checkoutBaseUrl}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(await icon.text()).toMatch(/^<svg /);
  });
});
