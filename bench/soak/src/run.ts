import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writePlot } from './plot.js';
import { reportOf, summaryLine } from './report.js';
import { runSoak } from './soak.js';

// `pnpm --filter @dcbkit-bench/soak bench [-- --minutes 60 --report FILE --plot FILE.svg]`.
// pnpm passes a `--` on when it is given one: both spellings work.
const args = process.argv.slice(2).filter((arg, index) => !(index === 0 && arg === '--'));
const { values } = parseArgs({
  args,
  options: {
    minutes: { type: 'string', default: '10' },
    seed: { type: 'string', default: '40' },
    subscribers: { type: 'string', default: '300' },
    instances: { type: 'string', default: '2' },
    'think-ms': { type: 'string', default: '4000-16000' },
    report: { type: 'string', default: 'results/soak-report.json' },
    plot: { type: 'string', default: 'results/soak-plot.svg' },
    logs: { type: 'string' },
    'keep-database': { type: 'boolean', default: false },
  },
});

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.log(
    'soak: SKIPPED (set DATABASE_URL to a PostgreSQL server; the soak makes and drops a database of its own there)',
  );
  process.exit(0);
}
const [low = 4000, high = 16000] = (values['think-ms'] ?? '').split('-').map(Number);
const logDir = values.logs === undefined ? undefined : resolve(values.logs);
if (logDir !== undefined) mkdirSync(logDir, { recursive: true });
const started = Date.now();
const result = await runSoak({
  minutes: Number(values.minutes),
  seed: Number(values.seed),
  subscribers: Number(values.subscribers),
  instances: Number(values.instances),
  thinkMs: [low, high],
  databaseUrl,
  ...(logDir !== undefined ? { logDir } : {}),
  keepDatabase: values['keep-database'] ?? false,
  log: (line) => console.log(`[${Math.round((Date.now() - started) / 1000)} s] ${line}`),
});
const report = reportOf(result);
const reportPath = resolve(values.report ?? 'results/soak-report.json');
mkdirSync(dirname(reportPath), { recursive: true });
writeFileSync(reportPath, `${JSON.stringify(report, null, 2)}\n`);
const plotPath = resolve(values.plot ?? 'results/soak-plot.svg');
mkdirSync(dirname(plotPath), { recursive: true });
const png = await writePlot(result.samples, result.faults, plotPath);
console.log(`report: ${reportPath}\nplot: ${plotPath} (and ${png})`);
console.log(summaryLine(report));
process.exit(report.passed ? 0 : 1);
