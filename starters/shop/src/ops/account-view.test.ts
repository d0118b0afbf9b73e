import type { AccessReason } from '@dcbkit/core';
import type { HistoryEntry } from '@dcbkit/core/store';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, translator } from '../i18n.js';
import { lastEventView } from './account-view.js';

const reason = (lastEventName: string | null, lastEventAt: string | null): AccessReason => ({
  code: 'units_left',
  hasAccess: true,
  until: null,
  firstChargeAt: null,
  units: 1,
  lastEventName,
  lastEventAt,
});

const applied = { decision: 'applied', recordedAt: '2026-11-27T10:00:00.000Z' } as HistoryEntry;
const duplicate = { decision: 'duplicate', recordedAt: '2026-11-27T11:00:00.000Z' } as HistoryEntry;
const words = (lang: (typeof LANGUAGES)[number]) => ({
  t: translator(lang),
  date: (iso: string | null | undefined) => `<${iso}>`,
});

describe('lastEventView: the operations view’s "Last event" in words', () => {
  it('an event: its name and its time', () => {
    expect(lastEventView(reason('payment.succeeded', '2026-11-27T09:00:00.000Z'), [], words('en'))).toEqual({
      name: 'payment.succeeded',
      when: '<2026-11-27T09:00:00.000Z>',
    });
  });

  it.each(LANGUAGES)('a read: the bare name, "read from the service", never `read:` (%s)', (lang) => {
    const timed = lastEventView(
      reason('read:subscription.updated', '2026-11-27T09:00:00.000Z'),
      [],
      words(lang),
    );
    expect(timed?.name).toBe('subscription.updated');
    expect(timed?.when).toBe(translator(lang)('ops.lastEvent.read', { date: '<2026-11-27T09:00:00.000Z>' }));
  });

  it('a read that proves no time: dated by when the kit applied it, else said to be undated', () => {
    const untimed = reason('read:payment.succeeded', null);
    expect(lastEventView(untimed, [duplicate, applied], words('en'))).toEqual({
      name: 'payment.succeeded',
      when: 'read from the service on <2026-11-27T10:00:00.000Z>',
    });
    expect(lastEventView(untimed, [], words('en'))?.when).toBe('read from the service, time unknown');
  });

  it('none when no event set the status', () => {
    expect(lastEventView(reason(null, null), [applied], words('en'))).toBeUndefined();
  });
});
