/**
 * Issue 39: the PHP receiver (plain PHP 8, Debian's php-cli, no framework, no Composer) passes
 * `dcbkit-sandbox check`, and each classic mistake planted in it fails with the finding that names it.
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkReceiver,
  freePort,
  interpreterAvailable,
  type RunningReceiver,
  startReceiver,
} from '../test-support/receiver-check.js';

const FOLDER = fileURLToPath(new URL('.', import.meta.url));
/** As published: @dcbkit/sandbox/signed-events.json. */
const SIGNED_EVENTS = fileURLToPath(import.meta.resolve('@dcbkit/sandbox/signed-events.json'));
let receiver: RunningReceiver | undefined;
let stateFolder: string | undefined;

afterEach(async () => {
  await receiver?.stop();
  if (stateFolder) rmSync(stateFolder, { recursive: true, force: true });
});

/** The receiver on PHP's built-in server, its state in a fresh file. */
async function startPhp(flaw = ''): Promise<RunningReceiver> {
  stateFolder = mkdtempSync(join(tmpdir(), 'php-receiver-'));
  const port = await freePort();
  receiver = await startReceiver('php', ['-S', `127.0.0.1:${port}`, join(FOLDER, 'index.php')], port, {
    STATE_FILE: join(stateFolder, 'state.json'),
    RECEIVER_FLAW: flaw,
  });
  return receiver;
}

describe.runIf(interpreterAvailable('php'))('the PHP receiver under dcbkit-sandbox check', () => {
  it('verifies every signed example of @dcbkit/sandbox/signed-events.json, and refuses the forged ones', () => {
    const output = execFileSync('php', [join(FOLDER, 'signed-events-test.php'), SIGNED_EVENTS], {
      encoding: 'utf8',
    });
    expect(output).toBe('12 events verified, 4 refused\n');
  });

  it('passes every check', async () => {
    const run = await checkReceiver(await startPhp());
    expect(run.failures, run.output).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.output).toContain('Passed.');
  }, 60_000);

  it.each([
    ['reserialized-body', 'signature'],
    ['no-dedupe', 'units'],
  ])(
    'fails with the %s flaw, naming %s',
    async (flaw, finding) => {
      const run = await checkReceiver(await startPhp(flaw));
      expect(run.exitCode).toBe(1);
      expect(run.failures).toContain(finding);
      expect(run.output).toContain('Fix:');
    },
    60_000,
  );
});
