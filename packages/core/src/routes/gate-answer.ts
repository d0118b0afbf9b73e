import type { HttpAnswer } from '../http/http-answer.js';
import type { PartnerRoutes } from './partner-route-types.js';
import { answerForDeniedAccess } from './route-answers.js';

/**
 * The access gate, for any adapter: undefined lets the request through; otherwise the 403, or the
 * 303 to `redirectTo` (the offers page), to answer.
 */
export async function gateAnswer(
  routes: Pick<PartnerRoutes, 'checkAccess'>,
  accountKey: string | undefined | Promise<string | undefined>,
  productUid: string,
  redirectTo: string | undefined,
): Promise<HttpAnswer | undefined> {
  const { allowed } = await routes.checkAccess(await accountKey, productUid);
  return allowed ? undefined : answerForDeniedAccess({ productUid, redirectTo });
}
