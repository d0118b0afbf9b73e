import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

function run(argv: string[], cwd: string) {
  const out: string[] = [];
  const err: string[] = [];
  const exitCode = runCli({ argv, cwd, out: (text) => out.push(text), err: (text) => err.push(text) });
  return { exitCode, out: out.join('\n'), err: err.join('\n') };
}

describe('create-dcbkit-app', () => {
  const work = mkdtempSync(join(tmpdir(), 'dcbkit-cli-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('prints its usage with every framework, and exits 0', () => {
    const { exitCode, out } = run(['--help'], work);
    expect(exitCode).toBe(0);
    expect(out).toContain('--framework express|koa');
  });

  it('writes the app relative to the working folder and prints the next steps with the mode', () => {
    const { exitCode, out } = run(['shop', '--framework', 'koa', '--workspace'], work);
    expect(exitCode).toBe(0);
    expect(out).toContain(`Created a dcbkit shop on Koa 3 in ${join(work, 'shop')}`);
    expect(out).toContain('workspace mode');
    expect(out).toContain('cd shop');
  });

  it('answers a usage error with 2 and a full folder with 3, one line each, no stack', () => {
    expect(run(['a', '--frmework', 'koa'], work)).toMatchObject({
      exitCode: 2,
      err: expect.stringContaining('see --help'),
    });
    const taken = join(work, 'taken');
    mkdirSync(taken);
    writeFileSync(join(taken, 'x'), '');
    const full = run([taken, '--workspace'], work);
    expect(full.exitCode).toBe(3);
    expect(full.err).toMatch(/^create-dcbkit-app: .* is not empty \(x\): .*--force/);
    expect(full.err).not.toMatch(/\n\s+at /);
  });
});
