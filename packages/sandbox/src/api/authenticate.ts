import type { Catalog } from '../config/catalog.js';
import type { ApplicationCapability } from '../config/config-schema.js';
import type { EnvironmentApplication } from '../config/environment-config.js';
import type { RouteRequest } from '../http/router.js';
import { ApiError } from '../shared/api-error.js';
import type { RateLimiter } from './rate-limiter.js';
import type { TokenStore } from './token-store.js';

export interface AuthenticationDeps {
  catalog: Catalog;
  tokens: TokenStore;
  rateLimiter: RateLimiter;
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * The calling application, from its bearer token alone: nothing else in a request says who calls
 * or in which environment. Then the rate limit, then the route's capability.
 * Throws ATH-002, SEC-001, AUZ-002.
 */
export function authenticate(
  request: RouteRequest,
  deps: AuthenticationDeps,
  capability: ApplicationCapability,
): EnvironmentApplication {
  const match = BEARER.exec(request.headers.authorization ?? '');
  const grant = match?.[1] === undefined ? undefined : deps.tokens.resolve(match[1]);
  const application = grant ? deps.catalog.application(grant.clientId) : undefined;
  if (!application) {
    throw new ApiError('ATH-002', 'The access token is missing, malformed, expired or not recognised.', {
      headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
    });
  }
  deps.rateLimiter.take(application);
  if (!application.capabilities.includes(capability)) {
    throw new ApiError('AUZ-002', `The application lacks the ${capability} capability.`);
  }
  return application;
}
