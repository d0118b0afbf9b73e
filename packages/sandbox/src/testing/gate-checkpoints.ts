import { forAccount } from './account-template.js';
import type { AccountRole, CheckedProduct } from './partner-check-options.js';
import {
  failed,
  type GateObservation,
  type PartnerCheckResult,
  passed,
  skipped,
} from './partner-check-report.js';
import { type CheckRun, ROLES } from './partner-check-run.js';
import { gateVerdict, oneTimeTruth, type ServiceTruth, subscriptionTruth } from './service-truth.js';

/** What the service says the account may use of the product now. */
async function serviceTruth(
  run: CheckRun,
  role: AccountRole,
  product: CheckedProduct,
): Promise<ServiceTruth> {
  const bought = run.purchasesOf(role, product);
  if (product.type === 'SUBSCRIPTION') {
    const subscriptionUid = bought.find((purchase) => purchase.subscriptionUid !== null)?.subscriptionUid;
    const status =
      subscriptionUid === undefined || subscriptionUid === null
        ? undefined
        : (await run.client.subscriptions.retrieve(subscriptionUid)).status;
    return subscriptionTruth(status, product.gracePolicy);
  }
  const paid = bought.filter((purchase) => purchase.status === 'SUCCEEDED').length;
  const time =
    product.unitAccessSeconds === undefined
      ? undefined
      : {
          unitAccessSeconds: product.unitAccessSeconds,
          spentAt: run.spendTimes(role, product),
          now: run.options.sandbox.clock.now().getTime(),
        };
  return oneTimeTruth(product.type, paid, run.unitsSpent(role, product), time);
}

/**
 * Asks the app's gate of every product that names one, as each account, and records whether it
 * agrees with the service at this point of the story.
 */
export async function probeGates(
  run: CheckRun,
  checkpoint: string,
  only: (product: CheckedProduct) => boolean = () => true,
): Promise<void> {
  for (const product of run.options.products) {
    const path = product.gatePath;
    if (path === undefined || !only(product)) continue;
    for (const role of ROLES) {
      const truth = await serviceTruth(run, role, product);
      const accountKey = run.options.accounts[role];
      const asked = forAccount(path, accountKey, product.productUid);
      const answer = await run.visitor(role).get(asked);
      const expected = truth.access ? 'granted' : 'refused';
      run.gates.push({
        checkpoint,
        accountKey,
        productUid: product.productUid,
        path: asked,
        service: truth.says,
        expected,
        status: answer.status,
        agrees:
          gateVerdict(answer.status, { notFoundRefuses: run.options.purchaseThrough === 'service' }) ===
          expected,
      });
    }
  }
}

function describeGate(gate: GateObservation): string {
  const answered = gate.status === null ? 'gave no answer' : `answered ${gate.status}`;
  return `${gate.checkpoint}: ${gate.accountKey}, ${gate.productUid}: the service says ${gate.service} (access ${gate.expected}), GET ${gate.path} ${answered}`;
}

/** `access-gate`: every answer of the gates agreed with the service. */
export function gateResult(run: CheckRun): PartnerCheckResult {
  const { gates } = run;
  if (!run.options.products.some((product) => product.gatePath !== undefined)) {
    return skipped(
      'access-gate',
      'No product names a gatePath: name the page behind your access gate for each product.',
    );
  }
  const checkpoints = new Set(gates.map((gate) => gate.checkpoint)).size;
  const wrong = gates.filter((gate) => !gate.agrees);
  if (wrong.length === 0) {
    return passed(
      'access-gate',
      `All ${gates.length} answers of the gate, at ${checkpoints} points of the story, agreed with the service.`,
    );
  }
  const fixes: string[] = [];
  const verdicts = wrong.map((gate) => [gate, gateVerdict(gate.status)] as const);
  if (verdicts.some(([gate, verdict]) => gate.expected === 'refused' && verdict === 'granted')) {
    fixes.push(
      'the gate let in an account whose access the service says has ended (or never began): revoke on entitlement.revoked and when a subscription ends, count a unit spent (of an offer that sells time per unit, give access only once one is spent, and for that time), and order events by occurredAt so a late or replayed one never brings access back.',
    );
  }
  if (verdicts.some(([gate, verdict]) => gate.expected === 'granted' && verdict === 'refused')) {
    fixes.push(
      'the gate kept out an account the service says has access: grant on payment.succeeded and entitlement.granted, extend on entitlement.updated, open a unit spent of an offer that sells time for all of its time, and apply an event that arrives late, replayed or out of order.',
    );
  }
  if (verdicts.some(([, verdict]) => verdict === 'unclear')) {
    fixes.push('a gate answers 2xx with access, and 401, 403 or a redirect without: nothing else.');
  }
  return failed(
    'access-gate',
    `${wrong.length} of ${gates.length} answers of the gate disagreed with the service.`,
    fixes.join(' Also: '),
    wrong.map(describeGate),
  );
}
