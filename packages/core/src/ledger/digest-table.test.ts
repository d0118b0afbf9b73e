import { describe, expect, it } from 'vitest';
import { DigestTable } from './digest-table.js';

/** A digest whose first lane (the index's home) is shared by many: probing and shifting get exercised. */
function digestOf(n: number, homes: number): Int32Array {
  return Int32Array.of(n % homes, n, n ^ 0x5a5a5a5a, -n);
}

/**
 * Runs the same random steps on the table and on a model: a Map of what is held, and the ring's
 * places in order (a removed entry's place stays taken until it is the oldest).
 */
function agreeWithModel(max: number, steps: number, homes: number, seed: number): void {
  const table = new DigestTable(max);
  const held = new Map<number, { value: number }>();
  const places: ({ value: number; n: number } | undefined)[] = [];
  let random = seed;
  const next = () => {
    random = (Math.imul(random, 1103515245) + 12345) >>> 0;
    return random;
  };
  for (let step = 0; step < steps; step++) {
    const n = next() % (max * 3);
    const slot = table.find(digestOf(n, homes));
    const entry = held.get(n);
    expect(slot >= 0).toBe(entry !== undefined);
    if (entry === undefined) {
      table.add(digestOf(n, homes), step, step);
      if (places.length === max) {
        const oldest = places.shift();
        if (oldest !== undefined) held.delete(oldest.n);
      }
      const place = { value: step, n };
      places.push(place);
      held.set(n, place);
      continue;
    }
    expect(table.values[slot]).toBe(entry.value);
    if (next() % 4 === 0) {
      table.remove(slot);
      held.delete(n);
      places[places.indexOf(entry as { value: number; n: number })] = undefined;
    } else {
      table.values[slot] = step;
      entry.value = step;
    }
  }
  for (const [n, entry] of held) expect(table.values[table.find(digestOf(n, homes))]).toBe(entry.value);
}

describe('DigestTable', () => {
  it('finds what it holds and nothing else, through growth, removals and crowded homes', () => {
    for (const [max, homes] of [
      [50, 3],
      [1_000, 7],
      [5_000, 1_000_000],
    ] as const) {
      const table = new DigestTable(max);
      for (let n = 0; n < max; n++) table.add(digestOf(n, homes), n, n);
      for (let n = 0; n < max; n += 2) table.remove(table.find(digestOf(n, homes)));
      for (let n = 0; n < max; n++) {
        const slot = table.find(digestOf(n, homes));
        if (n % 2 === 0) expect(slot).toBe(-1);
        else expect(table.values[slot]).toBe(n);
      }
      expect(table.find(digestOf(max + 1, homes))).toBe(-1);
    }
  });

  it('forgets the oldest first once max are held', () => {
    const table = new DigestTable(3);
    for (const n of [1, 2, 3, 4]) table.add(digestOf(n, 1_000), n, n);
    expect(table.find(digestOf(1, 1_000))).toBe(-1);
    for (const n of [2, 3, 4]) expect(table.values[table.find(digestOf(n, 1_000))]).toBe(n);
  });

  it('agrees with a model under random finds, adds, updates and removals', () => {
    for (const [max, homes, seed] of [
      [16, 2, 1],
      [300, 5, 2],
      [2_000, 97, 3],
      [3_000, 1 << 30, 4],
    ] as const) {
      agreeWithModel(max, max * 20, homes, seed);
    }
  });
});
