import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, from bench/soak/src. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TEMPLATE = join(ROOT, 'starters', 'shop');
/** What the app needs to run; its tests and the repository's build files stay behind. */
const COPIED = ['src', 'views', 'locales', 'public', 'package.json', 'tsconfig.json', 'manifest.json'];

/** The soak's accounts: `soak-0001`... */
export function accountIdOf(index: number): string {
  return `soak-${String(index + 1).padStart(4, '0')}`;
}

/**
 * The shop template as a partner takes it: its files copied into a folder of their own (as
 * create-dcbkit-app copies them), the demo sign-in's three accounts replaced by the partner's own
 * users (`accounts` of them: the template says to replace it, and a soak needs hundreds), and
 * the template's installed dependencies linked rather than installed again, so the packages are
 * the repository's built `dist` (the starter resolves them through their `exports`, no source
 * condition). Returns the folder; `remove()` deletes it.
 */
export function prepareShopApp(accounts: number): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'dcbkit-soak-shop-'));
  for (const name of COPIED) {
    cpSync(join(TEMPLATE, name), join(dir, name), {
      recursive: true,
      filter: (source) => !basename(source).endsWith('.test.ts'),
    });
  }
  symlinkSync(join(TEMPLATE, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'src', 'accounts.ts'), accountsModule(accounts));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The template's accounts.ts, with the soak's users: same exports, a Map for the look-up. */
function accountsModule(count: number): string {
  const accounts = Array.from({ length: count }, (_, index) => ({
    id: accountIdOf(index),
    name: `Subscriber ${index + 1}`,
  }));
  return `// Written by bench/soak: the partner's own users in place of the demo accounts.
export interface DemoAccount {
  id: string;
  name: string;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = ${JSON.stringify(accounts)};

const BY_ID = new Map(DEMO_ACCOUNTS.map((account) => [account.id, account]));

export function findDemoAccount(id: unknown): DemoAccount | undefined {
  return typeof id === 'string' ? BY_ID.get(id) : undefined;
}
`;
}
