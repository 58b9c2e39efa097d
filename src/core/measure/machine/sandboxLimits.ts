// The sandbox's limits: how many processes the code inside may have, and how much memory each PHP process may map,
// so that a plugin cannot exhaust the machine's process table or memory until the run's time limit ends it. A plugin
// that reaches one ends the run as failed, saying which limit (see run/phpLog.ts).
//
// How they bite (measured on Linux 6.18, bubblewrap 0.8):
// - Memory: RLIMIT_AS, set by the sandbox's first command (`ulimit -v`, soft and hard: the plugin cannot raise it
//   again). PHP's allocator then fails to map memory ("mmap() failed: [12] Cannot allocate memory") and PHP stops.
// - Processes: RLIMIT_NPROC (`ulimit -u`) counts the processes and threads of a user; in the sandbox's own user
//   namespace (bubblewrap 0.8+, `--unshare-user`) only those of the sandbox. Without a user namespace of its own it
//   would count every process of the user on the machine (a desktop's browser threads included), so it is not set
//   there. Run as root it is never enforced (the kernel exempts the root user, and the sandbox's root maps to it): a
//   pids cgroup of the sandbox's own (pidsCgroup.ts) holds it to the limit instead, where one can be made.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { makePidsCgroup, pidsLimitHits } from './pidsCgroup';

export interface SandboxLimits {
  /** processes and threads of the sandbox, all together */
  processes: number;
  /** address space of each process (RLIMIT_AS), bytes; none when absent */
  addressSpaceBytes?: number;
}

const GiB = 1024 ** 3;

/**
 * PHP's sandbox (php -S, its relay and whatever a plugin starts). 2 GiB of address space: php -S with opcache maps
 * about 630 MB when it starts (opcache's 512 MB of shared memory is address space too), and a request holding 960 MiB
 * under PHP's own memory_limit (1024M, which says "Allowed memory size … exhausted" first) peaks at 1.6 GB: room to
 * spare, while a plugin that lifts memory_limit stops at 2 GiB rather than at the machine's memory. (It is address
 * space, reserved or used: a threaded extension's stacks and malloc arenas count.) 1,024 processes: a WordPress
 * request starts none of its own, a plugin's image or cron work a few.
 */
export const PHP_LIMITS: SandboxLimits = { processes: 1024, addressSpaceBytes: 2 * GiB };

/**
 * The database server's sandbox: no limit of address space. Unlimited, mariadbd 10.11 maps about 8 TiB of address
 * space (reserved, not used: 100 MB resident); under 2 GiB it still starts (1.7 GB mapped, the 256 MB buffer pool
 * included, on 2 cores) but each connection's thread stack and malloc arena (64 MiB, up to 8 per core) maps more, so
 * a limit it lives with on every machine limits nothing. The measured code runs no code there, only queries whose
 * memory the server's own settings bound. 1,024 processes (threads): it runs about 12, one more per connection (50
 * at most).
 */
export const DB_LIMITS: SandboxLimits = { processes: 1024 };

/** The limits of a sandbox that runs `bin`: the database server's, else PHP's. */
export function limitsFor(bin: string): SandboxLimits {
  return /^(mariadbd|mysqld)$/.test(path.basename(bin)) ? DB_LIMITS : PHP_LIMITS;
}

/** Where the sandbox sees its cgroup's cgroup.procs (a tmpfs of its own: nowhere else it can write). */
export const CGROUP_PROCS_INSIDE = '/run/wp-bench-cgroup.procs';

/** The current soft limit of this process (what the sandbox inherits), or Infinity. */
function currentLimit(name: 'Max processes' | 'Max address space'): number {
  let text = '';
  try {
    text = readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return Infinity;
  }
  const soft = new RegExp(`^${name}\\s+(\\S+)`, 'm').exec(text)?.[1];
  return soft === undefined || soft === 'unlimited' ? Infinity : Number(soft);
}

/** How the limit on processes can be enforced here (decided by the sandbox's probe; rlimit only until then). */
export interface LimitSupport {
  /** RLIMIT_NPROC counts the sandbox's processes only (its own user namespace) and applies (not root) */
  rlimit: boolean;
  /** a pids cgroup per sandbox can be made and joined (root) */
  cgroup: boolean;
  /** the limits cannot be set here (why): the sandbox runs without */
  off?: string;
}

/** The limits a sandbox gets here, as said with the sandbox. */
export function describeLimits(support: LimitSupport, hardened: boolean): string {
  if (support.off) return `none (they cannot be set here: ${support.off})`;
  const memory = `${bytes(PHP_LIMITS.addressSpaceBytes!)} of address space per PHP process`;
  if (support.cgroup) return `at most ${count(PHP_LIMITS.processes)} processes (a pids cgroup of its own) and ${memory}`;
  if (support.rlimit && hardened) return `at most ${count(PHP_LIMITS.processes)} processes (RLIMIT_NPROC in its own user namespace) and ${memory}`;
  const why = support.rlimit ? 'without a user namespace of its own RLIMIT_NPROC would count every process of the user' : 'run as root, RLIMIT_NPROC does not apply and no pids cgroup can be made';
  return `${memory}; no limit of processes (${why})`;
}

