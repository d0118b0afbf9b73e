import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../app/create-app.js';
import { findRepository } from '../app/dcbkit-packages.js';
import { frameworkNames } from '../app/frameworks.js';
import { starterDrift, starterOf } from './starters.js';

// starters/<framework> are the generator's output, committed so that they stay browsable: each
// must be exactly what `create-dcbkit-app --workspace` writes today.
describe('the committed starters', () => {
  const work = mkdtempSync(join(tmpdir(), 'dcbkit-starters-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const repository = findRepository();

  it('are found in this repository', () => {
    expect(repository).toBeDefined();
  });

  it.each(frameworkNames())('starters/%s is what the generator writes', (framework) => {
    const starter = starterOf(repository ?? '', framework);
    const generated = join(work, framework);
    createApp({ dir: generated, framework, workspace: true, name: starter.name });
    const drift = starterDrift(starter.dir, generated);
    expect(
      drift,
      `starters/${framework} differs from the templates: run pnpm generate:starters and commit the result.\n- ${drift.join('\n- ')}`,
    ).toEqual([]);
  });
});

describe('starterDrift', () => {
  const work = mkdtempSync(join(tmpdir(), 'dcbkit-drift-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('names each changed, missing and extra file, and ignores what .gitignore lists', () => {
    const a = join(work, 'a');
    const b = join(work, 'b');
    createApp({ dir: a, framework: 'express', workspace: true, name: 'x' });
    createApp({ dir: b, framework: 'express', workspace: true, name: 'x' });
    expect(starterDrift(a, b)).toEqual([]);
    writeFileSync(join(a, 'src', 'offers.ts'), '// edited by hand\n');
    rmSync(join(a, 'Dockerfile'));
    writeFileSync(join(a, 'notes.txt'), 'mine');
    mkdirSync(join(a, 'node_modules'));
    writeFileSync(join(a, 'node_modules', 'x.js'), '');
    writeFileSync(join(a, '.env'), 'SESSION_SECRET=x');
    writeFileSync(join(a, 'sandbox-state.json'), '{}');
    expect(starterDrift(a, b)).toEqual([
      'Dockerfile (missing from the starter)',
      'notes.txt (not generated)',
      'src/offers.ts (differs)',
    ]);
  });
});
