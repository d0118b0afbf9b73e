import type { Catalog } from '../config/catalog.js';
import type { GoLiveReview } from '../go-live/go-live-review.js';
import { mediaType, parseForm } from '../http/read-body.js';
import { jsonReply, type Reply } from '../http/reply.js';
import type { RouteRequest } from '../http/router.js';
import { ApiError } from '../shared/api-error.js';
import type { TokenStore } from './token-store.js';

/**
 * POST /oauth2/token: OAuth 2.0 client credentials, form-encoded. Answers plain JSON (no envelope).
 * Credentials that match no application of this environment (the other environment's included) get
 * 401 ATH-001, and so do a production application's before its go-live review passed.
 */
export function tokenRoute(deps: { catalog: Catalog; tokens: TokenStore; review: GoLiveReview }) {
  return (request: RouteRequest): Reply => {
    if (mediaType(request.headers) !== 'application/x-www-form-urlencoded') {
      throw new ApiError('VAL-002', 'The token request must be application/x-www-form-urlencoded.');
    }
    const form = parseForm(request.body);
    const field = (name: string): string => {
      const values = form.getAll(name);
      if (values.length === 0 || values[0] === '') throw new ApiError('VAL-001', `${name} is required.`);
      if (values.length > 1) throw new ApiError('VAL-002', `${name} must be sent once.`);
      return values[0] as string;
    };
    const grantType = field('grant_type');
    if (grantType !== 'client_credentials') {
      throw new ApiError('VAL-002', 'grant_type must be client_credentials.');
    }
    const application = deps.catalog.applicationByCredentials(field('client_id'), field('client_secret'));
    if (!application) throw new ApiError('ATH-001', 'The client credentials are not recognised.');
    if (!deps.review.isLive(application.clientId)) {
      throw new ApiError(
        'ATH-001',
        `Application ${application.clientId} is not live until approved: its go-live review has not passed.`,
      );
    }
    const { accessToken, expiresIn } = deps.tokens.issue(application.clientId);
    return jsonReply(
      200,
      { access_token: accessToken, token_type: 'bearer', expires_in: expiresIn },
      { pragma: 'no-cache' },
    );
  };
}
