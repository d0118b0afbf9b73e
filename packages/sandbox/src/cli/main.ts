#!/usr/bin/env node
// The dcbkit-sandbox process, built to dist/cli.js (tsup entry `cli`) for bin/dcbkit-sandbox.js: the
// process owns argv, signals and the exit code; runCli owns everything else, so tests need no process.
import { EXIT_CODES } from './exit-codes.js';
import { runCli } from './run-cli.js';

async function main(): Promise<void> {
  const result = await runCli({
    argv: process.argv.slice(2),
    env: process.env,
    out: (text) => console.log(text),
    err: (text) => console.error(text),
  });
  if ('exitCode' in result) {
    process.exitCode = result.exitCode;
    return;
  }
  const { sandbox } = result;
  const stop = () => {
    sandbox.close().then(
      () => process.exit(EXIT_CODES.OK),
      (error: unknown) => {
        console.error(
          `dcbkit-sandbox: could not stop cleanly: ${error instanceof Error ? error.message : String(error)}`,
        );
        process.exit(EXIT_CODES.FAILURE);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`dcbkit-sandbox: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = EXIT_CODES.FAILURE;
});
