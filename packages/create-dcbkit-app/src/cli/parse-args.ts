import { parseArgs } from 'node:util';
import { CreateAppError } from '../errors/create-app-error.js';

export interface CliArgs {
  dir: string;
  framework: string;
  force: boolean;
  workspace: boolean;
  name: string | undefined;
}

/** The command line, or `help` / `version`. Anything wrong is a CreateAppError (`invalid_command_line`). */
export function parseCliArgs(argv: readonly string[]): CliArgs | 'help' | 'version' {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new CreateAppError('invalid_command_line', error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (values.version) return 'version';
  const [dir, ...extra] = positionals;
  if (dir === undefined)
    throw new CreateAppError(
      'invalid_command_line',
      'Say where to write the app: create-dcbkit-app <folder>.',
    );
  if (extra.length > 0) {
    throw new CreateAppError('invalid_command_line', `One folder only; also given: ${extra.join(' ')}.`);
  }
  return {
    dir,
    framework: values.framework ?? 'express',
    force: values.force ?? false,
    workspace: values.workspace ?? false,
    name: values.name,
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      framework: { type: 'string', short: 'f' },
      force: { type: 'boolean' },
      workspace: { type: 'boolean' },
      name: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
}
