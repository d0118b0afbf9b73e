import { readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { parseJsonFile } from '../config/parse-json-file.js';
import { configIssuesOf, SandboxConfigError } from '../config/sandbox-config-error.js';
import { reviveState, type SandboxState, serializeState, stateFileSchema } from './state-snapshot.js';

/**
 * The state saved in `path`, or undefined when there is no file yet. Throws SandboxConfigError
 * (with the line and column of a JSON syntax error, or the path of a wrong field) for a file that
 * cannot be used: the sandbox never starts on half a state.
 */
export function readStateFile(path: string): SandboxState | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SandboxConfigError('state_unreadable', `Cannot read sandbox state ${path}.`, { cause });
  }
  const json = parseJsonFile(text, path, {
    what: 'Sandbox state',
    code: 'state_not_json',
    hint: ' Move it away to start afresh.',
  });
  const parsed = stateFileSchema.safeParse(json);
  if (!parsed.success) {
    const issues = configIssuesOf(parsed.error.issues);
    throw new SandboxConfigError(
      'state_invalid',
      `Sandbox state ${path} is not a state file of this sandbox version:\n${issues.map((issue) => `  at ${issue.path}: ${issue.message}`).join('\n')}`,
      { issues },
    );
  }
  try {
    return reviveState(parsed.data);
  } catch (cause) {
    throw new SandboxConfigError(
      'state_invalid',
      `Sandbox state ${path} is inconsistent: ${(cause as Error).message}.`,
      { cause },
    );
  }
}

/** Writes the state atomically: a temporary file beside it, then a rename over the old one. */
export async function writeStateFile(path: string, state: SandboxState): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, serializeState(state), 'utf8');
  await rename(temporary, path);
}
