import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CreateAppError } from '../errors/create-app-error.js';
import { templateDir } from './package-root.js';

/** A framework overlay's data file, src/framework/<name>/framework.json in the template. */
export interface Framework {
  /** The folder name, what `--framework` takes: `express`. */
  name: string;
  /** For people: `Express 5`. */
  title: string;
  /** The dcbkit adapter package the overlay mounts: `@dcbkit/express`. */
  adapter: string;
  dependencies: Readonly<Record<string, string>>;
  devDependencies: Readonly<Record<string, string>>;
}

/** The template's folder of framework overlays: one folder each, src/framework/<name>/. */
export function overlaysDir(): string {
  return join(templateDir(), 'src', 'framework');
}

/** The frameworks the template supports: one overlay each. */
export function frameworkNames(): string[] {
  return readdirSync(overlaysDir(), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

export function readFramework(name: string): Framework {
  const names = frameworkNames();
  if (!names.includes(name)) {
    throw new CreateAppError(
      'invalid_command_line',
      `--framework must be one of ${names.join(', ')}; it is "${name}".`,
    );
  }
  const file = join(overlaysDir(), name, 'framework.json');
  if (!existsSync(file)) throw new CreateAppError('template_broken', `${file} is missing.`);
  const data = JSON.parse(readFileSync(file, 'utf8')) as Partial<Framework>;
  const { title, adapter, dependencies = {}, devDependencies = {} } = data;
  if (typeof title !== 'string' || typeof adapter !== 'string') {
    throw new CreateAppError('template_broken', `${file} needs a "title" and an "adapter".`);
  }
  return { name, title, adapter, dependencies, devDependencies };
}
