import { defineOffers } from '@dcbkit/core';
import { describe, expect, it } from 'vitest';
import { OFFERS } from '../offer-definitions.js';
import { businessQueryFrom, businessSearch, parseDay } from './business-query.js';

const offers = defineOffers(OFFERS).list;
const NOW = new Date('2030-06-15T17:30:00Z');

describe('the Business page’s query', () => {
  it('defaults to the last 90 days, today included, by week over every offer', () => {
    const query = businessQueryFrom({}, NOW, offers);
    expect(query).toEqual({
      ok: true,
      form: { from: '2030-03-18', to: '2030-06-15', interval: 'week', offer: '', page: 1 },
      metrics: {
        from: new Date('2030-03-18T00:00:00Z'),
        to: new Date('2030-06-16T00:00:00Z'),
        interval: 'week',
      },
    });
  });

  it('reads the form: the last day included, one offer, another interval', () => {
    const query = businessQueryFrom(
      { from: '2030-01-01', to: ' 2030-01-31 ', interval: 'day', offer: 'offer_day_pass' },
      NOW,
      offers,
    );
    expect(query).toMatchObject({
      ok: true,
      form: { from: '2030-01-01', to: '2030-01-31', interval: 'day', offer: 'offer_day_pass' },
      metrics: { from: new Date('2030-01-01T00:00:00Z'), to: new Date('2030-02-01T00:00:00Z') },
    });
  });

  it('says what is wrong, keeping the fields to show again', () => {
    expect(businessQueryFrom({ from: '2030-02-30' }, NOW, offers)).toMatchObject({
      ok: false,
      form: { from: '2030-02-30' },
      error: 'ops.business.error.date',
    });
    expect(businessQueryFrom({ from: 'yesterday' }, NOW, offers)).toMatchObject({
      error: 'ops.business.error.date',
    });
    expect(businessQueryFrom({ from: '2030-05-02', to: '2030-05-01' }, NOW, offers)).toMatchObject({
      error: 'ops.business.error.order',
    });
    expect(businessQueryFrom({ interval: 'year' }, NOW, offers)).toMatchObject({
      form: { interval: 'week' },
      error: 'ops.business.error.interval',
    });
    expect(businessQueryFrom({ offer: 'offer_nobody_sells' }, NOW, offers)).toMatchObject({
      form: { offer: '' },
      error: 'ops.business.error.offer',
    });
    // Fields repeated in the address come as arrays: not a date.
    expect(businessQueryFrom({ from: ['2030-01-01', '2030-01-02'] }, NOW, offers)).toMatchObject({
      ok: true,
    });
  });

  it('takes ten years at most, what kit.metrics answers at once (the CSV reads the whole period)', () => {
    expect(businessQueryFrom({ from: '2020-06-15', to: '2030-06-15' }, NOW, offers)).toMatchObject({
      ok: true,
    });
    expect(businessQueryFrom({ from: '2000-01-01', to: '2030-01-01' }, NOW, offers)).toMatchObject({
      ok: false,
      error: 'ops.business.error.refused',
    });
  });

  it('reads the page, 1 (the most recent) unless a whole number from 1 says otherwise', () => {
    const pageOf = (page: unknown) => businessQueryFrom({ page }, NOW, offers).form.page;
    expect([pageOf(undefined), pageOf('3'), pageOf(' 2 '), pageOf('0'), pageOf('1.5'), pageOf('x')]).toEqual([
      1, 3, 2, 1, 1, 1,
    ]);
    expect(
      businessSearch({ from: '2030-01-01', to: '2030-01-31', interval: 'day', offer: '', page: 2 }),
    ).toBe('from=2030-01-01&to=2030-01-31&interval=day&page=2');
  });

  it('takes one day as a period of one day', () => {
    expect(businessQueryFrom({ from: '2030-05-01', to: '2030-05-01' }, NOW, offers)).toMatchObject({
      ok: true,
      metrics: { from: new Date('2030-05-01T00:00:00Z'), to: new Date('2030-05-02T00:00:00Z') },
    });
  });

  it('parses real days only, and writes the form back as an address', () => {
    expect(parseDay('2032-02-29')).toEqual(new Date('2032-02-29T00:00:00Z'));
    expect(parseDay('2031-02-29')).toBeUndefined();
    expect(parseDay('2031-1-01')).toBeUndefined();
    expect(businessSearch({ from: '2030-01-01', to: '2030-01-31', interval: 'month', offer: '' })).toBe(
      'from=2030-01-01&to=2030-01-31&interval=month',
    );
    expect(
      businessSearch({ from: '2030-01-01', to: '2030-01-31', interval: 'day', offer: 'offer_day_pass' }),
    ).toBe('from=2030-01-01&to=2030-01-31&interval=day&offer=offer_day_pass');
  });
});
