import { isDcbError } from '@dcbkit/core';
import type { SandboxConfig } from '@dcbkit/sandbox';
import { createCheckoutDriver, SandboxCheckoutError } from '@dcbkit/sandbox/testing';
import type { History, OfferName, Refusal, Step, Via } from './history-steps.js';
import { type PlantedWorld, RETURN_URL } from './planted-world.js';

export const OFFER_UIDS: Readonly<Record<OfferName, string>> = {
  trial: 'offer_premium_monthly',
  paid: 'offer_premium_monthly_paid',
  weekly: 'offer_basic_weekly',
  daily: 'offer_news_daily',
  pass: 'offer_day_pass',
  unlock: 'offer_full_unlock',
};

/**
 * A weekly subscription whose grace withholds access: its subscribers drop out of the live count
 * while a renewal is unpaid and come back when it is recovered, which the default offers (grace
 * with access) never do; and a daily one with no grace at all.
 */
export function addModelOffers(config: SandboxConfig): void {
  const paid = config.offers.find((offer) => offer.offerUid === OFFER_UIDS.paid);
  if (!paid) throw new Error(`the default config has no ${OFFER_UIDS.paid}`);
  config.offers.push({
    ...paid,
    offerUid: OFFER_UIDS.weekly,
    productUid: 'prod_basic',
    name: 'Basic, weekly',
    names: { fr: 'Basique, hebdomadaire', ar: 'أساسي، أسبوعي' },
    price: { amount: 1500, currency: 'TND' },
    billingPeriod: { unit: 'WEEK', count: 1 },
    gracePolicy: { days: 2, accessDuringGrace: false },
  });
  // A daily plan with no grace, as many operators sell them: a renewal that fails suspends it.
  config.offers.push({
    ...paid,
    offerUid: OFFER_UIDS.daily,
    productUid: 'prod_news',
    name: 'News, daily',
    names: { fr: 'Actualités, quotidien', ar: 'أخبار، يومي' },
    price: { amount: 300, currency: 'TND' },
    billingPeriod: { unit: 'DAY', count: 1 },
    gracePolicy: { days: 0, accessDuringGrace: false },
  });
}

/** A fresh number of Sahel Mobile per line index (never one of the sandbox's test numbers). */
const lineNumber = (line: number) => `+2162155500${line}`;

const REFUSED_NUMBERS: Partial<Record<Refusal, string>> = {
  'opted-out': '+21620000301',
  'invalid-number': '+21620000202',
  'unsupported-operator': '+21670000000',
};

const FAILURE_CAUSES = {
  'no-balance': 'INSUFFICIENT_BALANCE',
  declined: 'DECLINED',
  'wrong-pin': 'WRONG_PIN',
} as const;

const PASS_PRODUCT = 'prod_day_pass';

/**
 * Plays a history on a world, then lets every delivery land: the kit has seen all the service sent.
 * Resolves to the payments the kit's checkout route created (the shop's record of its checkouts).
 */
export async function playHistory(world: PlantedWorld, history: History): Promise<ReadonlySet<string>> {
  world.sandbox.setChaos({
    seed: history.chaos.seed,
    duplicateProbability: history.chaos.duplicate,
    reorderProbability: history.chaos.reorder,
  });
  const player = new HistoryPlayer(world);
  for (const step of history.steps) {
    await player.play(step);
    // A step takes a moment, as in life: two steps never share an instant on the frozen clock (the
    // events of a cancel now and of the next purchase would tie, which the service's clock never does).
    await world.sandbox.advanceClock(1);
    await world.sandbox.deliverDue();
  }
  await player.settle();
  return player.routed;
}

class HistoryPlayer {
  /** Each account's subscriptions, in the order bought. */
  private readonly subscriptions = new Map<string, string[]>();
  private readonly checkout;
  /** The payments the checkout route created (a route that continued an open checkout names it again). */
  readonly routed = new Set<string>();

