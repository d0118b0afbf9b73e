import type { Catalog } from '../config/catalog.js';
import type { GoLiveReview } from '../go-live/go-live-review.js';
import { mediaType, parseForm } from '../http/read-body.js';
import { jsonReply, type Reply } from '../http/reply.js';
import type { RouteRequest } from '../http/router.js';
import { ApiError } from '../shared/api-error.js';
import type { TokenStore } from './token-store.js';

/**
 * POST /oauth2/token: OAuth 2.0 client credentials, form-encoded. Answers plain JSON (no envelope).
 * Credentials that match no live application of this environment get 401 ATH-001: the other
 * environment's, and any for a production application before its go-live review issued them.
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
    const clientId = field('client_id');
    const clientSecret = field('client_secret');
    if (!deps.catalog.application(clientId) || !deps.review.verify(clientId, clientSecret)) {
      throw new ApiError('ATH-001', 'The client credentials are not recognised.');
    }
    const { accessToken, expiresIn } = deps.tokens.issue(clientId);
    return jsonReply(
      200,
      { access_token: accessToken, token_type: 'bearer', expires_in: expiresIn },
      { pragma: 'no-cache' },
    );
  };
}
