import { createHash } from 'node:crypto';
import type { SandboxClock } from '../clock/clock.js';
import type { Reply } from '../http/reply.js';
import { RequestRefusal } from '../refusals/refusals.js';
import { RetentionQueue } from '../retention/retention-queue.js';

/** The spec's replay window. */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 3600;

interface Entry {
  readonly id: string;
  fingerprint: string;
  reply: Reply | undefined;
}

export type IdempotencyClaim = { kind: 'new' } | { kind: 'replay'; reply: Reply };

/**
 * Idempotency keys of POST /v1/payments, per application. A key is claimed while its request
 * runs (a second request then gets PAY-104), keeps the response of a created payment for 24 hours,
 * and is released when the request is refused, so a corrected retry may reuse it.
 */
export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();
  /**
   * The entries in the order they were claimed, which is time order (the clock never goes back):
   * forgetting looks at the head only. Never a walk over the map, whose deleted slots V8 keeps
   * until it rehashes: a walk from the oldest end crossed them all again on every create.
   */
  private readonly claimed = new RetentionQueue<Entry>(IDEMPOTENCY_WINDOW_SECONDS * 1000);
  /** Claims whose window closed while they still ran: forgotten as soon as they complete. */
  private readonly expiredWhileRunning = new Set<Entry>();

  constructor(private readonly clock: SandboxClock) {}

  /** Claims the key for a new request, or hands back the stored reply. Throws PAY-105, PAY-104. */
  claim(clientId: string, key: string, payload: unknown): IdempotencyClaim {
    this.forgetExpired();
    const id = `${clientId}\n${key}`;
    const fingerprint = fingerprintOf(payload);
    const entry = this.entries.get(id);
    if (entry) {
      if (entry.fingerprint !== fingerprint) {
        throw new RequestRefusal('PAY-105', 'This Idempotency-Key was used with a different payload.');
      }
      if (!entry.reply) {
        throw new RequestRefusal('PAY-104', 'A request with this Idempotency-Key is still in progress.', {
          retryAfterSeconds: 1,
        });
      }
      return { kind: 'replay', reply: entry.reply };
    }
    const claimed: Entry = { id, fingerprint, reply: undefined };
    this.entries.set(id, claimed);
    this.claimed.add(claimed, this.clock.now().getTime());
    return { kind: 'new' };
  }

  /** Stores the reply that later replays return. */
  complete(clientId: string, key: string, reply: Reply): void {
    const entry = this.entries.get(`${clientId}\n${key}`);
    if (!entry) return;
    // Past its window already: no claim can replay it, so it is not kept.
    if (this.expiredWhileRunning.delete(entry)) this.entries.delete(entry.id);
    else entry.reply = reply;
  }

  /** Frees the key of a refused request. */
  release(clientId: string, key: string): void {
    const id = `${clientId}\n${key}`;
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.expiredWhileRunning.delete(entry);
  }

  /**
   * Forgets the entries whose window has closed: O(1) per entry forgotten, and one comparison when
   * none is due, so a create costs the same with 1,000 or 100,000 keys held, before and after the
   * window starts closing. A claim still running is kept until it completes or is released.
   */
  private forgetExpired(): void {
    this.claimed.sweep(this.clock.now().getTime(), (entry) => {
      // Released (and perhaps claimed again, with an entry of its own) since: nothing to forget.
      if (this.entries.get(entry.id) !== entry) return;
      if (entry.reply) this.entries.delete(entry.id);
      else this.expiredWhileRunning.add(entry);
    });
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
