import { describe, expect, it } from 'vitest';
import { createDeadlines } from './deadlines.js';

describe('createDeadlines', () => {
  it('passes the work’s own outcome through when it finishes in time', async () => {
    const withDeadline = createDeadlines(200);
    await expect(withDeadline(async () => 'done')).resolves.toBe('done');
    await expect(withDeadline(() => Promise.reject(new Error('store down')))).rejects.toThrow('store down');
  });

  it('rejects hung work with code timeout, soon after the deadline, and keeps serving others', async () => {
    const withDeadline = createDeadlines(100);
    const started = Date.now();
    const hung = withDeadline(() => new Promise(() => {})).catch((error: unknown) => error);
    const quick = withDeadline(async () => 'quick');
    await expect(quick).resolves.toBe('quick');
    expect(await hung).toMatchObject({ code: 'timeout', details: { timeoutMs: 100 } });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(100);
    expect(elapsed).toBeLessThan(2_000);
  });
});
