import { replayDeadLetters } from './faults.js';
import type { SandboxProcess } from './sandbox-process.js';
import type { SharedTime } from './shared-time.js';

/**
 * After the load: chaos off, and every event the service still owes the shop delivered: retries
 * brought forward by moving the shared time past the last retry delay (7.2 hours: 1 min, 10 min, 1 h,
 * 6 h), what was dead-lettered replayed, until nothing is pending. At most `rounds` rounds.
 * Returns what was still undelivered at the end (0 when settled).
 */
export async function settleDeliveries(
  sandbox: SandboxProcess,
  time: SharedTime,
  rounds = 6,
): Promise<number> {
  await sandbox.control('/sandbox/chaos', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  let owed = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds && owed > 0; round++) {
    time.move(8 * 3600);
    await sandbox.runDue();
    await replayDeadLetters(sandbox);
    owed = await waitForDeliveries(sandbox, 10_000);
  }
  return owed;
}

/** Polls until no event is pending or dead-lettered, or `timeoutMs` passed; returns how many are left. */
async function waitForDeliveries(sandbox: SandboxProcess, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [pending, dead] = await Promise.all([
      sandbox.control<unknown[]>('/sandbox/webhooks?status=PENDING'),
      sandbox.control<unknown[]>('/sandbox/webhooks?status=DEAD_LETTERED'),
    ]);
    const owed = pending.length + dead.length;
    if (owed === 0 || Date.now() > deadline) return owed;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
