import { SandboxConfigError } from '../config/sandbox-config-error.js';
import { SandboxPortInUseError } from '../http/port-in-use-error.js';
import { type Sandbox, startSandbox } from '../start/start-sandbox.js';
import { runCheckCommand } from './check-command.js';
import { CLI_HELP } from './cli-help.js';
import type { CliIo } from './cli-io.js';
import { EXIT_CODES, type ExitCode } from './exit-codes.js';
import { CliUsageError, parseCliArgs } from './parse-cli-args.js';
import { startupBanner } from './startup-banner.js';
import { SANDBOX_VERSION } from './version.js';

/** Either the CLI is done (help, version, an error) with its exit code, or a sandbox now runs. */
export type CliResult = { exitCode: ExitCode } | { sandbox: Sandbox };

/**
 * The CLI without the process: parses, starts, prints the banner. Every error ends as one message
 * (a config error lists its issues below it) and a distinct exit code, never a stack.
 */
export async function runCli(io: CliIo): Promise<CliResult> {
  if (io.argv[0] === 'check') return runCheckCommand(io, io.argv.slice(1));
  const fail = (exitCode: ExitCode, message: string): CliResult => {
    io.err(`dcbkit-sandbox: ${message}`);
    return { exitCode };
  };
  let args: ReturnType<typeof parseCliArgs>;
  try {
    args = parseCliArgs(io.argv, io.env);
  } catch (error) {
    if (error instanceof CliUsageError) return fail(EXIT_CODES.USAGE, `${error.message} (see --help)`);
    throw error;
  }
  if (args === 'help') {
    io.out(CLI_HELP);
    return { exitCode: EXIT_CODES.OK };
  }
  if (args === 'version') {
    io.out(SANDBOX_VERSION);
    return { exitCode: EXIT_CODES.OK };
  }
  try {
    const sandbox = await startSandbox({
      port: args.port,
      host: args.host,
      ...(args.config !== undefined ? { config: args.config } : {}),
      ...(args.statePath !== undefined ? { statePath: args.statePath } : {}),
      ...(args.webhookUrl !== undefined ? { webhookUrl: args.webhookUrl } : {}),
      ...(args.controlToken !== undefined ? { controlToken: args.controlToken } : {}),
      production: {
        ...(args.productionPort !== undefined ? { port: args.productionPort } : {}),
        ...(args.productionWebhookUrl !== undefined ? { webhookUrl: args.productionWebhookUrl } : {}),
      },
      log: (line) => io.out(`[sandbox ${new Date().toISOString()}] ${line}`),
    });
    io.out(startupBanner(sandbox, args.controlToken));
    return { sandbox };
  } catch (error) {
    if (error instanceof SandboxPortInUseError) return fail(EXIT_CODES.PORT_IN_USE, error.message);
    if (error instanceof SandboxConfigError) return fail(EXIT_CODES.CONFIG, error.message);
    return fail(EXIT_CODES.FAILURE, error instanceof Error ? error.message : String(error));
  }
}
