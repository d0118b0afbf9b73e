import { describe, expect, it } from 'vitest';
import { SandboxError } from '../shared/sandbox-error.js';
import { createClock } from './clock.js';

const START = '2030-01-01T00:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(START) + seconds * 1000);

describe('createClock (frozen)', () => {
  it('stands still until advanced', async () => {
    const clock = createClock({ start: START, frozen: true });
    expect(clock.now().toISOString()).toBe(START);
    await clock.advance(90);
    expect(clock.now().toISOString()).toBe('2030-01-01T00:01:30.000Z');
    clock.close();
  });

  it('runs due tasks in time order, each at its own time, including tasks scheduled on the way', async () => {
    const clock = createClock({ start: START, frozen: true });
    const seen: string[] = [];
    const note = (label: string) => () => seen.push(`${label}@${clock.now().toISOString().slice(11, 19)}`);
    clock.schedule(at(30), 'c', note('c'));
    clock.schedule(at(10), 'a', () => {
      note('a')();
      clock.schedule(at(20), 'b', note('b'));
    });
    clock.schedule(at(10), 'a2', note('a2'));
    clock.schedule(at(100), 'late', note('late'));
    await clock.advance(30);
    expect(seen).toEqual(['a@00:00:10', 'a2@00:00:10', 'b@00:00:20', 'c@00:00:30']);
    expect(clock.pending().map((task) => task.label)).toEqual(['late']);
    clock.close();
  });

  it('runs tasks already due without advancing, and never runs a cancelled task', async () => {
    const clock = createClock({ start: START, frozen: true });
    const seen: string[] = [];
    clock.schedule(at(0), 'now', () => seen.push('now'));
    clock.schedule(at(5), 'later', () => seen.push('later')).cancel();
    await clock.runDue();
    await clock.advance(10);
    expect(seen).toEqual(['now']);
    clock.close();
  });

  it('keeps going after a task throws, and reports it', async () => {
    const failures: string[] = [];
    const clock = createClock({
      start: START,
      frozen: true,
      onTaskError: (_error, label) => failures.push(label),
    });
    const seen: string[] = [];
    clock.schedule(at(1), 'boom', () => {
      throw new Error('boom');
    });
    clock.schedule(at(2), 'after', () => seen.push('after'));
    await clock.advance(2);
    expect(failures).toEqual(['boom']);
    expect(seen).toEqual(['after']);
    clock.close();
  });

  it('refuses to go backwards, and a start that is no date, with typed errors', async () => {
    const clock = createClock({ start: START, frozen: true });
    await expect(clock.advance(-1)).rejects.toSatisfy(
      (error) => error instanceof SandboxError && error.code === 'invalid_clock_advance',
    );
    clock.close();
    expect(() => createClock({ start: 'not a date' })).toThrow(
      expect.objectContaining({ name: 'SandboxError', code: 'invalid_clock_start' }),
    );
  });
});

describe('createClock (real time)', () => {
  it('follows wall time from its start, runs due tasks by itself, and can be moved forward', async () => {
    const clock = createClock({ start: START });
    const ran = new Promise<string>((resolve) => clock.schedule(clock.now(), 'due', () => resolve('ran')));
    expect(await ran).toBe('ran');
    expect(clock.now().getTime()).toBeGreaterThanOrEqual(Date.parse(START));
    const before = clock.now().getTime();
    await clock.advance(3600);
    expect(clock.now().getTime()).toBeGreaterThanOrEqual(before + 3_600_000);
    clock.close();
  });
});
