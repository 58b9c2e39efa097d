// The native runtime's sandbox: on Linux, `php -S` (and everything it starts) runs under bubblewrap — the tool
// Flatpak uses — in its own PID namespace, with a read-only view of the system, the run's temporary folder the only
// writable place, no view of the user's home, the cache folder or any other process, all capabilities dropped, and
// every process it started killed by the kernel when the run ends (the namespace's first process dies with WP Bench).
// Where bubblewrap is missing or refused (macOS, a kernel without user namespaces), the run goes on unsandboxed and
// says so; leftovers are then found by a marker variable in their environment and killed (Linux).
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { childProcess } from '../../lazyNode';
import { removePidsCgroup } from './pidsCgroup';
import { appliedLimits, describeLimits, limitedCommand, limitsFor, PHP_LIMITS, type LimitSupport, type SandboxLimits } from './sandboxLimits';

/** `playground`: WordPress Playground's WebAssembly PHP, which is a sandbox of its own (see engine.ts). */
export type SandboxName = 'bubblewrap' | 'none' | 'playground';
export type SandboxChoice = 'auto' | 'bubblewrap' | 'none';

/** The variable every process of an unsandboxed run inherits, so its leftovers can be found afterwards. */
export const RUN_MARKER = 'WPBENCH_RUN';

/** System folders PHP needs to start, bound read-only (merged-/usr systems: the top-level ones are links). */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** What of /etc PHP reads (its ini files, the php alternative, libc's name service, TLS roots, time zones). */
const ETC_ENTRIES = [
  '/etc/php',
  '/etc/alternatives',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/localtime',
  '/etc/passwd',
  '/etc/group',
  '/etc/nsswitch.conf',
  '/etc/hosts',
  '/etc/host.conf',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/mime.types',
  '/etc/ImageMagick-6',
  '/etc/fonts',
];

export interface SandboxProbe {
  name: SandboxName;
  /** bwrap binary, when name is bubblewrap */
  bin?: string;
  /** why there is none (shown with the result) */
  why?: string;
  /**
   * bubblewrap 0.8+: the sandbox is a user namespace of its own with further user namespaces refused
   * (`--disable-userns`), which also empties the capability bounding set when run as root; `--size` caps its tmpfs
   * folders. Older bubblewrap (0.4–0.7) runs without these; the probe says so.
   */
  hardened?: boolean;
  /** the limits its processes are held to (sandboxLimits.ts), as said with the result */
  limits?: string;
}

/** What the sandbox's own folders (/tmp, /dev/shm, /run, /var: memory-backed) may hold, each. */
export const SANDBOX_TMPFS_BYTES = 256 * 1024 * 1024;

let probed: Promise<SandboxProbe> | undefined;

const asRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;
/** How the sandbox's limit of processes is enforced here: until the probe has tried, by RLIMIT_NPROC where it bites. */
let limitSupport: LimitSupport = { rlimit: !asRoot(), cgroup: false };

function which(bin: string, pathVar: string | undefined): string | undefined {
  for (const dir of (pathVar ?? '/usr/local/bin:/usr/bin:/bin').split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, bin);
    if (existsSync(p)) return p;
  }
  return undefined;
}

/**
 * Whether bubblewrap can make a sandbox here: found on PATH and able to start `true` in a new PID namespace (a
 * kernel or a container that refuses user namespaces fails this). Asked once per process.
 */
