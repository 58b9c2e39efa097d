// The folders of runs that were killed before they could clean up (SIGKILL, a crash, the machine stopped): each run
// writes its process id into its temporary folder; the next run removes every such folder whose process is gone,
// after stopping the servers still running from it. Only the user's own folders, only WP Bench's name.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

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
export async function sweepOrphanedRoots(dir = os.tmpdir(), alive: (pid: number) => boolean = pidAlive): Promise<string[]> {
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
    await fs.rm(root, { recursive: true, force: true }).catch(() => undefined);
    removed.push(root);
  }
  return removed;
}
