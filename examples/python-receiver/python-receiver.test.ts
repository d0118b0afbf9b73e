/**
 * Issue 39: the Python receiver (Python 3, standard library only) passes
 * `dcbkit-sandbox check`, and each classic mistake planted in it fails with the finding that names it.
 */

import { execFileSync } from 'node:child_process';
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

afterEach(async () => {
  await receiver?.stop();
});

/** The receiver on Python's ThreadingHTTPServer (its state in memory). */
async function startPython(flaw = ''): Promise<RunningReceiver> {
  const port = await freePort();
  receiver = await startReceiver('python3', [join(FOLDER, 'receiver.py'), '--port', String(port)], port, {
    RECEIVER_FLAW: flaw,
  });
  return receiver;
}

describe.runIf(interpreterAvailable('python3'))('the Python receiver under dcbkit-sandbox check', () => {
  it('verifies every signed example of @dcbkit/sandbox/signed-events.json, and refuses the forged ones', () => {
    const output = execFileSync('python3', ['-m', 'unittest', '-v', 'test_signed_events'], {
      cwd: FOLDER,
      env: { ...process.env, SIGNED_EVENTS },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(output).toBe('');
  });

  it('passes every check', async () => {
    const run = await checkReceiver(await startPython());
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
      const run = await checkReceiver(await startPython(flaw));
      expect(run.exitCode).toBe(1);
      expect(run.failures).toContain(finding);
      expect(run.output).toContain('Fix:');
    },
    60_000,
  );
});
