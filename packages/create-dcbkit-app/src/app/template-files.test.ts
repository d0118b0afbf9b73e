import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packTemplate } from '../build/pack-template.js';
import { appManifest } from './app-manifest.js';
import { frameworkNames, readFramework } from './frameworks.js';
import { templateDir } from './package-root.js';
import { templateFiles } from './template-files.js';

describe('templateFiles', () => {
  it.each(frameworkNames())(
    'gives the %s app its dotfiles under their real names, data files left out',
    (name) => {
      const files = templateFiles(readFramework(name));
      for (const path of [
        '.gitignore',
        '.dockerignore',
        '.env.example',
        'Dockerfile',
        'README.md',
        'vitest.config.ts',
      ]) {
        expect(files.has(path), path).toBe(true);
      }
      for (const path of ['gitignore', 'env.example', 'manifest.json', 'framework.json', 'package.json']) {
        expect(files.has(path), path).toBe(false);
      }
      expect(files.get('.gitignore')?.toString()).toMatch(/^node_modules\/$/m);
      expect(files.get('.gitignore')?.toString()).toMatch(/^\.data\/$/m);
      expect(files.get('.gitignore')?.toString()).toMatch(/^\.env$/m);
      // The README's `--state sandbox-state.json` writes it into the app: never committed nor copied in.
      expect(files.get('.gitignore')?.toString()).toMatch(/^sandbox-state\.json$/m);
      expect(files.get('.dockerignore')?.toString()).toMatch(/^sandbox-state\.json$/m);
    },
  );

  it.each(frameworkNames())('names %s in the README, with no placeholder left', (name) => {
    const framework = readFramework(name);
    const readme = templateFiles(framework).get('README.md')?.toString() ?? '';
    expect(readme).toContain(`# A dcbkit shop on ${framework.title}`);
    expect(readme).not.toContain('{{');
  });

  it.each(frameworkNames())('keeps %s to src/framework/: the shop never imports a framework', (name) => {
    const framework = readFramework(name);
    const frameworkPackages = [framework.adapter, ...Object.keys(framework.dependencies)];
    const offenders = [...templateFiles(framework)]
      .filter(([path]) => path.endsWith('.ts') && !path.startsWith('src/framework/'))
      .flatMap(([path, content]) =>
        frameworkPackages
          .filter((pkg) => new RegExp(`from '${pkg}(/[^']*)?'`).test(content.toString()))
          .map((pkg) => `${path} imports ${pkg}`),
      );
    expect(offenders).toEqual([]);
  });

  it.each(frameworkNames())(
    'gives the %s app its own overlay only, and a framework.json of its own',
    (name) => {
      const paths = [...templateFiles(readFramework(name)).keys()].filter((path) =>
        path.startsWith('src/framework/'),
      );
      expect(paths).toContain(`src/framework/${name}/create-shop-app.ts`);
      expect(paths.filter((path) => !path.startsWith(`src/framework/${name}/`))).toEqual([]);
      expect(paths).not.toContain(`src/framework/${name}/framework.json`);
      expect(readFramework(name).adapter).toMatch(/^@dcbkit\//);
    },
  );

  it("runs in place on what every framework's app depends on (starters/shop/package.json)", () => {
    const inPlace = JSON.parse(readFileSync(join(templateDir(), 'package.json'), 'utf8'));
    const wanted = frameworkNames().flatMap((name) => {
      const framework = readFramework(name);
      const app = JSON.parse(appManifest({ name: 'x', framework, source: { kind: 'workspace' } }));
      return [
        ...Object.entries<string>(app.dependencies).map(([pkg, range]) => ['dependencies', pkg, range]),
        ...Object.entries<string>(app.devDependencies).map(([pkg, range]) => ['devDependencies', pkg, range]),
      ];
    });
    const missing = wanted.filter(([field = '', pkg = '', range]) => inPlace[field]?.[pkg] !== range);
    expect(missing).toEqual([]);
    expect(Object.keys(inPlace.imports['#framework']).sort()).toEqual(
      [...frameworkNames(), 'default'].sort(),
    );
  });
});

describe('packTemplate', () => {
  const work = mkdtempSync(join(tmpdir(), 'dcbkit-packed-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('packs what gives every framework the same app, the dotfiles under names npm keeps', () => {
    packTemplate(work);
    expect(existsSync(join(work, 'gitignore'))).toBe(true);
    expect(existsSync(join(work, '.gitignore'))).toBe(false);
    expect(existsSync(join(work, 'package.json'))).toBe(false);
    for (const name of frameworkNames()) {
      const framework = readFramework(name);
      expect(templateFiles(framework, work)).toEqual(templateFiles(framework));
    }
  });
});
