import { cp } from 'node:fs/promises';
import { inject } from 'vitest';

/**
 * A data folder for a shop on the service, as it is after its first start: a copy of the one the
 * run made (migrated-data-folder-setup.ts), in `target`, which must not exist yet.
 */
export async function copyOfMigratedDataFolder(target: string): Promise<string> {
  await cp(inject('migratedDataFolder'), target, { recursive: true, errorOnExist: true, force: false });
  return target;
}
