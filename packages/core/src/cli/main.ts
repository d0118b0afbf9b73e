#!/usr/bin/env node
// The `dcbkit` process, built to dist/cli.js (tsup entry `cli`) for bin/dcbkit.js: the process owns
// argv and the exit code; runCli owns everything else, so tests need no process.
import { runCli } from './run-cli.js';

// No top-level await: the bundle is built as CommonJS too.
void runCli({
  argv: process.argv.slice(2),
  env: process.env,
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
}).then((code) => {
  process.exitCode = code;
});
