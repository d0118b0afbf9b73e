import { describe, expect, it } from 'vitest';
import { isDcbError } from './dcb-error.js';
import { nearestName, type OptionNames, refuseUnknownOptions } from './unknown-options.js';

interface Options {
  historyRetentionDays?: number;
  history?: boolean;
  grantSucceededPayment?: () => void;
}
const KNOWN: OptionNames<Options> = {
  historyRetentionDays: true,
  history: true,
  grantSucceededPayment: true,
};

function refusal(options: object): Error & { code?: string; details?: unknown } {
  try {
    refuseUnknownOptions('makeThing', options, KNOWN, { grantFromPayment: { to: 'grantSucceededPayment' } });
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a refusal');
}

describe('refuseUnknownOptions', () => {
  it('passes known options, whatever their values (their checks are the factory’s)', () => {
    expect(() => refuseUnknownOptions('makeThing', {}, KNOWN)).not.toThrow();
    expect(() =>
      refuseUnknownOptions('makeThing', { history: undefined, historyRetentionDays: 3 }, KNOWN),
    ).not.toThrow();
  });

  it('refuses a misspelt option with unknown_option, naming the nearest one', () => {
    const error = refusal({ histroyRetentionDays: 30 });
    expect(isDcbError(error, 'unknown_option')).toBe(true);
    expect(error.details).toEqual({ option: 'histroyRetentionDays', nearest: 'historyRetentionDays' });
    expect(error.message).toBe(
      'makeThing: histroyRetentionDays is not an option. Did you mean historyRetentionDays? The options are historyRetentionDays, history and grantSucceededPayment.',
    );
  });

  it('still names the nearest for a name far from every option, without guessing it was meant', () => {
    const error = refusal({ colour: 'red' });
    expect(error.message).toContain('The nearest is history.');
    expect(error.message).not.toContain('Did you mean');
  });

  it('names the new name of a renamed option', () => {
    const error = refusal({ grantFromPayment: () => {} });
    expect(error.details).toEqual({ option: 'grantFromPayment', replacement: 'grantSucceededPayment' });
    expect(error.message).toBe(
      'makeThing: grantFromPayment is not an option any more: it was renamed grantSucceededPayment.',
    );
  });

  it('refuses an unknown option even when its value is undefined: the caller believes in the name', () => {
    expect(refusal({ histroy: undefined }).message).toContain('Did you mean history?');
  });
});

describe('nearestName', () => {
  it('counts a swap of two letters, a letter more or less, and case, as one slip', () => {
    const names = ['historyRetentionDays', 'history', 'metrics'];
    expect(nearestName('histroy', names)).toBe('history');
    expect(nearestName('metric', names)).toBe('metrics');
    expect(nearestName('HistoryRetentionDay', names)).toBe('historyRetentionDays');
    expect(nearestName('x', [])).toBeUndefined();
  });
});
