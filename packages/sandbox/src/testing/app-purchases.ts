import { describeAnswer } from './app-visitor.js';
import { SandboxCheckoutError } from './checkout-error.js';
import type { AccountRole, CheckedProduct } from './partner-check-options.js';
import type { PartnerCheckPurchase } from './partner-check-report.js';
import { type CheckRun, stop } from './partner-check-run.js';

/** Why a checkout answer is not a redirect to the sandbox's checkout, and what to change. */
function checkoutFix(status: number | null, location: string | null): string {
  if (status === 401) {
    return 'signIn(accountKey) must return headers that sign the account in on every request (the checkout route saw nobody signed in).';
  }
  if (status === 403) {
    return 'the checkout refused the form as cross-site or without a valid token: the token must be made for this account (and its session) and the post come from your own origin, which is your returnUrl’s.';
  }
  if (location !== null) {
    return 'create payments on the sandbox: configure the app’s client with baseUrl sandbox.apiBaseUrl and sandbox.credentials.';
  }
  return 'answer the checkout form with a redirect (303) to the checkout URL the service returned for the payment.';
}

/**
 * Buys one offer as one account, as a subscriber does: the app's checkout form, the sandbox's
 * checkout pages (paid with a fresh number), then the app's return page. Stops the run when the
 * purchase cannot be made; a return page that fails is noted and the run goes on.
 */
export async function buyThroughApp(
  run: CheckRun,
  role: AccountRole,
  product: CheckedProduct,
  duringOutage: boolean,
): Promise<PartnerCheckPurchase> {
  const { sandbox, paths, accounts } = run.options;
  const accountKey = accounts[role];
  const visitor = run.visitor(role);
  const form = await run.formFor(role, paths.offersPage, paths.checkout, { offerUid: product.offerUid });
  if (form.fields === undefined) {
    stop(
      'checkout',
      `No form posting to ${paths.checkout} with offerUid=${product.offerUid} on ${paths.offersPage} for ${accountKey}.`,
      'render the checkout form on paths.offersPage (hidden fields offerUid and your form token) for a signed-in account, or pass formFields(accountKey) so the check posts without reading your pages. A page that shows the form only to the accounts it knows needs accounts your signIn signs in: pass them as accounts (the starters: demo-amira, demo-youssef, demo-lea).',
      [form.evidence],
    );
  }
  const answer = await visitor.postForm(paths.checkout, form.fields);
  const location = answer.location === null ? null : new URL(answer.location, answer.url);
  const redirected = answer.status !== null && answer.status >= 300 && answer.status < 400;
  if (!redirected || location === null || !location.href.startsWith(`${sandbox.checkoutBaseUrl}/c/`)) {
    stop(
      'checkout',
      `The checkout route did not send ${accountKey} to the sandbox's checkout for ${product.offerUid}.`,
      checkoutFix(answer.status, location?.href ?? null),
      [describeAnswer(answer)],
    );
  }
  let paymentUid: string;
  let returnUrl: URL | null;
  try {
    ({ paymentUid, returnUrl } = await run.checkout.pay(location.href));
  } catch (error) {
    if (!(error instanceof SandboxCheckoutError)) throw error;
    stop(
      'checkout',
      `Paying ${product.offerUid} for ${accountKey} on the sandbox's checkout failed: ${error.message}`,
      'create a HOSTED payment of the offer asked for, with no prefill that locks the number, so any subscriber can pay it.',
      [describeAnswer(answer)],
    );
  }
  if (returnUrl !== null && returnUrl.origin === run.options.appUrl.origin) {
    const back = await visitor.get(returnUrl);
    if (back.status === null || back.status >= 400)
      run.returnProblems.push(`${accountKey}: ${describeAnswer(back)}`);
  }
  const payment = await run.client.payments.retrieve(paymentUid);
  const purchase: PartnerCheckPurchase = {
    accountKey,
    offerUid: product.offerUid,
    productUid: product.productUid,
    paymentUid,
    status: payment.status,
    subscriptionUid: payment.subscriptionUid ?? null,
    duringOutage,
  };
  run.purchases.push(purchase);
  return purchase;
}
