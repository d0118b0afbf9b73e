import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDeadlines, runtimeTimerScope } from './deadlines.js';

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

describe('createDeadlines: the clock it measures on', () => {
  afterEach(() => vi.useRealTimers());

  it('is the monotonic one: the wall clock stepping hours ahead does not time out a delivery in flight', async () => {
    // bench/soak moves Date by hours at a time, as an NTP step of the system time would. The
    // deadline is far (10 s) and the work outlives one sweep (every 1 s here), so a sweep reading
    // the wall clock would time it out, and a busy host cannot.
    const withDeadline = createDeadlines(10_000);
    vi.useFakeTimers({ toFake: ['Date'] });
    let finish: (value: string) => void = () => {};
    const inFlight = withDeadline(() => new Promise<string>((resolve) => (finish = resolve)));
    vi.setSystemTime(Date.now() + 5 * 3_600_000);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    finish('done');
    await expect(inFlight).resolves.toBe('done');
  });
});

describe('createDeadlines: the list of deliveries in flight', () => {
  it('times out exactly the hung ones, whatever order the others finish in', async () => {
    const withDeadline = createDeadlines(50);
    const settle: (() => void)[] = [];
    const outcomes = Array.from({ length: 12 }, (_, i) =>
      withDeadline(
        () =>
          new Promise<string>((resolve) => {
            // Every third one hangs; the others finish in an order unlike their start.
            if (i % 3 !== 0) settle[(i * 7) % 12] = () => resolve(`done ${i}`);
          }),
      ).then(
        (value) => value,
        (error: { code?: string }) => error.code,
      ),
    );
    for (const finish of settle) finish?.();
    const results = await Promise.all(outcomes);
    expect(results).toEqual(Array.from({ length: 12 }, (_, i) => (i % 3 === 0 ? 'timeout' : `done ${i}`)));
    // Work started after a sweep emptied the list is still bounded.
    await expect(withDeadline(() => new Promise(() => {}))).rejects.toMatchObject({ code: 'timeout' });
  });
});

describe('createDeadlines: a process with nothing else to wait for', () => {
  it('stays alive until a hung delivery gets its timeout (a script calling the handler directly)', async () => {
    const { execFile } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const module = fileURLToPath(new URL('./deadlines.ts', import.meta.url));
    // No server, no other timer: before, the deadline's timer was unref'd and the process exited
    // (code 13, unsettled top-level await) without the timeout.
    const script = `const { createDeadlines } = await import(${JSON.stringify(module)});
      const withDeadline = createDeadlines(50);
      const error = await withDeadline(() => new Promise(() => {})).catch((e) => e);
      console.log(error.code);`;
    const outcome = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script],
        { timeout: 20_000 },
        (_error, stdout) => resolve({ code: child.exitCode, stdout }),
      );
    });
    expect(outcome).toEqual({ code: 0, stdout: 'timeout\n' });
  });
});

describe('createDeadlines where timers belong to a request (an edge runtime)', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('knows Node for a runtime whose timers outlive a request, and a runtime without process for one whose do not', () => {
    expect(runtimeTimerScope()).toBe('process');
    vi.stubGlobal('process', undefined);
    expect(runtimeTimerScope()).toBe('request');
  });

  it('sets a timer per delivery and clears it with the delivery: none outlives its request', async () => {
    vi.useFakeTimers();
    const withDeadline = createDeadlines(100, 'request');
    await expect(withDeadline(async () => 'done')).resolves.toBe('done');
    // A shared interval would still be running here, and die with this request on an edge runtime.
    expect(vi.getTimerCount()).toBe(0);
    const hung = withDeadline(() => new Promise(() => {})).catch((error: unknown) => error);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(await hung).toMatchObject({ code: 'timeout', details: { timeoutMs: 100 } });
    expect(vi.getTimerCount()).toBe(0);
  });
});
