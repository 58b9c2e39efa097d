// The database a throwaway site runs on. Real sites run MySQL or MariaDB, so the native runtime starts its own
// server by default: the machine's `mariadbd` (or `mysqld`), its data folder copied from a template initialised once
// in the cache folder, listening only on a Unix socket inside the run's temporary folder (networking off), stopped
// and removed with everything else. `--db mysql://USER:PASS@HOST:PORT/` uses a server the user runs instead: WP Bench
// creates its own database there (wpbench_<random>), reaches it through a relay socket in the run's folder (the
// sandbox has no network of its own to reach it), and drops it at the end. `--db sqlite` (and Playground) keep
// WordPress's SQLite integration. The password never reaches output, logs or records.
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { childProcess, crypto } from '../lazyNode';
import { runProcess } from './environment';
import { MeasureError } from './runOptions';

import type { DatabaseInfo } from './method';

export type { DatabaseInfo };


export interface DbUrl {
  user: string;
  password: string;
  host: string;
  port: number;
}

/** --db: auto (a server when one is found, else SQLite), sqlite, or a server the user runs. */
export type DbChoice = { kind: 'auto' } | { kind: 'sqlite' } | { kind: 'url'; url: DbUrl };

/** Parses --db; throws MeasureError (exit 2) without repeating the password. */
export function parseDbOption(value: string | undefined): DbChoice {
  if (value === undefined || value === 'auto' || value === '') return { kind: 'auto' };
  if (value === 'sqlite') return { kind: 'sqlite' };
  const m = /^(?:mysql|mariadb):\/\/([^:@/]+)(?::([^@/]*))?@([A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\])(?::(\d{1,5}))?\/?$/.exec(value);
  if (!m) throw new MeasureError(`--db takes sqlite or mysql://USER:PASS@HOST:PORT/ (got ${redactDb(value)})`, 2);
  const port = m[4] ? Number(m[4]) : 3306;
  if (port < 1 || port > 65535) throw new MeasureError(`--db: port ${port} is out of range`, 2);
  const dec = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      throw new MeasureError('--db: the user or password is not valid percent-encoding', 2);
    }
  };
  return { kind: 'url', url: { user: dec(m[1]), password: dec(m[2] ?? ''), host: m[3].replace(/^\[|\]$/g, ''), port } };
}

/** The --db value as it may be shown: the password replaced. */
export function redactDb(value: string): string {
  // Up to the last "@": a password may hold "@" or "/" unencoded.
  return value.replace(/^([a-z]+:\/\/[^:@/]*):.*@/i, '$1:***@');
}

/** A database server's binaries on this machine. */
export interface ServerBinaries {
  engine: 'mariadb' | 'mysql';
  version: string;
  server: string;
  /** mariadb-install-db / mysql_install_db (MariaDB); MySQL initialises with the server itself */
  install?: string;
}

const SBIN = ['/usr/sbin', '/usr/local/sbin', '/usr/local/mysql/bin', '/opt/homebrew/bin', '/opt/homebrew/sbin', '/usr/libexec'];

function findBin(names: string[], pathVar: string | undefined): string | undefined {
  const dirs = [...(pathVar ?? '').split(path.delimiter).filter(Boolean), ...SBIN];
  for (const n of names) for (const d of dirs) if (existsSync(path.join(d, n))) return path.join(d, n);
  return undefined;
}

export const DB_INSTALL_HINT = 'install MariaDB (Debian/Ubuntu/WSL: sudo apt install mariadb-server; macOS: brew install mariadb), or pass --db mysql://USER:PASS@HOST:PORT/ for a server you run, or --db sqlite';