export function probeSandbox(env: NodeJS.ProcessEnv): Promise<SandboxProbe> {
  if (process.platform !== 'linux') return Promise.resolve({ name: 'none', why: `no sandbox on ${process.platform} (bubblewrap is Linux only)` });
  probed ??= new Promise<SandboxProbe>((resolve) => {
    const bin = which('bwrap', env.PATH);
    if (!bin) return resolve({ name: 'none', why: 'bubblewrap is not installed (Debian/Ubuntu: sudo apt install bubblewrap)' });
    const tryCommand = (args: string[]) =>
      new Promise<string | undefined>((done) =>
        childProcess().execFile(bin, args, { env: { PATH: env.PATH ?? '/usr/bin:/bin' }, timeout: 10_000 }, (err, _out, stderr) =>
          done(err ? String(stderr || err.message).trim().split('\n')[0].slice(0, 200) : undefined),
        ),
      );
    const tryArgs = (hardened: boolean) => tryCommand([...baseArgs(hardened), '--', 'true']);
    // The limits, tried once as a run sets them: a pids cgroup joined from inside where root (RLIMIT_NPROC does not
    // bite there), else the rlimits alone; where neither works the sandbox runs without and says so.
    const tryLimits = async (hardened: boolean): Promise<string | undefined> => {
      let why: string | undefined;
      for (const support of asRoot() ? [{ rlimit: false, cgroup: true }, { rlimit: false, cgroup: false }] : [{ rlimit: true, cgroup: false }]) {
        const cmd = limitedCommand(PHP_LIMITS, { hardened, support, cwd: '\0probe', bin: 'true', args: [] });
        why = await tryCommand([...baseArgs(hardened), ...cmd.bwrap, '--', ...cmd.command]);
        const cgroup = appliedLimits('\0probe')?.cgroup;
        if (cgroup) removePidsCgroup(cgroup);
        if (why === undefined) {
          limitSupport = support;
          return describeLimits(support, hardened);
        }
      }
      limitSupport = { rlimit: false, cgroup: false, off: why };
      return describeLimits(limitSupport, hardened);
    };
    void (async () => {
      // Hardened first (bubblewrap 0.8+); an older bubblewrap refuses the flags and runs without them.
      if ((await tryArgs(true)) === undefined) return resolve({ name: 'bubblewrap', bin, hardened: true, limits: await tryLimits(true) });
      const why = await tryArgs(false);
      if (why !== undefined) return resolve({ name: 'none', why: `bubblewrap cannot make a sandbox here (${why})` });
      resolve({ name: 'bubblewrap', bin, hardened: false, limits: await tryLimits(false) });
    })();
  });
  return probed;
}

/** The sandbox a run uses: `auto` takes bubblewrap where it works; `bubblewrap` insists (an error says why not). */
export async function chooseSandbox(choice: SandboxChoice, env: NodeJS.ProcessEnv): Promise<SandboxProbe> {
  if (choice === 'none') return { name: 'none', why: 'turned off (--sandbox none)' };
  return probeSandbox(env);
}

