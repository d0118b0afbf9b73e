import { writeFile } from 'node:fs/promises';
import { createClock } from '../clock/clock.js';
import { defaultSandboxConfig } from '../config/load-config.js';
import { type Sandbox, startSandbox } from '../start/start-sandbox.js';
import { runPartnerCheck } from '../testing/partner-check.js';
import { PartnerCheckError } from '../testing/partner-check-error.js';
import { DEFAULT_PRODUCTS } from '../testing/partner-check-options.js';
import type { PartnerCheckReport } from '../testing/partner-check-report.js';
import { CHECK_HELP, type CheckArgs, parseCheckArgs } from './check-args.js';
import { checkReportText } from './check-report-text.js';
import type { CliIo } from './cli-io.js';
import { EXIT_CODES, type ExitCode } from './exit-codes.js';
import { junitReport } from './junit-report.js';
import { CliUsageError } from './parse-cli-args.js';

/**
 * `dcbkit-sandbox check`: the partner check against an app in any language. The check's own
 * emulator (the default config, signing with the app's secret, on a frozen clock the check moves)
 * makes the purchases itself and asks the app's access URL; the app only receives webhooks.
 * Prints the report; exits 1 on a finding, 2 on a usage error.
 */
export async function runCheckCommand(io: CliIo, argv: string[]): Promise<{ exitCode: ExitCode }> {
  let args: CheckArgs | 'help';
  try {
    args = parseCheckArgs(argv);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    io.err(`dcbkit-sandbox check: ${error.message} (see dcbkit-sandbox check --help)`);
    return { exitCode: EXIT_CODES.USAGE };
  }
  if (args === 'help') {
    io.out(CHECK_HELP);
    return { exitCode: EXIT_CODES.OK };
  }
  const started = Date.now();
  const sandbox = await emulatorFor(args);
  let report: PartnerCheckReport;
  try {
    io.out(`Checking ${args.appUrl}: events to ${args.webhookPath}, access at ${args.accessPath}…`);
    report = await runPartnerCheck({
      sandbox,
      appUrl: args.appUrl,
      purchaseThrough: 'service',
      products: DEFAULT_PRODUCTS.map(({ offerUid, spendPath }) => ({
        offerUid,
        gatePath: args.accessPath,
        ...(spendPath !== undefined && args.spendPath !== undefined ? { spendPath: args.spendPath } : {}),
      })),
      paths: { webhook: args.webhookPath },
      seed: args.seed,
    });
  } catch (error) {
    if (!(error instanceof PartnerCheckError) || error.report === undefined) {
      io.err(`dcbkit-sandbox check: ${error instanceof Error ? error.message : String(error)}`);
      return { exitCode: error instanceof PartnerCheckError ? EXIT_CODES.USAGE : EXIT_CODES.FAILURE };
    }
    report = error.report;
  } finally {
    await sandbox.close();
  }
  io.out(checkReportText(report));
  if (args.junitPath !== undefined) {
    await writeFile(args.junitPath, junitReport(report, (Date.now() - started) / 1000));
    io.out(`JUnit report: ${args.junitPath}`);
  }
  return { exitCode: report.passed ? EXIT_CODES.OK : EXIT_CODES.FAILURE };
}

/** The default config's offers and application, signing the sandbox environment's webhooks with the app's secret. */
function emulatorFor(args: CheckArgs): Promise<Sandbox> {
  const config = defaultSandboxConfig();
  config.applications = config.applications.map((application) => ({
    ...application,
    webhook: { ...application.webhook, secret: args.webhookSecret },
  }));
  return startSandbox({
    port: args.port,
    host: '127.0.0.1',
    config,
    // The check moves time by weeks; only it moves this clock.
    clock: createClock({ frozen: true }),
  });
}
