import { randomUUID } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DataFolderInUseError, type FolderHolder } from '../errors/data-folder-in-use-error.js';

const LOCK_FILE = 'dcbkit-store.lock';
/** A lock file from a dead process is taken over; a race for it is retried this many times. */
const ATTEMPTS = 3;

interface LockRecord extends FolderHolder {
  readonly token: string;
}

export interface FolderLock {
  /** Lets the folder go (only the lock this process wrote); twice does nothing. */
  release(): Promise<void>;
}

/**
 * Takes a PGlite data folder for this process: a lock file in it, created exclusively, holding
 * the pid, the host and a token. A lock file whose process is gone (same host, no such pid, as
 * after SIGKILL) is taken over: renamed away first, which only one contender can do, so two
 * processes starting at once never both take it. Hand-written rather than a lock library because
 * the stale check needs exactly this: pid and host in the file, liveness by `kill(pid, 0)`.
 */
export async function lockDataFolder(folder: string): Promise<FolderLock> {
  // PGlite would create it too, but the lock file goes in first.
  await mkdir(folder, { recursive: true });
  const path = join(folder, LOCK_FILE);
  const mine: LockRecord = {
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    token: randomUUID(),
  };
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (await createExclusively(path, mine)) return heldLock(path, mine.token);
    const holder = await readHolder(path);
    if (holder === 'gone') continue;
    if (holder === undefined || !isDeadHere(holder)) throw new DataFolderInUseError(folder, holder);
    await takeOver(path);
  }
  throw new DataFolderInUseError(folder, undefined);
}

async function createExclusively(path: string, record: LockRecord): Promise<boolean> {
  try {
    const handle = await open(path, 'wx');
    try {
      await handle.writeFile(`${JSON.stringify(record)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** The holder the lock file names; 'gone' when it vanished meanwhile, undefined when unreadable. */
async function readHolder(path: string): Promise<LockRecord | 'gone' | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<LockRecord>;
    return typeof parsed.pid === 'number' && typeof parsed.host === 'string'
      ? (parsed as LockRecord)
      : undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : undefined;
  }
}

/** Only a holder on this host can be known dead: its pid no longer exists. */
function isDeadHere(holder: FolderHolder): boolean {
  if (holder.host !== hostname() || holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    // EPERM: it exists, as another user's process.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function takeOver(path: string): Promise<void> {
  const aside = `${path}.stale-${randomUUID()}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // another contender took it
    throw error;
  }
  await unlink(aside);
}

function heldLock(path: string, token: string): FolderLock {
  const isMine = (text: string) => text.includes(`"token":"${token}"`);
  // A normal exit without close() still lets the folder go; SIGKILL leaves it to the takeover.
  const onExit = () => {
    try {
      if (isMine(readFileSync(path, 'utf8'))) unlinkSync(path);
    } catch {
      // Already gone.
    }
  };
  process.once('exit', onExit);
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      process.removeListener('exit', onExit);
      try {
        if (isMine(await readFile(path, 'utf8'))) await unlink(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    },
  };
}
