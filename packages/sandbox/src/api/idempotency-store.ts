import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { SandboxClock } from '../clock/clock.js';
import type { Reply } from '../http/reply.js';
import { RequestRefusal } from '../refusals/refusals.js';

/** The spec's replay window. */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 3600;

/**
 * Replies kept per environment. Above a steady load test's 144,000 keys a day (`bench/sandbox`);
 * past it the least recently used reply is forgotten before its window closes. lru-cache sizes its
 * arrays to this up front (about 9 MB), so the cache is made at the first create.
 */
export const IDEMPOTENCY_MAX_KEYS = 200_000;

const WINDOW_MS = IDEMPOTENCY_WINDOW_SECONDS * 1000;

interface Running {
  readonly fingerprint: string;
  readonly claimedAtMs: number;
}

interface Kept {
  readonly fingerprint: string;
  readonly reply: Reply;
  readonly windowEndsMs: number;
}

export type IdempotencyClaim = { kind: 'new' } | { kind: 'replay'; reply: Reply };

/**
 * Idempotency keys of POST /v1/payments, per application. A key is claimed while its request
 * runs (a second request then gets PAY-104), keeps the response of a created payment for 24 hours
 * from its claim, and is released when the request is refused, so a corrected retry may reuse it.
 */
export class IdempotencyStore {
  /** Claims in progress: as many as requests in flight, kept past the window until they end. */
  private readonly running = new Map<string, Running>();
  private kept: LRUCache<string, Kept> | undefined;

  constructor(
    private readonly clock: SandboxClock,
    private readonly maxKeys = IDEMPOTENCY_MAX_KEYS,
  ) {}

  /** Keys held: claims running and replies kept (a reply past its window until it is freed). */
  get size(): number {
    return this.running.size + (this.kept?.size ?? 0);
  }

  /** Claims the key for a new request, or hands back the stored reply. Throws PAY-105, PAY-104. */
  claim(clientId: string, key: string, payload: unknown): IdempotencyClaim {
    const id = `${clientId}\n${key}`;
    const fingerprint = fingerprintOf(payload);
    const running = this.running.get(id);
    if (running) {
      refuseOtherPayload(running.fingerprint, fingerprint);
      throw new RequestRefusal('PAY-104', 'A request with this Idempotency-Key is still in progress.', {
        retryAfterSeconds: 1,
      });
    }
    const kept = this.replies().get(id, { allowStale: false });
    if (kept) {
      refuseOtherPayload(kept.fingerprint, fingerprint);
      return { kind: 'replay', reply: kept.reply };
    }
    this.running.set(id, { fingerprint, claimedAtMs: this.nowMs() });
    return { kind: 'new' };
  }

  /** Stores the reply that later replays return, until 24 hours after the claim. */
  complete(clientId: string, key: string, reply: Reply): void {
    const id = `${clientId}\n${key}`;
    const running = this.running.get(id);
    if (!running) return;
    this.running.delete(id);
    const windowEndsMs = running.claimedAtMs + WINDOW_MS;
    // Past its window already: no claim can replay it, so it is not kept.
    if (windowEndsMs <= this.nowMs()) return;
    const kept = { fingerprint: running.fingerprint, reply, windowEndsMs };
    this.replies().set(id, kept, { start: running.claimedAtMs });
  }

  /** Frees the key of a refused request. */
  release(clientId: string, key: string): void {
    this.running.delete(`${clientId}\n${key}`);
  }

  private replies(): LRUCache<string, Kept> {
    this.kept ??= new LRUCache<string, Kept>({
      max: this.maxKeys,
      // lru-cache calls an entry stale once its age exceeds ttl; the window closes at 24 h exactly.
      ttl: WINDOW_MS - 1,
      // Ages on the sandbox clock, read at every check (no real-time timers, no cached time), so
      // an advance of the clock closes windows at once.
      perf: { now: () => this.nowMs() },
      ttlResolution: 0,
      ttlAutopurge: false,
      // Lets forgetClosedWindows see the stale entries at the least recently used end; `get` in
      // claim asks for fresh ones only.
      allowStale: true,
    });
    this.forgetClosedWindows(this.kept);
    return this.kept;
  }

  /**
   * Frees replies whose window has closed though no claim asked for their key again (lru-cache
   * drops a stale entry when it is read, or when `max` pushes it out): from the least recently
   * used end, which is claim order unless a replay moved one up, so O(1) per reply freed.
   */
  private forgetClosedWindows(kept: LRUCache<string, Kept>): void {
    const now = this.nowMs();
    for (;;) {
      const oldest = kept.rvalues().next().value;
      if (oldest === undefined || oldest.windowEndsMs > now) return;
      kept.pop();
    }
  }

  private nowMs(): number {
    return this.clock.now().getTime();
  }
}

function refuseOtherPayload(claimed: string, asked: string): void {
  if (claimed !== asked) {
    throw new RequestRefusal('PAY-105', 'This Idempotency-Key was used with a different payload.');
  }
}

/** The same JSON value gives the same fingerprint whatever its key order or spacing. */
function fingerprintOf(payload: unknown): string {
  return createHash('sha256').update(canonicalJson(payload)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
