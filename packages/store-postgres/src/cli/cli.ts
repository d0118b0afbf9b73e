#!/usr/bin/env node
import { runStoreCli } from './run-cli.js';

// No top-level await: the bundle is built as CommonJS too.
void runStoreCli(process.argv.slice(2), process.env).then((code) => {
  process.exitCode = code;
});
