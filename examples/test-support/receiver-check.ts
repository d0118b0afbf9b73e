import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';

/** The sandbox's command as a partner's CI runs it (built by `pnpm build`, which `pnpm test` runs first). */
const SANDBOX_BIN = fileURLToPath(new URL('../../packages/sandbox/bin/dcbkit-sandbox.js', import.meta.url));

/** The secret the receivers are started with, as a partner's app reads it from its environment. */
export const RECEIVER_SECRET = 'whsec_receiver_example_0123456789';

/**
 * Whether a language's interpreter is here; always in CI, where .ci/run installs it, so that a
 * missing one fails the run instead of quietly skipping it.
 */
export function interpreterAvailable(command: string): boolean {
  if (process.env.CI === 'true') return true;
  try {
    execFileSync(command, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface RunningReceiver {
  url: string;
  stop(): Promise<void>;
}

/** Starts a receiver process and waits until it answers on its port. */
export async function startReceiver(
  command: string,
  args: string[],
  port: number,
  env: Record<string, string>,
): Promise<RunningReceiver> {
  const child: ChildProcess = spawn(command, args, {
    env: { ...process.env, DCB_WEBHOOK_SECRET: RECEIVER_SECRET, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} exited ${child.exitCode}: ${stderr}`);
    const answered = await fetch(`${url}/access?account=nobody&product=none`).then(
      () => true,
      () => false,
    );
    if (answered) break;
    if (Date.now() > deadline) throw new Error(`${command} did not answer on ${url}: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface CheckRun {
  exitCode: number;
  output: string;
  /** The JUnit XML the command wrote. */
  junit: string;
  /** The names of the checks the JUnit report has a <failure> for. */
  failures: string[];
}

/** `dcbkit-sandbox check` against the receiver, with its access and spend routes, as docs/any-language.md shows it. */
export function checkReceiver(receiver: RunningReceiver): Promise<CheckRun> {
  const folder = mkdtempSync(join(tmpdir(), 'dcbkit-check-'));
  const junitPath = join(folder, 'junit.xml');
  const child = spawn(
    process.execPath,
    [
      SANDBOX_BIN,
      'check',
      '--app-url',
      receiver.url,
      '--webhook-secret',
      RECEIVER_SECRET,
      '--access-url',
      `${receiver.url}/access?account={accountKey}&product={productUid}`,
      '--spend-url',
      `${receiver.url}/spend?account={accountKey}&product={productUid}`,
      '--junit',
      junitPath,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      try {
        const junit = readFileSync(junitPath, 'utf8');
        const failures = [...junit.matchAll(/name="([^"]+)" time="0">\s*<failure/g)].map(
          (match) => match[1] ?? '',
        );
        resolve({ exitCode: code ?? -1, output, junit, failures });
      } catch (error) {
        reject(new Error(`no JUnit report (exit ${code}): ${output}`, { cause: error }));
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });
  });
}

/** As published: @dcbkit/sandbox/signed-events.json, for the receivers' own unit tests. */
export const SIGNED_EVENTS = fileURLToPath(import.meta.resolve('@dcbkit/sandbox/signed-events.json'));

/**
 * The cases every receiver meets, registered in the caller's describe block: it passes the
 * command, and each classic mistake planted in it (`RECEIVER_FLAW`) fails with the finding that
 * names it. `start(flaw)` starts the receiver on a free port; it is stopped after each test.
 */
export function itPassesTheCheck(start: (flaw: string) => Promise<RunningReceiver>): void {
  let running: RunningReceiver | undefined;
  afterEach(async () => {
    await running?.stop();
    running = undefined;
  });

  it('passes every check', async () => {
    running = await start('');
    const run = await checkReceiver(running);
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
      running = await start(flaw);
      const run = await checkReceiver(running);
      expect(run.exitCode).toBe(1);
      expect(run.failures).toContain(finding);
      expect(run.output).toContain('Fix:');
    },
    60_000,
  );
}
