import { configFromEnv, DCB_ENV_VARIABLES, type DcbEnvConfig, isDcbError } from '@dcbkit/core';

/**
 * How the shop runs, read once from the environment at startup:
 * - `embedded-sandbox`: no DCB_* variable is set. The sandbox emulator of the service runs in this
 *   process; nothing leaves the machine and no money moves. This is what `npm start` gives. In
 *   production (NODE_ENV=production, or HOST beyond loopback) only with ALLOW_EMBEDDED_SANDBOX=true.
 * - `service`: DCB_* variables are set. The shop talks to the real service (its sandbox or its
 *   production environment); every variable it needs must be set and consistent.
 */
export type ShopConfig = EmbeddedSandboxConfig | ServiceConfig;

interface CommonConfig {
  /** PORT: where the shop listens; 0 picks a free port. */
  port: number;
  /** HOST: the address to listen on. Default 127.0.0.1: this machine only. */
  host: string;
  /** TRUST_PROXY: how many proxies in front of the app set X-Forwarded-* (src/framework/ tells the framework). */
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
  /**
   * Why this run counts as production (NODE_ENV=production, HOST beyond loopback), each in words;
   * empty on a developer's machine. Not empty only with ALLOW_EMBEDDED_SANDBOX=true.
   */
  productionSigns: string[];
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

/**
 * The shop's own environment variables, and what each is for; dcbkit's (DCB_*) are core's
 * DCB_ENV_VARIABLES. The config reads no other (`read` below takes only these names), and
 * `.env.example` lists exactly these and core's: env-example.test.ts checks it.
 */
export const SHOP_ENV_VARIABLES = {
  PORT: 'where the shop listens (default 3000); 0 picks a free port',
  HOST: 'the address to listen on (default 127.0.0.1: this machine only); 0.0.0.0 in a container or behind a proxy',
  SESSION_SECRET:
    'signs the session cookie: at least 32 random characters, the same on every instance; required with DCB_*, random per run on the embedded sandbox',
  DATABASE_URL:
    'PostgreSQL for entitlements and processed events, shared by every instance (postgres://user:password@host:5432/database); without it, PGlite in DATA_DIR',
  DATA_DIR:
    'the PGlite data folder when DATABASE_URL is not set (default .data/<DCB_ENV>: .data/sandbox or .data/production, so one environment never reads what the other bought), made on first start',
  TRUST_PROXY:
    'how many proxies in front of the shop set X-Forwarded-* (default 0); 1 behind one TLS-terminating proxy',
  LOG_LEVEL:
    'fatal, error, warn, info (default), debug, trace or silent; debug also shows the embedded sandbox',
  OPERATOR_PASSWORD:
    'the operations view (/ops): at least 16 characters; without it, random per run on the embedded sandbox and no view otherwise',
  RECONCILE_EVERY_MINUTES: 'minutes between reconciliation runs, 0 (off) to 1440 (default 15)',
  NODE_ENV:
    'production in a deployment (the Dockerfile sets it): then the shop refuses to start on the embedded sandbox unless ALLOW_EMBEDDED_SANDBOX=true',
  ALLOW_EMBEDDED_SANDBOX:
    'true runs the embedded sandbox (an emulator: no real payment, purchases in memory) even in production (NODE_ENV=production or HOST beyond loopback), for a demo; readiness and every page then say so',
} as const;

export type ShopVariable = keyof typeof SHOP_ENV_VARIABLES;

/** pino's levels: another word would make the logger throw at startup, with a stack. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A session secret shorter than this is easy to guess: the session cookie is signed with HMAC-SHA1 (Keygrip). */
const MIN_SESSION_SECRET_LENGTH = 32;
/** The operations view can change entitlements: its password must not be one a guess finds. */
const MIN_OPERATOR_PASSWORD_LENGTH = 16;
/** A day: longer waits overflow Node's timers (about 24.8 days), and a day is already rarely enough. */
const MAX_RECONCILE_MINUTES = 1440;

export function readShopConfig(env: Env): ShopConfig {
  const problems: string[] = [];
  /** A variable of SHOP_ENV_VARIABLES, trimmed; undefined when unset or blank. */
  const read = (name: ShopVariable): string | undefined => env[name]?.trim() || undefined;
  const common: CommonConfig = {
    port: readPort(read('PORT'), problems),
    host: read('HOST') ?? '127.0.0.1',
    trustProxy: readCount('TRUST_PROXY', read('TRUST_PROXY'), problems),
    logLevel: readLogLevel(read('LOG_LEVEL'), problems),
    reconcileEveryMinutes: readReconcileMinutes(read('RECONCILE_EVERY_MINUTES'), problems),
    operatorPassword: read('OPERATOR_PASSWORD'),
  };
  if (
    common.operatorPassword !== undefined &&
    common.operatorPassword.length < MIN_OPERATOR_PASSWORD_LENGTH
  ) {
    problems.push(`OPERATOR_PASSWORD must be at least ${MIN_OPERATOR_PASSWORD_LENGTH} characters long.`);
  }
  const sessionSecret = read('SESSION_SECRET');
  if (sessionSecret !== undefined && sessionSecret.length < MIN_SESSION_SECRET_LENGTH) {
    problems.push(`SESSION_SECRET must be at least ${MIN_SESSION_SECRET_LENGTH} characters long.`);
  }

  // Any DCB_* variable means "talk to the real service": then all of them must be right, rather
  // than quietly falling back to the embedded sandbox with half a configuration.
  const talksToService = Object.keys(env).some((name) => name.startsWith('DCB_') && env[name]?.trim());
  if (!talksToService) {
    const productionSigns = productionSignsOf(read('NODE_ENV'), common.host);
    const allowed = readAllowEmbeddedSandbox(read('ALLOW_EMBEDDED_SANDBOX'), problems);
    // The emulator takes any phone number and keeps purchases in memory: a deployment that forgot
    // its DCB_* variables (a `docker run` without its env file) must stop, not sell make-believe.
    if (productionSigns.length > 0 && !allowed) problems.push(embeddedSandboxRefusal(productionSigns));
    if (problems.length > 0) throw new ShopConfigError(problems);
    return { mode: 'embedded-sandbox', ...common, sessionSecret, productionSigns };
  }

  let dcb: DcbEnvConfig | undefined;
  try {
    dcb = configFromEnv(env);
  } catch (error) {
    if (!isDcbError(error, 'invalid_env')) throw error;
    const listed = error.details?.problems;
    problems.push(...(Array.isArray(listed) ? listed.map(String) : [error.message]));
  }
  // The kit refuses its routes in production without it too; said here with the other problems.
  if (env.DCB_ENV?.trim() === 'production' && !env.DCB_CHECKOUT_BASE_URL?.trim()) {
    problems.push(
      "DCB_CHECKOUT_BASE_URL is not set: with DCB_ENV=production the shop sends buyers only to the production environment's checkout host, which the partner console shows.",
    );
  }
  if (sessionSecret === undefined) {
    problems.push(
      `SESSION_SECRET is not set: a random string of at least ${MIN_SESSION_SECRET_LENGTH} characters that signs the session cookie (the same on every instance); make one with \`openssl rand -base64 32\`.`,
    );
  }
  const databaseUrl = read('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push(
      'DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:5432/database); leave it unset to keep entitlements in PGlite in DATA_DIR.',
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
    databaseUrl,
    // One folder per environment: the store records none, and a sandbox purchase must never grant production access.
    dataDir: read('DATA_DIR') ?? `.data/${dcb.client.environment}`,
  };
}

/** What says this run is a deployment rather than a developer's machine, each in words. */
function productionSignsOf(nodeEnv: string | undefined, host: string): string[] {
  const signs: string[] = [];
  if (nodeEnv === 'production') signs.push('NODE_ENV=production');
  if (!isLoopback(host)) signs.push(`HOST=${host} listens beyond this machine`);
  return signs;
}

/** 127.0.0.0/8, ::1 and localhost reach this machine only; anything else (0.0.0.0, ::, an interface's address) others too. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

function readAllowEmbeddedSandbox(value: string | undefined, problems: string[]): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  problems.push(`ALLOW_EMBEDDED_SANDBOX must be true or false; it is "${value}".`);
  return false;
}

/** The refusal: why, then every DCB_* variable that points the shop at the real service, then the opt-in. */
function embeddedSandboxRefusal(signs: readonly string[]): string {
  const variables = Object.entries(DCB_ENV_VARIABLES).map(([name, what]) => `    ${name}: ${what}`);
  return [
    `No DCB_* variable is set, so the shop would run on its embedded sandbox (an emulator: no real payment, any phone number accepted, purchases kept in memory and lost at every restart), but this looks like production (${signs.join(', ')}).`,
    '  Point the shop at the billing service with these variables (.env.example lists them), and SESSION_SECRET:',
    ...variables,
    '  Or, for a demo that must run on the emulator, set ALLOW_EMBEDDED_SANDBOX=true: /health/ready and every page then say it is the emulator.',
  ].join('\n');
}

function readPort(value: string | undefined, problems: string[]): number {
  if (value === undefined) return 3000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    problems.push(`PORT must be a port number from 0 to 65535; it is "${value}".`);
    return 3000;
  }
  return port;
}

function readLogLevel(value: string | undefined, problems: string[]): string {
  if (value === undefined) return 'info';
  if (LOG_LEVELS.includes(value)) return value;
  problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; it is "${value}".`);
  return 'info';
}

function readReconcileMinutes(value: string | undefined, problems: string[]): number {
  if (value === undefined) return 15;
  const minutes = Number(value);
  if (!Number.isInteger(minutes) || minutes < 0 || minutes > MAX_RECONCILE_MINUTES) {
    problems.push(
      `RECONCILE_EVERY_MINUTES must be a whole number of minutes from 0 (off) to ${MAX_RECONCILE_MINUTES}; it is "${value}".`,
    );
    return 15;
  }
  return minutes;
}

function readCount(name: ShopVariable, value: string | undefined, problems: string[]): number {
  if (value === undefined) return 0;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0) {
    problems.push(`${name} must be a whole number (the proxies in front of the app); it is "${value}".`);
    return 0;
  }
  return count;
}
