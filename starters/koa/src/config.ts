import { configFromEnv, type DcbEnvConfig, isDcbError } from '@dcbkit/core';

/**
 * How the shop runs, read once from the environment at startup:
 * - `embedded-sandbox`: no DCB_* variable is set. The sandbox emulator of the service runs in this
 *   process; nothing leaves the machine and no money moves. This is what `pnpm start` gives.
 * - `service`: DCB_* variables are set. The shop talks to the real service (its sandbox or its
 *   production environment); every variable it needs must be set and consistent.
 */
export type ShopConfig = EmbeddedSandboxConfig | ServiceConfig;

interface CommonConfig {
  /** PORT: where the shop listens; 0 picks a free port. */
  port: number;
  /** HOST: the address to listen on. Default 127.0.0.1: this machine only. */
  host: string;
  /** TRUST_PROXY: how many proxies in front of the app set X-Forwarded-* (Koa's `app.proxy`). */
  trustProxy: number;
  /** LOG_LEVEL: pino's level. */
  logLevel: string;
  /** RECONCILE_EVERY_MINUTES: minutes between reconciliation runs (default 15); 0 turns the reconciler off. */
  reconcileEveryMinutes: number;
  /**
   * OPERATOR_PASSWORD: the operations view's password (/ops). Unset: a random one per run on the
   * embedded sandbox, printed at start; no operations view on the real service.
   */
  operatorPassword: string | undefined;
}

export interface EmbeddedSandboxConfig extends CommonConfig {
  mode: 'embedded-sandbox';
  /** SESSION_SECRET when given; otherwise a random one per run (sessions end with the process). */
  sessionSecret: string | undefined;
}

export interface ServiceConfig extends CommonConfig {
  mode: 'service';
  /** DCB_ENV, DCB_API_BASE_URL, DCB_CLIENT_ID, DCB_CLIENT_SECRET, DCB_WEBHOOK_SECRET, DCB_CHECKOUT_BASE_URL, DCB_RETURN_URL. */
  dcb: DcbEnvConfig;
  sessionSecret: string;
  /** DATABASE_URL: PostgreSQL for entitlements and the event ledger. Without it, PGlite in `dataDir`. */
  databaseUrl: string | undefined;
  /** DATA_DIR: the PGlite data folder when DATABASE_URL is not set. */
  dataDir: string;
}

/** Every problem with the environment, in one message: the shop prints it and exits 1. */
export class ShopConfigError extends Error {
  override readonly name = 'ShopConfigError';
  constructor(readonly problems: readonly string[]) {
    super(
      `The shop cannot start: ${problems.length} problem${problems.length === 1 ? '' : 's'} with the environment variables:\n- ${problems.join('\n- ')}`,
    );
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** A session secret shorter than this is easy to guess: koa-session signs with HMAC-SHA1 (Keygrip). */
const MIN_SESSION_SECRET_LENGTH = 32;
/** The operations view can change entitlements: its password must not be one a guess finds. */
const MIN_OPERATOR_PASSWORD_LENGTH = 16;
/** A day: longer waits overflow Node's timers (about 24.8 days), and a day is already rarely enough. */
const MAX_RECONCILE_MINUTES = 1440;

export function readShopConfig(env: Env): ShopConfig {
  const problems: string[] = [];
  const common: CommonConfig = {
    port: readPort(env.PORT, problems),
    host: env.HOST?.trim() || '127.0.0.1',
    trustProxy: readCount('TRUST_PROXY', env.TRUST_PROXY, problems),
    logLevel: env.LOG_LEVEL?.trim() || 'info',
    reconcileEveryMinutes: readReconcileMinutes(env.RECONCILE_EVERY_MINUTES, problems),
    operatorPassword: env.OPERATOR_PASSWORD?.trim() || undefined,
  };
  if (
    common.operatorPassword !== undefined &&
    common.operatorPassword.length < MIN_OPERATOR_PASSWORD_LENGTH
  ) {
    problems.push(`OPERATOR_PASSWORD must be at least ${MIN_OPERATOR_PASSWORD_LENGTH} characters long.`);
  }
  const sessionSecret = env.SESSION_SECRET?.trim() || undefined;
  if (sessionSecret !== undefined && sessionSecret.length < MIN_SESSION_SECRET_LENGTH) {
    problems.push(`SESSION_SECRET must be at least ${MIN_SESSION_SECRET_LENGTH} characters long.`);
  }

  // Any DCB_* variable means "talk to the real service": then all of them must be right, rather
  // than quietly falling back to the embedded sandbox with half a configuration.
  const talksToService = Object.keys(env).some((name) => name.startsWith('DCB_') && env[name]?.trim());
  if (!talksToService) {
    if (problems.length > 0) throw new ShopConfigError(problems);
    return { mode: 'embedded-sandbox', ...common, sessionSecret };
  }

  let dcb: DcbEnvConfig | undefined;
  try {
    dcb = configFromEnv(env);
  } catch (error) {
    if (!isDcbError(error, 'invalid_env')) throw error;
    const listed = error.details?.problems;
    problems.push(...(Array.isArray(listed) ? listed.map(String) : [error.message]));
  }
  if (sessionSecret === undefined) {
    problems.push(
      `SESSION_SECRET is not set: a random string of at least ${MIN_SESSION_SECRET_LENGTH} characters that signs the session cookie (the same on every instance).`,
    );
  }
  if (problems.length > 0 || dcb === undefined || sessionSecret === undefined) {
    throw new ShopConfigError(problems);
  }
  return {
    mode: 'service',
    ...common,
    dcb,
    sessionSecret,
    databaseUrl: env.DATABASE_URL?.trim() || undefined,
    dataDir: env.DATA_DIR?.trim() || '.data/dcbkit',
  };
}

function readPort(value: string | undefined, problems: string[]): number {
  if (value === undefined || value.trim() === '') return 3000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    problems.push(`PORT must be a port number from 0 to 65535; it is "${value}".`);
    return 3000;
  }
  return port;
}

function readReconcileMinutes(value: string | undefined, problems: string[]): number {
  if (value === undefined || value.trim() === '') return 15;
  const minutes = Number(value);
  if (!Number.isInteger(minutes) || minutes < 0 || minutes > MAX_RECONCILE_MINUTES) {
    problems.push(
      `RECONCILE_EVERY_MINUTES must be a whole number of minutes from 0 (off) to ${MAX_RECONCILE_MINUTES}; it is "${value}".`,
    );
    return 15;
  }
  return minutes;
}

function readCount(name: string, value: string | undefined, problems: string[]): number {
  if (value === undefined || value.trim() === '') return 0;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0) {
    problems.push(`${name} must be a whole number (the proxies in front of the app); it is "${value}".`);
    return 0;
  }
  return count;
}
