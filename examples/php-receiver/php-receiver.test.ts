/**
 * Issue 39: the PHP receiver (plain PHP 8, Debian's php-cli, no framework, no Composer) passes
 * `dcbkit-sandbox check`, and each classic mistake planted in it fails with the finding that names it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { freePort } from '../test-support/free-port.js';
import {
  interpreterAvailable,
  itPassesTheCheck,
  SIGNED_EVENTS,
  startReceiver,
} from '../test-support/receiver-check.js';

const FOLDER = fileURLToPath(new URL('.', import.meta.url));

describe.runIf(interpreterAvailable('php'))('the PHP receiver under dcbkit-sandbox check', () => {
  it('verifies every signed example of @dcbkit/sandbox/signed-events.json, and refuses the forged ones', () => {
    const output = execFileSync('php', [join(FOLDER, 'signed-events-test.php'), SIGNED_EVENTS], {
      encoding: 'utf8',
    });
    expect(output).toBe('12 events verified, 4 refused\n');
  });

  // On PHP's built-in server, its state in a fresh file.
  itPassesTheCheck(async (flaw) => {
    const stateFolder = mkdtempSync(join(tmpdir(), 'php-receiver-'));
    onTestFinished(() => rmSync(stateFolder, { recursive: true, force: true }));
    const port = await freePort();
    return startReceiver('php', ['-S', `127.0.0.1:${port}`, join(FOLDER, 'index.php')], port, {
      STATE_FILE: join(stateFolder, 'state.json'),
      RECEIVER_FLAW: flaw,
    });
  });
});
