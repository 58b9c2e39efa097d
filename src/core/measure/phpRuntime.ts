// The native runtime: the machine's `php -S` on 127.0.0.1 and a free port, with a scrubbed environment.
import type { ChildProcess } from 'node:child_process';
import { childProcess, net } from '../lazyNode';
import type * as Net from 'node:net';
import * as path from 'node:path';
import { scrubbedEnv, type PhpInfo } from './environment';
import type { Site } from './site';
import type { RuntimeServer } from './runtime';

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

/** Resolves once something accepts connections on the port, rejects when the process exits or time runs out. */
export function waitForPort(port: number, child: ChildProcess, timeoutMs: number, what: () => string): Promise<void> {
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
      const sock = net().connect(port, '127.0.0.1');
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

export async function startPhpServer(php: PhpInfo, site: Site, env: NodeJS.ProcessEnv, onChild: (c: ChildProcess) => void): Promise<RuntimeServer> {
  const port = await freePort();
  const args = [
    '-d', 'display_errors=0',
    '-d', 'log_errors=1',
    '-d', `error_log=${path.join(site.workDir, 'php-errors.log')}`,
    '-d', `auto_prepend_file=${path.join(site.workDir, 'probe.php')}`,
    '-d', 'memory_limit=1024M',
    '-d', 'opcache.enable_cli=0',
    '-d', 'max_execution_time=120',
    '-S', `127.0.0.1:${port}`,
    '-t', site.siteDir,
  ];
  return launchServer({ bin: php.bin, args, cwd: site.siteDir, env, site, port, label: `${php.bin} -S`, startMs: 15000, onChild, stdout: false });
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
}

/**
 * Starts a runtime's server as its own process group with only the scrubbed environment, keeps the last 8,000
 * characters of its output for errors, waits until it listens (and `ready`), and stops it on any failure, saying
 * what it printed.
 */
export async function launchServer(o: LaunchOptions): Promise<RuntimeServer> {
  const child = childProcess().spawn(o.bin, o.args, {
    cwd: o.cwd,
    env: scrubbedEnv(o.env, path.join(o.site.workDir, 'tmp')),
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
    await Promise.race([waitForPort(o.port, child, o.startMs, () => o.label), spawnError]);
    await o.ready?.(child);
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}; its output: ${tail.trim().slice(-600) || '(none)'}`);
  }
  return { baseUrl: `http://127.0.0.1:${o.port}`, port: o.port, pid: child.pid, log: () => tail, stop };
}
