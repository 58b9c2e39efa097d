// What the measure suites share: whether a process or a port is still there, and the check that a run left nothing
// behind (no temporary folder, no server process, no listening port). Not a test file (no .test.ts).
import * as assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, promises as fs, readdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as net from 'node:net';
import type { MeasureOptions } from '../../src/core/measure/run/engine';
import { runCli } from '../../src/cli';

/** git in `cwd` with a throwaway identity (the suites' own repositories). */
export function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], { cwd, stdio: 'pipe' });
}

/** `wp-bench measure ARGS` in-process, its exit code and what it printed. */
export async function measureCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['measure', ...args], { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd: path.resolve(__dirname, '..', '..') });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Processes whose command line has `word` as one of its arguments. */
export function processesWith(word: string): number[] {
  const out: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${e}/cmdline`, 'latin1').split('\0').includes(word)) out.push(Number(e));
    } catch {
      /* exited meanwhile */
    }
  }
  return out;
}

/** Whether the process runs: a zombie (exited, waiting for the machine's init to reap it) runs nothing. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

/** Waits (polling) until the process no longer exists, at most ms. */
export async function gone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** What `onResource` reported during a run. */
export type Made = Array<{ root?: string; pid?: number; port?: number }>;

/** Whatever the outcome, nothing is left behind: no temp folder, no server process, no listening port. */
export async function assertNothingLeft(made: Made): Promise<void> {
  for (const r of made.splice(0)) {
    if (r.root) assert.equal(existsSync(r.root), false, `temp folder ${r.root} left behind`);
    if (r.pid) assert.equal(alive(r.pid), false, `process ${r.pid} left running`);
    if (r.port) assert.equal(await listening(r.port), false, `port ${r.port} still listening`);
  }
}

/**
 * A MariaDB server as a user runs one (`--db mysql://…` tests): its own data folder, listening on 127.0.0.1 and an
 * admin socket, root without a password on the socket; `sql` runs statements as root there; `stop` ends it and
 * removes its folder.
 */
export async function startUserMariaDb(): Promise<{ port: number; dir: string; sql: (q: string) => string; stop: () => Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-db-server-'));
  const root = typeof process.getuid === 'function' && process.getuid() === 0 ? ['--user=root'] : [];
  const init = spawnSync('mariadb-install-db', ['--no-defaults', `--datadir=${dir}/data`, ...root, '--auth-root-authentication-method=normal', '--skip-test-db', '--innodb-log-file-size=8M'], { encoding: 'utf8' });
  assert.equal(init.status, 0, init.stderr);
  const port = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  const server = spawn('mariadbd', ['--no-defaults', `--datadir=${dir}/data`, ...root, `--socket=${dir}/admin.sock`, `--port=${port}`, '--bind-address=127.0.0.1', '--skip-name-resolve', `--log-error=${dir}/err.log`, '--innodb-log-file-size=8M', '--skip-log-bin'], { stdio: 'ignore' });
  const sql = (q: string) => {
    const r = spawnSync('mariadb', ['--no-defaults', '-S', path.join(dir, 'admin.sock'), '-uroot', '-N', '-e', q], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim();
  };
  // Asked until it answers; a server that never starts fails after 600 asks (no time is judged).
  for (let ask = 1; spawnSync('mariadb', ['--no-defaults', '-S', `${dir}/admin.sock`, '-uroot', '-e', 'SELECT 1']).status !== 0; ask++) {
    assert.ok(ask < 600, `the test server did not start: ${await fs.readFile(path.join(dir, 'err.log'), 'utf8').catch(() => '')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = async () => {
    server.kill('SIGTERM');
    if (server.pid) await gone(server.pid, 15_000);
    await fs.rm(dir, { recursive: true, force: true });
  };
  return { port, dir, sql, stop };
}

/**
 * A measure suite's shared set-up, registered as mocha hooks of the calling describe(): a cache folder of its own
 * (removed after; `cacheDir()` during a test), options for measure() on the native runtime with noCache, and after each test the check that
 * nothing was left behind.
 */
export function nativeMeasureSuite(root: string, env: NodeJS.ProcessEnv = process.env): { made: Made; opts: (p: string, extra?: Partial<MeasureOptions>) => MeasureOptions; cacheDir: () => string } {
  const made: Made = [];
  let cacheDir = '';
  before(async () => {
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-measure-test-cache-'));
  });
  after(async () => {
    await fs.rm(cacheDir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await assertNothingLeft(made);
  });
  const opts = (p: string, extra: Partial<MeasureOptions> = {}): MeasureOptions => ({ path: p, runtime: 'php', env, cwd: root, cacheDir, noCache: true, onResource: (r) => made.push(r), ...extra });
  return { made, opts, cacheDir: () => cacheDir };
}
