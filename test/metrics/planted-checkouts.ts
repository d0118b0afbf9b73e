import type { DcbKit } from '@dcbkit/core';
import type { EntitlementStore } from '@dcbkit/core/store';
import { createCheckoutDriver, SandboxCheckoutError } from '@dcbkit/sandbox/testing';

/**
 * How a checkout the shop's routes started ends in the planted history: paid; refused by the line
 * (opted out, an invalid number, an operator not supported, a trial the line already had), the
 * subscriber then leaving it to expire; failed (no balance, declined, a wrong PIN, abandoned on the
 * checkout's first page); cancelled through the kit's cancel route; or left open, to expire once
 * the history's clock passes its lifetime (or still open, if the history ends first).
 */
export type RoutedEnding =
  | 'paid'
  | 'opted-out'
  | 'invalid-number'
  | 'unsupported-operator'
  | 'trial-used'
  | 'no-balance'
  | 'declined'
  | 'wrong-pin'
  | 'abandoned'
  | 'canceled'
  | 'left-open';

/** One checkout through the routes: whose, of which offer, and how it ends. */
export interface RoutedCheckout {
  account: string;
  offerUid: string;
  ending: RoutedEnding;
}

/** The sandbox's test numbers a checkout refuses (its default config's), by the code it gives. */
const REFUSED_LINES: Partial<Record<RoutedEnding, string>> = {
  'opted-out': '+21620000301', // RSK-101
  'invalid-number': '+21620000202', // SBR-102
  'unsupported-operator': '+21670000000', // SBR-104
};

const FAILURES = {
  'no-balance': 'INSUFFICIENT_BALANCE',
  declined: 'DECLINED',
  'wrong-pin': 'WRONG_PIN',
} as const;

/** What the checkouts need of the planted world (planted-world.ts passes it). */
export interface CheckoutWorld {
  kit: Pick<DcbKit<EntitlementStore>, 'routes'>;
  sandbox: Parameters<typeof createCheckoutDriver>[0];
  /** The shop's origin: the routes take forms posted from it only. */
  origin: string;
  /** A line that already had the trial of `offer_premium_monthly` (SUB-108 refuses it a second). */
  trialLine: string;
  /** The payments the checkout route created, in order: the shop's record of its checkouts. */
  routed: string[];
}

/**
 * Each checkout as a subscriber on the shop's pages makes it: the kit's checkout route starts it
 * (the funnel counts it from there), the sandbox's checkout page ends it. Nothing here waits: a
 * refused or abandoned checkout expires when the history's clock next moves past its lifetime.
 */
export async function plantCheckouts(world: CheckoutWorld, checkouts: readonly RoutedCheckout[]) {
  const driver = createCheckoutDriver(world.sandbox);
  for (const { account, offerUid, ending } of checkouts) {
    const checkoutUrl = await startByRoute(world, account, offerUid);
    const refusedLine = ending === 'trial-used' ? world.trialLine : REFUSED_LINES[ending];
    if (ending === 'paid') {
      const outcome = await driver.pay(checkoutUrl);
      if (outcome.status !== 'SUCCEEDED') throw new Error(`routed ${offerUid} ended ${outcome.status}`);
    } else if (refusedLine !== undefined) {
      await expectRefused(driver.pay(checkoutUrl, { msisdn: refusedLine }), ending);
    } else if (ending === 'no-balance' || ending === 'declined' || ending === 'wrong-pin') {
      await driver.fail(checkoutUrl, { because: FAILURES[ending] });
    } else if (ending === 'abandoned') {
      await driver.abandon(checkoutUrl);
    } else if (ending === 'canceled') {
      await cancelByRoute(world, account, world.routed.at(-1) as string);
    }
  }
}

async function expectRefused(paying: Promise<unknown>, ending: RoutedEnding) {
  try {
    await paying;
  } catch (error) {
    if (error instanceof SandboxCheckoutError) return;
    throw error;
  }
  throw new Error(`the checkout should have refused the line (${ending})`);
}

function routeInput(world: CheckoutWorld, accountKey: string, fields: Record<string, string>) {
  return {
    accountKey,
    method: 'POST',
    fields: { ...fields, token: world.kit.routes.formToken(accountKey) },
    request: { origin: world.origin, secFetchSite: 'same-origin', simpleBody: true },
  } as const;
}

async function startByRoute(world: CheckoutWorld, accountKey: string, offerUid: string): Promise<string> {
  const result = await world.kit.routes.checkout(routeInput(world, accountKey, { offerUid }));
  if (result.type !== 'redirect') throw new Error(`the checkout route answered ${result.type}`);
  world.routed.push(new URL(result.location).pathname.split('/').pop() ?? '');
  return result.location;
}

async function cancelByRoute(world: CheckoutWorld, accountKey: string, paymentUid: string) {
  const result = await world.kit.routes.cancelPayment(routeInput(world, accountKey, { paymentUid }));
  if (result.type !== 'view') throw new Error(`the cancel route answered ${result.type}`);
}
