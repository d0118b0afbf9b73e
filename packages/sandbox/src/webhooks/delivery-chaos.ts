import type { ChaosSettings } from '../config/chaos-settings.js';

/** How old a stale signature's timestamp is: well past the spec's five-minute tolerance. */
export const STALE_SIGNATURE_AGE_SECONDS = 600;

/**
 * The dice behind delivery chaos. A seeded PRNG (mulberry32) rather than Math.random, so that a
 * test with a fixed seed sees the same duplicates, reorderings, delays, stale signatures and
 * indented bodies on every run. A feature whose probability is 0 draws nothing, so a new feature
 * leaves the chaos of an existing seed as it was.
 */
export class DeliveryChaos {
  private current: ChaosSettings;
  private random: () => number;

  constructor(settings: ChaosSettings) {
    this.current = settings;
    this.random = mulberry32(settings.seed);
  }

  settings(): ChaosSettings {
    return this.current;
  }

  /** Replaces the settings and restarts the dice from their seed. */
  configure(settings: ChaosSettings): void {
    this.current = settings;
    this.random = mulberry32(settings.seed);
  }

  /** Whether to hold a new event back until a later one has been posted. */
  holdForReorder(): boolean {
    return this.chance(this.current.reorderProbability);
  }

  /** Seconds to wait before a new event's first attempt; 0 for none. */
  firstAttemptDelaySeconds(): number {
    if (!this.chance(this.current.delayProbability)) return 0;
    return 1 + Math.floor(this.random() * this.current.maxDelaySeconds);
  }

  /** Whether to sign a first attempt with a stale timestamp. */
  signStale(): boolean {
    return this.chance(this.current.staleSignatureProbability);
  }

  /** Whether to send a new event's body indented rather than compact. */
  indentBody(): boolean {
    return this.chance(this.current.indentedBodyProbability);
  }

  /** Whether to post a delivered event once more. */
  duplicate(): boolean {
    return this.chance(this.current.duplicateProbability);
  }

  private chance(probability: number): boolean {
    return probability > 0 && this.random() < probability;
  }
}

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
