import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { frameworkNames, readFramework } from './frameworks.js';
import { templatesDir } from './package-root.js';
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

  it.each(frameworkNames())('holds only src/framework/ and framework.json in the %s overlay', (name) => {
    const overlay = join(templatesDir(), 'frameworks', name);
    const paths = readdirSync(overlay, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(overlay, join(entry.parentPath, entry.name)).split(sep).join('/'));
    expect(paths.filter((path) => path !== 'framework.json' && !path.startsWith('src/framework/'))).toEqual(
      [],
    );
    expect(paths).toContain('src/framework/create-shop-app.ts');
    expect(readFramework(name).adapter).toMatch(/^@dcbkit\//);
  });
});
