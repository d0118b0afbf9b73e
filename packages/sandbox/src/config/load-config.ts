import { readFileSync } from 'node:fs';
import { type SandboxConfig, type SandboxConfigInput, sandboxConfigSchema } from './config-schema.js';
import defaultConfigJson from './default-config.json';
import { parseJsonFile } from './parse-json-file.js';
import { configIssuesOf, SandboxConfigError } from './sandbox-config-error.js';

/** Validates a config object (as read from JSON) and applies its defaults. Throws SandboxConfigError. */
export function parseSandboxConfig(input: unknown, source = 'config'): SandboxConfig {
  const parsed = sandboxConfigSchema.safeParse(input);
  if (!parsed.success) {
    const issues = configIssuesOf(parsed.error.issues);
    const lines = issues.map((issue) => `  at ${issue.path}: ${issue.message}`);
    throw new SandboxConfigError('config_invalid', `Invalid sandbox ${source}:\n${lines.join('\n')}`, {
      issues,
    });
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
    throw new SandboxConfigError('config_unreadable', `Cannot read sandbox config ${path} (${reason}).`, {
      cause,
    });
  }
  const json = parseJsonFile(text, path, { what: 'Sandbox config', code: 'config_not_json' });
  return parseSandboxConfig(json, `config ${path}`);
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
