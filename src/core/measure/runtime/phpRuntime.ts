// The native runtime: the machine's `php -S` on 127.0.0.1 and a free port, with a scrubbed environment.
import type { ChildProcess } from 'node:child_process';
import { childProcess, net } from '../../lazyNode';
import type * as Net from 'node:net';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { scrubbedEnv, type PhpInfo } from '../machine/environment';
import { RELAY_PHP } from '../machine/relay';
import { MAX_SOCKET_PATH, RUN_MARKER, bubblewrapArgs, phpBinFolders, type SandboxMount, type SandboxProbe } from '../machine/sandbox';
import type { SandboxLimits } from '../machine/sandboxLimits';
import { INSTALL_PATH, sandboxMounts, type Site } from '../site/site';
import { measuredText } from '../component/measuredText';
import type { RuntimeServer } from '../machine/runtime';

/** A free port on 127.0.0.1 (asked from the system, then released for php to take). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net().createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as Net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Resolves once something accepts connections on the port (or the Unix socket), rejects when the process exits or
 * time runs out.
 */
export function waitForPort(port: number, child: ChildProcess, timeoutMs: number, what: () => string, socketPath?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + timeoutMs;
    let done = false;
    const onExit = (code: number | null) => finish(new Error(`${what()} exited (code ${code}) before listening`));
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve();
    };
    child.on('exit', onExit);
    const attempt = () => {
      if (done) return;
      const sock = socketPath ? net().connect(socketPath) : net().connect(port, '127.0.0.1');
      sock.once('connect', () => {
        sock.destroy();
        finish();
      });
      sock.once('error', () => {
        sock.destroy();
        if (Date.now() > deadline) finish(new Error(`${what()} did not listen on 127.0.0.1:${port} within ${Math.round(timeoutMs / 1000)} s`));
        else setTimeout(attempt, 25);
      });
    };
    attempt();
  });
}

