#!/usr/bin/env node
// The create-dcbkit-app process, built to dist/cli.js for bin/create-dcbkit-app.js: the process
// owns argv and the exit code; runCli owns everything else, so tests need no process.
import { runCli } from './run-cli.js';

process.exitCode = runCli({
  argv: process.argv.slice(2),
  cwd: process.cwd(),
  out: (text) => console.log(text),
  err: (text) => console.error(text),
});
