import { resolve } from 'node:path';
import { createApp } from '../app/create-app.js';
import { frameworkNames } from '../app/frameworks.js';
import { nextSteps } from '../app/next-steps.js';
import { ownManifest } from '../app/package-root.js';
import { CreateAppError } from '../errors/create-app-error.js';
import { helpText } from './help.js';
import { parseCliArgs } from './parse-args.js';

export interface CliIo {
  argv: readonly string[];
  cwd: string;
  out: (text: string) => void;
  err: (text: string) => void;
}

/** The CLI without the process: parses, writes the app, prints the next steps; answers the exit code. */
export function runCli(io: CliIo): number {
  try {
    const args = parseCliArgs(io.argv);
    if (args === 'help') {
      io.out(helpText(frameworkNames()));
      return 0;
    }
    if (args === 'version') {
      io.out(ownManifest().version);
      return 0;
    }
    const app = createApp({
      dir: resolve(io.cwd, args.dir),
      framework: args.framework,
      force: args.force,
      workspace: args.workspace,
      ...(args.name !== undefined ? { name: args.name } : {}),
      log: (line) => io.out(`  ${line}`),
    });
    io.out(nextSteps(app, io.cwd));
    return 0;
  } catch (error) {
    if (error instanceof CreateAppError) {
      io.err(
        `create-dcbkit-app: ${error.message}${error.code === 'invalid_command_line' ? ' (see --help)' : ''}`,
      );
      return error.exitCode;
    }
    io.err(`create-dcbkit-app: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
