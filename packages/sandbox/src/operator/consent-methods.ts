import type { ConsentPolicy, OperatorConfig } from '../config/config-schema.js';
import type { ConsentMethod, OfferType } from '../shared/service-types.js';

/** How the subscriber's browser reaches the checkout: only mobile data lets the network recognise the line. */
export type Network = 'MOBILE_DATA' | 'WIFI';

/**
 * The consent methods open for this operator and offer, in the policy's order. The request never
 * takes part: operator, offer and policy decide.
 */
export function consentMethodsFor(
  operator: Pick<OperatorConfig, 'consentMethods'>,
  offer: { type: OfferType; consentMethods?: ConsentMethod[] | undefined },
  policy: ConsentPolicy,
): ConsentMethod[] {
  const allowedForType = policy.allowedByOfferType[offer.type];
  const allowed = operator.consentMethods.filter(
    (method) =>
      (offer.consentMethods === undefined || offer.consentMethods.includes(method)) &&
      (allowedForType === undefined || allowedForType.includes(method)),
  );
  const rank = (method: ConsentMethod) => {
    const index = policy.order.indexOf(method);
    return index === -1 ? policy.order.length : index;
  };
  return [...allowed].sort((a, b) => rank(a) - rank(b));
}

/**
 * The method shown first, and the ones the subscriber may switch to. Header enrichment needs mobile
 * data; on Wi-Fi the next method (usually a PIN) takes over.
 */
export function consentPlan(methods: ConsentMethod[], network: Network): ConsentMethod[] {
  return network === 'WIFI' ? methods.filter((method) => method !== 'HEADER_ENRICHMENT') : methods;
}
