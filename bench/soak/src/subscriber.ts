import { type createCheckoutDriver, SandboxCheckoutError } from '@dcbkit/sandbox/testing';
import { anyToken, Browser, formFields, offerCard, readAccountPage } from './browser.js';
import { lineForCheckout } from './lines.js';
import type { Random } from './prng.js';

export type Action =
  | 'buyPremium'
  | 'buyDayPass'
  | 'buyUnlock'
  | 'twoTabs'
  | 'rebuyUnlock'
  | 'spendPass'
  | 'cancelAtPeriodEnd'
  | 'resume'
  | 'cancelNow'
  | 'viewPremium'
  | 'abandon';

/** How often each action is drawn: mostly buying and spending, as a shop's traffic is. */
const WEIGHTS: Record<Action, number> = {
  buyPremium: 12,
  buyDayPass: 14,
  buyUnlock: 6,
  twoTabs: 5,
  rebuyUnlock: 4,
  spendPass: 16,
  cancelAtPeriodEnd: 6,
  resume: 5,
  cancelNow: 4,
  viewPremium: 10,
  abandon: 4,
};

type CheckoutDriver = ReturnType<typeof createCheckoutDriver>;

/** What one subscriber did, for the verdict (units) and the report (what happened). */
export interface SubscriberRecord {
  accountId: string;
  line: string;
  actions: Partial<Record<Action, number>>;
  /** Passes the shop answered 200 to spending. */
  unitsSpent: number;
  /** Spends whose answer never came or was a 5xx: spent or not, the shop alone knows. */
  unitsSpentUnclear: number;
  /** Checkouts paid, refused by the checkout (SUB-108, CAT-109...), failed on a test number. */
  paid: number;
  refusedAtCheckout: number;
  failedOnPurpose: number;
  /** Answers the shop gave to checkout: 303 (to the service), 409 (refused), other. */
  checkoutAnswers: Record<string, number>;
  /** Client-side failures (timeouts, resets), by message. */
  errors: Record<string, number>;
  /** The last checkouts and subscription changes, in words, to trace a finding to what the subscriber did. */
  journal: string[];
}

const JOURNAL_LENGTH = 40;

export class Subscriber {
  readonly record: SubscriberRecord;
  private readonly browser: Browser;
  private signedIn = false;

  constructor(
    readonly accountId: string,
    readonly line: string,
    private readonly random: Random,
    shopUrl: string,
    private readonly checkout: CheckoutDriver,
  ) {
    this.browser = new Browser(shopUrl);
    this.record = {
      accountId,
      line,
      actions: {},
      unitsSpent: 0,
      unitsSpentUnclear: 0,
      paid: 0,
      refusedAtCheckout: 0,
      failedOnPurpose: 0,
      checkoutAnswers: {},
      errors: {},
      journal: [],
    };
  }

