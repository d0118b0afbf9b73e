import assert from 'node:assert/strict';
import { uniqueId } from './example-entitlement.js';
import {
  at,
  cases,
  duePagesUnder,
  expectedDue,
  NOW,
  type ReconcilingStore,
  write,
} from './reconcile-cases.js';
import type { ConformanceCheck } from './test-runner.js';

/** The optional listDuePage: a whole pass, page by page, gives what dueReason says, each once. */
export const duePageCheck: ConformanceCheck<ReconcilingStore> = {
  name: 'listDuePage (when the store has it) lists over a pass what dueReason says, each once',
  async run(store) {
    const { listDuePage } = store;
    if (listDuePage === undefined) return;
    const prefix = uniqueId('due_page');
    const entitlements = cases(prefix);
    await write(store, [...entitlements].reverse());
    for (const staleBefore of [null, new Date(at(-30))]) {
      const query = { now: NOW, staleBefore };
      const expected = expectedDue(prefix, entitlements, query);
      for (const limit of [2, 100]) {
        const found = await duePagesUnder(listDuePage.bind(store), prefix, query, limit);
        assert.deepEqual(
          [...found].sort(),
          expected,
          `staleBefore ${String(staleBefore)}, pages of ${limit}`,
        );
        assert.equal(new Set(found).size, found.length, 'each entitlement once');
      }
    }
  },
};
