import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/pack-packages.js';

// Ctrl+C in a terminal signals the whole foreground group: pnpm, anything between it and node,
// and the shop. The shop closes and exits 0; pnpm must not report the start as failed.
describe('Ctrl+C on the starter started with pnpm', () => {
  it('stops the shop with no failure printed', async () => {
    const child = spawn('pnpm', ['--filter', '@dcbkit/starter-express', 'start'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, as a terminal's foreground job is, so the signal reaches all of it.
      detached: true,
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the shop did not start:\n${output}`)), 60_000);
      child.stdout.on('data', () => {
        if (output.includes('Ctrl+C to stop')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('close', (code) => reject(new Error(`exited with ${code} before starting:\n${output}`)));
    });

    process.kill(-(child.pid as number), 'SIGINT');
    await exited;

    expect(output).not.toMatch(/ERR_PNPM|ELIFECYCLE|Command failed/);
  }, 90_000);
});
