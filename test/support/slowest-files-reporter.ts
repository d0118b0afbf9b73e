import type { Reporter, TestModule } from 'vitest/node';

/** A test file's time: importing it (what it imports, its top-level code) and its tests and hooks. */
export interface FileTime {
  file: string;
  project: string;
  ms: number;
}

/** The `count` slowest files, slowest first, one line each: seconds, project, path. */
export function slowestFilesReport(files: readonly FileTime[], count: number): string {
  const slowest = [...files].sort((a, b) => b.ms - a.ms).slice(0, count);
  if (slowest.length === 0) return '';
  const lines = slowest.map(
    ({ file, project, ms }) => `${(ms / 1000).toFixed(1).padStart(7)} s  ${project.padEnd(12)} ${file}`,
  );
  return [`The ${slowest.length} slowest test files:`, ...lines].join('\n');
}

/**
 * Printed after the default reporter's summary, so that a file that became slow shows in every
 * `pnpm test` instead of waiting for someone to sort a JSON report.
 */
export class SlowestFilesReporter implements Reporter {
  constructor(private readonly count = 10) {}

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const files = testModules.map((module) => {
      const { collectDuration, duration } = module.diagnostic();
      return { file: module.relativeModuleId, project: module.project.name, ms: collectDuration + duration };
    });
    const report = slowestFilesReport(files, this.count);
    if (report !== '') process.stdout.write(`\n${report}\n`);
  }
}
