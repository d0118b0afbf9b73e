/** The sandbox's own records, as its control routes list them: the verdict's source of truth. */
export interface ServicePayment {
  paymentUid: string;
  status: string;
  offerUid: string;
  productUid: string;
  metadata?: Record<string, string>;
  subscriberUid?: string;
  subscriptionUid?: string;
  failureCode?: string;
}

export interface ServiceSubscription {
  subscriptionUid: string;
  status: string;
  offerUid: string;
  productUid: string;
  subscriberUid: string;
  paymentUid: string;
  createdAt: string;
  endedAt: string | null;
  cancelAt: string | null;
  charges: { at: string; attempt: number; collected: boolean }[];
}

export interface ServiceDelivery {
  id: string;
  event: string;
  status: 'PENDING' | 'DELIVERED' | 'DEAD_LETTERED' | 'NOT_POSTED';
  attempts: {
    replay: boolean;
    chaos: string | null;
    httpStatus: number | null;
    error: string | null;
    at: string;
  }[];
}

export interface ServiceRecords {
  payments: ServicePayment[];
  subscriptions: ServiceSubscription[];
  deliveries: ServiceDelivery[];
}

export async function readServiceRecords(
  control: <T>(path: string) => Promise<T>,
  clientId: string,
): Promise<ServiceRecords> {
  const [payments, subscriptions, deliveries] = await Promise.all([
    control<(ServicePayment & { clientId: string })[]>('/sandbox/payments'),
    control<ServiceSubscription[]>(`/sandbox/subscriptions?clientId=${clientId}`),
    control<ServiceDelivery[]>(`/sandbox/webhooks?clientId=${clientId}`),
  ]);
  return { payments: payments.filter((payment) => payment.clientId === clientId), subscriptions, deliveries };
}

/** The spec's statuses with access: TRIALING, ACTIVE, PRE_CANCELED, and IN_GRACE where the offer keeps access in grace (all the shop's do). */
export function subscriptionGivesAccess(status: string): boolean {
  return ['TRIALING', 'ACTIVE', 'PRE_CANCELED', 'IN_GRACE'].includes(status);
}
