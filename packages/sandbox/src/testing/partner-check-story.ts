import { buyThroughApp } from './app-purchases.js';
import { type ForgedDelivery, postForgedEvent } from './forged-event.js';
import { probeGates } from './gate-checkpoints.js';
import type { CheckedProduct } from './partner-check-options.js';
import type { PartnerCheckResult } from './partner-check-report.js';
import { type CheckRun, ROLES, stop } from './partner-check-run.js';
import { buyThroughService } from './service-purchases.js';
import { countUnits } from './unit-spending.js';
import { startWebhookOutage } from './webhook-outage.js';

const DAY_SECONDS = 86_400;
/** The account of the forged event: one of nobody's, so that accepting it changes nothing the run reads. */
const FORGED_ACCOUNT = 'partner-check-forged';

/** Moves the sandbox clock to one second past `at` (nothing when it has passed), then lets deliveries run. */
async function advancePast(run: CheckRun, at: number): Promise<void> {
  const seconds = Math.ceil((at - run.options.sandbox.clock.now().getTime()) / 1000) + 1;
  if (seconds > 0) await run.options.sandbox.advanceClock(seconds);
  await run.deliveries.settle();
}

/** The latest of a date of each subscription of the run (the sandbox clock's now when there is none). */
async function latestOf(
  run: CheckRun,
  pick: (subscription: { currentPeriodEnd: string; cancelAt: string | null }) => string,
): Promise<number> {
  let latest = run.options.sandbox.clock.now().getTime();
  for (const purchase of run.purchases) {
    if (purchase.subscriptionUid === null) continue;
    const subscription = await run.client.subscriptions.retrieve(purchase.subscriptionUid);
    latest = Math.max(latest, Date.parse(pick(subscription)));
  }
  return latest;
}

function subscriptionsOf(run: CheckRun, accountKey: string): string[] {
  return run.purchases
    .filter((purchase) => purchase.accountKey === accountKey && purchase.subscriptionUid !== null)
    .map((purchase) => purchase.subscriptionUid as string);
}

/**
 * Stops the run when the first post to the webhook route shows the sandbox could not deliver
 * there at all: every event would then be retried and dead-lettered, each attempt waiting out the
 * sandbox's timeout when the route hangs.
 */
function stopUnlessWebhookAnswers(run: CheckRun, forged: ForgedDelivery): void {
  const { webhook } = run.options.paths;
  const answered =
    forged.status === null ? `gave no answer (${forged.responseBody})` : `answered ${forged.status}`;
  if (forged.status === null) {
    stop(
      'signature',
      `The webhook route ${run.appWebhookUrl} ${answered}.`,
      `mount your webhook route at paths.webhook (now ${webhook}) and answer every delivery within the service's timeout: 2xx once processed, 401 for a signature that does not match.`,
      [],
    );
  }
  if (forged.status === 404 || forged.status === 405) {
    stop(
      'signature',
      `The webhook route ${run.appWebhookUrl} ${answered}: nothing receives the service's events there.`,
      `name your webhook route in paths.webhook (now ${webhook}), mounted for POST.`,
      [`${forged.event} signed with another secret: ${answered} ${forged.responseBody}`],
    );
  }
}

function buyerOf(run: CheckRun) {
  return run.options.purchaseThrough === 'service' ? buyThroughService : buyThroughApp;
}

function subscriptionProductsOf(run: CheckRun): CheckedProduct[] {
  return run.options.products.filter((product) => product.type === 'SUBSCRIPTION');
}

function oneTimeProductsOf(run: CheckRun): CheckedProduct[] {
  return run.options.products.filter((product) => product.type !== 'SUBSCRIPTION');
}

/** An event signed with another secret, for an account of nobody's: the app must refuse it. */
async function postForgedEventFirst(run: CheckRun): Promise<void> {
  const { sandbox, products } = run.options;
  const forgedFor =
    products.find((product) => product.gatePath !== undefined) ?? (products[0] as CheckedProduct);
  const forged = await postForgedEvent(
    run.appWebhookUrl,
    FORGED_ACCOUNT,
    forgedFor,
    sandbox.clock.now(),
    run.options.requestTimeoutMs,
  );
  run.forged = forged;
  stopUnlessWebhookAnswers(run, forged);
}

/** Every role subscribes to each subscription; two roles buy each one-time offer. */
async function buyEveryOffer(run: CheckRun): Promise<void> {
  const buy = buyerOf(run);
  for (const product of subscriptionProductsOf(run)) {
    for (const role of ROLES) await buy(run, role, product, false);
  }
  for (const product of oneTimeProductsOf(run)) {
    for (const role of ['renewing', 'lapsing'] as const) await buy(run, role, product, false);
  }
  await run.deliveries.settle();
}

/**
 * A cancellation withdrawn at once: two subscription.updated of one instant (on a frozen clock),
 * on an instant of their own rather than the purchases'.
 */
