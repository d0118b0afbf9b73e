import { fileURLToPath } from 'node:url';
import type { DcbKit, OfferDefinition } from '@dcbkit/core';
import { formatBillingPeriod, formatDateTime, formatOfferPrice, formatPrice } from '@dcbkit/core';
import { Eta } from 'eta';
import { type DemoAccount, findDemoAccount } from './accounts.js';
import { formatAccessLength } from './format-access-length.js';
import {
  directionOf,
  LANGUAGE_NAMES,
  LANGUAGES,
  type Language,
  pickLanguage,
  type Translate,
  translator,
} from './i18n.js';
import { SHOP_TIME_ZONE } from './offer-definitions.js';
import { signInIdOf, takeNotice } from './session.js';
import { pageAnswer, type ShopAnswer } from './web/shop-answer.js';
import type { ShopRequest } from './web/shop-request.js';

// autoEscape: every <%= value %> is HTML-escaped. The templates use <%~ %> (raw) only for the
// layout's body and included partials, which are themselves escaped templates.
const eta = new Eta({
  views: fileURLToPath(new URL('../views', import.meta.url)),
  autoEscape: true,
  cache: process.env.NODE_ENV === 'production',
});

/** What every page's template gets as `it`, besides its own data. */
export interface PageContext {
  lang: Language;
  dir: 'ltr' | 'rtl';
  t: Translate;
  account: DemoAccount | undefined;
  /** The language switcher's links. */
  languages: Array<{ code: Language; name: string; href: string; current: boolean }>;
  /** True in the service's sandbox environment (the embedded sandbox or another): the banner says no money moves. */
  sandbox: boolean;
  /** True on the embedded sandbox in production (ALLOW_EMBEDDED_SANDBOX=true): the banner adds that this shop runs on an emulator, purchases in memory. */
  emulator: boolean;
  /** A one-time notice (after a cancellation, say), already translated. */
  notice: string | undefined;
  /** The hidden `token` of a state-changing form: a new one per form, bound to the account. */
  formToken: () => string;
  offerName: (offer: OfferDefinition | undefined) => string;
  offerPrice: (offer: OfferDefinition) => string;
  price: (offer: OfferDefinition) => string;
  period: (offer: OfferDefinition) => string | undefined;
  date: (iso: string | null | undefined) => string;
  /** How long a pass used gives access (an offer's `unitAccessSeconds`), in words. */
  accessLength: (seconds: number) => string;
}

export interface Views {
  context(request: ShopRequest): PageContext;
  /** Renders views/<template>.eta in the request's language, as the answer to send. */
  render(request: ShopRequest, template: string, data?: object, status?: number): ShopAnswer;
}

export function createViews({
  kit,
  sandbox,
  emulator,
}: {
  kit: DcbKit;
  sandbox: boolean;
  emulator: boolean;
}): Views {
  function context(request: ShopRequest): PageContext {
    const session = request.session.read();
    const lang = pickLanguage(session.lang, request.header('accept-language'));
    const t = translator(lang);
    const account = findDemoAccount(session.accountId);
    // The switcher comes back to this page; after a form post it goes to the offers.
    const back = request.method === 'GET' ? request.url : '/';
    return {
      lang,
      dir: directionOf(lang),
      t,
      account,
      languages: LANGUAGES.map((code) => ({
        code,
        name: LANGUAGE_NAMES[code],
        href: `/language?${new URLSearchParams({ lang: code, next: back })}`,
        current: code === lang,
      })),
      sandbox,
      emulator,
      notice: undefined,
      formToken: () => {
        if (!account) throw new Error('formToken needs a signed-in account');
        return kit.routes.formToken(account.id, signInIdOf(request));
      },
      offerName: (offer) => {
        if (!offer) return '';
        // locales/*.json name the offers; an offer they do not name shows its console name.
        const key = `offer.${offer.offerUid}`;
        const name = t(key);
        return name === key ? offer.name : name;
      },
      offerPrice: (offer) => formatOfferPrice(offer, lang),
      price: (offer) => formatPrice(offer.price, lang),
      period: (offer) => (offer.billingPeriod ? formatBillingPeriod(offer.billingPeriod, lang) : undefined),
      // Core's formatting, as the checkout's: the shop's market zone, always named.
      date: (iso) => (iso ? formatDateTime(iso, lang, SHOP_TIME_ZONE) : ''),
      accessLength: (seconds) => formatAccessLength(seconds, lang),
    };
  }

  return {
    context,
    render(request, template, data = {}, status = 200) {
      const page = context(request);
      const notice = takeNotice(request);
      if (notice) page.notice = page.t(notice.key, notice.values);
      return pageAnswer(eta.render(`./${template}`, { ...page, ...data }), status);
    },
  };
}
