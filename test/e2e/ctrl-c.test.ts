import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../support/pack-packages.js';

// Ctrl+C in a terminal signals the whole foreground process group: npx, pnpm, anything between
// them and node, and the shop. The shop closes and exits 0, and nothing on the way may report the
// start as failed. The README's command, run in a group of its own as a terminal runs a job.
const STARTS = [
  { script: 'start', starter: 'Express' },
  { script: 'start:koa', starter: 'Koa' },
];

describe.each(STARTS)('Ctrl+C on `npx -y pnpm@10 $script` ($starter)', ({ script }) => {
  let child: ChildProcess | undefined;

  afterEach(() => {
    if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid, 'SIGKILL');
    }
  });

  it('stops the shop, closed, with no failure printed', async () => {
    const started = spawn('npx', ['-y', 'pnpm@10', script], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child = started;
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
    };
    started.stdout.on('data', collect);
    started.stderr.on('data', collect);
    const closed = new Promise<void>((resolve) => started.once('close', () => resolve()));

    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the shop did not start:\n${output}`)), 90_000);
      started.stdout.on('data', () => {
        if (output.includes('Ctrl+C to stop')) {
          clearTimeout(timer);
          resolve();
        }
      });
      started.once('close', (code) => reject(new Error(`exited with ${code} before starting:\n${output}`)));
    });
    // At once, as an impatient reader would: the shop listens for the signal before it prints.
    process.kill(-(started.pid as number), 'SIGINT');
    await closed;

    expect(output).toContain('Shop stopped.');
    expect(output).not.toMatch(/ERR_PNPM|ELIFECYCLE|Command failed|Exit status/);
  }, 120_000);
});
