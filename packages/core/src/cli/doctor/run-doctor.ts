import { randomBytes } from 'node:crypto';
import type { DcbClient } from '../../client/create-client.js';
import { optionError } from '../../errors/option-error.js';
import { type CheckoutProbeResult, sendCheckoutProbe } from './checkout-probe.js';
import { type ClockEvidence, clockEvidence } from './clock-evidence.js';
import { diagnose } from './diagnose.js';
import { diagnoseCheckout } from './diagnose-checkout.js';
import { byImportance, type Finding } from './findings.js';
import { isFailed, type ProbeAnswer } from './probe-answer.js';
import { planProbes } from './probe-plan.js';
import { sendProbe } from './send-probe.js';

export interface RunDoctorOptions {
  /** The deployed webhook route, as set in the partner console. */
  url: string;
  /** The environment's signing secrets; the first signs the probes. */
  secrets: readonly string[];
  /** How long each probe may wait for its answer. */
  timeoutMs: number;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** Default: Date.now. */
  clock?: () => number;
  /**
   * `--offer`: also open a checkout for this offer with the app's credentials, check its URL
   * against the configured checkout host as the partner routes do, and cancel it.
   */
  checkout?: DoctorCheckoutOptions;
}

export interface DoctorCheckoutOptions {
  client: DcbClient;
  offerUid: string;
  returnUrl: string;
  /** DCB_CHECKOUT_BASE_URL, when set. */
  checkoutBaseUrl: string | undefined;
}

/** The checkout the doctor opened and cancelled, and the checkout host it was checked against. */
export interface DoctorCheckout {
  readonly result: CheckoutProbeResult;
  readonly checkoutBaseUrl: string | undefined;
}

export interface DoctorReport {
  readonly url: string;
  /** Names this run in every probe (the payment uids and `metadata.dcbkitDoctor`), for the receiver's logs. */
  readonly runId: string;
  readonly startedAt: string;
  /** One per probe sent, in the plan's order; only `valid`'s when it got no HTTP answer. */
  readonly answers: readonly ProbeAnswer[];
  /** Empty when the receiver is healthy. */
  readonly findings: readonly Finding[];
  readonly clock: ClockEvidence;
  /** With `--offer` only. */
  readonly checkout?: DoctorCheckout;
}

/**
 * Plans the probes, sends them (the valid one alone first: an unreachable URL costs one request,
 * and the duplicate really is a second delivery; then the others at once, so that a slow receiver
 * costs two answer times, not ten), and diagnoses the answers.
 */
export async function runDoctor(options: RunDoctorOptions): Promise<DoctorReport> {
  const { url, secrets, timeoutMs, clock = Date.now } = options;
  const [secret] = secrets;
  if (secret === undefined || secret === '') throw optionError('runDoctor', 'secrets', 'must hold a secret.');
  const runId = randomBytes(6).toString('hex');
  const foreignSecret = `whsec_dcbkit_doctor_${randomBytes(24).toString('hex')}`;
  const signedAt = (atMs: number) => planProbes({ secret, foreignSecret, runId, now: new Date(atMs) });
  const send = { timeoutMs, clock, ...(options.fetch ? { fetch: options.fetch } : {}) };
  // Each batch is signed as it leaves, and its sentAtMs is the reading its timestamps were floored
  // from: a probe's age is then known to the second. Signed once at the start, the others aged by
  // the valid probe's wait, and on a busy machine a clock three minutes ahead proved only 58 s off.
  const startedAtMs = clock();
  const [first] = signedAt(startedAtMs);
  const sendOthers = () => {
    const atMs = clock();
    // The plan's second probe is the duplicate: the bytes already sent, not a new signature.
    const [, , ...others] = signedAt(atMs);
    const probes = [{ ...first, id: 'duplicate' as const }, ...others];
    return Promise.all(probes.map((probe) => sendProbe(url, probe, { ...send, sentAtMs: atMs })));
  };
  const firstAnswer = await sendProbe(url, first, { ...send, sentAtMs: startedAtMs });
  // No HTTP answer to the valid probe: nothing more to learn from the others.
  const answers: ProbeAnswer[] = isFailed(firstAnswer)
    ? [firstAnswer]
    : [firstAnswer, ...(await sendOthers())];
  const checkout = options.checkout && {
    result: await sendCheckoutProbe({ ...options.checkout, runId }),
    checkoutBaseUrl: options.checkout.checkoutBaseUrl,
  };
  const findings = checkout
    ? [...diagnose(answers), ...diagnoseCheckout(checkout.result, checkout.checkoutBaseUrl)].sort(
        byImportance,
      )
    : diagnose(answers);
  return {
    url,
    runId,
    startedAt: new Date(startedAtMs).toISOString(),
    answers,
    findings,
    clock: clockEvidence(answers),
    ...(checkout ? { checkout } : {}),
  };
}
