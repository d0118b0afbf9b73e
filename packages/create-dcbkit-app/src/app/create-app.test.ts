import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CreateAppError } from '../errors/create-app-error.js';
import { appManifest } from './app-manifest.js';
import { createApp, packageNameOf } from './create-app.js';
import { findRepository, registryRanges } from './dcbkit-packages.js';
import { readFramework } from './frameworks.js';

describe('createApp', () => {
  const work = mkdtempSync(join(tmpdir(), 'dcbkit-create-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('writes the shop, the framework overlay and a package.json into a new folder', () => {
    const dir = join(work, 'new', 'My Shop');
    const app = createApp({ dir, framework: 'koa', workspace: true });
    expect(app.source).toEqual({ kind: 'workspace' });
    for (const path of [
      'src/main.ts',
      'src/framework/koa/create-shop-app.ts',
      '.gitignore',
      'package.json',
    ]) {
      expect(existsSync(join(dir, path)), path).toBe(true);
    }
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      name: 'my-shop',
      private: true,
      scripts: { start: 'node --import tsx src/main.ts', test: 'vitest run' },
      // chart.js: the operations view's Business page serves it from the app's own node_modules.
      dependencies: { '@dcbkit/koa': 'workspace:^', koa: expect.any(String), 'chart.js': expect.any(String) },
      devDependencies: { vitest: expect.any(String), supertest: expect.any(String) },
      imports: { '#framework': './src/framework/koa/create-shop-app.ts' },
      // npm 11 warns on every install about an install script no allowScripts entry covers.
      allowScripts: { esbuild: true },
    });
    expect(manifest.dependencies.express).toBeUndefined();
    expect(existsSync(join(dir, 'src/framework/express')), 'the other framework').toBe(false);
  });

  it('refuses a folder with files unless --force, naming them', () => {
    const dir = join(work, 'taken');
    mkdirSync(dir);
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    let refusal: unknown;
    try {
      createApp({ dir, framework: 'express', workspace: true });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(CreateAppError);
    expect(refusal).toMatchObject({ code: 'folder_not_empty', exitCode: 3 });
    expect((refusal as Error).message).toContain('notes.txt');
    expect(existsSync(join(dir, 'package.json'))).toBe(false);

    createApp({ dir, framework: 'express', workspace: true, force: true });
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine');
    expect(existsSync(join(dir, 'src', 'framework', 'express', 'exchange.ts'))).toBe(true);
  });

  it('refuses an unknown framework, listing the known ones', () => {
    expect(() => createApp({ dir: join(work, 'x'), framework: 'hapi', workspace: true })).toThrow(
      /--framework must be one of express, koa; it is "hapi"/,
    );
  });

  it('makes a valid npm name of the folder', () => {
    expect(packageNameOf('/tmp/My Shop!')).toBe('my-shop');
    expect(packageNameOf('/tmp/.hidden')).toBe('hidden');
    expect(packageNameOf('/tmp/___')).toBe('dcbkit-shop');
  });
});

describe('the dcbkit packages of each mode', () => {
  const framework = readFramework('express');

  it('points local installs at the tarballs, in dependencies and overrides alike', () => {
    const tarballs = {
      '@dcbkit/core': 'dcbkit-packages/dcbkit-core-0.1.0.tgz',
      '@dcbkit/express': 'dcbkit-packages/dcbkit-express-0.1.0.tgz',
      '@dcbkit/sandbox': 'dcbkit-packages/dcbkit-sandbox-0.1.0.tgz',
      '@dcbkit/store-postgres': 'dcbkit-packages/dcbkit-store-postgres-0.1.0.tgz',
    };
    const manifest = JSON.parse(
      appManifest({ name: 'shop', framework, source: { kind: 'local', tarballs } }),
    );
    for (const [name, tarball] of Object.entries(tarballs)) {
      expect(manifest.dependencies[name]).toBe(`file:${tarball}`);
      expect(manifest.overrides[name]).toBe(`file:${tarball}`);
    }
  });

  it('names the registry versions of the repository packages, with no overrides', () => {
    const repository = findRepository();
    const names = ['@dcbkit/core', '@dcbkit/express', '@dcbkit/sandbox', '@dcbkit/store-postgres'];
    const ranges = registryRanges(names, repository);
    const core = JSON.parse(readFileSync(join(repository ?? '', 'packages/core/package.json'), 'utf8'));
    expect(ranges['@dcbkit/core']).toBe(`^${core.version}`);
    const manifest = JSON.parse(
      appManifest({ name: 'shop', framework, source: { kind: 'registry', ranges } }),
    );
    expect(manifest.dependencies['@dcbkit/express']).toMatch(/^\^\d+\.\d+\.\d+/);
    expect(manifest.overrides).toBeUndefined();
  });
});
