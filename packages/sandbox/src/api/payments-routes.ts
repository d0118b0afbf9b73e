import { checkCreatePaymentRequest, isValidIdempotencyKey } from '@dcbkit/core/schemas';
import { type Reply, successReply } from '../http/reply.js';
import type { RouteRequest } from '../http/router.js';
import type { PaymentService } from '../payments/payment-service.js';
import { toPaymentView } from '../records/payment-record.js';
import { ApiError } from '../shared/api-error.js';
import { type AuthenticationDeps, authenticate } from './authenticate.js';
import type { IdempotencyStore } from './idempotency-store.js';
import { readJsonBody } from './read-json-body.js';

export interface PaymentRoutesDeps extends AuthenticationDeps {
  payments: PaymentService;
  idempotency: IdempotencyStore;
  /** Awaited while a create request holds its Idempotency-Key: latency, or a test holding it open. */
  whileCreating: () => Promise<void>;
}

/** POST /v1/payments */
export function createPaymentRoute(deps: PaymentRoutesDeps) {
  return async (request: RouteRequest): Promise<Reply> => {
    const application = authenticate(request, deps, 'payments');
    const key = request.headers['idempotency-key'];
    if (key === undefined) throw new ApiError('VAL-001', 'The Idempotency-Key header is required.');
    if (!isValidIdempotencyKey(key)) {
      throw new ApiError('VAL-002', 'The Idempotency-Key header must be 8 to 255 characters.');
    }
    const body = readJsonBody(request);
    const check = checkCreatePaymentRequest(body);
    if (!check.ok) {
      const [first, ...others] = check.issues;
      const more = others.length > 0 ? ` (and ${others.length} more)` : '';
      throw new ApiError(first?.code ?? 'VAL-002', `${first?.message ?? 'invalid request'}${more}`);
    }
    const claim = deps.idempotency.claim(application.clientId, key, body);
    if (claim.kind === 'replay') {
      return { ...claim.reply, headers: { ...claim.reply.headers, 'idempotent-replayed': 'true' } };
    }
    let record: ReturnType<typeof deps.payments.create>;
    try {
      await deps.whileCreating();
      record = deps.payments.create(application, check.value);
    } catch (error) {
      // Nothing was created: a retry with the same key may try again.
      deps.idempotency.release(application.clientId, key);
      throw error;
    }
    // The payment exists from here on: its key is never released, so no retry creates a second one.
    const reply = successReply(201, toPaymentView(record));
    deps.idempotency.complete(application.clientId, key, reply);
    return reply;
  };
}

/** GET /v1/payments/{paymentUid}: the synchronous source of truth, expiry applied. */
export function getPaymentRoute(deps: PaymentRoutesDeps) {
  return (request: RouteRequest): Reply => {
    const application = authenticate(request, deps, 'payments');
    const record = deps.payments.findForClient(application.clientId, request.params.paymentUid ?? '');
    return successReply(200, toPaymentView(record));
  };
}

/** POST /v1/payments/{paymentUid}/cancel: only while REQUIRES_ACTION, else 409 PAY-106. */
export function cancelPaymentRoute(deps: PaymentRoutesDeps) {
  return (request: RouteRequest): Reply => {
    const application = authenticate(request, deps, 'payments');
    const record = deps.payments.cancel(application.clientId, request.params.paymentUid ?? '');
    return successReply(200, toPaymentView(record));
  };
}
