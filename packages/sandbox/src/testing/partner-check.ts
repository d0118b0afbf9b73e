import { type OptionNames, refuseUnknownOptions } from '@dcbkit/core/web';
import type { ChaosSettingsInput } from '../config/chaos-settings.js';
import {
  deliveryResult,
  deliveryStats,
  duplicatesResult,
  type RunDeliveries,
  signatureResult,
} from './delivery-findings.js';
import { gateResult } from './gate-checkpoints.js';
import { PartnerCheckError } from './partner-check-error.js';
import type { PartnerCheckOptions } from './partner-check-options.js';
import {
  failed,
  failureMessage,
  PARTNER_CHECK_NAMES,
  type PartnerCheckReport,
  type PartnerCheckResult,
  passed,
  skipped,
} from './partner-check-report.js';
import { CheckRun, CheckStopped } from './partner-check-run.js';
import { tellStory } from './partner-check-story.js';
import { resolvePartnerCheckOptions } from './resolve-partner-check-options.js';

/**
 * The chaos of a run: every event delivered twice, half held back behind later ones, a quarter
 * delayed, half with an indented body. Stale signatures stay off: a receiver rightly refuses
 * them, and the check counts every refusal against the app.
 */
function runChaos(seed: number): ChaosSettingsInput {
  return {
    seed,
    duplicateProbability: 1,
    reorderProbability: 0.5,
    reorderHoldSeconds: 60,
    delayProbability: 0.25,
    maxDelaySeconds: 30,
    indentedBodyProbability: 0.5,
  };
}

function checkoutResult(run: CheckRun): PartnerCheckResult {
  if (run.returnProblems.length > 0) {
    return failed(
      'checkout',
      `${run.returnProblems.length} return page${run.returnProblems.length === 1 ? '' : 's'} failed after payment.`,
      'the return page reads the payment from the service (paymentUid in the query) and shows its outcome: answer it 2xx (or redirect) for the signed-in account that paid.',
      run.returnProblems,
    );
  }
  const through =
    run.options.purchaseThrough === 'service'
      ? "were created through the service's API (metadata.accountKey) and paid on the sandbox's checkout pages"
      : "went through the app's checkout, the sandbox's checkout pages and the return page";
  return passed('checkout', `${run.purchases.length} purchases ${through}.`);
}

/** Every option runPartnerCheck takes: the compiler holds this list to PartnerCheckOptions; another is refused (unknown_option). */
const PARTNER_CHECK_OPTIONS: OptionNames<PartnerCheckOptions> = {
  sandbox: true,
  appUrl: true,
  signIn: true,
  purchaseThrough: true,
  appClock: true,
  formFields: true,
  products: true,
  paths: true,
  accounts: true,
  seed: true,
  requestTimeoutMs: true,
};

/**
 * The partner's own check: a test to add to CI that proves an app's integration against a
 * running sandbox, whatever its framework. It speaks HTTP to the app only: it buys through the
 * app's checkout as three accounts, drives renewals, a failed renewal, a cancellation and an expiry
 * on the sandbox clock, and delivers the events with chaos (every one twice, reordered, delayed,
 * some indented, some dead-lettered while the app is unreachable and replayed late). Then it
 * asserts that the app verified every body, acknowledged every copy, lost nothing, granted each
 * payment once, and that its access gate agrees with the service for every account and product,
 * after expiry too.
 *
 * Run it on a fresh app and sandbox: it moves the sandbox clock by weeks, and puts the sandbox's
 * webhook URL and chaos back as they were when it ends. Resolves with the report when every check
 * passed; throws PartnerCheckError `partner_check_failed` (with `report`, and a message that says
 * what to fix) when one failed, `invalid_partner_check_options` when it cannot run.
 *
 * @example
 * const sandbox = await startSandbox({ clock: createClock({ frozen: true }) });
 * const app = await startMyApp({ baseUrl: sandbox.apiBaseUrl, ...sandbox.credentials }); // your app
 * await runPartnerCheck({
 *   sandbox,
 *   appUrl: app.url,
 *   signIn: (accountKey) => ({ 'x-test-account': accountKey }),
 * });
 */
export async function runPartnerCheck(options: PartnerCheckOptions): Promise<PartnerCheckReport> {
  if (typeof options === 'object' && options !== null)
    refuseUnknownOptions('runPartnerCheck', options, PARTNER_CHECK_OPTIONS);
  const resolved = resolvePartnerCheckOptions(options);
  const { sandbox, seed } = resolved;
  const previousChaos = sandbox.chaos();
  const previousWebhookUrl = sandbox.environments.sandbox.webhookUrl();
  let run: CheckRun | undefined;
  let units: PartnerCheckResult | undefined;
  let stopped: PartnerCheckResult | undefined;
  try {
    run = await CheckRun.open(resolved);
    sandbox.setChaos(runChaos(seed));
    sandbox.setWebhookUrl(run.appWebhookUrl);
    units = await tellStory(run);
  } catch (error) {
    if (!(error instanceof CheckStopped)) throw error;
    stopped = error.result;
  } finally {
    sandbox.setChaos(previousChaos);
    sandbox.setWebhookUrl(previousWebhookUrl);
  }
  // Any other error than CheckStopped went out above: without the units, the run was stopped.
  const ending: RunEnding =
    run !== undefined && units !== undefined
      ? { run, units }
      : { run, stoppedBy: stopped as PartnerCheckResult };
  const report = reportOf(resolved.appUrl.href.replace(/\/$/, ''), seed, ending);
  if (!report.passed) throw new PartnerCheckError('partner_check_failed', failureMessage(report), report);
  return report;
}

/** How a run ended: through the whole story (with the units it counted last), or stopped by a failed check. */
type RunEnding =
  | { run: CheckRun; units: PartnerCheckResult }
  | { run: CheckRun | undefined; stoppedBy: PartnerCheckResult };

function reportOf(appUrl: string, seed: number, ending: RunEnding): PartnerCheckReport {
  const { run } = ending;
  const deliveries: RunDeliveries = {
    deliveries: run?.deliveries.all() ?? [],
    appWebhookUrl: run?.appWebhookUrl ?? '',
    forged: run?.forged,
  };
  let checks: PartnerCheckResult[];
  if ('stoppedBy' in ending) {
    const { stoppedBy } = ending;
    const because = `Not run: the ${stoppedBy.name} check stopped the run first.`;
    checks = PARTNER_CHECK_NAMES.map((name) =>
      name === stoppedBy.name ? stoppedBy : skipped(name, because),
    );
  } else {
    checks = [
      checkoutResult(ending.run),
      signatureResult(deliveries),
      duplicatesResult(deliveries),
      deliveryResult(deliveries),
      ending.units,
      gateResult(ending.run),
    ];
  }
  return {
    passed: checks.every((check) => check.outcome !== 'failed'),
    appUrl,
    seed,
    checks,
    purchases: run?.purchases ?? [],
    gates: run?.gates ?? [],
    deliveries: deliveryStats(deliveries, run?.deadLettered ?? 0),
  };
}
