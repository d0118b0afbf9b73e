import { randomUUID } from 'node:crypto';
import { type CreatePaymentRequest, checkCreatePaymentRequest } from '../schemas/create-payment.js';
import { idempotencyKeySchema } from '../schemas/idempotency.js';
import {
  type CanceledPayment,
  canceledPaymentSchema,
  type Payment,
  paymentSchema,
} from '../schemas/payment.js';
import { checkInput, refusedBeforeSending } from './check-input.js';
import { checkRequestOptions, type RequestOptions } from './client-options.js';
import {
  apiRequest,
  envelopeData,
  JSON_CONTENT,
  resourceTarget,
  type SendAuthenticated,
} from './resource-request.js';

export interface CreatePaymentOptions extends RequestOptions {
  /**
   * 8 to 255 characters. Pass your own (derived from your order, say) to make the create safe to
   * repeat across processes; without one, the client makes one and reuses it on every retry.
   */
  idempotencyKey?: string;
}

export interface PaymentsApi {
  /**
   * `POST /v1/payments`: a hosted payment for an offer. Resolves to the payment, status
   * `REQUIRES_ACTION`: send the subscriber to `checkoutUrl`.
   *
   * @example
   * const payment = await client.payments.create(
   *   { mode: 'HOSTED', offerUid: 'off_premium_monthly', returnUrl: 'https://app.example/paid', metadata: { userId: 'u_42' } },
   *   { idempotencyKey: `order-${order.id}` },
   * );
   * res.redirect(payment.checkoutUrl);
   */
  create(params: CreatePaymentRequest, options?: CreatePaymentOptions): Promise<Payment>;
  /** `GET /v1/payments/{paymentUid}`: the synchronous source of truth for a payment's status. */
  retrieve(paymentUid: string, options?: RequestOptions): Promise<Payment>;
  /** `POST /v1/payments/{paymentUid}/cancel`: allowed only while `REQUIRES_ACTION`. */
  cancel(paymentUid: string, options?: RequestOptions): Promise<CanceledPayment>;
}

const paymentData = /* @__PURE__ */ envelopeData(paymentSchema);
const canceledPaymentData = /* @__PURE__ */ envelopeData(canceledPaymentSchema);
const CREATE_PATH = '/v1/payments';

export function createPaymentsApi(send: SendAuthenticated): PaymentsApi {
  return {
    async create(params, options = {}) {
      checkRequestOptions(options);
      const checked = checkCreatePaymentRequest(params);
      if (!checked.ok) throw refusedBeforeSending(checked.issues, 'POST', CREATE_PATH);
      const key =
        options.idempotencyKey === undefined
          ? randomUUID()
          : checkInput(idempotencyKeySchema, options.idempotencyKey, {
              method: 'POST',
              path: CREATE_PATH,
              name: 'idempotencyKey',
            });
      return send(
        apiRequest(
          {
            method: 'POST',
            target: CREATE_PATH,
            headers: { ...JSON_CONTENT, 'idempotency-key': key },
            body: JSON.stringify(checked.value),
            // The key makes a repeat return the first result instead of a second payment.
            safeToRepeat: true,
          },
          paymentData,
        ),
        options,
      );
    },
    async retrieve(paymentUid, options) {
      const target = resourceTarget('GET', '/v1/payments/{paymentUid}', paymentUid);
      return send(apiRequest({ method: 'GET', target }, paymentData), checkRequestOptions(options));
    },
    async cancel(paymentUid, options) {
      const target = resourceTarget('POST', '/v1/payments/{paymentUid}/cancel', paymentUid);
      return send(apiRequest({ method: 'POST', target }, canceledPaymentData), checkRequestOptions(options));
    },
  };
}