/** What a sandbox started with: its limits, how the processes' is enforced, its cgroup. */
export interface AppliedLimits {
  limits: SandboxLimits;
  processes: 'rlimit' | 'cgroup' | 'none';
  cgroup?: string;
}

const applied = new Map<string, AppliedLimits>();

/**
 * The command inside the sandbox that sets the limits (lowering only: a tighter limit of the user's stays), joins
 * the cgroup, then runs `bin args…` in its place; and the bubblewrap arguments it needs (the cgroup's file). What it
 * applied is kept for the folder `cwd` (see appliedLimits).
 */
export function limitedCommand(limits: SandboxLimits, o: { hardened: boolean; support: LimitSupport; cwd: string; bin: string; args: string[] }): { bwrap: string[]; command: string[] } {
  const steps: string[] = [];
  if (o.support.off) {
    applied.delete(o.cwd);
    return { bwrap: [], command: [o.bin, ...o.args] };
  }
  const as = limits.addressSpaceBytes;
  if (as !== undefined && currentLimit('Max address space') > as) steps.push(`ulimit -v ${Math.floor(as / 1024)}`);
  const nproc = o.hardened && o.support.rlimit;
  // dash knows the limit of processes as -p, bash and busybox as -u.
  if (nproc && currentLimit('Max processes') > limits.processes) steps.push(`{ ulimit -u ${limits.processes} 2>/dev/null || ulimit -p ${limits.processes}; }`);
  const cgroup = o.support.cgroup ? makePidsCgroup(limits.processes) : undefined;
  if (cgroup) steps.push(`echo $$ > ${CGROUP_PROCS_INSIDE}`);
  applied.set(o.cwd, { limits, processes: cgroup ? 'cgroup' : nproc ? 'rlimit' : 'none', ...(cgroup ? { cgroup } : {}) });
  // A long-lived process (the extension) keeps the last runs' only.
  if (applied.size > 64) applied.delete(applied.keys().next().value as string);
  if (steps.length === 0) return { bwrap: [], command: [o.bin, ...o.args] };
  const script = `${steps.map((s) => `${s} || { echo "wp-bench: cannot set the sandbox's limits" >&2; exit 126; }`).join('; ')}; exec "$@"`;
  return { bwrap: cgroup ? ['--bind', path.join(cgroup, 'cgroup.procs'), CGROUP_PROCS_INSIDE] : [], command: ['/bin/sh', '-c', script, 'wp-bench-limits', o.bin, ...o.args] };
}

/** What the sandbox started in `cwd` (the site's folder, the database's) was held to, if it was. */
export function appliedLimits(cwd: string): AppliedLimits | undefined {
  return applied.get(cwd);
}

/** PHP's words when starting a process failed for want of a process (EAGAIN): proc_open, exec/system, pcntl_fork. */
const PROCESS_LIMIT_SIGNS = /Fork failed: Resource temporarily unavailable|Unable to fork \[|pcntl_fork\(\): Error 11\b/;
/** PHP's words when the system refused memory (not PHP's own memory_limit, "Allowed memory size … exhausted"). */
const MEMORY_LIMIT_SIGNS = /mmap\(\) failed: \[12\] Cannot allocate memory|Out of memory \(allocated \d+|(^|\\n|\n)Out of memory(\\n|\n|$)/;

/** "1,024 processes", "2 GiB" */
const count = (n: number) => n.toLocaleString('en-US');
const bytes = (n: number) => (n % GiB === 0 ? `${n / GiB} GiB` : `${Math.round(n / 1024 ** 2)} MiB`);

/**
 * Which limit `text` (what PHP logged or printed) shows was reached in the sandbox started in `cwd`: "the sandbox's
 * limit of 1,024 processes", "the sandbox's limit of 2 GiB of memory per process"; the machine's own where the
 * sandbox had none. `sign`: the words that show it (PHP's, or the cgroup's count of processes refused). Undefined
 * when it shows none.
 */
export function limitReached(text: string, cwd: string): { reason: string; sign: string } | undefined {
  const a = appliedLimits(cwd);
  const refused = a?.cgroup !== undefined ? pidsLimitHits(a.cgroup) : 0;
  const proc = PROCESS_LIMIT_SIGNS.exec(text);
  if (proc || refused > 0) {
    const reason = a && a.processes !== 'none' ? `the sandbox's limit of ${count(a.limits.processes)} processes` : "the machine's limit of processes";
    return { reason, sign: proc?.[0] ?? `${count(refused)} process${refused === 1 ? '' : 'es'} could not be started` };
  }
  const mem = MEMORY_LIMIT_SIGNS.exec(text);
  if (mem) {
    const reason = a?.limits.addressSpaceBytes !== undefined ? `the sandbox's limit of ${bytes(a.limits.addressSpaceBytes)} of memory per process` : "the machine's memory";
    return { reason, sign: mem[0].replace(/^(\\n|\n)|(\\n|\n)$/g, '') };
  }
  return undefined;
}