/** The machine's MariaDB or MySQL server, or why there is none. */
export async function findDbServer(env: NodeJS.ProcessEnv): Promise<ServerBinaries | string> {
  const server = findBin(['mariadbd', 'mysqld'], env.PATH);
  if (!server) return 'no MariaDB or MySQL server binary (mariadbd, mysqld) was found';
  const r = await runProcess(server, ['--version'], { PATH: env.PATH }, 10_000);
  const text = `${r.stdout} ${r.stderr}`;
  const v = /Ver\s+(\d+\.\d+\.\d+)/.exec(text)?.[1];
  if (r.code !== 0 || !v) return `${server} --version failed: ${text.trim().slice(0, 200)}`;
  if (/mariadb/i.test(text)) {
    const install = findBin(['mariadb-install-db', 'mysql_install_db'], env.PATH);
    if (!install) return `${server} is MariaDB ${v}, but mariadb-install-db was not found`;
    return { engine: 'mariadb', version: v, server, install };
  }
  return { engine: 'mysql', version: v, server };
}

/** A database the site runs on, for the run's length. */
export interface RunningDb {
  info: DatabaseInfo;
  /** wp-config.php's DB_HOST: "localhost:/path/to.sock" */
  host: string;
  name: string;
  user: string;
  password: string;
  pid?: number;
  /** stops the server (or drops the database and closes the relay); never throws */
  stop(): Promise<void>;
}

/** Options shared by the server's start-up and its template's. */
function serverArgs(b: ServerBinaries, dataDir: string): string[] {
  // A throwaway database: no durability to pay for (a commit does not wait for the disk, no doublewrite buffer, tables
  // in the system tablespace): WordPress installs in about a second instead of ten on a slow disk.
  const common = [
    `--datadir=${dataDir}`,
    '--innodb-buffer-pool-size=32M',
    '--innodb-flush-log-at-trx-commit=2',
    '--innodb-doublewrite=0',
    '--innodb-file-per-table=0',
    '--skip-name-resolve',
    '--max-connections=50',
  ];
  // Fewer background threads competing with PHP for a small machine's cores (their noise is the run's noise).
  if (b.engine === 'mariadb') return ['--no-defaults', ...common, '--innodb-log-file-size=8M', '--skip-log-bin', '--innodb-buffer-pool-load-at-startup=0', '--innodb-buffer-pool-dump-at-shutdown=0', '--innodb-purge-threads=1', '--innodb-read-io-threads=1', '--innodb-write-io-threads=1', '--innodb-stats-auto-recalc=0'];
  return ['--no-defaults', ...common, '--skip-log-bin', '--mysqlx=OFF'];
}

const asRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** The data folder of a fresh server (system tables, root without a password), made once per engine and version. */
async function ensureTemplate(b: ServerBinaries, dir: string, env: NodeJS.ProcessEnv): Promise<string> {
  const data = path.join(dir, 'data');
  if (existsSync(path.join(dir, 'ready'))) return data;
  await fs.mkdir(path.dirname(dir), { recursive: true });
  const tmp = `${dir}.${crypto().randomBytes(6).toString('hex')}.tmp`;
  await fs.mkdir(tmp, { recursive: true });
  const tmpData = path.join(tmp, 'data');
  const user = asRoot() ? ['--user=root'] : [];
  const r =
    b.engine === 'mariadb'
      ? await runProcess(b.install!, [...serverArgs(b, tmpData).filter((a) => a !== '--skip-log-bin' && a !== '--max-connections=50'), ...user, '--auth-root-authentication-method=normal', '--skip-test-db'], { PATH: env.PATH, HOME: tmp }, 120_000)
      : await runProcess(b.server, [...serverArgs(b, tmpData), ...user, '--initialize-insecure'], { PATH: env.PATH, HOME: tmp }, 120_000);
  if (r.code !== 0) {
    await fs.rm(tmp, { recursive: true, force: true });
    throw new MeasureError(`${b.engine} could not initialise a data folder (${path.basename(b.install ?? b.server)} exit ${r.code}): ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ').slice(0, 400)}`, 8);
  }
  await fs.writeFile(path.join(tmp, 'ready'), `${b.engine} ${b.version}\n`);
  // Another run may have made it meanwhile: theirs stays, ours goes.
  await fs.rename(tmp, dir).catch(async () => fs.rm(tmp, { recursive: true, force: true }));
  return data;
}

