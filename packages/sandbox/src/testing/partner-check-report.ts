import type { PaymentStatus } from '@dcbkit/core';

/**
 * The checks, in the order the report lists them:
 * - `checkout`: purchases through the app's checkout route, the sandbox's checkout pages and the
 *   app's return page;
 * - `signature`: every signed delivery accepted (the signature verified on the raw body);
 * - `duplicates`: a second copy of a processed event answered 2xx;
 * - `delivery`: nothing lost: every event answered 2xx in the end, the replayed dead letters too;
 * - `units`: one effect per payment: a consumable's units spendable once per payment, no more;
 * - `access-gate`: the app's gate grants exactly what the service says, for every account and
 *   product, at each checkpoint (after expiry and suspension included).
 */
export type PartnerCheckName = 'checkout' | 'signature' | 'duplicates' | 'delivery' | 'units' | 'access-gate';

export const PARTNER_CHECK_NAMES: readonly PartnerCheckName[] = [
  'checkout',
  'signature',
  'duplicates',
  'delivery',
  'units',
  'access-gate',
];

/** `skipped`: the check had nothing to look at (no gate named), or an earlier failure stopped the run. */
export type PartnerCheckOutcome = 'passed' | 'failed' | 'skipped';

export interface PartnerCheckResult {
  name: PartnerCheckName;
  outcome: PartnerCheckOutcome;
  /** One sentence: what was checked and found. */
  summary: string;
  /** What to change in the app; null unless failed. */
  fix: string | null;
  /** What was observed: events with their answers, accounts with what the gate said. */
  evidence: string[];
}

/** A purchase the check made through the app. */
export interface PartnerCheckPurchase {
  accountKey: string;
  offerUid: string;
  productUid: string;
  paymentUid: string;
  /** As the service read it once the checkout ended. */
  status: PaymentStatus;
  subscriptionUid: string | null;
  /** Whether the app's webhook was unreachable at the time (its events were dead-lettered, then replayed). */
  duringOutage: boolean;
}

/** What an access gate answered one account, against what the service says. */
export interface GateObservation {
  /** When in the story: 'before any purchase', 'after expiry and suspension'... */
  checkpoint: string;
  accountKey: string;
  productUid: string;
  path: string;
  /** The service's truth, in words: 'EXPIRED', '2 units paid, 0 spent', 'nothing bought'. */
  service: string;
  expected: 'granted' | 'refused';
  /** The gate's HTTP status, or null when it did not answer. */
  status: number | null;
  agrees: boolean;
}

/** What happened to the events of the run. */
export interface DeliveryStats {
  events: number;
  /** Attempts posted to the app (replays and duplicates included). */
  attemptsToApp: number;
  duplicates: number;
  heldBack: number;
  delayed: number;
  /** Events whose body was indented (bytes a re-serialisation would not give back). */
  indented: number;
  /** Events dead-lettered while the app's webhook was unreachable, each replayed afterwards. */
  deadLettered: number;
  replays: number;
}

export interface PartnerCheckReport {
  passed: boolean;
  appUrl: string;
  /** The chaos seed: the same seed and the same app give the same deliveries. */
  seed: number;
  checks: PartnerCheckResult[];
  purchases: PartnerCheckPurchase[];
  gates: GateObservation[];
  deliveries: DeliveryStats;
}

// Enough to see the pattern in a CI log; the report keeps every line.
const EVIDENCE_IN_MESSAGE = 5;

/** The error message: each failed check with its fix and the first pieces of evidence. */
export function failureMessage(report: PartnerCheckReport): string {
  const failed = report.checks.filter((check) => check.outcome === 'failed');
  const lines = [
    `The partner check of ${report.appUrl} failed ${failed.length} of ${report.checks.length} checks (chaos seed ${report.seed}):`,
  ];
  for (const check of failed) {
    lines.push('', `${check.name}: ${check.summary}`);
    if (check.fix !== null) lines.push(`  Fix: ${check.fix}`);
    for (const line of check.evidence.slice(0, EVIDENCE_IN_MESSAGE)) lines.push(`  - ${line}`);
    const more = check.evidence.length - EVIDENCE_IN_MESSAGE;
    if (more > 0) lines.push(`  - and ${more} more (error.report.checks)`);
  }
  const skipped = report.checks.filter((check) => check.outcome === 'skipped').map((check) => check.name);
  if (skipped.length > 0) lines.push('', `Skipped: ${skipped.join(', ')}.`);
  return lines.join('\n');
}

/** A check that found nothing wrong. */
export function passed(name: PartnerCheckName, summary: string, evidence: string[] = []): PartnerCheckResult {
  return { name, outcome: 'passed', summary, fix: null, evidence };
}

export function failed(
  name: PartnerCheckName,
  summary: string,
  fix: string,
  evidence: string[],
): PartnerCheckResult {
  return { name, outcome: 'failed', summary, fix, evidence };
}

export function skipped(name: PartnerCheckName, summary: string): PartnerCheckResult {
  return { name, outcome: 'skipped', summary, fix: null, evidence: [] };
}