async function cancelAndResumeAtOneInstant(run: CheckRun): Promise<void> {
  await run.options.sandbox.advanceClock(60);
  for (const subscriptionUid of subscriptionsOf(run, run.options.accounts.expiring)) {
    await run.client.subscriptions.cancel(subscriptionUid, { when: 'PERIOD_END' });
    await run.client.subscriptions.resume(subscriptionUid);
  }
  await run.deliveries.settle();
}

/**
 * The first paid period: the trial converts (or the first renewal is collected); then the lapsing
 * account's renewals are set to fail and the expiring account cancels at period end.
 */
async function reachFirstPaidPeriod(run: CheckRun): Promise<void> {
  const { sandbox, accounts } = run.options;
  await advancePast(run, await latestOf(run, (subscription) => subscription.currentPeriodEnd));
  for (const subscriptionUid of subscriptionsOf(run, accounts.lapsing)) {
    sandbox.setRenewalOutcome(subscriptionUid, 'insufficient_balance');
  }
  for (const subscriptionUid of subscriptionsOf(run, accounts.expiring)) {
    await run.client.subscriptions.cancel(subscriptionUid, { when: 'PERIOD_END' });
  }
  await run.deliveries.settle();
}

/** The app's webhook is down while the period ends: renewal, grace and expiry go dead. */
async function endPeriodWhileWebhookIsDown(run: CheckRun): Promise<void> {
  const { sandbox } = run.options;
  const buy = buyerOf(run);
  const outage = await startWebhookOutage();
  try {
    sandbox.setWebhookUrl(outage.url);
    for (const product of oneTimeProductsOf(run)) {
      const role = product.type === 'CONSUMABLE' ? 'renewing' : 'expiring';
      await buy(run, role, product, true);
    }
    await advancePast(
      run,
      await latestOf(run, (subscription) => subscription.cancelAt ?? subscription.currentPeriodEnd),
    );
    run.deadLettered = run.deliveries.deadLettered().length;
  } finally {
    sandbox.setWebhookUrl(run.appWebhookUrl);
    await outage.close();
  }
}

/** The failing renewal runs out of grace; its suspension reaches the app before the dead letters. */
async function runOutOfGraceThenReplay(run: CheckRun): Promise<void> {
  const graceDays = Math.max(0, ...subscriptionProductsOf(run).map((product) => product.gracePolicy.days));
  await advancePast(run, run.options.sandbox.clock.now().getTime() + graceDays * DAY_SECONDS * 1000);
  await run.deliveries.replayDeadLetters();
}

/**
 * Last, since it spends every unit: then no consumable's gate may let anyone in, but one whose
 * units sell time (a day pass), until the time of the units spent runs out.
 */
async function spendEveryUnit(run: CheckRun): Promise<PartnerCheckResult> {
  const units = await countUnits(run);
  await probeGates(run, 'after every unit was spent', (product) => product.type === 'CONSUMABLE');
  const timed = run.options.products.filter((product) => product.unitAccessSeconds !== undefined);
  // Only an app on the sandbox's clock sees the time of a pass run out when the check moves it.
  if (timed.length > 0 && run.options.appClock === 'sandbox') {
    const spentAt = timed.flatMap((product) => ROLES.flatMap((role) => run.spendTimes(role, product)));
    const longest = Math.max(...timed.map((product) => product.unitAccessSeconds ?? 0));
    // Past the end of any run of spends: every unit's time added after the last spend.
    await advancePast(run, Math.max(0, ...spentAt) + spentAt.length * longest * 1000);
    await probeGates(run, 'after the time of every unit spent ran out', (product) => timed.includes(product));
  }
  return units;
}

/**
 * The story every app is put through. Three accounts subscribe (with the offer's trial, if any)
 * and buy the one-time offers; one cancels and resumes at one instant; each subscription reaches
 * its first paid period; then one keeps renewing, one's renewals fail until it is suspended, one is
 * cancelled at period end and expires. The app's webhook is unreachable while that period ends
 * (two more purchases are made meanwhile): those events are dead-lettered, and replayed once the
 * suspension has been delivered. Every delivery is duplicated, many are reordered or delayed.
 */
export async function tellStory(run: CheckRun): Promise<PartnerCheckResult> {
  await postForgedEventFirst(run);
  await probeGates(run, 'before any purchase');
  await buyEveryOffer(run);
  await probeGates(run, 'after purchase');
  await cancelAndResumeAtOneInstant(run);
  await reachFirstPaidPeriod(run);
  await probeGates(run, 'in the first paid period, one subscription cancelled at period end');
  await endPeriodWhileWebhookIsDown(run);
  await runOutOfGraceThenReplay(run);
  await probeGates(run, 'after renewal, expiry and suspension, with the dead letters replayed');
  return spendEveryUnit(run);
}
