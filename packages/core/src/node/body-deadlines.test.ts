import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearBodyDeadline, startBodyDeadline } from './body-deadlines.js';

describe('body deadlines', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('expires a read once its time passed, within a fifth of it, and only that one', () => {
    const late = vi.fn();
    const cleared = vi.fn();
    startBodyDeadline(100, late);
    const entry = startBodyDeadline(100, cleared);
    clearBodyDeadline(entry);
    vi.advanceTimersByTime(99);
    expect(late).not.toHaveBeenCalled();
    vi.advanceTimersByTime(20);
    expect(late).toHaveBeenCalledOnce();
    expect(cleared).not.toHaveBeenCalled();
  });

  it('keeps reads of different timeouts apart, each in its own order', () => {
    const short = vi.fn();
    const long = vi.fn();
    startBodyDeadline(1_000, long);
    startBodyDeadline(50, short);
    vi.advanceTimersByTime(70);
    expect(short).toHaveBeenCalledOnce();
    expect(long).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_200);
    expect(long).toHaveBeenCalledOnce();
  });

  it('runs no timer once no body is in flight', () => {
    const entry = startBodyDeadline(100, () => {});
    expect(vi.getTimerCount()).toBe(1);
    clearBodyDeadline(entry);
    vi.advanceTimersByTime(30);
    expect(vi.getTimerCount()).toBe(0);
  });
});
