import { SandboxError, type SandboxErrorCode } from '../shared/sandbox-error.js';
import type { TextPosition } from './json-position.js';

/** One thing wrong in a config: where (`applications[0].clientId`) and what. */
export interface ConfigIssue {
  path: string;
  message: string;
}

/** The codes of SandboxConfigError: what keeps the sandbox from starting on its config or state. */
export type SandboxConfigErrorCode = Extract<
  SandboxErrorCode,
  `config_${string}` | `state_${string}` | 'control_token_required' | 'invalid_webhook_url'
>;

export interface SandboxConfigErrorDetails {
  /** For a JSON syntax error: where in the file. */
  position?: TextPosition;
  /** For a config that does not match the format: every issue with its path. */
  issues?: ConfigIssue[];
  cause?: unknown;
}

/**
 * The sandbox cannot start on what it was given: a config or state file that cannot be read, is
 * not JSON or does not match its format, a bad webhook URL, or a listener beyond loopback without
 * a control token.
 */
export class SandboxConfigError extends SandboxError<SandboxConfigErrorCode> {
  static override readonly kind: string = 'SandboxConfigError';
  override readonly name: string = 'SandboxConfigError';
  readonly position: TextPosition | undefined;
  readonly issues: readonly ConfigIssue[];

  constructor(code: SandboxConfigErrorCode, message: string, details: SandboxConfigErrorDetails = {}) {
    super(code, message, { cause: details.cause });
    this.position = details.position;
    this.issues = details.issues ?? [];
  }
}

/** `applications[0].webhook.url`, the way a person finds it in the JSON file. */
export function issuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) out += out ? `.${key}` : key;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out || '(root)';
}

/** Each issue of a zod error, with its path as issuePath writes it. */
export function configIssuesOf(
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>,
): ConfigIssue[] {
  return issues.map((issue) => ({ path: issuePath(issue.path), message: issue.message }));
}
