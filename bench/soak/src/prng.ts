/**
 * mulberry32: a seeded generator in a few lines, so every subscriber's choices repeat with the
 * seed. Hand-written because a dependency for 6 lines of arithmetic would be heavier than the code,
 * and only reproducibility matters here, not cryptographic quality.
 */
export interface Random {
  /** [0, 1) */
  next(): number;
  /** true with probability p */
  chance(p: number): boolean;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** A weighted pick: weights need not sum to 1. */
  weighted<T extends string>(weights: Readonly<Record<T, number>>): T;
}

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const random: Random = {
    next,
    chance: (p) => next() < p,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error('pick from an empty list');
      return item;
    },
    weighted: (weights) => {
      const entries = Object.entries(weights) as [keyof typeof weights, number][];
      const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
      let roll = next() * total;
      for (const [name, weight] of entries) {
        roll -= weight;
        if (roll < 0) return name;
      }
      return entries[entries.length - 1]?.[0] as keyof typeof weights;
    },
  };
  return random;
}
