import { readFile, unlink, writeFile } from 'node:fs/promises';
import { EmbeddedDatabaseLockedError } from '../errors';

// Lock files this process holds: its own pid in a file is not proof of a stale lock.
const held = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function writeExclusive(file: string): Promise<boolean> {
  try {
    await writeFile(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function holderOf(file: string): Promise<number> {
  return Number.parseInt(await readFile(file, 'utf8'), 10);
}

/**
 * PGlite has no postmaster.pid, so two processes could open one data directory and corrupt it.
 * A pid file next to the directory refuses the second; a file left by a dead process is taken over.
 */
export async function acquirePidLock(file: string, dataDir: string): Promise<() => Promise<void>> {
  if (held.has(file)) throw new EmbeddedDatabaseLockedError(dataDir, process.pid);
  if (!(await writeExclusive(file))) {
    const holder = await holderOf(file);
    // A restarted container reuses its pid, so our own pid in the file is stale too.
    if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
      throw new EmbeddedDatabaseLockedError(dataDir, holder);
    }
    await unlink(file);
    if (!(await writeExclusive(file))) throw new EmbeddedDatabaseLockedError(dataDir, await holderOf(file));
  }
  held.add(file);
  return async () => {
    held.delete(file);
    await unlink(file);
  };
}
