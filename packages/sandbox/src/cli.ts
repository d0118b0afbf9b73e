#!/usr/bin/env node
import { CLI_HELP, parseCliArgs, startupBanner } from './cli-args.js';
import { SandboxConfigError } from './config/load-config.js';
import { startSandbox } from './start-sandbox.js';

async function main(): Promise<void> {
  const args = parseCliArgs(process.argv.slice(2));
  if (args === 'help') {
    console.log(CLI_HELP);
    return;
  }
  const sandbox = await startSandbox({
    ...args,
    log: (line) => console.log(`[sandbox ${new Date().toISOString()}] ${line}`),
  });
  console.log(startupBanner(sandbox));
  const stop = () => {
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof SandboxConfigError ? error.message : error);
  process.exitCode = 1;
});