  /** Acts until `deadline` (ms since epoch), with think times drawn from `thinkMs`. */
  async live(deadline: number, thinkMs: readonly [number, number], stopped: () => boolean): Promise<void> {
    // Arrivals spread over the first think time, not all at the start.
    await sleep(this.random.int(0, thinkMs[1]));
    while (Date.now() < deadline && !stopped()) {
      const action = this.random.weighted(WEIGHTS);
      this.record.actions[action] = (this.record.actions[action] ?? 0) + 1;
      try {
        if (!this.signedIn) await this.signIn();
        await this.act(action);
      } catch (error) {
        const message =
          error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 120) : String(error);
        this.record.errors[message] = (this.record.errors[message] ?? 0) + 1;
      }
      await sleep(this.random.int(thinkMs[0], thinkMs[1]));
    }
  }

  private note(line: string): void {
    this.record.journal.push(`${new Date().toISOString().slice(11, 23)} ${line}`);
    if (this.record.journal.length > JOURNAL_LENGTH) this.record.journal.shift();
  }

  private async signIn(): Promise<void> {
    const answer = await this.browser.post('/sign-in', { accountId: this.accountId, next: '/' });
    if (answer.status !== 303) throw new Error(`sign-in answered ${answer.status}`);
    this.signedIn = true;
  }

  private async act(action: Action): Promise<void> {
    switch (action) {
      case 'buyPremium':
        return this.buy('offer_premium_monthly', 1);
      case 'buyDayPass':
        return this.buy('offer_day_pass', 1);
      case 'buyUnlock':
        return this.buy('offer_full_unlock', 1);
      case 'twoTabs':
        return this.buy(
          this.random.pick(['offer_premium_monthly', 'offer_full_unlock', 'offer_day_pass']),
          2,
        );
      case 'rebuyUnlock':
        return this.buy('offer_full_unlock', 1, { evenIfOwned: true });
      case 'spendPass':
        return this.spendPass();
      case 'cancelAtPeriodEnd':
        return this.changeSubscription('cancel', 'PERIOD_END');
      case 'cancelNow':
        return this.changeSubscription('cancel', 'NOW');
      case 'resume':
        return this.changeSubscription('resume');
      case 'viewPremium': {
        const { status } = await this.browser.page('/premium');
        if (status === 303 || status === 302) return;
        if (status !== 200) throw new Error(`/premium answered ${status}`);
        return;
      }
      case 'abandon':
        return this.buy(this.random.pick(['offer_premium_monthly', 'offer_day_pass']), 1, { abandon: true });
    }
  }

  /**
   * The offers page, the offer's form posted from `tabs` tabs at once, each checkout the shop sent
   * to paid (or failed on a test number, or left), and the return page once or twice.
   */
  private async buy(
    offerUid: string,
    tabs: 1 | 2,
    options: { evenIfOwned?: boolean; abandon?: boolean } = {},
  ): Promise<void> {
    const offers = await this.browser.page('/');
    let fields = formFields(offerCard(offers.html, offerUid), '/checkout');
    if (fields === undefined && options.evenIfOwned) {
      // The form the page showed before it was owned (another tab, the back button).
      const token = anyToken(offers.html);
      if (token !== undefined) fields = { offerUid, token };
    }
    if (fields === undefined) return;
    const posted = fields;
    const answers = await Promise.all(
      Array.from({ length: tabs }, () => this.browser.post('/checkout', posted)),
    );
    const checkoutUrls = new Set<string>();
    this.note(
      `checkout ${offerUid} x${tabs}: ${answers.map((a) => `${a.status} ${a.location?.split('/').pop() ?? a.text.slice(0, 60)}`).join(', ')}`,
    );
    for (const answer of answers) {
      const key = String(answer.status);
      this.record.checkoutAnswers[key] = (this.record.checkoutAnswers[key] ?? 0) + 1;
      if (answer.status === 303 && answer.location) checkoutUrls.add(answer.location);
    }
    const line = lineForCheckout(this.random, this.line);
    for (const checkoutUrl of checkoutUrls) {
      if (options.abandon) {
        if (this.random.chance(0.5)) await this.checkout.abandon(checkoutUrl);
        return;
      }
      const returnUrl = await this.pay(checkoutUrl, line);
      if (returnUrl === null) continue;
      const returned = await this.browser.page(returnUrl);
      this.note(`return ${checkoutUrl.split('/').pop()}: ${returned.status}`);
      // Back to the return page, as a reload or the back button does.
      if (this.random.chance(0.2)) await this.browser.page(returnUrl);
    }
  }

  /** Pays (or fails on a test number); the path of the return page, or null when there is none. */
  private async pay(checkoutUrl: string, line: ReturnType<typeof lineForCheckout>): Promise<string | null> {
    try {
      const outcome =
        line.outcome === 'pay'
          ? await this.checkout.pay(checkoutUrl, { msisdn: line.msisdn, method: 'PIN' })
          : await this.checkout.fail(checkoutUrl, {
              because: line.outcome,
              msisdn: line.msisdn,
              method: 'PIN',
            });
      if (line.outcome === 'pay') this.record.paid++;
      else this.record.failedOnPurpose++;
      this.note(`paid ${outcome.paymentUid} on ${line.msisdn}: ${outcome.status}`);
      return outcome.returnUrl ? `${outcome.returnUrl.pathname}${outcome.returnUrl.search}` : null;
    } catch (error) {
      // The service refused it (trial used on this line, the line owns the unlock, paid already in
      // the other tab, a PIN that expired while the clock moved): the subscriber gives up.
      if (error instanceof SandboxCheckoutError) {
        this.record.refusedAtCheckout++;
        this.note(`refused ${checkoutUrl.split('/').pop()} on ${line.msisdn}: ${error.message.slice(0, 80)}`);
        return null;
      }
      throw error;
    }
  }

  private async spendPass(): Promise<void> {
    const account = await this.browser.page('/account');
    const view = readAccountPage(account.html);
    if ((view.passes?.available ?? 0) === 0) return;
    const fields = formFields(account.html, '/account/passes/prod_day_pass/use');
    if (fields === undefined) return;
    let status: number;
    try {
      status = (await this.browser.post('/account/passes/prod_day_pass/use', fields)).status;
    } catch (error) {
      this.record.unitsSpentUnclear++;
      throw error;
    }
    // 303: back to the account page, the pass spent (the shop's answer to a form post).
    if (status === 200 || status === 303) this.record.unitsSpent++;
    else if (status >= 500) this.record.unitsSpentUnclear++;
    else if (status !== 409) throw new Error(`spending a pass answered ${status}`);
  }

  private async changeSubscription(verb: 'cancel' | 'resume', when?: 'PERIOD_END' | 'NOW'): Promise<void> {
    const account = readAccountPage((await this.browser.page('/account')).html);
    const wanted = account.subscriptions.filter((subscription) =>
      verb === 'resume'
        ? subscription.resume
        : when === 'NOW'
          ? subscription.cancelNow
          : subscription.cancelAtPeriodEnd,
    );
    if (wanted.length === 0) return;
    const { uid } = this.random.pick(wanted);
    const action = `/account/subscriptions/${uid}/${verb}`;
    const confirm = await this.browser.page(when ? `${action}?when=${when}` : action);
    const fields = formFields(confirm.html, action);
    if (fields === undefined) return;
    const answer = await this.browser.post(action, fields);
    this.note(`${verb} ${when ?? ''} ${uid}: ${answer.status}`);
    // 303 back to the account page; 409 when the subscription changed meanwhile (a webhook, the clock).
    if (answer.status >= 400 && answer.status !== 409 && answer.status < 500) {
      throw new Error(`${verb} answered ${answer.status}`);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
