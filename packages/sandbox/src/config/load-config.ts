import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { type SandboxConfig, type SandboxConfigInput, sandboxConfigSchema } from './config-schema.js';
import defaultConfigJson from './default-config.json';

/** A config file that cannot be read or does not match the sandbox's config format. */
export class SandboxConfigError extends Error {
  override readonly name = 'SandboxConfigError';
}

/** Validates a config object (as read from JSON) and applies its defaults. Throws SandboxConfigError. */
export function parseSandboxConfig(input: unknown, source = 'config'): SandboxConfig {
  const parsed = sandboxConfigSchema.safeParse(input);
  if (!parsed.success) {
    throw new SandboxConfigError(`Invalid sandbox ${source}:\n${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

/** Reads and validates a JSON config file. Throws SandboxConfigError. */
export function loadSandboxConfig(path: string): SandboxConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new SandboxConfigError(`Cannot read sandbox config ${path}.`, { cause });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new SandboxConfigError(`Sandbox config ${path} is not valid JSON.`, { cause });
  }
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
