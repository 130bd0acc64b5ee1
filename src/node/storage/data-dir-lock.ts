/**
 * One node per data dir. Two processes building blocks into the same `node.db` would interleave
 * their writes (each believes its own last accepted block), so the second `flurry start` or
 * `flurry node` on a data dir must refuse before it opens anything. The lock is a `LOCK` file
 * holding the owner's pid, created exclusively; a lock whose process is gone (a `kill -9`) is
 * stale and taken over.
 */
import fs from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'LOCK';
/** The data roles (`indexer`, `api` on SQLite) each leave a file named by their pid here. */
const USERS_DIR = 'users';

export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `the data dir ${dataDir} is in use by another flurry process` +
        (Number.isNaN(pid) ? '' : ` (pid ${pid})`) +
        '; stop it first or choose another --data-dir',
    );
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !zombie(pid);
}

/**
 * A process killed with `kill -9` is a zombie until its parent waits for it, which a
 * container's PID 1 or a slow supervisor may never (or only much later) do. It still answers
 * kill(pid, 0) but holds no files and writes nothing. Linux says so in /proc/<pid>/stat (state
 * `Z`, after the parenthesised command name); elsewhere the check is skipped.
 */
function zombie(pid: number): boolean {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
}

/** The pid of the live process that holds `dataDir`, or undefined when none does. */
function dataDirLockHolder(dataDir: string): number | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(text, 10);
  // Our own pid in a stale file is a recycled pid (a container restarted), not a second owner.
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || !alive(pid)) return undefined;
  return pid;
}

/** Takes `dataDir` for this process; throws DataDirLockedError when a live process has it. */
export function lockDataDir(dataDir: string): { release(): void } {
  const file = path.join(dataDir, LOCK_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = dataDirLockHolder(dataDir);
      if (holder !== undefined) throw new DataDirLockedError(dataDir, holder);
      // Still there after removing a stale one: another process is taking it right now.
      if (attempt > 0) throw new DataDirLockedError(dataDir, Number.NaN);
      // Stale: its owner died without releasing it (kill -9). Remove it and try once more.
      fs.rmSync(file, { force: true });
    }
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      try {
        if (Number.parseInt(fs.readFileSync(file, 'utf8'), 10) === process.pid) fs.rmSync(file);
      } catch {
        // Already gone (the dir was removed): nothing to release.
      }
    },
  };
}

/**
 * `flurry indexer` and `flurry api` on the SQLite store share a data dir with a node and each
 * other, so they take no LOCK; but deleting the dir under them (`--reset`) would leave them on
 * the unlinked file while a new process starts another. Each says it uses the dir with a file
 * named by its pid, removed when it stops (a killed one's is stale, as a LOCK's).
 */
export function registerDataDirUser(dataDir: string): { release(): void } {
  const dir = path.join(dataDir, USERS_DIR);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, String(process.pid));
  fs.writeFileSync(file, '');
  return {
    release() {
      fs.rmSync(file, { force: true });
    },
  };
}

/** The pid of a live process using `dataDir` (its node, or a data role on its store), if any. */
export function dataDirUser(dataDir: string): number | undefined {
  const holder = dataDirLockHolder(dataDir);
  if (holder !== undefined) return holder;
  let names: string[];
  try {
    names = fs.readdirSync(path.join(dataDir, USERS_DIR));
  } catch {
    return undefined;
  }
  return names
    .map((name) => Number.parseInt(name, 10))
    .find((pid) => Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && alive(pid));
}
