import { createClient, type DcbClient, silentLogger } from '@dcbkit/core';
import { AppVisitor, describeAnswer } from './app-visitor.js';
import { type CheckoutDriver, createCheckoutDriver } from './checkout-driver.js';
import { DeliveryTracker } from './delivery-tracker.js';
import type { ForgedDelivery } from './forged-event.js';
import type {
  AccountRole,
  CheckedProduct,
  PartnerCheckFormFields,
  ResolvedPartnerCheck,
} from './partner-check-options.js';
import {
  failed,
  type GateObservation,
  type PartnerCheckName,
  type PartnerCheckPurchase,
  type PartnerCheckResult,
} from './partner-check-report.js';

/** Thrown inside a run when a failure leaves nothing further to check (no purchase could be made). */
export class CheckStopped extends Error {
  constructor(readonly result: PartnerCheckResult) {
    super(result.summary);
  }
}

/** Stops the run with a failed check. */
export function stop(name: PartnerCheckName, summary: string, fix: string, evidence: string[]): never {
  throw new CheckStopped(failed(name, summary, fix, evidence));
}

export const ROLES: readonly AccountRole[] = ['renewing', 'lapsing', 'expiring'];

/** What one run of the check holds: the sandbox, the accounts at the app, and what it saw. */
export class CheckRun {
  readonly client: DcbClient;
  readonly checkout: CheckoutDriver;
  readonly deliveries: DeliveryTracker;
  readonly purchases: PartnerCheckPurchase[] = [];
  readonly gates: GateObservation[] = [];
  /** Return pages that did not answer 2xx or a redirect (the purchase went on). */
  readonly returnProblems: string[] = [];
  /** The event signed with another secret the check posted to the app first, and its answer. */
  forged: ForgedDelivery | undefined;
  /** Events dead-lettered while the app's webhook was unreachable (each replayed afterwards). */
  deadLettered = 0;
  /** The sandbox clock's time of each unit spent, by account role and product. */
  private readonly spent = new Map<string, number[]>();

  private constructor(
    readonly options: ResolvedPartnerCheck,
    private readonly visitors: Record<AccountRole, AppVisitor>,
  ) {
    const { sandbox } = options;
    // The service's truth, read as the app reads it; on the sandbox clock, since the check moves it by weeks.
    this.client = createClient({
      environment: 'sandbox',
      baseUrl: sandbox.apiBaseUrl,
      clientId: sandbox.credentials.clientId,
      clientSecret: sandbox.credentials.clientSecret,
      now: () => sandbox.clock.now(),
      logger: silentLogger,
    });
    this.checkout = createCheckoutDriver(sandbox);
    this.deliveries = new DeliveryTracker(sandbox);
  }

  /** Signs each account in at the app. Stops the run when signIn throws or gives no headers. */
  static async open(options: ResolvedPartnerCheck): Promise<CheckRun> {
    const visitors = {} as Record<AccountRole, AppVisitor>;
    for (const role of ROLES) {
      const accountKey = options.accounts[role];
      const { signIn } = options;
      let headers: unknown = {};
      try {
        if (signIn) headers = await signIn(accountKey);
      } catch (error) {
        stop(
          'checkout',
          `signIn('${accountKey}') threw: ${String(error)}`,
          'signIn(accountKey) must sign the account in at your app and return the headers that make a request its own.',
          [],
        );
      }
      if (typeof headers !== 'object' || headers === null) {
        stop(
          'checkout',
          `signIn('${accountKey}') returned ${String(headers)}, not headers.`,
          'return an object of headers: { cookie: "session=…" } from your sign-in, or the header your test build reads.',
          [],
        );
      }
      visitors[role] = new AppVisitor(
        options.appUrl,
        accountKey,
        headers as Record<string, string>,
        options.requestTimeoutMs,
      );
    }
    return new CheckRun(options, visitors);
  }

  visitor(role: AccountRole): AppVisitor {
    return this.visitors[role];
  }

  get appWebhookUrl(): string {
    return this.visitors.renewing.urlOf(this.options.paths.webhook).href;
  }

  /** The fields of a form for `action`: from formFields, else from the form rendered on `pagePath`. */
  async formFor(
    role: AccountRole,
    pagePath: string,
    action: string,
    wanted: PartnerCheckFormFields = {},
  ): Promise<{ fields: PartnerCheckFormFields | undefined; evidence: string }> {
    const accountKey = this.options.accounts[role];
    if (this.options.formFields) {
      const extra = await this.options.formFields(accountKey);
      return { fields: { ...wanted, ...extra }, evidence: `formFields('${accountKey}')` };
    }
    const found = await this.visitor(role).formOn(pagePath, action, wanted);
    const { page } = found;
    const shown = page.status !== null && page.status >= 200 && page.status < 300;
    const evidence = shown
      ? `GET ${pagePath} (${page.status}) shows no form posting to ${action}`
      : describeAnswer(page);
    return { fields: found.fields, evidence };
  }

  /** The account's purchases of a product, in the order made. */
  purchasesOf(role: AccountRole, product: CheckedProduct): PartnerCheckPurchase[] {
    const accountKey = this.options.accounts[role];
    return this.purchases.filter(
      (purchase) => purchase.accountKey === accountKey && purchase.productUid === product.productUid,
    );
  }

  unitsSpent(role: AccountRole, product: CheckedProduct): number {
    return this.spendTimes(role, product).length;
  }

  /** When each unit the account spent was spent, on the sandbox clock, in order. */
  spendTimes(role: AccountRole, product: CheckedProduct): readonly number[] {
    return this.spent.get(`${role} ${product.productUid}`) ?? [];
  }

  recordUnitSpent(role: AccountRole, product: CheckedProduct): void {
    const at = this.options.sandbox.clock.now().getTime();
    this.spent.set(`${role} ${product.productUid}`, [...this.spendTimes(role, product), at]);
  }
}
