import { optionError } from '../errors/option-error.js';

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
 * Throws DcbError (`environment_mismatch`, `unknown_client_id_prefix`, `invalid_option`) unless `clientId` belongs to `environment`. Run at creation, so a
 * production credential can never be sent to a sandbox address, nor the other way round.
 */
export function assertClientIdMatchesEnvironment(environment: unknown, clientId: unknown): void {
  if (environment !== 'sandbox' && environment !== 'production') {
    throw optionError('createClient', 'environment', `must be 'sandbox' or 'production'.`);
  }
  if (typeof clientId !== 'string' || clientId === '') {
    throw optionError('createClient', 'clientId', 'is required.');
  }
  const expected = CLIENT_ID_PREFIXES[environment];
  const actual = environmentOfPrefix(clientId);
  if (actual === undefined) {
    throw optionError(
      'createClient',
      'clientId',
      `must start with "${expected}" for ${environment}; this one starts with neither "svc_test_" nor "svc_live_".`,
      'unknown_client_id_prefix',
    );
  }
  if (actual !== environment) {
    throw optionError(
      'createClient',
      'clientId',
      `is a ${actual} client ID ("${CLIENT_ID_PREFIXES[actual]}…") but environment is '${environment}'. Credentials never cross environments: use the ${environment} credentials, or set environment: '${actual}'.`,
      'environment_mismatch',
    );
  }
  if (clientId.length === expected.length) {
    throw optionError('createClient', 'clientId', `is only the prefix "${expected}".`);
  }
}
