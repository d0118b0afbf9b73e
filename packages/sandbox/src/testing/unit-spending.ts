import { forAccount } from './account-template.js';
import { describeAnswer } from './app-visitor.js';
import type { AccountRole, CheckedProduct } from './partner-check-options.js';
import { failed, type PartnerCheckResult, passed, skipped } from './partner-check-report.js';
import { type CheckRun, ROLES } from './partner-check-run.js';

/** What spending until refused showed for one account and product. */
interface UnitCount {
  accountKey: string;
  productUid: string;
  paid: number;
  spent: number;
  /** What ended the spending: the refusal, or the missing form. */
  stoppedBy: string;
  /** True when the end was a 5xx or no answer: neither a unit spent nor a clean "none left". */
  unclear: boolean;
}

/**
 * Spends the account's units through the app until it refuses, at most one more than paid for: a
 * unit granted twice shows as one spend too many.
 */
async function spendUntilRefused(
  run: CheckRun,
  role: AccountRole,
  product: CheckedProduct,
): Promise<UnitCount> {
  const accountKey = run.options.accounts[role];
  const spendPath = forAccount(product.spendPath as string, accountKey, product.productUid);
  const paid = run.purchasesOf(role, product).filter((purchase) => purchase.status === 'SUCCEEDED').length;
  const count = { accountKey, productUid: product.productUid, paid, spent: 0 };
  for (let attempt = 0; attempt <= paid; attempt++) {
    // A receiver without pages is posted to as it is; an app's form is read from its page.
    const form =
      run.options.purchaseThrough === 'service' && run.options.formFields === undefined
        ? { fields: {}, evidence: '' }
        : await run.formFor(role, run.options.paths.accountPage, spendPath);
    if (form.fields === undefined) {
      return { ...count, stoppedBy: form.evidence, unclear: false };
    }
    const answer = await run.visitor(role).postForm(spendPath, form.fields);
    if (answer.status !== null && answer.status < 400) {
      count.spent++;
      run.recordUnitSpent(role, product);
      continue;
    }
    return {
      ...count,
      stoppedBy: describeAnswer(answer),
      unclear: answer.status === null || answer.status >= 500,
    };
  }
  return { ...count, stoppedBy: 'never refused', unclear: false };
}

function describeCount(count: UnitCount): string {
  return `${count.accountKey}, ${count.productUid}: ${count.paid} paid, ${count.spent} spent, then ${count.stoppedBy}`;
}

/**
 * `units`: each account can spend exactly the units it paid for. Spends every unit, so it runs
 * last (a final checkpoint then expects the gate closed).
 */
export async function countUnits(run: CheckRun): Promise<PartnerCheckResult> {
  const consumables = run.options.products.filter((product) => product.type === 'CONSUMABLE');
  if (consumables.length === 0)
    return skipped('units', 'No CONSUMABLE offer among products: no unit to count.');
  const counted = consumables.filter((product) => product.spendPath !== undefined);
  if (counted.length === 0) {
    return skipped(
      'units',
      'No CONSUMABLE product names its spendPath: the check counts units by spending them through the app.',
    );
  }
  const counts: UnitCount[] = [];
  for (const product of counted) {
    for (const role of ROLES) counts.push(await spendUntilRefused(run, role, product));
  }
  const over = counts.filter((count) => count.spent > count.paid);
  const under = counts.filter((count) => count.spent < count.paid || count.unclear);
  if (over.length === 0 && under.length === 0) {
    const units = counts.reduce((sum, count) => sum + count.paid, 0);
    return passed(
      'units',
      `Every account could spend exactly the ${units} units it paid for, and no more.`,
      counts.map(describeCount),
    );
  }
  const fixes: string[] = [];
  if (over.length > 0) {
    fixes.push(
      'a payment granted more than one unit: a duplicate delivery granted twice (or the webhook and the return page both did). De-duplicate on the event’s key, and count a unit once per order (orderId), whichever of the webhook and the return page comes first.',
    );
  }
  if (under.length > 0) {
    fixes.push(
      'a paid unit could not be spent: grant one unit per succeeded payment, from the webhook or the return page, and keep a payment.succeeded that arrives late (replayed after a dead letter).',
    );
  }
  return failed(
    'units',
    over.length > 0
      ? `${over.length} account${over.length === 1 ? '' : 's'} spent more units than they paid for.`
      : `${under.length} account${under.length === 1 ? '' : 's'} could not spend every unit they paid for.`,
    fixes.join(' Also: '),
    [...over, ...under].map(describeCount),
  );
}