/** Resolves once `socket` accepts a connection and the server greets (a MySQL handshake starts with its length). */
async function waitForSocket(socket: string, exited: () => string | undefined, signal: AbortSignal | undefined, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const gone = exited();
    if (gone) throw new MeasureError(gone, 7);
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(socket);
      const done = (v: boolean) => {
        s.destroy();
        resolve(v);
      };
      s.once('data', () => done(true));
      s.once('error', () => done(false));
      s.setTimeout(1000, () => done(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new MeasureError(`the ${path.basename(socket)} socket did not answer within ${timeoutMs / 1000} s`, 7);
    await new Promise((r) => setTimeout(r, 40));
  }
}

/**
 * A throwaway server for one run: the template's data folder copied into `dbDir`, the server on `dbDir/mysqld.sock`
 * with networking off, the `wordpress` database created by an init file. `onPid` is told the server's pid at once
 * (so an exit hook can kill it).
 */
export async function startThrowawayDb(
  b: ServerBinaries,
  o: { dbDir: string; templateDir: string; env: NodeJS.ProcessEnv; signal?: AbortSignal; onPid?: (pid: number) => void },
): Promise<RunningDb> {
  const template = await ensureTemplate(b, o.templateDir, o.env);
  const data = path.join(o.dbDir, 'data');
  await fs.mkdir(o.dbDir, { recursive: true, mode: 0o700 });
  await fs.cp(template, data, { recursive: true });
  const socket = path.join(o.dbDir, 'mysqld.sock');
  const init = path.join(o.dbDir, 'init.sql');
  await fs.writeFile(init, 'CREATE DATABASE IF NOT EXISTS wordpress CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;\n');
  const log = path.join(o.dbDir, 'server.log');
  const args = [
    ...serverArgs(b, data),
    ...(asRoot() ? ['--user=root'] : []),
    `--socket=${socket}`,
    '--skip-networking',
    `--pid-file=${path.join(o.dbDir, 'mysqld.pid')}`,
    `--log-error=${log}`,
    `--tmpdir=${o.dbDir}`,
    `--init-file=${init}`,
  ];
  const child = childProcess().spawn(b.server, args, { stdio: 'ignore', detached: true, env: { PATH: o.env.PATH, HOME: o.dbDir } });
  let exit: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, sig) => {
      exit = `the ${b.engine} server stopped (${sig ?? `exit ${code}`})`;
      resolve();
    });
    child.once('error', (e) => {
      exit = `the ${b.engine} server could not start: ${e.message}`;
      resolve();
    });
  });
  if (child.pid) o.onPid?.(child.pid);
  const stop = async () => {
    if (exit) return;
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      return;
    }
    const t = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, 8000);
    await exited;
    clearTimeout(t);
  };
  try {
    await waitForSocket(socket, () => (exit ? `${exit}: ${tailOf(log)}` : undefined), o.signal, 30_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { info: { engine: b.engine, version: b.version, server: 'throwaway' }, host: `localhost:${socket}`, name: 'wordpress', user: 'root', password: '', pid: child.pid, stop };
}

function tailOf(file: string): string {
  try {
    const text = readFileSync(file, 'utf8');
    return text.trim().split('\n').filter((l) => /ERROR|error/.test(l)).slice(-3).join(' ').slice(0, 400) || 'no error in its log';
  } catch {
    return 'no log';
  }
}

/** Runs SQL on the user's server through PHP's mysqli (credentials in the environment, never on a command line). */
async function phpSql(php: string, url: DbUrl, sql: string, env: NodeJS.ProcessEnv): Promise<string> {
  const code = [
    'mysqli_report(MYSQLI_REPORT_OFF);',
    '$m = @new mysqli(getenv("WPB_H"), getenv("WPB_U"), getenv("WPB_P"), "", (int) getenv("WPB_PORT"));',
    'if ($m->connect_errno) { fwrite(STDERR, "connect: " . $m->connect_error); exit(3); }',
    '$r = $m->query(getenv("WPB_SQL"));',
    'if ($r === false) { fwrite(STDERR, $m->error); exit(4); }',
    'if ($r instanceof mysqli_result) { $row = $r->fetch_row(); echo $row ? $row[0] : ""; }',
  ].join(' ');
  const r = await runProcess(php, ['-r', code], { PATH: env.PATH, WPB_H: url.host, WPB_U: url.user, WPB_P: url.password, WPB_PORT: String(url.port), WPB_SQL: sql }, 20_000);
  if (r.code !== 0) throw new MeasureError(`--db: the server said: ${r.stderr.split(url.password || '\u0000').join('***').trim().slice(0, 300) || `exit ${r.code}`}`, 7);
  return r.stdout;
}

/**
 * The user's server (--db): a database of WP Bench's own on it, reached by the site through a relay socket in
 * `dbDir` (PHP runs in a sandbox with a network of its own). `stop` drops that database, and only that one.
 */
export async function useExternalDb(url: DbUrl, o: { dbDir: string; php: string; env: NodeJS.ProcessEnv; name: string }): Promise<RunningDb> {
  if (!/^wpbench_[0-9a-f]{12}$/.test(o.name)) throw new Error(`useExternalDb: ${o.name} is not a name of WP Bench's`);
  const version = await phpSql(o.php, url, 'SELECT VERSION()', o.env);
  const name = o.name;
  await phpSql(o.php, url, `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`, o.env);
  await fs.mkdir(o.dbDir, { recursive: true, mode: 0o700 });
  const socket = path.join(o.dbDir, 'relay.sock');
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((inner) => {
    const outer = net.connect(url.port, url.host);
    sockets.add(inner).add(outer);
    inner.pipe(outer).pipe(inner);
    const close = () => {
      inner.destroy();
      outer.destroy();
      sockets.delete(inner);
      sockets.delete(outer);
    };
    inner.on('error', close).on('close', close);
    outer.on('error', close).on('close', close);
  });
  await new Promise<void>((resolve, reject) => relay.once('error', reject).listen(socket, () => resolve()));
  let stopped = false;
  return {
    info: { engine: /mariadb/i.test(version) ? 'mariadb' : 'mysql', version: /^\d+\.\d+\.\d+/.exec(version)?.[0] ?? version.slice(0, 40), server: 'external' },
    host: `localhost:${socket}`,
    name,
    user: url.user,
    password: url.password,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => relay.close(() => r()));
      await phpSql(o.php, url, `DROP DATABASE IF EXISTS \`${name}\``, o.env).catch(() => undefined);
    },
  };
}

/** "MariaDB 10.11" / "MySQL 8.0" / "SQLite": a record's database in a label. */
export function shortDatabase(d: DatabaseInfo): string {
  if (d.engine === 'sqlite') return 'SQLite';
  return `${d.engine === 'mariadb' ? 'MariaDB' : 'MySQL'} ${/^\d+\.\d+/.exec(d.version)?.[0] ?? d.version}`;
}

/** "MariaDB 10.11.19" / "MySQL 8.0.36" / "SQLite (WordPress's SQLite integration)" for tables and progress. */
export function databaseLabel(d: DatabaseInfo | undefined): string {
  if (!d) return 'SQLite';
  const name = d.engine === 'mariadb' ? 'MariaDB' : d.engine === 'mysql' ? 'MySQL' : 'SQLite';
  return d.engine === 'sqlite' ? `${name} (WordPress's SQLite integration)` : `${name} ${d.version}`;
}
