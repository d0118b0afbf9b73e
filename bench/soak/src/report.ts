import { rssSlopeBytesPerMinute } from './sampler.js';
import type { SoakResult } from './soak.js';

/** The JSON report (`--report FILE`): the verdict's figures first, then the run's figures over time. */
export function reportOf(result: SoakResult) {
  const { verdict, serverErrors, samples } = result;
  const instances = result.options.instances;
  const perInstance = Array.from({ length: instances }, (_, index) => {
    const rss = samples
      .map((s) => s.instances[index]?.rssBytes)
      .filter((v): v is number => typeof v === 'number');
    const delays = samples
      .map((s) => s.instances[index]?.loopDelayP99Ms)
      .filter((v): v is number => typeof v === 'number');
    return {
      instance: index,
      killedAndRestarted: index === 0 ? result.restartsAt.length : 0,
      rssSlopeBytesPerMinute: rssSlopeBytesPerMinute(samples, index, index === 0 ? result.restartsAt : []),
      rssLastBytes: rss.at(-1) ?? null,
      rssMaxBytes: rss.length ? Math.max(...rss) : null,
      loopDelayP99MaxMs: delays.length ? Math.max(...delays) : null,
      loopDelayP99MedianMs: delays.length
        ? [...delays].sort((a, b) => a - b)[Math.floor(delays.length / 2)]
        : null,
    };
  });
  const loadSeconds = Math.max(1, result.options.minutes * 60);
  const connections = samples.map((s) => s.pgConnections).filter((v): v is number => v !== null);
  const passed =
    verdict.doubleCharges === 0 &&
    verdict.lostGrants === 0 &&
    verdict.wrongAccess === 0 &&
    verdict.miscountedUnits === 0 &&
    serverErrors.unexplained.length === 0 &&
    result.undeliveredEvents === 0;
  return {
    passed,
    purchases: verdict.purchases,
    doubleCharges: verdict.doubleCharges,
    lostGrants: verdict.lostGrants,
    wrongAccess: verdict.wrongAccess,
    miscountedUnits: verdict.miscountedUnits,
    linesPayingTwice: { count: verdict.linesPayingTwice, linePolicy: 'report' },
    serverErrors: {
      total: serverErrors.total,
      explained: serverErrors.explained,
      unexplained: serverErrors.unexplained.length,
      reasons: serverErrors.reasons,
      unexplainedSamples: serverErrors.unexplained.slice(0, 20),
    },
    undeliveredEvents: result.undeliveredEvents,
    slowRequests: result.slowRequests,
    instances: perInstance,
    rssSlopeBytesPerMinute: Object.fromEntries(
      perInstance.map((i) => [`instance${i.instance}`, i.rssSlopeBytesPerMinute]),
    ),
    requests: result.requests,
    requestsPerSecond: Math.round((result.requests / loadSeconds) * 10) / 10,
    routes: result.routes,
    pgConnections: {
      max: connections.length ? Math.max(...connections) : null,
      last: connections.at(-1) ?? null,
    },
    subscriptionsStarted: verdict.subscriptionsStarted,
    chargesCollected: verdict.renewalsCollected,
    deliveries: result.deliveries,
    subscriberTotals: totals(result),
    findings: verdict.findings.slice(0, 50),
    // What the subscribers of the findings did, in their own words: the way to a repro.
    journals: Object.fromEntries(
      result.subscribers
        .filter((record) => verdict.findings.some((finding) => finding.accountId === record.accountId))
        .slice(0, 20)
        .map((record) => [record.accountId, record.journal]),
    ),
    faults: result.faults,
    plan: result.plan,
    options: result.options,
    wallSeconds: result.wallSeconds,
    samples,
  };
}

export type SoakReport = ReturnType<typeof reportOf>;

function totals(result: SoakResult) {
  const sum: Record<string, number> = {};
  const add = (key: string, value: number) => {
    sum[key] = (sum[key] ?? 0) + value;
  };
  for (const record of result.subscribers) {
    for (const [action, count] of Object.entries(record.actions)) add(`action.${action}`, count ?? 0);
    for (const [status, count] of Object.entries(record.checkoutAnswers))
      add(`checkoutAnswer.${status}`, count);
    for (const count of Object.values(record.errors)) add('clientErrors', count);
    add('paid', record.paid);
    add('refusedAtCheckout', record.refusedAtCheckout);
    add('failedOnPurpose', record.failedOnPurpose);
    add('unitsSpent', record.unitsSpent);
    add('unitsSpentUnclear', record.unitsSpentUnclear);
  }
  const errors: Record<string, number> = {};
  for (const record of result.subscribers) {
    for (const [message, count] of Object.entries(record.errors))
      errors[message] = (errors[message] ?? 0) + count;
  }
  return { ...sum, clientErrorMessages: errors };
}

/** The one line a run ends with. */
export function summaryLine(report: SoakReport): string {
  const mb = (bytes: number | null) => (bytes === null ? 'n/a' : `${(bytes / 1_048_576).toFixed(2)} MB/min`);
  const checkout = report.routes.checkout;
  const webhook = report.routes.webhook;
  return [
    report.passed ? 'SOAK PASS' : 'SOAK FAIL',
    `purchases=${report.purchases}`,
    `doubleCharges=${report.doubleCharges}`,
    `lostGrants=${report.lostGrants}`,
    `wrongAccess=${report.wrongAccess}`,
    `miscountedUnits=${report.miscountedUnits}`,
    `linesPayingTwice=${report.linesPayingTwice.count}`,
    `5xx=${report.serverErrors.total} (unexplained ${report.serverErrors.unexplained})`,
    `undelivered=${report.undeliveredEvents}`,
    `rps=${report.requestsPerSecond}`,
    `checkout p50/p99=${checkout?.p50 ?? '-'}/${checkout?.p99 ?? '-'} ms`,
    `webhook p50/p99=${webhook?.p50 ?? '-'}/${webhook?.p99 ?? '-'} ms`,
    `rssSlope=${report.instances.map((i) => `#${i.instance} ${mb(i.rssSlopeBytesPerMinute)}`).join(', ')}`,
    `pgConnections max=${report.pgConnections.max ?? '-'}`,
  ].join(' ');
}
