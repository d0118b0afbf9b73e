import { DcbError, type DcbKit } from '@dcbkit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translator } from '../i18n.js';
import { type ShopUnderTest, shopUnderTest } from '../test-support/shop-under-test.js';
import { businessCsvDownload, businessPage } from './business-page.js';
import { businessViewById } from './business-views.js';

// A store that keeps no lifecycles: the kit's views of them refuse, naming the store.
describe('the Business page on a store that keeps no lifecycles', () => {
  let shop: ShopUnderTest;
  let kit: DcbKit;
  const words = {
    t: translator('en'),
    lang: 'en' as const,
    dir: 'ltr' as const,
    offerName: () => 'An offer',
  };

  beforeAll(async () => {
    shop = await shopUnderTest();
    const notKept = async () => {
      throw new DcbError('invalid_option', 'kit: store keeps no lifecycles.', {
        details: { option: 'store' },
      });
    };
    // The shop's kit is frozen: a kit inheriting from it, with its lifecycle views refusing.
    kit = Object.create(shop.billing.kit, {
      cohorts: { value: notKept },
      trialFunnel: { value: notKept },
      revenueMovements: { value: notKept },
    }) as DcbKit;
  });
  afterAll(() => shop?.close());

  it('says so in each of those views, in words, and draws the others', async () => {
    const page = await businessPage(kit, { from: '2030-01-01', to: '2030-01-31', interval: 'week' }, words);
    expect(page.error).toBeUndefined();
    const byId = Object.fromEntries(page.views.map((view) => [view.id, view]));
    expect(byId.cohorts?.unavailable).toBe(
      '“Retention by cohort”: this shop’s store does not keep these facts, so the kit cannot tell them.',
    );
    expect(byId.cohorts?.charts).toEqual([]);
    expect(byId.trials?.unavailable).toContain('does not keep these facts');
    expect(byId.metrics?.unavailable).toBeUndefined();
    expect(byId.checkouts?.charts.map((chart) => chart.id)).toEqual(['checkoutOutcomes', 'checkoutCodes']);
  });

  it('answers the view’s CSV with the same words', async () => {
    const view = businessViewById('revenue');
    if (!view) throw new Error('the revenue view should be listed');
    const download = await businessCsvDownload(kit, view, { from: '2030-01-01', to: '2030-01-31' }, words);
    expect(download).toEqual({
      ok: false,
      error:
        '“Recurring revenue movements”: this shop’s store does not keep these facts, so the kit cannot tell them.',
    });
  });
});
