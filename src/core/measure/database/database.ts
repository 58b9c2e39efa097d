// database/: the database a throwaway site runs on: the throwaway MariaDB/MySQL server, SQLite and the --db parsing
// (this file), `--db`'s server of the user's and the relay's loginGuard (externalDb.ts), each side's own database and
// user (sideDatabases.ts). May import machine/ (the environment, the sandbox), options/ and record/; nothing above it.
//
// The database a throwaway site runs on. Real sites run MySQL or MariaDB, so the native runtime starts its own
// server by default: the machine's `mariadbd` (or `mysqld`), its data folder copied from a template initialised once
// in the cache folder, listening only on a Unix socket in the run's temporary folder (networking off), stopped
// and removed with everything else. The server is held like PHP: in a sandbox of its own (bubblewrap: no network, no
// view of the home, the workspace or the cache folder, its own folder the only writable place), with
// `secure_file_priv` on an empty folder nothing else sees, `local_infile` off, no plugin folder, no symbolic links;
// WordPress connects as a user of its own with privileges on the site's database only (never FILE, SUPER, CREATE
// USER, plugin or server administration), and root's password is random and never kept.
// `--db mysql://USER:PASS@HOST:PORT/` (or WPBENCH_DB_URL) uses a server the user runs instead: WP Bench creates its
// own database AND user there (wpbench_<random>, a random password, privileges on that database only), gives only
// that user to WordPress, reaches the server through a relay socket in the run's folder (the sandbox has no network
// of its own to reach it), and drops both at the end (a killed run's are dropped by the next run against that
// server). `--db sqlite` (and Playground) keep WordPress's SQLite integration. The user's password never reaches
// WordPress, output, logs or records.
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { childProcess, crypto } from '../../lazyNode';
import { runProcess } from '../machine/environment';
import { MeasureError } from '../options/runOptions';
import { bubblewrapArgs, phpBinFolders, type SandboxProbe } from '../machine/sandbox';

import type { DatabaseInfo } from '../record/method';
import { throwawayNaming, type AdminConnection, type SideDb } from './sideDatabases';

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
  const redacted = value.replace(/^([a-z]+:\/\/[^:@/]*):.*@/i, '$1:***@');
  // Not of that form (a typo: "mysql:/u:pw@h", a "/" in the user): everything up to the last "@" may be a password.
  return redacted === value && value.includes('@') ? value.replace(/^.*@/, '***@') : redacted;
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
  /** WP Bench's own connection (root of the throwaway server, or --db's account): never given to PHP */
  admin: AdminConnection;
  /** the host part of the users WP Bench makes (the sides' own; see sideDatabases.ts) */
  userHost: string;
  /** the name of a side's database and user, from its tag ("clean", "ref", "c3") */
  naming: (tag: string) => string;
  /** a side's database and user are about to be made: let its user through, drop both at the end */
  onSideAdded?: (d: SideDb) => Promise<void>;
  /** stops the server (or drops the database and closes the relay); never throws */
  stop(): Promise<void>;
}

/**
 * What the measured code could use the server for, turned off: reading and writing files (`secure_file_priv` on an
 * empty folder of the server's own, `local_infile` off), loading a plugin (`INSTALL SONAME` finds an empty plugin
 * folder), following symbolic links out of the data folder.
 */
export function lockedDownArgs(dbDir: string): string[] {
  return [`--secure-file-priv=${path.join(dbDir, 'files')}`, '--local-infile=0', `--plugin-dir=${path.join(dbDir, 'no-plugins')}`, '--skip-symbolic-links'];
}

/**
 * The server's first statements (`--init-file`): the site's database, WordPress's own user with every privilege on
 * that database and nothing else, no anonymous user, and root's password set to one WP Bench throws away.
 */
export function initSql(o: { name: string; user: string; password: string; rootPassword: string }): string {
  const q = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (!/^[A-Za-z0-9_]+$/.test(o.name) || !/^[A-Za-z0-9_]+$/.test(o.user)) throw new Error('initSql: not a name of WP Bench\'s');
  return [
    `CREATE DATABASE IF NOT EXISTS \`${o.name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;`,
    `DROP USER IF EXISTS ''@'localhost';`,
    // Reachable only over TCP, which is off: dropped all the same.
    `DROP USER IF EXISTS 'root'@'127.0.0.1';`,
    `DROP USER IF EXISTS 'root'@'::1';`,
    // At most 10 connections each (the server allows 50): the measured code cannot take every connection from the
    // other sides (and WP Bench's own).
    `CREATE USER '${o.user}'@'localhost' IDENTIFIED BY ${q(o.password)} WITH MAX_USER_CONNECTIONS ${MAX_USER_CONNECTIONS};`,
    `GRANT ALL PRIVILEGES ON \`${o.name}\`.* TO '${o.user}'@'localhost';`,
    `ALTER USER 'root'@'localhost' IDENTIFIED BY ${q(o.rootPassword)};`,
    '',
  ].join('\n');
}

