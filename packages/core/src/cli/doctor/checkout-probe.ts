import type { DcbClient } from '../../client/create-client.js';
import { isDcbError } from '../../errors/dcb-error.js';

// The doctor's one look at the checkout: the only way to learn the environment's checkout host is a
// payment's checkoutUrl, so it opens one, as a buyer's checkout would, and cancels it at once.

export interface CheckoutProbeOptions {
  client: DcbClient;
  /** An offer of this environment's catalogue (`--offer`). */
  offerUid: string;
  /** The payment's returnUrl: never visited, the payment is cancelled before anyone could pay. */
  returnUrl: string;
  /** Names the run in the payment's metadata (`dcbkitDoctor`), which carries no account. */
  runId: string;
}

/** What the service answered: the payment and its checkout URL, or why none was made. */
export type CheckoutProbeResult =
  | {
      readonly outcome: 'created';
      readonly offerUid: string;
      readonly paymentUid: string;
      readonly checkoutUrl: string | undefined;
      /** True when the payment was cancelled at the service (it waits on no one). */
      readonly canceled: boolean;
      readonly cancelError?: string;
    }
  | {
      readonly outcome: 'failed';
      readonly offerUid: string;
      readonly code: string | undefined;
      readonly message: string;
    };

export async function sendCheckoutProbe({
  client,
  offerUid,
  returnUrl,
  runId,
}: CheckoutProbeOptions): Promise<CheckoutProbeResult> {
  let payment: Awaited<ReturnType<DcbClient['payments']['create']>>;
  try {
    payment = await client.payments.create({
      mode: 'HOSTED',
      offerUid,
      returnUrl,
      metadata: { dcbkitDoctor: runId },
    });
  } catch (error) {
    return { outcome: 'failed', offerUid, code: codeOf(error), message: messageOf(error) };
  }
  try {
    await client.payments.cancel(payment.paymentUid);
    return {
      outcome: 'created',
      offerUid,
      paymentUid: payment.paymentUid,
      checkoutUrl: payment.checkoutUrl,
      canceled: true,
    };
  } catch (error) {
    return {
      outcome: 'created',
      offerUid,
      paymentUid: payment.paymentUid,
      checkoutUrl: payment.checkoutUrl,
      canceled: false,
      cancelError: messageOf(error),
    };
  }
}

/** The service's code (`CAT-102`) or the kit's (`token_refused`). */
function codeOf(error: unknown): string | undefined {
  return isDcbError(error) ? error.code : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
