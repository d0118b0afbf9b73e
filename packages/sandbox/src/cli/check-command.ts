import { writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClock } from '../clock/clock.js';
import { defaultSandboxConfig } from '../config/load-config.js';
import { type Sandbox, startSandbox } from '../start/start-sandbox.js';
import { signInWithForm } from '../testing/form-sign-in.js';
import { runPartnerCheck } from '../testing/partner-check.js';
import { PartnerCheckError } from '../testing/partner-check-error.js';
import { DEFAULT_PRODUCTS, type PartnerCheckOptions } from '../testing/partner-check-options.js';
import type { PartnerCheckReport } from '../testing/partner-check-report.js';
import {
  type AppCheckArgs,
  CHECK_HELP,
  type CheckArgs,
  parseCheckArgs,
  type ReceiverCheckArgs,
} from './check-args.js';
import { type CheckConfig, readCheckConfig } from './check-config.js';
import { checkReportText } from './check-report-text.js';
import type { CliIo } from './cli-io.js';
import { EXIT_CODES, type ExitCode } from './exit-codes.js';
import { junitReport } from './junit-report.js';
import { CliUsageError } from './parse-cli-args.js';

/** The check's options, once its emulator runs; and what to print before the check starts. */
type Prepared = { options: (sandbox: Sandbox) => PartnerCheckOptions; secret: string; appUrl: string };

/**
 * `dcbkit-sandbox check`: the partner check against an app in any language. The check's own
 * emulator (the default config, signing with the app's secret, on a frozen clock the check moves)
 * either makes the purchases itself and asks the app's access URL (a receiver), or buys through
 * the app's pages as a config file describes them. Prints the report; exits 1 on a finding, 2 on
 * a usage error.
 */
export async function runCheckCommand(io: CliIo, argv: string[]): Promise<{ exitCode: ExitCode }> {
  let args: CheckArgs | 'help';
  let prepared: Prepared;
  try {
    args = parseCheckArgs(argv);
    if (args === 'help') {
      io.out(CHECK_HELP);
      return { exitCode: EXIT_CODES.OK };
    }
    prepared =
      args.kind === 'receiver' ? receiverCheck(args) : appCheck(args, await readCheckConfig(args.configPath));
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    io.err(`dcbkit-sandbox check: ${error.message} (see dcbkit-sandbox check --help)`);
    return { exitCode: EXIT_CODES.USAGE };
  }
  const started = Date.now();
  const sandbox = await emulatorFor(prepared.secret, args.port);
  let report: PartnerCheckReport;
  try {
    if (args.kind === 'app') {
      io.out(appInstructions(sandbox, prepared));
      if (!(await appAnswers(prepared.appUrl, args.waitSeconds))) {
        io.err(`dcbkit-sandbox check: ${prepared.appUrl} did not answer within ${args.waitSeconds} s.`);
        return { exitCode: EXIT_CODES.FAILURE };
      }
    }
    io.out(`Checking ${prepared.appUrl}…`);
    report = await runPartnerCheck(prepared.options(sandbox));
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

function receiverCheck(args: ReceiverCheckArgs): Prepared {
  return {
    appUrl: args.appUrl,
    secret: args.webhookSecret,
    options: (sandbox) => ({
      sandbox,
      appUrl: args.appUrl,
      purchaseThrough: 'service',
      // Another process, on its own clock: the check cannot move it past a pass's end.
      appClock: 'own',
      products: DEFAULT_PRODUCTS.map(({ offerUid, spendPath }) => ({
        offerUid,
        gatePath: args.accessPath,
        ...(spendPath !== undefined && args.spendPath !== undefined ? { spendPath: args.spendPath } : {}),
      })),
      paths: { webhook: args.webhookPath },
      ...(args.seed !== undefined ? { seed: args.seed } : {}),
    }),
  };
}

function appCheck(args: AppCheckArgs, config: CheckConfig): Prepared {
  const secret = args.webhookSecret ?? config.webhookSecret;
  if (secret === undefined) {
    throw new CliUsageError(
      'the webhook secret your app verifies with is needed: --webhook-secret, or webhookSecret in the file.',
    );
  }
  const seed = args.seed ?? config.seed;
  return {
    appUrl: config.appUrl,
    secret,
    options: (sandbox) => ({
      sandbox,
      appUrl: config.appUrl,
      signIn: signInWithForm({ appUrl: config.appUrl, ...config.signIn }),
      appClock: 'own',
      ...(config.accounts !== undefined ? { accounts: config.accounts } : {}),
      ...(config.paths !== undefined ? { paths: config.paths } : {}),
      ...(config.products !== undefined ? { products: config.products } : {}),
      ...(seed !== undefined ? { seed } : {}),
    }),
  };
}

/** The default config's offers and application, signing the sandbox environment's webhooks with the app's secret. */
function emulatorFor(secret: string, port: number): Promise<Sandbox> {
  const config = defaultSandboxConfig();
  config.applications = config.applications.map((application) => ({
    ...application,
    webhook: { ...application.webhook, secret },
  }));
  return startSandbox({
    port,
    host: '127.0.0.1',
    config,
    // The check moves time by weeks; only it moves this clock.
    clock: createClock({ frozen: true }),
  });
}

/** What an app with pages is started with, to talk to the check's emulator. */
function appInstructions(sandbox: Sandbox, prepared: Prepared): string {
  const { clientId, clientSecret } = sandbox.credentials;
  return [
    `The check's emulator runs at ${sandbox.apiBaseUrl}. Start your app against it now:`,
    `  DCB_ENV=sandbox DCB_API_BASE_URL=${sandbox.apiBaseUrl} DCB_CHECKOUT_BASE_URL=${sandbox.checkoutBaseUrl}`,
    `  DCB_CLIENT_ID=${clientId} DCB_CLIENT_SECRET=${clientSecret} DCB_WEBHOOK_SECRET=<the secret you gave>`,
    `  DCB_RETURN_URL=${prepared.appUrl.replace(/\/$/, '')}/return (your return page)`,
    `Waiting for ${prepared.appUrl} to answer…`,
  ].join('\n');
}

/**
 * True once the app answers over HTTP with anything but 503 (an app still starting says 503, as
 * the shop does until its routes are attached, and as a load balancer's readiness probe would
 * wait); false when `seconds` pass first.
 */
async function appAnswers(appUrl: string, seconds: number): Promise<boolean> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const answered = await fetch(appUrl, { redirect: 'manual', signal: AbortSignal.timeout(2000) }).then(
      (response) => response.status !== 503,
      () => false,
    );
    if (answered) return true;
    if (Date.now() >= deadline) return false;
    await sleep(250);
  }
}
