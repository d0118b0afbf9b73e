import { createHash } from 'node:crypto';
import type { SandboxClock } from '../clock/clock.js';
import type { Reply } from '../http/reply.js';
import { RequestRefusal } from '../refusals/refusals.js';

/** The spec's replay window. */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 3600;

interface Entry {
  fingerprint: string;
  startedAt: number;
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
    this.entries.set(id, { fingerprint, startedAt: this.clock.now().getTime(), reply: undefined });
    return { kind: 'new' };
  }

  /** Stores the reply that later replays return. */
  complete(clientId: string, key: string, reply: Reply): void {
    const entry = this.entries.get(`${clientId}\n${key}`);
    if (entry) entry.reply = reply;
  }

  /** Frees the key of a refused request. */
  release(clientId: string, key: string): void {
    this.entries.delete(`${clientId}\n${key}`);
  }

  /**
   * Entries sit in the order they were claimed, which is time order (the clock never goes back),
   * so the walk stops at the first one still inside the window: a create costs the same with
   * 1,000 or 100,000 keys held. A claim still running is stepped over, never dropped.
   */
  private forgetExpired(): void {
    const oldest = this.clock.now().getTime() - IDEMPOTENCY_WINDOW_SECONDS * 1000;
    for (const [id, entry] of this.entries) {
      if (entry.startedAt > oldest) return;
      if (entry.reply) this.entries.delete(id);
    }
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
