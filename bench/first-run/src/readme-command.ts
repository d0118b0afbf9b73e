import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The main command of the README, read from it rather than copied here, so that the bench times
 * what the README tells a reader to run: the first `sh` block under "## Run it".
 */
export function readmeCommand(repo: string): string {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  const section = readme.split(/^## Run it$/m)[1] ?? '';
  const command = /```sh\n(.+)\n```/.exec(section)?.[1]?.trim();
  if (!command) throw new Error('README.md has no ```sh block under "## Run it"');
  return command;
}

/** The start alone, for a second start: the README command's last step (`… && npx -y pnpm@10 start`). */
export function startStep(command: string): string {
  return command.split('&&').at(-1)?.trim() ?? command;
}
