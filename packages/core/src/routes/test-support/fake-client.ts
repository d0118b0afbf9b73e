// A client for route tests: the service's answers as a test scripts them, and the calls made.
import type { DcbClient } from '../../client/create-client.js';
import { paymentFixture } from '../../client/test-support/fixtures.js';
import type { Payment } from '../../schemas/payment.js';

/** A client whose create answers `payment` (the service's answer as a test scripts it). */
export function fakeClient(payment: (uid: string) => Payment, calls: string[] = []): DcbClient {
  let created = 0;
  return {
    payments: {
      async create() {
        calls.push('create');
        created += 1;
        return payment(`pay_${created}`);
      },
      async retrieve(uid: string) {
        calls.push(`retrieve ${uid}`);
        return payment(uid);
      },
      async cancel() {
        calls.push('cancel');
        return payment('pay_1');
      },
    },
    subscriptions: {
      async retrieve() {
        throw new Error('not scripted');
      },
      async cancel() {
        calls.push('cancel subscription');
        throw new Error('not scripted');
      },
      async resume() {
        throw new Error('not scripted');
      },
    },
  } as unknown as DcbClient;
}

export const waitingPayment = (checkoutUrl: (uid: string) => string) => (uid: string) =>
  paymentFixture({
    paymentUid: uid,
    productUid: 'prod_unlock',
    offerUid: 'off_unlock',
    checkoutUrl: checkoutUrl(uid),
    metadata: { accountKey: 'alice' },
  });