  constructor(private readonly world: PlantedWorld) {
    this.checkout = createCheckoutDriver(world.sandbox);
  }

  async play(step: Step): Promise<void> {
    switch (step.do) {
      case 'buy':
        return refusedIsFine(
          this.buy(accountOf(step.account), step.offer, step.line, step.via, step.returnPage),
        );
      case 'refuse':
        return refusedIsFine(this.refuse(accountOf(step.account), step.offer, step.as, step.via ?? 'api'));
      case 'cancel':
        return refusedIsFine(this.change(step.account, step.pick, step.via, 'cancel', step.when));
      case 'resume':
        return refusedIsFine(this.change(step.account, step.pick, step.via, 'resume'));
      case 'renewals': {
        const uid = this.subscriptionOf(step.account, step.pick);
        if (uid === undefined) return;
        const times = { once: 1, twice: 2, always: undefined }[step.fail];
        this.world.sandbox.setRenewalOutcome(uid, 'insufficient_balance', times);
        return;
      }
      case 'spend':
        return refusedIsFine(this.spend(accountOf(step.account)));
      case 'wait':
        return this.wait(step.hours);
      case 'outage':
        this.world.receiver.up = false;
        await this.wait(step.hours);
        this.world.receiver.up = true;
        return this.repair();
      case 'reconcile':
        await this.world.kit.reconcile();
        return;
    }
  }

  /** The receiver up, two days for the retries and held events to land, every dead letter replayed. */
  async settle(): Promise<void> {
    this.world.receiver.up = true;
    await this.wait(48);
    await this.repair();
  }

  private async repair(): Promise<void> {
    await this.world.kit.reconcile();
    for (const delivery of this.world.sandbox.webhooks()) {
      if (delivery.status === 'DEAD_LETTERED') await this.world.sandbox.replayWebhook(delivery.id);
    }
  }

  private async wait(hours: number): Promise<void> {
    for (let left = hours; left > 0; left -= 24) {
      await this.world.sandbox.advanceClock(Math.min(left, 24) * 3600);
      await this.world.sandbox.deliverDue();
    }
  }

  private async buy(account: string, offer: OfferName, line: number, via: Via, returnPage: boolean) {
    const { kit } = this.world;
    // One live subscription per account and product, as the routes keep it: the kit's record of an
    // account's product follows one subscription (a partner's own checkout must keep the rule too).
    // The routes keep it by what the kit knows: while the webhook of a first subscription is still
    // on its way (a chaos delay), they would start a second one; the model never asks them to.
    if (await this.subscribed(account, OFFER_UIDS[offer])) return;
    const checkoutUrl =
      via === 'routes'
        ? await this.checkoutByRoute(account, offer)
        : await this.checkoutByApi(account, offer);
    const outcome = await this.checkout.pay(checkoutUrl, { msisdn: lineNumber(line) });
    const payment = await this.track(account, outcome.paymentUid);
    if (!returnPage) return;
    if (via === 'api') await kit.grantFromPayment(payment);
    else await kit.routes.returnPage({ accountKey: account, fields: { paymentUid: payment.paymentUid } });
  }

  private async subscribed(account: string, offerUid: string): Promise<boolean> {
    const product = this.world.sandbox.config.offers.find((one) => one.offerUid === offerUid)?.productUid;
    for (const uid of this.subscriptions.get(account) ?? []) {
      const answer = await fetch(`${this.world.sandbox.apiBaseUrl}/sandbox/subscriptions/${uid}`);
      const { data } = (await answer.json()) as { data: { productUid: string; endedAt: string | null } };
      if (data.productUid === product && data.endedAt === null) return true;
    }
    return false;
  }

