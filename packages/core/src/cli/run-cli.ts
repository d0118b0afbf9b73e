import { createClient } from '../client/create-client.js';
import { isDcbError } from '../errors/dcb-error.js';
import { silentLogger } from '../observability/logger.js';
import { CLI_HELP, CLI_USAGE } from './cli-help.js';
import { formatReport, reportJson } from './doctor/format-report.js';
import { runDoctor } from './doctor/run-doctor.js';
import { EXIT_CODES, type ExitCode } from './exit-codes.js';
import { type CliArgs, parseCliArgs } from './parse-cli-args.js';

export interface CliIo {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
}

/**
 * The `dcbkit` command without the process: parses, runs the doctor, prints the report. Resolves
 * to the exit code; every error ends as one line on `err`, never a stack.
 */
export async function runCli(io: CliIo): Promise<ExitCode> {
  let args: CliArgs;
  try {
    args = parseCliArgs(io.argv, io.env);
  } catch (error) {
    if (!isDcbError(error, 'invalid_option')) throw error;
    io.err(`${error.message}\n${CLI_USAGE}\nRun dcbkit --help for every flag.`);
    return EXIT_CODES.USAGE;
  }
  if (args.command === 'help') {
    io.out(CLI_HELP);
    return EXIT_CODES.OK;
  }
  try {
    const fetchOption = io.fetch ? { fetch: io.fetch } : {};
    const { checkout } = args;
    const report = await runDoctor({
      url: args.url,
      secrets: args.secrets,
      timeoutMs: args.timeoutMs,
      ...fetchOption,
      ...(checkout === undefined
        ? {}
        : {
            checkout: {
              client: createClient({ ...checkout.client, logger: silentLogger, ...fetchOption }),
              offerUid: checkout.offerUid,
              returnUrl: checkout.returnUrl,
              checkoutBaseUrl: checkout.checkoutBaseUrl,
            },
          }),
    });
    io.out(args.json ? reportJson(report) : formatReport(report));
    return report.findings.length === 0 ? EXIT_CODES.OK : EXIT_CODES.FINDINGS;
  } catch (error) {
    io.err(`dcbkit doctor: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_CODES.FINDINGS;
  }
}
