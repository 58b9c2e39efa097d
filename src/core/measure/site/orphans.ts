// The folders of runs that were killed before they could clean up (SIGKILL, a crash, the machine stopped): each run
// writes its process id into its temporary folder; the next run removes every such folder whose process is gone,
// after stopping the servers still running from it. Only the user's own folders, only WP Bench's name.
import { mkdirSync, promises as fs, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DB_LEFTOVER_FILE, type DbLeftover } from '../database/externalDb';

export const TEMP_PREFIX = 'wp-bench-measure-';
/** In a run's temporary folder: the process id of the run that owns it. */
export const OWNER_FILE = '.wpbench-owner';

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The user's processes whose command line names `root` (`php -S … -t ROOT/site`, `mariadbd --datadir=ROOT/…`): read
 * from /proc (Linux); elsewhere none are found and only the folder goes.
 */
async function processesFrom(root: string): Promise<number[]> {
  const out: number[] = [];
  for (const name of await fs.readdir('/proc').catch(() => [] as string[])) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
    const cmd = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmd.split('\0').some((arg) => arg === root || arg.includes(`${root}/`))) out.push(pid);
  }
  return out;
}

/** Creates a run's temporary folder, owned by this process. */
export async function makeOwnedTempRoot(dir = os.tmpdir()): Promise<string> {
  const root = await fs.mkdtemp(path.join(dir, TEMP_PREFIX));
  await fs.writeFile(path.join(root, OWNER_FILE), String(process.pid));
  return root;
}

/**
 * Removes the temporary folders of runs whose process is gone; returns them. A folder without an owner file (an
 * older version's, or one being created) or owned by a live process is left alone.
 */
export async function sweepOrphanedRoots(dir = os.tmpdir(), alive: (pid: number) => boolean = pidAlive, onOrphan?: (root: string) => Promise<void>): Promise<string[]> {
  const removed: string[] = [];
  const uid = process.getuid?.();
  for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const root = path.join(dir, name);
    const st = await fs.lstat(root).catch(() => undefined);
    if (!st?.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
    const owner = Number((await fs.readFile(path.join(root, OWNER_FILE), 'utf8').catch(() => '')).trim());
    if (!Number.isInteger(owner) || owner <= 0 || alive(owner)) continue;
    // Its PHP and database servers, if they outlived the run: every process whose command line names the folder.
    for (const pid of await processesFrom(root)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    await onOrphan?.(root).catch(() => undefined);
    await fs.rm(root, { recursive: true, force: true }).catch(() => undefined);
    removed.push(root);
  }
  return removed;
}

/**
 * A killed `--db` run's database and user stay on the user's server (its folder is gone, the server may not be
 * reachable now): their names (never a password) are kept here until a run against that server drops them.
 */
export function dbLeftoversDir(dir = os.tmpdir()): string {
  return path.join(dir, 'wp-bench-db-leftovers');
}

/** Keeps an orphaned run's note of its --db database and user (DB_LEFTOVER_FILE in its db folder), if it has one. */
export async function keepDbLeftover(root: string, dir = os.tmpdir()): Promise<void> {
  const text = await fs.readFile(path.join(root, 'db', DB_LEFTOVER_FILE), 'utf8').catch(() => undefined);
  if (!text) return;
  const note = parseLeftover(text);
  if (!note) return;
  await fs.mkdir(dbLeftoversDir(dir), { recursive: true, mode: 0o700 });
  await fs.writeFile(path.join(dbLeftoversDir(dir), `${note.name}.json`), JSON.stringify(note), { mode: 0o600 });
}

function parseLeftover(text: string): DbLeftover | undefined {
  try {
    const n = JSON.parse(text) as DbLeftover;
    if (typeof n.host === 'string' && Number.isInteger(n.port) && /^wpbench_[0-9a-f]{12}$/.test(n.name) && n.user === n.name && typeof n.host_seen === 'string' && !/['\\]/.test(n.host_seen)) {
      // The sides' own databases and users: only names made from the run's own (name_<tag>).
      const extra = Array.isArray(n.extra) ? n.extra.filter((x): x is string => typeof x === 'string' && new RegExp(`^${n.name}_[a-z0-9]{1,8}$`).test(x)) : [];
      return { host: n.host, port: n.port, name: n.name, user: n.user, host_seen: n.host_seen, ...(extra.length ? { extra } : {}) };
    }
  } catch {
    // not a note of ours
  }
  return undefined;
}

/** keepDbLeftover for the exit hook (nothing asynchronous runs while the process exits); never throws. */
export function keepDbLeftoverSync(root: string, dir = os.tmpdir()): void {
  try {
    const note = parseLeftover(readFileSync(path.join(root, 'db', DB_LEFTOVER_FILE), 'utf8'));
    if (!note) return;
    mkdirSync(dbLeftoversDir(dir), { recursive: true, mode: 0o700 });
    writeFileSync(path.join(dbLeftoversDir(dir), `${note.name}.json`), JSON.stringify(note), { mode: 0o600 });
  } catch {
    // no note (not a --db run), or nowhere to keep it
  }
}

/** The kept notes (each a database and user of a killed run, on some server). */
export async function readDbLeftovers(dir = os.tmpdir()): Promise<DbLeftover[]> {
  const out: DbLeftover[] = [];
  for (const f of await fs.readdir(dbLeftoversDir(dir)).catch(() => [] as string[])) {
    if (!/^wpbench_[0-9a-f]{12}\.json$/.test(f)) continue;
    const n = parseLeftover(await fs.readFile(path.join(dbLeftoversDir(dir), f), 'utf8').catch(() => ''));
    if (n) out.push(n);
  }
  return out;
}

/** Forgets a note once its database and user are dropped. */
export async function forgetDbLeftover(name: string, dir = os.tmpdir()): Promise<void> {
  if (/^wpbench_[0-9a-f]{12}$/.test(name)) await fs.rm(path.join(dbLeftoversDir(dir), `${name}.json`), { force: true }).catch(() => undefined);
}
