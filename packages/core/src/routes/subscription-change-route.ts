import { hasAccess } from '../access/has-access.js';
import { applySubscriptionRead } from '../apply/apply-subscription-read.js';
import type { Subscription } from '../schemas/subscription.js';
import { throwClientFailure } from './client-failure.js';
import type { RouteInput } from './partner-route-types.js';
import type { RouteContext } from './route-context.js';
import { routeError } from './route-error.js';
import { cancelWhenOf, identifier } from './route-field-values.js';
import { guardStateChange } from './route-guard.js';
import type { RouteResult } from './route-result.js';

/**
 * Cancels (`when` NOW or PERIOD_END) or resumes a subscription of this account, then applies the
 * subscription the service answers, as a read, through the rules.
 */
export async function changeSubscription(
  context: RouteContext,
  input: RouteInput,
  action: 'cancel' | 'resume',
): Promise<RouteResult> {
  const { store, offers, now, recordHistory, recordFacts } = context;
  const { fields } = input;
  const { account } = guardStateChange(context, input);
  const subscriptionUid = identifier(fields, 'subscriptionUid');
  const when = action === 'cancel' ? cancelWhenOf(fields.when) : undefined;
  const held = await store.findBySubscriptionUid(subscriptionUid);
  if (held === undefined || held.accountKey !== account) {
    throw routeError('not_found', 'No such subscription.');
  }
  let subscription: Subscription;
  // Taken before the call: the read reflects the subscription no earlier than this.
  const observedAt = now();
  try {
    subscription = when
      ? await context.client.subscriptions.cancel(subscriptionUid, { when })
      : await context.client.subscriptions.resume(subscriptionUid);
  } catch (error) {
    throwClientFailure(context, error, action, 'No such subscription.');
  }
  const entitlement = (
    await applySubscriptionRead(subscription, { store, offers, now, observedAt, recordHistory, recordFacts })
  )?.next;
  return {
    type: 'view',
    status: 200,
    view: {
      kind: 'subscription',
      action,
      subscription,
      entitlement,
      hasAccess: hasAccess(entitlement, now()),
    },
  };
}
