/** A 128-bit digest as four 32-bit lanes (see keyDigestInto). */
export type Digest = Int32Array;

const EMPTY = -1;
const FIRST_CAPACITY = 1_024;

/**
 * Entries keyed by a 128-bit digest, each with a number and a token, kept in the order they were
 * added: once `max` are held, adding one forgets the oldest. Written by hand rather than on a Map
 * because it is the webhook's hot path and its largest memory: the entries live in typed arrays
 * (a ring in insertion order) indexed by an open-addressing table of slot numbers. No object or
 * string per entry, so nothing for the garbage collector to trace, about 37 bytes per entry (the Map
 * from digest strings to numbers it replaces took 62), and a new entry costs one probe of the index
 * instead of a Map's hashing of a fresh string plus the deletion of a cold entry.
 *
 * The ring grows by doubling up to `max`, so memory follows the entries held. The index is kept at
 * most half full, with linear probing and backward-shift deletion (no tombstones to rebuild).
 */
export class DigestTable {
  /** The entry's number, per slot: the caller's; NaN marks a slot whose entry was removed. */
  values: Float64Array;
  /** The entry's token, per slot: the caller's. */
  tokens: Uint32Array;
  private lanes: Int32Array;
  private capacity: number;
  /** The oldest slot, and how many slots from it are in use (removed ones included). */
  private head = 0;
  private used = 0;
  private index: Int32Array;
  private mask: number;

  constructor(private readonly max: number) {
    this.capacity = Math.min(max, FIRST_CAPACITY);
    this.values = new Float64Array(this.capacity);
    this.tokens = new Uint32Array(this.capacity);
    this.lanes = new Int32Array(this.capacity * 4);
    this.index = new Int32Array(indexSizeFor(this.capacity)).fill(EMPTY);
    this.mask = this.index.length - 1;
  }

  /** The slot holding `digest`, or -1. */
  find(digest: Digest): number {
    const { index, lanes, mask } = this;
    const a = digest[0] as number;
    const b = digest[1] as number;
    const c = digest[2] as number;
    const d = digest[3] as number;
    for (let i = a & mask; ; i = (i + 1) & mask) {
      const slot = index[i] as number;
      if (slot === EMPTY) return -1;
      const at = slot * 4;
      if (lanes[at] === a && lanes[at + 1] === b && lanes[at + 2] === c && lanes[at + 3] === d) return slot;
    }
  }

  /** Adds `digest` (not held: `find` said so) as the newest entry, forgetting the oldest when `max` are held. */
  add(digest: Digest, value: number, token: number): void {
    if (this.used === this.capacity) {
      if (this.capacity < this.max) this.grow();
      else this.forgetOldest();
    }
    let slot = this.head + this.used;
    if (slot >= this.capacity) slot -= this.capacity;
    this.used++;
    this.lanes.set(digest, slot * 4);
    this.values[slot] = value;
    this.tokens[slot] = token;
    this.link(slot);
  }

  /** Forgets the entry in `slot`; its place in the ring stays used until it is the oldest. */
  remove(slot: number): void {
    this.unlink(slot);
    this.values[slot] = Number.NaN;
  }

  private forgetOldest(): void {
    const oldest = this.head;
    if (!Number.isNaN(this.values[oldest] as number)) this.unlink(oldest);
    this.head = oldest + 1 === this.capacity ? 0 : oldest + 1;
    this.used--;
  }

  private link(slot: number): void {
    const { index, mask } = this;
    let i = (this.lanes[slot * 4] as number) & mask;
    while (index[i] !== EMPTY) i = (i + 1) & mask;
    index[i] = slot;
  }

  private unlink(slot: number): void {
    const { index, lanes, mask } = this;
    let hole = (lanes[slot * 4] as number) & mask;
    while (index[hole] !== slot) hole = (hole + 1) & mask;
    index[hole] = EMPTY;
    // Backward shift: an entry after the hole moves into it unless its home lies cyclically in
    // (hole, i], which keeps every entry reachable from its home without tombstones.
    for (let i = (hole + 1) & mask; index[i] !== EMPTY; i = (i + 1) & mask) {
      const moved = index[i] as number;
      const home = (lanes[moved * 4] as number) & mask;
      const stays = hole <= i ? hole < home && home <= i : hole < home || home <= i;
      if (stays) continue;
      index[hole] = moved;
      index[i] = EMPTY;
      hole = i;
    }
  }

  /** Doubles the ring (up to `max`), laid out again from slot 0, and the index with it. */
  private grow(): void {
    const capacity = Math.min(this.max, this.capacity * 2);
    const values = new Float64Array(capacity);
    const tokens = new Uint32Array(capacity);
    const lanes = new Int32Array(capacity * 4);
    for (let k = 0; k < this.used; k++) {
      let from = this.head + k;
      if (from >= this.capacity) from -= this.capacity;
      values[k] = this.values[from] as number;
      tokens[k] = this.tokens[from] as number;
      lanes.set(this.lanes.subarray(from * 4, from * 4 + 4), k * 4);
    }
    this.values = values;
    this.tokens = tokens;
    this.lanes = lanes;
    this.capacity = capacity;
    this.head = 0;
    this.index = new Int32Array(indexSizeFor(capacity)).fill(EMPTY);
    this.mask = this.index.length - 1;
    for (let slot = 0; slot < this.used; slot++) if (!Number.isNaN(values[slot] as number)) this.link(slot);
  }
}

/** A power of two at least twice the entries: linear probing stays short at half full. */
function indexSizeFor(capacity: number): number {
  let size = 2;
  while (size < capacity * 2) size *= 2;
  return size;
}