function baseArgs(hardened: boolean): string[] {
  const args = ['--die-with-parent', '--new-session', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--cap-drop', 'ALL'];
  // A user namespace of its own in which no further one can be made (`unshare -Urn` fails inside): run as root, the
  // capability bounding set is then empty too, not the host's.
  if (hardened) args.push('--unshare-user', '--disable-userns');
  for (const d of SYSTEM_DIRS) {
    let st;
    try {
      st = readlinkOrDir(d);
    } catch {
      continue;
    }
    if (st.link !== undefined) args.push('--symlink', st.link, d);
    else args.push('--ro-bind', d, d);
  }
  for (const e of ETC_ENTRIES) args.push('--ro-bind-try', e, e);
  const size = (dir: string) => (hardened ? ['--size', String(SANDBOX_TMPFS_BYTES), '--tmpfs', dir] : ['--tmpfs', dir]);
  args.push('--proc', '/proc', '--dev', '/dev', ...size('/dev/shm'), ...size('/tmp'), ...size('/run'), ...size('/var'));
  return args;
}

function readlinkOrDir(p: string): { link?: string } {
  const st = lstatSync(p);
  if (st.isSymbolicLink()) return { link: readlinkSync(p) };
  if (!st.isDirectory()) throw new Error('not a folder');
  return {};
}

/** A folder (or file) of the host seen inside the sandbox at the same path: read-only or writable. */
export interface SandboxMount {
  path: string;
  writable: boolean;
}

/**
 * The bubblewrap command line around `bin args…`: the system read-only, `mounts` in order (a later one over an
 * earlier one: a read-only site with its uploads folder writable), `readable` extra folders read-only (a PHP binary
 * outside /usr), `cwd` inside. Nothing else of the host is seen: not the home, the workspace, the cache folder.
 */
export function bubblewrapArgs(o: { mounts: readonly SandboxMount[]; readable?: string[]; cwd: string; bin: string; args: string[]; ownNetwork?: boolean; hardened?: boolean; limits?: SandboxLimits | false; proc?: boolean }): string[] {
  const args = baseArgs(o.hardened === true);
  // No /proc for PHP: through it a process the measured code starts could read the memory of the PHP server and the
  // relay (/proc/PID/mem: the same user, no capability needed), where other sides' requests passed (their database
  // credentials, their probe ids). The database server keeps its own (it runs no measured code).
  // (`--instructions`' server keeps it: Valgrind reads its own maps there; it serves one side only, in a sandbox of its own.)
  if (!o.proc && !/^(mariadbd|mysqld)$/.test(path.basename(o.bin))) {
    const at = args.indexOf('--proc');
    if (at >= 0) args.splice(at, 2);
  }
  // Its limits (sandboxLimits.ts): PHP's, or the database server's when it runs mariadbd/mysqld; set by the first
  // command inside, which then runs bin in its place.
  const limits = o.limits ?? limitsFor(o.bin);
  const inner = limits ? limitedCommand(limits, { hardened: o.hardened === true, support: limitSupport, cwd: o.cwd, bin: o.bin, args: o.args }) : { bwrap: [], command: [o.bin, ...o.args] };
  // A network namespace of its own: only its loopback interface, nothing of the machine's or the world's.
  if (o.ownNetwork) args.push('--unshare-net');
  for (const r of o.readable ?? []) args.push('--ro-bind', r, r);
  for (const m of o.mounts) args.push(m.writable ? '--bind' : '--ro-bind', m.path, m.path);
  // The sandbox's own root (where bubblewrap made the folders leading to the mounts: the run's folder itself, the
  // database's) read-only: nothing can be written there, in memory or elsewhere, past the cap.
  args.push(...inner.bwrap, '--remount-ro', '/', '--chdir', o.cwd, '--', ...inner.command);
  return args;
}

/** Folders to bind read-only so that a PHP binary given by path (outside the system folders) can run. */
export function phpBinFolders(bin: string, pathVar: string | undefined): string[] {
  const abs = path.isAbsolute(bin) ? bin : which(bin, pathVar);
  if (!abs) return [];
  let real = abs;
  try {
    real = realpathSync(abs);
  } catch {
    /* as given */
  }
  const out = new Set<string>();
  for (const p of [abs, real]) {
    if (SYSTEM_DIRS.some((d) => p === d || p.startsWith(`${d}/`))) continue;
    // The binary's installation (bin/php → its prefix), so its own ini and extensions come along.
    const dir = path.dirname(p);
    out.add(path.basename(dir) === 'bin' ? path.dirname(dir) : dir);
  }
  return [...out].filter((d) => d !== '/' && existsSync(d));
}

/**
 * Without a sandbox: every process of this user whose environment carries `RUN_MARKER=id` (the server's children,
 * detached or not, inherit it), or whose working folder is inside the run's temporary folder `root` (a child started
 * with `env -i` keeps the site's folder as its own), is killed. Linux only (reads /proc); returns the pids it
 * killed. A process that rewrote its environment and left the folder escapes this; that is why the sandbox is
 * preferred.
 */
export function killMarked(id: string, root?: string, except: number[] = []): number[] {
  if (process.platform !== 'linux') return [];
  const needle = Buffer.from(`\0${RUN_MARKER}=${id}\0`);
  const first = Buffer.from(`${RUN_MARKER}=${id}\0`);
  const killed: number[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    const pid = Number(e);
    if (pid === process.pid || except.includes(pid)) continue;
    let env: Buffer;
    try {
      env = readFileSync(`/proc/${e}/environ`);
    } catch {
      continue;
    }
    let inRoot = false;
    if (root) {
      try {
        const cwd = readlinkSync(`/proc/${e}/cwd`);
        inRoot = cwd === root || cwd.startsWith(`${root}/`);
      } catch {
        /* not ours to read */
      }
    }
    if (inRoot || env.includes(needle) || env.subarray(0, first.length).equals(first)) {
      try {
        process.kill(pid, 'SIGKILL');
        killed.push(pid);
      } catch {
        /* gone already */
      }
    }
  }
  return killed;
}

/** Waits (bounded) until none of the pids exists any more. */
export async function waitGone(pids: number[], ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
    } catch {
      return false;
    }
  };
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

/** Longest Unix socket path the relay may bind (sun_path is 108 bytes on Linux, 104 on macOS). */
export const MAX_SOCKET_PATH = 100;
