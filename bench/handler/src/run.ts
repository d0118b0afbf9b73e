/**
 * bench/handler: the whole in-process webhook handler (createWebhookHandler with memoryStore and
 * memoryLedger) against verifyWebhook alone; a consumable purchase at 100,000 previous orders
 * against one at 1 order; memoryLedger's bytes per key at 10 % and 100 % fill.
 *
 * Targets: handler >= 0.6 of verify alone for new events at 0.4 KiB and 1 KiB, >= 0.8 for
 * duplicates; purchase at 100,000 orders <= 2x the cost at 1 order; ledger memory proportional to
 * fill (bytes per key at 10 % <= 1.5x those at 100 %), < 300 bytes per key when full, and
 * within 1.3x a bare Map of digests of the same keys.
 * Each part runs in a process of its own: one part's heap and compiled code must not bias the next.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { verdict } from '@dcbkit-bench/shared';
import { consumable } from './consumable.js';
import { digestMapMemory, ledgerMemory } from './ledger-memory.js';
import type { PartResult } from './part.js';
import { throughput } from './throughput.js';

const PARTS: Record<string, () => Promise<PartResult>> = {
  '0.4kib': () => throughput(410),
  '1kib': () => throughput(1024),
  consumable,
  'ledger-10': () => ledgerMemory(0.1),
  'ledger-100': () => ledgerMemory(1),
  'digest-map': digestMapMemory,
};

const PROPORTIONAL = 1.5;
const MAX_BYTES_PER_KEY = 300;
const OF_DIGEST_MAP = 1.3;

function runPart(name: string): PartResult {
  const output = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), name], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(output.trim().split('\n').at(-1) as string) as PartResult;
}

const part = process.argv[2];
if (part === undefined) {
  console.log(`bench/handler  node ${process.version}`);
  console.log(
    '  method: in process, unpinned, each part in a fresh process; candidates alternate round by round; ratio = throughput share from wall time (the verdict) and from process CPU time (steadier on a busy machine), paired per round, median (min, max)',
  );
  const results = new Map<string, PartResult>();
  for (const name of Object.keys(PARTS)) {
    const result = runPart(name);
    results.set(name, result);
    if (name === 'ledger-10')
      console.log('\nledger memory (memoryLedger max 1,000,000; heap + array buffers after gc)');
    else if (name !== 'ledger-100' && name !== 'digest-map') console.log('');
    console.log(result.lines.join('\n'));
  }
  const at10 = results.get('ledger-10')?.figures?.perKey as number;
  const at100 = results.get('ledger-100')?.figures?.perKey as number;
  console.log(
    `  ${verdict('bytes per key at 10 % / at 100 % (proportional to fill)', at10 / at100, PROPORTIONAL, '<=')}`,
  );
  console.log(`  ${verdict('bytes per key at 100 %', at100, MAX_BYTES_PER_KEY, '<=')}`);
  const reference = results.get('digest-map')?.figures?.perKey as number;
  console.log(
    `  ${verdict('bytes per key at 100 % / a bare Map of digests', at100 / reference, OF_DIGEST_MAP, '<=')}`,
  );
} else {
  const run = PARTS[part];
  if (!run) throw new Error(`unknown part ${part}; one of ${Object.keys(PARTS).join(', ')}`);
  // The last line is the result; the runner parses it.
  console.log(JSON.stringify(await run()));
}
