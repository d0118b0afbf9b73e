import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runStoreCli } from './run-cli.js';

describe('dcbkit-store', () => {
  it('migrates a PGlite folder, then finds nothing to do; refuses an unknown command', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dcbkit-cli-'));
    try {
      const lines: string[] = [];
      expect(await runStoreCli(['migrate', '--pglite', dir], {}, (line) => lines.push(line))).toBe(0);
      expect(JSON.parse(lines[0] ?? '')).toMatchObject({
        applied: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
      });
      expect(await runStoreCli(['migrate'], { DCB_PGLITE_DIR: dir }, (line) => lines.push(line))).toBe(0);
      expect(JSON.parse(lines[1] ?? '')).toMatchObject({ applied: [] });
      expect(await runStoreCli(['reconcile', '--pglite', dir], {}, (line) => lines.push(line))).toBe(2);
      expect(lines[2]).toMatch(/DCB_OFFERS_FILE/);
      expect(await runStoreCli(['nonsense'], {}, () => {})).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('prints its usage and exits 0 on --help, and keeps the tables a --table-prefix names apart', async () => {
    const lines: string[] = [];
    expect(await runStoreCli(['--help'], {}, (line) => lines.push(line))).toBe(0);
    expect(lines[0]).toMatch(/^Usage: dcbkit-store/);
    expect(lines[0]).toMatch(/--table-prefix/);
    expect(await runStoreCli(['migrate', '-h'], {}, () => {})).toBe(0);

    const dir = mkdtempSync(join(tmpdir(), 'dcbkit-cli-'));
    try {
      const answers: string[] = [];
      const migrate = (prefix: string) =>
        runStoreCli(['migrate', '--pglite', dir, '--table-prefix', prefix], {}, (line) => answers.push(line));
      expect(await migrate('shop_')).toBe(0);
      expect(await migrate('shop_')).toBe(0);
      expect(await migrate('other_')).toBe(0);
      // Each prefix has its own tables and its own migrations: the second run of one finds nothing to do.
      expect(answers.map((line) => JSON.parse(line).applied)).toEqual([
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        [],
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
      ]);
      expect(
        await runStoreCli(['migrate', '--pglite', dir, '--table-prefix', 'Bad-Prefix'], {}, () => {}),
      ).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
