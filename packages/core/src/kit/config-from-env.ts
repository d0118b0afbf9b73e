import { CLIENT_ID_PREFIXES, type Environment } from '../client/environment-guard.js';
import { DcbError } from '../errors/dcb-error.js';
import { isLoopbackHost } from '../http/is-loopback.js';
import { isAcceptedReturnUrl, webOriginOf } from '../schemas/return-url.js';

/** The environment variables dcbkit reads, and what each is for (docs/configuration.md lists them too). */
export const DCB_ENV_VARIABLES = {
  DCB_ENV: '`sandbox` or `production`',
  DCB_API_BASE_URL: 'the API root of that environment (https in production; dcbkit adds /v1 itself)',
  DCB_CLIENT_ID: 'the client ID of that environment (`svc_test_…` for sandbox, `svc_live_…` for production)',
  DCB_CLIENT_SECRET: 'its client secret',
  DCB_WEBHOOK_SECRET:
    'the webhook signing secret of that environment; several, comma-separated, while rotating',
  DCB_CHECKOUT_BASE_URL:
    'optional: the checkout host of that environment: the kit accepts checkout URLs only there, and your Content-Security-Policy can name it in frame-src',
  DCB_RETURN_URL: 'optional: the absolute URL of your return page',
  DCB_FORM_SECRET:
    'optional: the key of the form tokens, shared by every instance (several, comma-separated, while rotating it; the first signs); default: derived from DCB_WEBHOOK_SECRET',
} as const;

/** What configFromEnv gives: spread it into createDcbKit. */
export interface DcbEnvConfig {
  client: { environment: Environment; baseUrl: string; clientId: string; clientSecret: string };
  webhookSecrets: string[];
  /** DCB_CHECKOUT_BASE_URL, when set. */
  checkoutBaseUrl?: string;
  /** DCB_RETURN_URL, when set. */
  returnUrl?: string;
  /** DCB_FORM_SECRET, split at commas, when set. */
  formSecret?: string[];
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads dcbkit's conventional environment variables and checks them together, before anything
 * starts. Throws one DcbError (`invalid_env`) whose message names every missing or inconsistent
 * variable (`details.problems` lists them), never the value of a secret.
 *
 * @example
 * const kit = createDcbKit({ ...configFromEnv(process.env), offers, returnUrl: 'https://shop.example/return' });
 */
export function configFromEnv(env: Env = process.env): DcbEnvConfig {
  const problems: string[] = [];
  const read = (name: keyof typeof DCB_ENV_VARIABLES, required: boolean): string | undefined => {
    const value = env[name]?.trim();
    if (value) return value;
    if (required) problems.push(`${name} is not set: ${DCB_ENV_VARIABLES[name]}.`);
    return undefined;
  };
  const environment = read('DCB_ENV', true);
  const baseUrl = read('DCB_API_BASE_URL', true);
  const clientId = read('DCB_CLIENT_ID', true);
  const clientSecret = read('DCB_CLIENT_SECRET', true);
  const webhookSecret = read('DCB_WEBHOOK_SECRET', true);
  const checkoutBaseUrl = read('DCB_CHECKOUT_BASE_URL', false);
  const returnUrl = read('DCB_RETURN_URL', false);
  const formSecret = read('DCB_FORM_SECRET', false);

  if (environment !== undefined && environment !== 'sandbox' && environment !== 'production') {
    problems.push(`DCB_ENV must be sandbox or production; it is "${environment}".`);
  }
  const env_ = environment === 'sandbox' || environment === 'production' ? environment : undefined;
  if (env_ && clientId !== undefined && !clientId.startsWith(CLIENT_ID_PREFIXES[env_])) {
    problems.push(
      `DCB_CLIENT_ID must start with ${CLIENT_ID_PREFIXES[env_]} for DCB_ENV=${env_}: credentials never cross environments.`,
    );
  }
  if (baseUrl !== undefined) problems.push(...urlProblems('DCB_API_BASE_URL', baseUrl, env_, true));
  if (checkoutBaseUrl !== undefined)
    problems.push(...urlProblems('DCB_CHECKOUT_BASE_URL', checkoutBaseUrl, env_, false));
  if (returnUrl !== undefined) problems.push(...returnUrlProblems(returnUrl, env_));
  const webhookSecrets = splitList(webhookSecret);
  if (webhookSecret !== undefined && webhookSecrets.length === 0)
    problems.push('DCB_WEBHOOK_SECRET holds no secret.');
  const formSecrets = splitList(formSecret);
  if (formSecret !== undefined && formSecrets.length === 0) problems.push('DCB_FORM_SECRET holds no secret.');

  if (problems.length > 0 || !env_ || !baseUrl || !clientId || !clientSecret) {
    throw new DcbError(
      'invalid_env',
      `dcbkit cannot start: ${problems.length} problem${problems.length === 1 ? '' : 's'} with the environment variables:\n- ${problems.join('\n- ')}`,
      { details: { problems } },
    );
  }
  return {
    client: { environment: env_, baseUrl, clientId, clientSecret },
    webhookSecrets,
    ...(checkoutBaseUrl ? { checkoutBaseUrl } : {}),
    ...(returnUrl ? { returnUrl } : {}),
    ...(formSecrets.length > 0 ? { formSecret: formSecrets } : {}),
  };
}

/** `a, b,c` as `['a', 'b', 'c']`: the secrets a rotation lists. */
function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** A web return page is checked as a URL; an app's deep link (`myapp://done`) is taken as it is. */
function returnUrlProblems(value: string, environment: Environment | undefined): string[] {
  if (!isAcceptedReturnUrl(value)) {
    return [
      `DCB_RETURN_URL must be an absolute URI (https://…, or an app scheme), never javascript:, data: or vbscript:; it is "${value}".`,
    ];
  }
  return webOriginOf(value) === null ? [] : urlProblems('DCB_RETURN_URL', value, environment, false);
}

function urlProblems(
  name: string,
  value: string,
  environment: Environment | undefined,
  apiRoot: boolean,
): string[] {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [`${name} must be an absolute URL; it is "${value}".`];
  }
  const problems: string[] = [];
  if (url.protocol !== 'https:' && url.protocol !== 'http:') problems.push(`${name} must be an http(s) URL.`);
  if (environment === 'production' && url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    problems.push(`${name} must use https for DCB_ENV=production.`);
  }
  if (apiRoot && /\/v1\/?$/i.test(url.pathname)) {
    problems.push(`${name} must be the API root without /v1: dcbkit adds /v1 itself.`);
  }
  return problems;
}