/** Kills a child and resolves when it has exited (SIGTERM, then SIGKILL after graceMs). */
export function stopChild(child: ChildProcess, graceMs = 2000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      try {
        if (child.pid && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, graceMs);
    child.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
    try {
      // Its own process group: PHP's children (none expected) go with it.
      if (child.pid && process.platform !== 'win32') process.kill(-child.pid, 'SIGTERM');
      else child.kill('SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
  });
}

/**
 * Starts `php -S` on 127.0.0.1, inside the sandbox when there is one (see sandbox.ts). Every process of the run
 * carries RUN_MARKER=runId in its environment, so that without a sandbox its leftovers are found and killed on stop.
 */
export async function startPhpServer(
  php: PhpInfo,
  site: Site,
  env: NodeJS.ProcessEnv,
  onChild: (c: ChildProcess) => void,
  sandbox: SandboxProbe = { name: 'none' },
  runId?: string,
  onNote?: (warning: string) => void,
  counted?: CountedServer,
): Promise<RuntimeServer> {
  const port = await freePort();
  const args = [
    '-d', 'display_errors=0',
    '-d', 'log_errors=1',
    '-d', `error_log=${path.join(site.workDir, 'php-errors.log')}`,
    '-d', `auto_prepend_file=${path.join(site.workDir, 'probe.php')}`,
    '-d', 'memory_limit=1024M',
    // Opcache on, as production servers run it: without it every request compiled all of WordPress again (about
    // 230 ms of a 250 ms request here), which made TTFB slow and noisy. php -S is the cli-server SAPI, for which
    // opcache.enable (not opcache.enable_cli) decides. Memory then is what a request allocates at run time; compiled
    // code lives in opcache's shared memory (local.opcache says which was measured).
    '-d', 'opcache.enable=1',
    // Room for a whole real site, as a production server is set up for one: PHP's defaults (128 MB, about 16,000
    // files) fill up on a 30-plugin site of 18,000 PHP files, and every file past that was compiled again on every
    // request: a slow and noisy TTFB, and compiled code counted as the request's memory.
    '-d', 'opcache.memory_consumption=512',
    '-d', 'opcache.interned_strings_buffer=64',
    '-d', 'opcache.max_accelerated_files=100000',
    // Every file is complete before the server starts: a file changed in the last 2 s (a component just written, or
    // linked from a file just written) is cached too, not compiled again on every request and counted as memory.
    '-d', 'opcache.file_update_protection=0',
    // opcache's API (opcache_invalidate(), opcache_reset()) only for WP Bench's install endpoint (it asks whether opcache
    // is on): measured code that threw the compiled WordPress away after its own request made the clean side's next
    // request compile it all again (+230 ms and +2 MB there: the component read 230 ms faster than nothing).
    '-d', `opcache.restrict_api=${path.join(site.siteDir, INSTALL_PATH.slice(1))}`,
    '-d', 'max_execution_time=120',
    '-S', `127.0.0.1:${port}`,
    '-t', site.siteDir,
  ];
  // The server's command: php, or php under the CPU simulator (`--instructions`, run/instructions.ts).
  const cmdline = [...(counted?.wrap ?? []), php.bin, ...(counted?.phpArgs ?? []), ...args];
  let launch = { bin: cmdline[0], args: cmdline.slice(1) };
  let socketPath: string | undefined;
  if (sandbox.name === 'bubblewrap' && sandbox.bin) {
    // Its own network (loopback only): the site is reached through a Unix socket that a relay inside the sandbox
    // forwards to php -S. A socket path longer than the system allows (a very long TMPDIR) keeps the host's network.
    // (A counted server's socket is in its own folder, seen by its sandbox alone: never the main server's.)
    const sock = path.join(counted?.socketDir ?? path.join(site.workDir, 'sock'), 'site.sock');
    const ownNet = Buffer.byteLength(sock) <= MAX_SOCKET_PATH;
    if (ownNet) {
      socketPath = sock;
      await fs.writeFile(path.join(site.workDir, 'relay.php'), RELAY_PHP);
    }
    const inner = ownNet
      ? { bin: '/bin/sh', args: ['-c', 'php="$1"; relay="$2"; conf="$3"; shift 3; "$php" -n "$relay" "$conf" & exec "$@"', 'wpbench', php.bin, path.join(site.workDir, 'relay.php'), JSON.stringify({ pairs: [[`unix://${sock}`, `tcp://127.0.0.1:${port}`]], wait: `tcp://127.0.0.1:${port}` }), ...cmdline] }
      : launch;
    launch = { bin: sandbox.bin, args: bubblewrapArgs({ mounts: [...sandboxMounts(site), ...(counted?.mounts ?? [])], readable: phpBinFolders(php.bin, env.PATH), cwd: site.siteDir, ownNetwork: ownNet, hardened: sandbox.hardened, ...(counted ? { proc: true, limits: counted.limits } : {}), ...inner }) };
  }
  if (sandbox.name === 'bubblewrap' && !socketPath) onNote?.(`the temporary folder's path is too long for a Unix socket (${MAX_SOCKET_PATH} bytes): the sandbox keeps the machine's network (local.network "host")`);
  return launchServer({ ...launch, cwd: site.siteDir, env, site, port, label: counted ? `${php.bin} -S under ${path.basename(counted.wrap[0])}` : `${php.bin} -S`, startMs: counted ? 120_000 : 15000, onChild, stdout: false, marker: runId, socketPath, extraEnv: counted?.env });
}

/** php -S under a CPU simulator (`--instructions`): the command before php, its environment, folders and limits. */
export interface CountedServer {
  wrap: string[];
  env: Record<string, string>;
  mounts: SandboxMount[];
  limits: SandboxLimits;
  /** the folder of its relay's socket (one of `mounts`) */
  socketDir: string;
  /** more of PHP's settings (before the server's own) */
  phpArgs?: string[];
}

/** How a runtime's server is started (see launchServer). */
export interface LaunchOptions {
  bin: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  site: Site;
  port: number;
  /** Names the server in errors: `php -S`, `WordPress Playground`. */
  label: string;
  /** How long it may take to listen. */
  startMs: number;
  onChild: (c: ChildProcess) => void;
  /** Keep stdout in the output tail too (Playground writes there). */
  stdout: boolean;
  /** Grace before SIGKILL when stopping. */
  graceMs?: number;
  /** Called once the port listens, until the server really serves; throwing stops it. */
  ready?: (child: ChildProcess) => Promise<void>;
  signal?: AbortSignal;
  /** RUN_MARKER's value, put into the server's environment */
  marker?: string;
  /** the server is reached through this Unix socket (the sandbox's relay) */
  socketPath?: string;
  /** more of the environment, past the scrub (`--instructions`) */
  extraEnv?: Record<string, string>;
}

/**
 * Starts a runtime's server as its own process group with only the scrubbed environment, keeps the last 8,000
 * characters of its output for errors, waits until it listens (and `ready`), and stops it on any failure, saying
 * what it printed.
 */
export async function launchServer(o: LaunchOptions): Promise<RuntimeServer> {
  const child = childProcess().spawn(o.bin, o.args, {
    cwd: o.cwd,
    env: { ...scrubbedEnv(o.env, path.join(o.site.workDir, 'tmp')), ...(o.marker ? { [RUN_MARKER]: o.marker } : {}), ...(o.extraEnv ?? {}) },
    stdio: ['ignore', o.stdout ? 'pipe' : 'ignore', 'pipe'],
    detached: process.platform !== 'win32',
  });
  o.onChild(child);
  let tail = '';
  const keep = (d: Buffer) => {
    tail = (tail + d.toString('utf8')).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const stop = () => stopChild(child, o.graceMs);
  o.signal?.addEventListener('abort', () => void stop(), { once: true });
  const spawnError = new Promise<never>((_, reject) => child.once('error', (e) => reject(new Error(`cannot start ${o.label}: ${e.message}`))));
  try {
    await Promise.race([waitForPort(o.port, child, o.startMs, () => o.label, o.socketPath), spawnError]);
    await o.ready?.(child);
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}; its output: ${measuredText(tail.trim().slice(-600)) || '(none)'}`);
  }
  return { baseUrl: `http://127.0.0.1:${o.port}`, port: o.port, pid: child.pid, log: () => tail, stop, ...(o.socketPath ? { socketPath: o.socketPath, network: 'none' as const } : { network: 'host' as const }) };
}
