import { describe, expect, it } from 'vitest';
import { slowestFilesReport } from './slowest-files-reporter.js';

describe('slowestFilesReport', () => {
  it('lists the slowest files first, in seconds, with their project, and no more than asked', () => {
    const report = slowestFilesReport(
      [
        { file: 'test/a.test.ts', project: 'dcbkit', ms: 1_200 },
        { file: 'test/b.test.ts', project: 'dcbkit', ms: 95_450 },
        { file: 'src/c.test.ts', project: 'shop-koa', ms: 30_000 },
      ],
      2,
    );
    expect(report.split('\n')).toEqual([
      'The 2 slowest test files:',
      '   95.5 s  dcbkit       test/b.test.ts',
      '   30.0 s  shop-koa     src/c.test.ts',
    ]);
  });

  it('prints nothing when no file ran', () => {
    expect(slowestFilesReport([], 10)).toBe('');
  });
});
