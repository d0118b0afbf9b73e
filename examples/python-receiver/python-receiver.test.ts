/**
 * Issue 39: the Python receiver (Python 3, standard library only) passes `dcbkit-sandbox check`,
 * and each classic mistake planted in it fails with the finding that names it.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort } from '../test-support/free-port.js';
import {
  interpreterAvailable,
  itPassesTheCheck,
  SIGNED_EVENTS,
  startReceiver,
} from '../test-support/receiver-check.js';

const FOLDER = fileURLToPath(new URL('.', import.meta.url));

describe.runIf(interpreterAvailable('python3'))('the Python receiver under dcbkit-sandbox check', () => {
  it('verifies every signed example of @dcbkit/sandbox/signed-events.json, and refuses the forged ones', () => {
    // unittest reports on stderr; a failure exits non-zero, which throws here.
    const output = execFileSync('python3', ['-m', 'unittest', '-v', 'test_signed_events'], {
      cwd: FOLDER,
      env: { ...process.env, SIGNED_EVENTS },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(output).toBe('');
  });

  // On Python's ThreadingHTTPServer, its state in memory.
  itPassesTheCheck(async (flaw) => {
    const port = await freePort();
    return startReceiver('python3', [join(FOLDER, 'receiver.py'), '--port', String(port)], port, {
      RECEIVER_FLAW: flaw,
    });
  });
});
