// A pids cgroup of its own for each sandbox, where the kernel would not hold the sandbox to RLIMIT_NPROC: run as root,
// a process's count of processes is never checked (fork() exempts the root user, even in a user namespace that maps
// to it). The cgroup is made below this process's own pids cgroup (cgroup v1's pids hierarchy, or v2 with the pids
// controller), holds at most `max` processes and threads, and is removed once its processes are gone: looked at every
// half second while there is one, and at exit. Linux only; used where its folder is writable (root).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/** The prefix of every cgroup WP Bench makes: `wp-bench-<pid>-<n>`. */
export const CGROUP_PREFIX = 'wp-bench-';

interface Made {
  dir: string;
  at: number;
  /** its processes were seen in it (or its pids.peak says so): an empty cgroup then is one whose sandbox ended */
  populated: boolean;
}

const made = new Map<string, Made>();
let count = 0;
let timer: NodeJS.Timeout | undefined;
let base: { dir: string; v2: boolean } | null | undefined;

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/**
 * The folder this process's own pids cgroup is seen at (from /proc/self/mountinfo and /proc/self/cgroup), or null:
 * no pids controller, or not writable.
 */
function findBase(): { dir: string; v2: boolean } | null {
  if (process.platform !== 'linux') return null;
  const own = new Map<string, string>();
  for (const line of read('/proc/self/cgroup').split('\n')) {
    const m = /^\d+:([^:]*):(.*)$/.exec(line);
    if (m) for (const c of m[1] === '' ? ['<v2>'] : m[1].split(',')) own.set(c, m[2]);
  }
  for (const line of read('/proc/self/mountinfo').split('\n')) {
    const [pre, post] = line.split(' - ');
    if (!post) continue;
    const f = pre.split(' ');
    const [fstype, , superOpts = ''] = post.split(' ');
    const v2 = fstype === 'cgroup2';
    if (!v2 && !(fstype === 'cgroup' && superOpts.split(',').includes('pids'))) continue;
    const cg = own.get(v2 ? '<v2>' : 'pids');
    const root = f[3];
    if (cg === undefined || !(cg === root || cg.startsWith(root === '/' ? '/' : `${root}/`))) continue;
    const dir = path.join(f[4], path.relative(root, cg));
    if (v2 && !read(path.join(dir, 'cgroup.controllers')).split(/\s+/).includes('pids')) continue;
    return { dir, v2 };
  }
  return null;
}

/** Removes the cgroups of WP Bench processes that no longer exist (an empty one only: a full one refuses). */
function sweepStale(dir: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    const pid = Number(new RegExp(`^${CGROUP_PREFIX}(\\d+)-\\d+$`).exec(n)?.[1]);
    if (!pid || pid === process.pid || existsSync(`/proc/${pid}`)) continue;
    try {
      rmdirSync(path.join(dir, n));
    } catch {
      /* still has processes, or not ours to remove */
    }
  }
}

/** Removes the cgroups whose sandboxes have ended (or never started within a minute). */
function sweep(all = false): void {
  for (const m of made.values()) {
    const procs = read(path.join(m.dir, 'cgroup.procs')).trim();
    if (procs !== '' || Number(read(path.join(m.dir, 'pids.peak'))) > 0) m.populated = true;
    if (procs !== '' || !(all || m.populated || Date.now() - m.at > 60_000)) continue;
    removePidsCgroup(m.dir);
  }
}

/** Removes one cgroup now (its processes gone); true when it is gone. */
export function removePidsCgroup(dir: string): boolean {
  try {
    rmdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return false;
  }
  made.delete(dir);
  if (made.size === 0 && timer) {
    clearInterval(timer);
    timer = undefined;
  }
  return true;
}

/**
 * A new pids cgroup of at most `max` processes, or undefined where none can be made here. Its processes are those
 * that write their pid into its cgroup.procs (the sandbox's first command does, before it runs anything else).
 */
export function makePidsCgroup(max: number): string | undefined {
  if (base === undefined) {
    base = findBase();
    if (base) {
      sweepStale(base.dir);
      process.once('exit', () => sweep(true));
    }
  }
  if (!base) return undefined;
  const dir = path.join(base.dir, `${CGROUP_PREFIX}${process.pid}-${++count}`);
  try {
    // v2: the pids controller for this cgroup's children (a threaded controller: allowed beside its own processes).
    if (base.v2 && !read(path.join(base.dir, 'cgroup.subtree_control')).split(/\s+/).includes('pids')) writeFileSync(path.join(base.dir, 'cgroup.subtree_control'), '+pids');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'pids.max'), String(max));
  } catch {
    try {
      rmdirSync(dir);
    } catch {
      /* never made */
    }
    return undefined;
  }
  made.set(dir, { dir, at: Date.now(), populated: false });
  timer ??= setInterval(() => sweep(), 500).unref();
  return dir;
}

/** How many times a process could not be started in the cgroup because it was full (its pids.events). */
export function pidsLimitHits(dir: string): number {
  return Number(/^max (\d+)$/m.exec(read(path.join(dir, 'pids.events')))?.[1] ?? 0);
}

/** The cgroups this process made that still exist. */
export function madePidsCgroups(): string[] {
  return [...made.keys()].filter((d) => existsSync(d));
}
