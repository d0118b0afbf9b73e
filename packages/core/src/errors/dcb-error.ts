import type { ApiErrorCode, DcbErrorCode } from './error-codes.js';

// Symbol.for: the same symbol in every copy of dcbkit loaded in one process (an ESM app that also
// loads the CommonJS build through a dependency), so errors made by one copy are recognised by the other.
const KINDS = Symbol.for('dcbkit.error.kinds');

const kindsByClass = new WeakMap<object, readonly string[]>();

/** The `kind` of the class and of each class above it, e.g. ['DcbApiError', 'DcbError']. */
function kindsOf(errorClass: { kind: string }): readonly string[] {
  let kinds = kindsByClass.get(errorClass);
  if (kinds === undefined) {
    const found: string[] = [];
    for (let c: unknown = errorClass; typeof c === 'function' && 'kind' in c; c = Object.getPrototypeOf(c)) {
      if (!found.includes((c as { kind: string }).kind)) found.push((c as { kind: string }).kind);
    }
    kinds = found;
    kindsByClass.set(errorClass, kinds);
  }
  return kinds;
}

export interface DcbErrorOptions {
  cause?: unknown;
  /** What a partner route answers for it, when it is answered at all. */
  httpStatus?: number | undefined;
  /** When a retry could succeed. */
  retryable?: boolean | undefined;
  /** The delay the service asked for, in seconds. */
  retryAfterSeconds?: number | undefined;
  /** Structured detail for logs: the option, method, path… Never a secret. */
  details?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The one error family of dcbkit. Every error the kit throws or reports is a DcbError with a
 * stable `code` from one table (`DCB_ERROR_CODES`, plus the service's own codes on DcbApiError).
 * `instanceof` and `isDcbError` hold across two copies of the package (ESM and CommonJS builds).
 *
 * @example
 * try {
 *   await kit.client.payments.retrieve(uid);
 * } catch (error) {
 *   if (isDcbError(error, 'timeout')) return retryLater();
 *   throw error;
 * }
 */
export class DcbError<Code extends string = DcbErrorCode> extends Error {
  /** The class's name in the brand; subclasses set their own. */
  static readonly kind: string = 'DcbError';

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== 'object' || value === null) return false;
    const kinds = (value as { [KINDS]?: unknown })[KINDS];
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class `instanceof` asks about, a subclass included.
    return Array.isArray(kinds) && kinds.includes(this.kind);
  }

  override readonly name: string = 'DcbError';
  /** Stable: branch on it. */
  readonly code: Code;
  readonly httpStatus: number | undefined;
  readonly retryable: boolean;
  readonly retryAfterSeconds: number | undefined;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: Code, message: string, options: DcbErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.httpStatus = options.httpStatus;
    this.retryable = options.retryable ?? false;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.details = options.details ?? {};
    Object.defineProperty(this, KINDS, { value: kindsOf(new.target as unknown as { kind: string }) });
  }

  /** Narrows to one code: `if (error.is('timeout')) …`. */
  is<C extends Code>(code: C): this is this & { readonly code: C } {
    return this.code === code;
  }
}

/**
 * True when `error` is a DcbError (from any copy of dcbkit) and, when `code` is given, carries it.
 *
 * @example
 * if (isDcbError(error, 'token_refused')) alertOps(error.message);
 */
export function isDcbError<C extends DcbErrorCode | ApiErrorCode>(
  error: unknown,
  code?: C,
): error is DcbError<C> {
  return error instanceof DcbError && (code === undefined || error.code === code);
}
