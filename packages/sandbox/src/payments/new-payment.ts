import type { Catalog } from '../config/catalog.js';
import type { SandboxOffer } from '../config/config-schema.js';
import type { EnvironmentApplication } from '../config/environment-config.js';
import type { PaymentRecord } from '../records/payment-record.js';
import { PaymentRefusal } from '../refusals/refusals.js';
import { newId } from '../shared/ids.js';
import type { CreatePaymentRequest } from '../shared/service-types.js';

/** The offer a create asks for, if this application may sell it. Throws CAT-102/104/103, SBR-104. */
export function offerToSell(
  catalog: Catalog,
  application: EnvironmentApplication,
  request: CreatePaymentRequest,
): SandboxOffer {
  const offer = catalog.offer(request.offerUid);
  if (!offer) throw new PaymentRefusal('CAT-102', `Offer ${request.offerUid} not found.`);
  if (!offer.applications.includes(application.clientId)) {
    throw new PaymentRefusal('CAT-104', `The application is not authorised for offer ${offer.offerUid}.`);
  }
  if (!offer.active) throw new PaymentRefusal('CAT-103', `Offer ${offer.offerUid} is not active.`);
  if (request.operator !== undefined && !offer.operators.includes(request.operator)) {
    throw new PaymentRefusal(
      'SBR-104',
      `Offer ${offer.offerUid} is not sold on operator ${request.operator}.`,
    );
  }
  return offer;
}

/** A REQUIRES_ACTION payment, its checkout page under `checkoutBaseUrl`, expiring after the config's time. */
export function newPaymentRecord(
  catalog: Catalog,
  application: EnvironmentApplication,
  offer: SandboxOffer,
  request: CreatePaymentRequest,
  options: { now: Date; checkoutBaseUrl: string },
): PaymentRecord {
  const { now } = options;
  const paymentUid = newId('pay');
  return {
    paymentUid,
    clientId: application.clientId,
    offer,
    request,
    status: 'REQUIRES_ACTION',
    createdAt: now,
    expiresAt: new Date(now.getTime() + catalog.config.payments.expirySeconds * 1000),
    checkoutUrl: `${options.checkoutBaseUrl}/c/${paymentUid}`,
    metadata: structuredClone(request.metadata ?? {}),
  };
}
