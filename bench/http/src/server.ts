/**
 * One benchmark server, in its own process (pinned by run.ts): argv `<framework> <variant>`.
 * Prints its port once listening; on a "stats" message it answers its CPU time so far (µs, all
 * threads) and the requests it served.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp, FRAMEWORKS, type Framework, VARIANTS, type Variant } from './apps.js';

const [framework, variant] = process.argv.slice(2) as [Framework, Variant];
if (!FRAMEWORKS.includes(framework) || !VARIANTS.includes(variant)) {
  throw new Error(`usage: server.ts <${FRAMEWORKS.join('|')}> <${VARIANTS.join('|')}>`);
}
const listener = buildApp(framework, variant);
let served = 0;
const server = createServer((req, res) => {
  served++;
  listener(req, res);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
// Asked before and after each run: the runner takes the difference, so each run gets its own figure.
process.on('message', (message) => {
  if (message !== 'stats') return;
  const cpu = process.cpuUsage();
  process.send?.({ cpuMicros: cpu.user + cpu.system, served });
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
