import { optionError } from '../errors/option-error.js';
import { isLoopbackHost } from '../http/is-loopback.js';
import { consoleLogger, type DcbLogger } from '../observability/logger.js';
import { assertClientIdMatchesEnvironment, type Environment } from './environment-guard.js';

export interface CreateClientOptions {
  /** Decides which client ID prefix is accepted: `svc_test_` for sandbox, `svc_live_` for production. */
  environment: Environment;
  /**
   * The API root of that environment, e.g. the sandbox emulator's `apiBaseUrl`; dcbkit adds
   * `/v1/…` and `/oauth2/token` itself. Required: the spec publishes only placeholders for the
   * service's addresses. Production needs `https:` (plain `http:` only on a loopback address).
   */
  baseUrl: string | URL;
  clientId: string;
  /** Sent only to `POST /oauth2/token`; never logged, never put in an error. */
  clientSecret: string;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** Per attempt, from sending to the end of the body. Default 20 000; each call may pass its own. */
  timeoutMs?: number;
  /** Answers larger than this are refused (`response_too_large`). Default 1 MiB. */
  maxResponseBytes?: number;
  /** Retries after the first attempt, per call. 0 turns retries off. Default 3. */
  maxRetries?: number;
  /**
   * The longest wait before a retry. A delay the service asks for that is longer is not waited:
   * the error is thrown with its `retryAfterSeconds`, so the caller decides. Default 20 000.
   */
  maxRetryDelayMs?: number;
  /** Default: warnings and errors on the console. */
  logger?: DcbLogger;
  /** The clock, for tests. Default: the current time. */
  now?: () => Date;
  /** How the client waits before a retry, for tests. Default: a timer. */
  sleep?: (ms: number) => Promise<void>;
}

/** Per call: `client.payments.retrieve(uid, { signal, timeoutMs })`. */
export interface RequestOptions {
  /** Aborting it abandons the call, retries included: it rejects with code `aborted`. */
  signal?: AbortSignal;
  /** Per attempt, instead of the client's `timeoutMs`. */
  timeoutMs?: number;
}

export interface ResolvedClientOptions {
  environment: Environment;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  fetch: typeof fetch;
  timeoutMs: number;
  maxResponseBytes: number;
  maxRetries: number;
  maxRetryDelayMs: number;
  logger: DcbLogger;
  nowMs: () => number;
  sleep: (ms: number) => Promise<void>;
}

export const CLIENT_DEFAULTS = {
  timeoutMs: 20_000,
  maxResponseBytes: 1024 * 1024,
  maxRetries: 3,
  maxRetryDelayMs: 20_000,
} as const;

const sleepWithTimer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const WHERE = 'createClient';

/** Checks every option and fills the defaults. Throws DcbError (`invalid_option`…); sends nothing. */
export function resolveClientOptions(options: CreateClientOptions): ResolvedClientOptions {
  if (typeof options !== 'object' || options === null) throw optionError(WHERE, 'options', 'are required.');
  assertClientIdMatchesEnvironment(options.environment, options.clientId);
  if (typeof options.clientSecret !== 'string' || options.clientSecret === '') {
    throw optionError(WHERE, 'clientSecret', 'is required.');
  }
  const fetchFunction = options.fetch ?? globalThis.fetch;
  if (typeof fetchFunction !== 'function') {
    throw optionError(WHERE, 'fetch', 'is not available in this runtime; pass options.fetch.');
  }
  const now = options.now;
  return {
    environment: options.environment,
    baseUrl: normaliseBaseUrl(options.baseUrl, options.environment),
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    fetch: fetchFunction,
    timeoutMs: wholeNumber('timeoutMs', options.timeoutMs ?? CLIENT_DEFAULTS.timeoutMs, 1),
    maxResponseBytes: wholeNumber(
      'maxResponseBytes',
      options.maxResponseBytes ?? CLIENT_DEFAULTS.maxResponseBytes,
      1,
    ),
    maxRetries: wholeNumber('maxRetries', options.maxRetries ?? CLIENT_DEFAULTS.maxRetries, 0),
    maxRetryDelayMs: wholeNumber(
      'maxRetryDelayMs',
      options.maxRetryDelayMs ?? CLIENT_DEFAULTS.maxRetryDelayMs,
      0,
    ),
    logger: options.logger ?? consoleLogger,
    nowMs: now ? () => now().getTime() : Date.now,
    sleep: options.sleep ?? sleepWithTimer,
  };
}

/** Checks a call's own options; the client's timeout applies when it gives none. */
export function checkRequestOptions(options: RequestOptions | undefined): RequestOptions {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null)
    throw optionError('request', 'options', 'must be an object.');
  if (options.timeoutMs !== undefined) wholeNumber('timeoutMs', options.timeoutMs, 1, 'request');
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    throw optionError('request', 'signal', 'must be an AbortSignal.');
  }
  return options;
}

function wholeNumber(option: string, value: unknown, min: number, where = WHERE): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw optionError(where, option, `must be a whole number, at least ${min}.`);
  }
  return value;
}

function normaliseBaseUrl(value: unknown, environment: Environment): string {
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
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/v1$/i.test(path)) {
    throw invalidBaseUrl(
      `the API root, without /v1: dcbkit adds /v1 itself (try ${url.origin}${path.slice(0, -3)})`,
    );
  }
  if (environment === 'production' && url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw invalidBaseUrl('https: for production (plain http is only accepted on a loopback address)');
  }
  return `${url.origin}${path}`;
}

function invalidBaseUrl(expected: string) {
  return optionError(WHERE, 'baseUrl', `must be ${expected}.`);
}
