import type { DcbKit } from '@dcbkit/core';
import { isCrossSiteRequest } from '@dcbkit/core/node';
import { OPERATOR_FORM_ACCOUNT } from './operator-session.js';

/** What decides whether an operator's form post may go on, read from the request by the route. */
export interface OperatorPost {
  /** operatorIdOf(the session): undefined when not signed in as operator. */
  operatorId: string | undefined;
  origin: string | undefined;
  secFetchSite: string | undefined;
  /** The form's `token` field. */
  token: unknown;
}

/**
 * Why an operator's form post is refused (the words of the 403), or undefined when it may go on:
 * the shop's rules for its own forms. It must come from a signed-in operator, from the shop's own
 * origin, and carry a form token the kit made for this operator sign-in.
 */
export function operatorPostRefusal(
  post: OperatorPost,
  { kit, shopOrigin }: { kit: Pick<DcbKit, 'routes'>; shopOrigin: string },
): string | undefined {
  if (post.operatorId === undefined) return 'Only a signed-in operator may do this; it was refused.';
  if (isCrossSiteRequest({ origin: post.origin, secFetchSite: post.secFetchSite }, new Set([shopOrigin]))) {
    return 'This request came from another site; it was refused.';
  }
  if (!kit.routes.verifyFormToken(OPERATOR_FORM_ACCOUNT, post.token, post.operatorId)) {
    return 'This form has expired or was not made for this sign-in: reload the page and try again.';
  }
  return undefined;
}
