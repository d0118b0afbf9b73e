import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { type SandboxConfig, type SandboxConfigInput, sandboxConfigSchema } from './config-schema.js';
import defaultConfigJson from './default-config.json';
import { jsonSyntaxErrorOffset, positionAt, type TextPosition } from './json-position.js';

/** One thing wrong in a config: where (`applications[0].clientId`) and what. */
export interface ConfigIssue {
  path: string;
  message: string;
}

export interface SandboxConfigErrorDetails {
  /** For a JSON syntax error: where in the file. */
  position?: TextPosition;
  /** For a config that does not match the format: every issue with its path. */
  issues?: ConfigIssue[];
  cause?: unknown;
}

/** A config file that cannot be read, is not JSON, or does not match the sandbox's config format. */
export class SandboxConfigError extends Error {
  override readonly name = 'SandboxConfigError';
  readonly position: TextPosition | undefined;
  readonly issues: readonly ConfigIssue[];

  constructor(message: string, details: SandboxConfigErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
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

function issuesOf(error: z.ZodError): ConfigIssue[] {
  return error.issues.map((issue) => ({ path: issuePath(issue.path), message: issue.message }));
}

/** Validates a config object (as read from JSON) and applies its defaults. Throws SandboxConfigError. */
export function parseSandboxConfig(input: unknown, source = 'config'): SandboxConfig {
  const parsed = sandboxConfigSchema.safeParse(input);
  if (!parsed.success) {
    const issues = issuesOf(parsed.error);
    const lines = issues.map((issue) => `  at ${issue.path}: ${issue.message}`);
    throw new SandboxConfigError(`Invalid sandbox ${source}:\n${lines.join('\n')}`, { issues });
  }
  return parsed.data;
}

/** Reads and validates a JSON config file. Throws SandboxConfigError, with the line and column of a syntax error. */
export function loadSandboxConfig(path: string): SandboxConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    const reason = (cause as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new SandboxConfigError(`Cannot read sandbox config ${path} (${reason}).`, { cause });
  }
  const json = parseJsonFile(text, path, 'Sandbox config');
  return parseSandboxConfig(json, `config ${path}`);
}

/**
 * JSON.parse, or a SandboxConfigError that names `file:line:column` of a syntax error and what was
 * found there, for the config file and the state file alike.
 */
export function parseJsonFile(text: string, path: string, what: string, hint = ''): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    const offset = jsonSyntaxErrorOffset(text);
    const position = offset === undefined ? undefined : positionAt(text, offset);
    const where = position ? `${path}:${position.line}:${position.column}` : path;
    const found =
      offset === undefined
        ? ''
        : offset >= text.length
          ? ': unexpected end of file'
          : `: unexpected ${JSON.stringify(text[offset])}`;
    throw new SandboxConfigError(`${what} ${where} is not valid JSON${found}.${hint}`, {
      ...(position ? { position } : {}),
      cause,
    });
  }
}

/**
 * The config that ships with the sandbox (also published as `@dcbkit/sandbox/default-config.json`):
 * one demo application, two Tunisian operators, a monthly subscription with a trial, a day pass and
 * an unlock. A fresh copy each call, so callers may change it.
 */
export function defaultSandboxConfig(): SandboxConfig {
  return parseSandboxConfig(structuredClone(defaultConfigJson), 'default config');
}

/** A config given as an object, a file path, or nothing (the default). */
export function resolveSandboxConfig(
  config: SandboxConfig | SandboxConfigInput | string | undefined,
): SandboxConfig {
  if (config === undefined) return defaultSandboxConfig();
  if (typeof config === 'string') return loadSandboxConfig(config);
  return parseSandboxConfig(config);
}
