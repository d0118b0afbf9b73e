import { SandboxCheckoutError } from './checkout-error.js';
import type { AccountRole, CheckedProduct } from './partner-check-options.js';
import type { PartnerCheckPurchase } from './partner-check-report.js';
import { type CheckRun, stop } from './partner-check-run.js';

/**
 * Buys one offer as one account without the app: the check creates the HOSTED payment itself,
 * the account in `metadata.accountKey` as dcbkit's kit writes it, and pays it on the sandbox's
 * checkout with a fresh number. For a bare webhook receiver, which learns of purchases from the
 * events alone; the return page is not visited (such an app has none).
 */
export async function buyThroughService(
  run: CheckRun,
  role: AccountRole,
  product: CheckedProduct,
  duringOutage: boolean,
): Promise<PartnerCheckPurchase> {
  const accountKey = run.options.accounts[role];
  const created = await run.client.payments.create({
    mode: 'HOSTED',
    offerUid: product.offerUid,
    returnUrl: `${run.options.appUrl.href.replace(/\/$/, '')}/`,
    metadata: { accountKey },
  });
  try {
    await run.checkout.pay(created.checkoutUrl);
  } catch (error) {
    if (!(error instanceof SandboxCheckoutError)) throw error;
    stop(
      'checkout',
      `Paying ${product.offerUid} for ${accountKey} on the sandbox's checkout failed: ${error.message}`,
      'this is the sandbox refusing its own payment: run the check on a fresh sandbox, whose accounts have bought nothing yet.',
      [],
    );
  }
  const payment = await run.client.payments.retrieve(created.paymentUid);
  const purchase: PartnerCheckPurchase = {
    accountKey,
    offerUid: product.offerUid,
    productUid: product.productUid,
    paymentUid: payment.paymentUid,
    status: payment.status,
    subscriptionUid: payment.subscriptionUid ?? null,
    duringOutage,
  };
  run.purchases.push(purchase);
  return purchase;
}
