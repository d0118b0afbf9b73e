import { DcbConfigurationError } from './errors.js';

export type Environment = 'sandbox' | 'production';

/** The spec's client ID prefix of each environment. Credentials never cross environments. */
export const CLIENT_ID_PREFIXES = {
  sandbox: 'svc_test_',
  production: 'svc_live_',
} as const satisfies Record<Environment, string>;

function environmentOfPrefix(clientId: string): Environment | undefined {
  if (clientId.startsWith(CLIENT_ID_PREFIXES.sandbox)) return 'sandbox';
  if (clientId.startsWith(CLIENT_ID_PREFIXES.production)) return 'production';
  return undefined;
}

/**
 * Throws DcbConfigurationError unless `clientId` belongs to `environment`. Run at creation, so a
 * production credential can never be sent to a sandbox address, nor the other way round.
 */
export function assertClientIdMatchesEnvironment(environment: unknown, clientId: unknown): void {
  if (environment !== 'sandbox' && environment !== 'production') {
    throw new DcbConfigurationError(
      'invalid_option',
      'environment',
      `createClient: environment must be 'sandbox' or 'production'.`,
    );
  }
  if (typeof clientId !== 'string' || clientId === '') {
    throw new DcbConfigurationError('invalid_option', 'clientId', 'createClient: clientId is required.');
  }
  const expected = CLIENT_ID_PREFIXES[environment];
  const actual = environmentOfPrefix(clientId);
  if (actual === undefined) {
    throw new DcbConfigurationError(
      'unknown_client_id_prefix',
      'clientId',
      `createClient: a ${environment} client ID starts with "${expected}"; this one starts with neither "svc_test_" nor "svc_live_".`,
    );
  }
  if (actual !== environment) {
    throw new DcbConfigurationError(
      'environment_mismatch',
      'clientId',
      `createClient: this is a ${actual} client ID ("${CLIENT_ID_PREFIXES[actual]}…") but environment is '${environment}'. Credentials never cross environments: use the ${environment} credentials, or set environment: '${actual}'.`,
    );
  }
  if (clientId.length === expected.length) {
    throw new DcbConfigurationError(
      'invalid_option',
      'clientId',
      `createClient: clientId is only the prefix "${expected}".`,
    );
  }
}
