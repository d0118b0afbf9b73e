import { type OptionNames, refuseUnknownOptions } from '../errors/unknown-options.js';
import { type CapabilitiesApi, createCapabilitiesApi } from './capabilities.js';
import { type CreateClientOptions, resolveClientOptions } from './client-options.js';
import type { Environment } from './environment-guard.js';
import { createPaymentsApi, type PaymentsApi } from './payments.js';
import { createRequestRunner } from './request-runner.js';
import type { SendAuthenticated } from './resource-request.js';
import { createSubscriptionsApi, type SubscriptionsApi } from './subscriptions.js';
import { TokenCache } from './token-cache.js';
import { readTokenAnswer, TOKEN_PATH, tokenRequestBody } from './token-request.js';

export interface DcbClient {
  readonly environment: Environment;
  readonly payments: PaymentsApi;
  readonly subscriptions: SubscriptionsApi;
  readonly capabilities: CapabilitiesApi;
  /**
   * Gets an access token now, so a wrong client secret, a wrong base URL or a service that is not
   * running is known at startup instead of at the first subscriber's checkout. Rejects with a
   * DcbError: `token_refused`, `wrong_base_url`, `service_unreachable` or `timeout`.
   */
  checkConnection(): Promise<void>;
}

/**
 * An environment's credentials as the sandbox hands them out (`sandbox.credentials`,
 * `approve()`): `{ clientId, clientSecret, webhookSecret }`, spread into createClient as the docs
 * show. The webhook secret is the webhook handler's, not the client's, but it is no mistake there:
 * accepted, and unused.
 */
interface SpreadCredentials {
  webhookSecret?: unknown;
}

/** Every option createClient takes: the compiler holds this list to CreateClientOptions. */
const CLIENT_OPTIONS: OptionNames<CreateClientOptions & SpreadCredentials> = {
  environment: true,
  baseUrl: true,
  clientId: true,
  clientSecret: true,
  fetch: true,
  timeoutMs: true,
  maxResponseBytes: true,
  maxRetries: true,
  maxRetryDelayMs: true,
  logger: true,
  now: true,
  sleep: true,
  webhookSecret: true,
};

/**
 * The typed client of the service, for the partner's server. Checks its options at once (a
 * client ID of the other environment throws a DcbError `environment_mismatch` before any request), then
 * gets, caches and renews the access token by itself and retries only where the spec allows.
 *
 * @example
 * const client = createClient({
 *   environment: 'sandbox',
 *   baseUrl: process.env.DCB_API_BASE_URL,
 *   clientId: process.env.DCB_CLIENT_ID,     // svc_test_…
 *   clientSecret: process.env.DCB_CLIENT_SECRET,
 * });
 * const payment = await client.payments.create({ mode: 'HOSTED', offerUid, returnUrl });
 */
export function createClient(options: CreateClientOptions): DcbClient {
  refuseUnknownOptions('createClient', options, CLIENT_OPTIONS);
  const resolved = resolveClientOptions(options);
  const run = createRequestRunner(resolved);
  const tokenBody = tokenRequestBody(resolved.clientId, resolved.clientSecret);
  const tokens = new TokenCache(
    () => {
      resolved.logger.debug?.({ clientId: resolved.clientId }, 'dcbkit: requesting an access token');
      return run({
        method: 'POST',
        target: TOKEN_PATH,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: tokenBody,
        // Asking again only issues another token.
        safeToRepeat: true,
        read: (answer, context) => readTokenAnswer(answer, context, resolved.environment),
      });
    },
    resolved.nowMs,
    resolved.logger,
  );
  const send: SendAuthenticated = (request, call) => run(request, tokens, call);
  return Object.freeze({
    environment: resolved.environment,
    payments: Object.freeze(createPaymentsApi(send)),
    subscriptions: Object.freeze(createSubscriptionsApi(send)),
    capabilities: Object.freeze(createCapabilitiesApi(send)),
    checkConnection: async () => {
      await tokens.get();
    },
  });
}
