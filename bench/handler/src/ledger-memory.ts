/**
 * memoryLedger's memory per remembered event, at 10 % and at 100 % of its max (1,000,000): heap +
 * array buffers after gc, from just before the ledger is created to after the fill, so memory
 * allocated at creation counts. Each fill runs in a process of its own. Run with --expose-gc.
 */
import { createHash } from 'node:crypto';
import { memoryLedger } from '@dcbkit/core';
import { formatCount } from '@dcbkit-bench/shared';
import type { PartResult } from './part.js';

export const LEDGER_MAX = 1_000_000;

function usedBytes(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('bench/handler needs node --expose-gc (run it with pnpm bench).');
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/** A realistic event key: name, payment, subscription, order, status, occurredAt, joined by U+001F. */
const keyOf = (i: number) =>
  `payment.succeeded\u001fpay_01JBENCH${i}\u001fsub_01JBENCH${i}\u001ford_01JBENCH${i}\u001f\u001f2026-11-21T12:00:00.000Z`;

export async function ledgerMemory(fill: number): Promise<PartResult> {
  const keys = Math.round(LEDGER_MAX * fill);
  const before = usedBytes();
  const ledger = memoryLedger({ max: LEDGER_MAX });
  const empty = usedBytes() - before;
  for (let i = 0; i < keys; i++) {
    const key = keyOf(i);
    const claim = await ledger.claim(key);
    if (claim.status !== 'new') throw new Error('a fresh key was not new');
    await ledger.complete(key, claim.token);
  }
  const total = usedBytes() - before;
  // Still holding the ledger when measuring, and it still remembers the first key.
  if ((await ledger.claim(keyOf(0))).status !== 'duplicate')
    throw new Error('the ledger forgot a key it should hold');
  const perKey = total / keys;
  return {
    lines: [
      `  ${formatCount(keys, 9)} keys (${fill * 100} % of max ${LEDGER_MAX.toLocaleString('en')}): ${(total / 1048576).toFixed(1).padStart(6)} MiB, ${perKey.toFixed(1).padStart(6)} bytes per key (${(empty / 1048576).toFixed(1)} MiB of it allocated empty, at creation)`,
    ],
    figures: { perKey },
  };
}

/**
 * The reference for the ledger's memory when full (issue 29: within 1.3x): a bare Map from a
 * 128-bit digest of each key (16 one-byte characters, as small as memoryLedger's 8 two-byte ones)
 * to 0, with no bound, no expiry and no claims.
 */
export async function digestMapMemory(): Promise<PartResult> {
  const before = usedBytes();
  const digests = new Map<string, number>();
  for (let i = 0; i < LEDGER_MAX; i++) digests.set(createHash('md5').update(keyOf(i)).digest('binary'), 0);
  const total = usedBytes() - before;
  if (digests.size !== LEDGER_MAX) throw new Error('two digests collided');
  const perKey = total / LEDGER_MAX;
  return {
    lines: [
      `  ${formatCount(LEDGER_MAX, 9)} keys in a bare Map of digests (the reference): ${(total / 1048576).toFixed(1).padStart(6)} MiB, ${perKey.toFixed(1).padStart(6)} bytes per key`,
    ],
    figures: { perKey },
  };
}
