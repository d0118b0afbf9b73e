import type { ClientLogger } from './client-logger.js';
import { assertClientIdMatchesEnvironment, type Environment } from './environment-guard.js';
import { DcbConfigurationError } from './errors.js';

export interface CreateClientOptions {
  /** Decides which client ID prefix is accepted: `svc_test_` for sandbox, `svc_live_` for production. */
  environment: Environment;
  /**
   * The API base address of that environment, e.g. the sandbox emulator's `apiBaseUrl`. Required:
   * the spec publishes only placeholders for the service's addresses. A path prefix is kept.
   */
  baseUrl: string | URL;
  clientId: string;
  /** Sent only to `POST /oauth2/token`; never logged, never put in an error. */
  clientSecret: string;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** Per attempt, from sending to the end of the body. Default 20 000. */
  timeoutMs?: number;
  /** Retries after the first attempt, per call. 0 turns retries off. Default 3. */
  maxRetries?: number;
  /**
   * The longest wait before a retry. A delay the service asks for that is longer is not waited:
   * the error is thrown with its `retryAfterSeconds`, so the caller decides. Default 20 000.
   */
  maxRetryDelayMs?: number;
  logger?: ClientLogger;
  /** The clock, for tests. Default: the current time. */
  now?: () => Date;
  /** How the client waits before a retry, for tests. Default: a timer. */
  sleep?: (ms: number) => Promise<void>;
}

export interface ResolvedClientOptions {
  environment: Environment;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  fetch: typeof fetch;
  timeoutMs: number;
  maxRetries: number;
  maxRetryDelayMs: number;
  logger: ClientLogger;
  nowMs: () => number;
  sleep: (ms: number) => Promise<void>;
}

export const CLIENT_DEFAULTS = {
  timeoutMs: 20_000,
  maxRetries: 3,
  maxRetryDelayMs: 20_000,
} as const;

const SILENT_LOGGER: ClientLogger = {};

const sleepWithTimer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Checks every option and fills the defaults. Throws DcbConfigurationError; sends nothing. */
export function resolveClientOptions(options: CreateClientOptions): ResolvedClientOptions {
  if (typeof options !== 'object' || options === null) {
    throw new DcbConfigurationError('invalid_option', 'options', 'createClient: options are required.');
  }
  assertClientIdMatchesEnvironment(options.environment, options.clientId);
  if (typeof options.clientSecret !== 'string' || options.clientSecret === '') {
    throw new DcbConfigurationError(
      'invalid_option',
      'clientSecret',
      'createClient: clientSecret is required.',
    );
  }
  const fetchFunction = options.fetch ?? globalThis.fetch;
  if (typeof fetchFunction !== 'function') {
    throw new DcbConfigurationError(
      'invalid_option',
      'fetch',
      'createClient: no fetch available; pass options.fetch.',
    );
  }
  const now = options.now;
  return {
    environment: options.environment,
    baseUrl: normaliseBaseUrl(options.baseUrl),
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    fetch: fetchFunction,
    timeoutMs: positiveInteger('timeoutMs', options.timeoutMs ?? CLIENT_DEFAULTS.timeoutMs, 1),
    maxRetries: positiveInteger('maxRetries', options.maxRetries ?? CLIENT_DEFAULTS.maxRetries, 0),
    maxRetryDelayMs: positiveInteger(
      'maxRetryDelayMs',
      options.maxRetryDelayMs ?? CLIENT_DEFAULTS.maxRetryDelayMs,
      0,
    ),
    logger: options.logger ?? SILENT_LOGGER,
    nowMs: now ? () => now().getTime() : Date.now,
    sleep: options.sleep ?? sleepWithTimer,
  };
}

function positiveInteger(option: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new DcbConfigurationError(
      'invalid_option',
      option,
      `createClient: ${option} must be a whole number, at least ${min}.`,
    );
  }
  return value;
}

function normaliseBaseUrl(value: unknown): string {
  let url: URL;
  try {
    url = new URL(value instanceof URL ? value.href : String(value));
  } catch {
    throw invalidBaseUrl('an absolute http(s) URL such as the sandbox apiBaseUrl');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidBaseUrl('an absolute http(s) URL such as the sandbox apiBaseUrl');
  }
  if (url.search !== '' || url.hash !== '') throw invalidBaseUrl('without a query or a fragment');
  if (url.username !== '' || url.password !== '') throw invalidBaseUrl('without credentials');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function invalidBaseUrl(expected: string): DcbConfigurationError {
  return new DcbConfigurationError('invalid_option', 'baseUrl', `createClient: baseUrl must be ${expected}.`);
}