  private async refuse(account: string, offer: OfferName, as: Refusal, via: Via) {
    if (await this.subscribed(account, OFFER_UIDS[offer])) return;
    const checkoutUrl =
      via === 'routes'
        ? await this.checkoutByRoute(account, offer)
        : await this.checkoutByApi(account, offer);
    try {
      const number = REFUSED_NUMBERS[as];
      if (number !== undefined) await this.checkout.pay(checkoutUrl, { msisdn: number });
      else if (as === 'abandoned') await this.checkout.abandon(checkoutUrl);
      else if (as in FAILURE_CAUSES) {
        await this.checkout.fail(checkoutUrl, { because: FAILURE_CAUSES[as as keyof typeof FAILURE_CAUSES] });
      }
    } finally {
      // A free trial on a line without balance still starts (it charges nothing yet).
      await this.track(account, new URL(checkoutUrl).pathname.split('/').pop() ?? '');
    }
  }

  /** The payment as the service holds it; a subscription it started is the account's from now on. */
  private async track(account: string, paymentUid: string) {
    const payment = await this.world.kit.client.payments.retrieve(paymentUid);
    if (payment.subscriptionUid) {
      this.subscriptions.set(account, [...(this.subscriptions.get(account) ?? []), payment.subscriptionUid]);
    }
    return payment;
  }

  private async checkoutByApi(account: string, offer: OfferName): Promise<string> {
    const payment = await this.world.kit.client.payments.create({
      mode: 'HOSTED',
      offerUid: OFFER_UIDS[offer],
      returnUrl: RETURN_URL,
      metadata: { accountKey: account },
    });
    return payment.checkoutUrl;
  }

  private async checkoutByRoute(account: string, offer: OfferName): Promise<string> {
    const result = await this.world.kit.routes.checkout({
      accountKey: account,
      method: 'POST',
      fields: { offerUid: OFFER_UIDS[offer], token: this.world.kit.routes.formToken(account) },
      request: sameOrigin,
    });
    if (result.type !== 'redirect') throw new Refused(`checkout answered ${result.type}`);
    this.routed.add(new URL(result.location).pathname.split('/').pop() ?? '');
    return result.location;
  }

  private async change(index: number, pick: number, via: Via, action: 'cancel' | 'resume', when?: string) {
    const subscriptionUid = this.subscriptionOf(index, pick);
    if (subscriptionUid === undefined) return;
    const { kit } = this.world;
    if (via === 'api') {
      if (action === 'resume') await kit.client.subscriptions.resume(subscriptionUid);
      else await kit.client.subscriptions.cancel(subscriptionUid, { when: when as 'NOW' | 'PERIOD_END' });
      return;
    }
    const accountKey = accountOf(index);
    const input = {
      accountKey,
      method: 'POST',
      fields: { subscriptionUid, when, token: kit.routes.formToken(accountKey) },
      request: sameOrigin,
    };
    await (action === 'resume' ? kit.routes.resumeSubscription(input) : kit.routes.cancelSubscription(input));
  }

  private async spend(account: string) {
    const { kit, spent, sandbox } = this.world;
    const result = await kit.routes.spendUnit({
      accountKey: account,
      method: 'POST',
      fields: { productUid: PASS_PRODUCT, token: kit.routes.formToken(account) },
      request: sameOrigin,
    });
    if (result.type === 'view')
      spent.push({ at: sandbox.clock.now().toISOString(), offerUid: OFFER_UIDS.pass });
  }

  private subscriptionOf(index: number, pick: number): string | undefined {
    const bought = this.subscriptions.get(accountOf(index)) ?? [];
    return bought.length === 0 ? undefined : bought[pick % bought.length];
  }
}

const sameOrigin = {
  origin: new URL(RETURN_URL).origin,
  secFetchSite: 'same-origin',
  simpleBody: true,
} as const;

const accountOf = (index: number) => `acct-${index}`;

/** A step the world refused (a number refused, a trial used, nothing to cancel): a history goes on. */
class Refused extends Error {}

async function refusedIsFine(action: Promise<unknown>): Promise<void> {
  try {
    await action;
  } catch (error) {
    if (error instanceof Refused || error instanceof SandboxCheckoutError || isDcbError(error)) return;
    throw error;
  }
}