/** Options shared by the server's start-up and its template's. */
function serverArgs(b: ServerBinaries, dataDir: string): string[] {
  // A throwaway database: no durability to pay for (a commit does not wait for the disk, no doublewrite buffer, tables
  // in the system tablespace): WordPress installs in about a second instead of ten on a slow disk.
  const common = [
    `--datadir=${dataDir}`,
    // Room for a real site's tables in every configuration's copy (--site: 62 copies of a 30-plugin site's 120
    // tables): at 32 MB pages were read from and written to the disk during the requests, whose TTFB then waited on it.
    '--innodb-buffer-pool-size=256M',
    '--innodb-flush-log-at-trx-commit=0',
    '--innodb-doublewrite=0',
    '--innodb-file-per-table=0',
    '--skip-name-resolve',
    '--max-connections=50',
  ];
  // Fewer background threads competing with PHP for a small machine's cores (their noise is the run's noise).
  if (b.engine === 'mariadb') return ['--no-defaults', ...common, '--innodb-flush-method=nosync', '--innodb-log-file-size=8M', '--skip-log-bin', '--innodb-buffer-pool-load-at-startup=0', '--innodb-buffer-pool-dump-at-shutdown=0', '--innodb-purge-threads=1', '--innodb-read-io-threads=1', '--innodb-write-io-threads=1', '--innodb-stats-auto-recalc=0'];
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

/** The folder of the sockets WordPress reaches its database by (the only part of the database's folder PHP sees). */
export function dbSocketDir(dbDir: string): string {
  return path.join(dbDir, 'sock');
}

/** The connections each side's database user may hold at once (the throwaway server allows 50 in all). */
export const MAX_USER_CONNECTIONS = 10;

/** WordPress's own user on the throwaway server (privileges on its database only). */
export const THROWAWAY_DB_USER = 'wpbench';

/**
 * A throwaway server for one run: the template's data folder copied into `dbDir/data`, the server on
 * `dbDir/sock/mysqld.sock` with networking off, inside the sandbox when there is one (its own network, PID and user
 * namespaces; `dbDir` its only writable folder and the system read-only its only view of the machine), locked down
 * (lockedDownArgs), the `wordpress` database and its user made by the init file (initSql). `onPid` is told the
 * server's pid at once (so an exit hook can kill it).
 */
export async function startThrowawayDb(
  b: ServerBinaries,
  o: { dbDir: string; templateDir: string; env: NodeJS.ProcessEnv; signal?: AbortSignal; onPid?: (pid: number) => void; sandbox?: SandboxProbe; password: string; timeoutMs?: number },
): Promise<RunningDb> {
  const template = await ensureTemplate(b, o.templateDir, o.env);
  const data = path.join(o.dbDir, 'data');
  await fs.mkdir(o.dbDir, { recursive: true, mode: 0o700 });
  for (const d of ['sock', 'files', 'no-plugins', 'tmp']) await fs.mkdir(path.join(o.dbDir, d), { recursive: true, mode: 0o700 });
  await fs.chmod(dbSocketDir(o.dbDir), 0o755);
  await fs.cp(template, data, { recursive: true });
  const socket = path.join(dbSocketDir(o.dbDir), 'mysqld.sock');
  const init = path.join(o.dbDir, 'init.sql');
  // root's password: random, kept in this process's memory only (WP Bench's own statements: the sides' databases).
  const rootPassword = crypto().randomBytes(24).toString('hex');
  await fs.writeFile(init, initSql({ name: 'wordpress', user: THROWAWAY_DB_USER, password: o.password, rootPassword }), { mode: 0o600 });
  const log = path.join(o.dbDir, 'server.log');
  const args = [
    ...serverArgs(b, data),
    ...(asRoot() ? ['--user=root'] : []),
    `--socket=${socket}`,
    '--skip-networking',
    ...lockedDownArgs(o.dbDir),
    `--pid-file=${path.join(o.dbDir, 'mysqld.pid')}`,
    `--log-error=${log}`,
    `--tmpdir=${path.join(o.dbDir, 'tmp')}`,
    `--init-file=${init}`,
  ];
  const sandboxed = o.sandbox?.name === 'bubblewrap' && o.sandbox.bin;
  const launch = sandboxed
    ? { bin: o.sandbox!.bin!, args: bubblewrapArgs({ mounts: [{ path: o.dbDir, writable: true }], readable: phpBinFolders(b.server, o.env.PATH), cwd: o.dbDir, bin: b.server, args, ownNetwork: true, hardened: o.sandbox!.hardened }) }
    : { bin: b.server, args };
  const child = childProcess().spawn(launch.bin, launch.args, { stdio: 'ignore', detached: true, env: { PATH: o.env.PATH, HOME: o.dbDir } });
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
    await waitForSocket(socket, () => (exit ? `${exit}: ${tailOf(log)}` : undefined), o.signal, o.timeoutMs ?? 30_000);
  } catch (err) {
    await stop();
    throw err;
  } finally {
    // Its passwords are in no file once the server has read them.
    await fs.rm(init, { force: true }).catch(() => undefined);
  }
  return {
    info: { engine: b.engine, version: b.version, server: 'throwaway' },
    host: `localhost:${socket}`,
    name: 'wordpress',
    user: THROWAWAY_DB_USER,
    password: o.password,
    pid: child.pid,
    admin: { socket, user: 'root', password: rootPassword },
    userHost: 'localhost',
    naming: throwawayNaming,
    stop,
  };
}

function tailOf(file: string): string {
  try {
    const text = readFileSync(file, 'utf8');
    return text.trim().split('\n').filter((l) => /ERROR|error/.test(l)).slice(-3).join(' ').slice(0, 400) || 'no error in its log';
  } catch {
    return 'no log';
  }
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
