// database/: the database a throwaway site runs on: the throwaway MariaDB/MySQL server, `--db`, SQLite, the relay's
// loginGuard (this file). May import machine/ (the environment, the sandbox), options/ and record/; nothing above it.
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

/** The host the relay and WP Bench's own statements reach the user's server by: both the same way (TCP). */
function tcpHost(url: DbUrl): string {
  return url.host === 'localhost' ? '127.0.0.1' : url.host;
}

/**
 * Runs SQL statements on the user's server through PHP's mysqli (credentials in the environment, never on a command
 * line), each on its own line of the result; the first failing one stops and throws with the server's words. Bounded
 * by `timeoutMs` and by the run's signal (the child is killed: a server that accepts and never answers cannot hold
 * the run past --timeout-s).
 */
async function phpSql(php: string, url: DbUrl, sql: string | string[], env: NodeJS.ProcessEnv, o: { signal?: AbortSignal; timeoutMs?: number; refusedCode?: 2 | 7 } = {}): Promise<string> {
  const statements = Array.isArray(sql) ? sql : [sql];
  const code = [
    'mysqli_report(MYSQLI_REPORT_OFF);',
    '$m = mysqli_init();',
    '$m->options(MYSQLI_OPT_CONNECT_TIMEOUT, 5);',
    'if (defined("MYSQLI_OPT_READ_TIMEOUT")) $m->options(MYSQLI_OPT_READ_TIMEOUT, 15);',
    'if (!@$m->real_connect(getenv("WPB_H"), getenv("WPB_U"), getenv("WPB_P"), "", (int) getenv("WPB_PORT"))) { fwrite(STDERR, "connect: " . mysqli_connect_error()); exit(3); }',
    'foreach (json_decode(getenv("WPB_SQL"), true) as $q) {',
    '  $r = $m->query($q);',
    '  if ($r === false) { fwrite(STDERR, $m->errno . " " . $m->error); exit(4); }',
    '  if ($r instanceof mysqli_result) { $row = $r->fetch_row(); echo $row ? $row[0] : "", "\n"; } else echo "\n";',
    '}',
  ].join(' ');
  const r = await runProcess(php, ['-r', code], { PATH: env.PATH, WPB_H: tcpHost(url), WPB_U: url.user, WPB_P: url.password, WPB_PORT: String(url.port), WPB_SQL: JSON.stringify(statements) }, o.timeoutMs ?? 20_000, o.signal);
  if (r.code !== 0) {
    const said = redactSecret(r.stderr, url.password).trim().slice(0, 300) || `exit ${r.code}`;
    if (r.code === 4 && o.refusedCode) throw new MeasureError(said, o.refusedCode);
    throw new MeasureError(`--db: the server said: ${said}`, 7);
  }
  return r.stdout;
}

/** `text` with every occurrence of `secret` replaced by ***. */
export function redactSecret(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join('***') : text;
}

/** The privileges --db's account needs, said when it lacks them. */
export const DB_PRIVILEGES_NEEDED =
  "the --db account must be able to create a database and a user and grant that user privileges on that database: CREATE and DROP, CREATE USER, and GRANT OPTION (for example GRANT ALL PRIVILEGES ON `wpbench\\_%`.* TO 'you'@'host' WITH GRANT OPTION; GRANT CREATE USER ON *.* TO 'you'@'host')";

/** A database and user of a killed run, noted so that the next run against that server drops them (no password). */
export interface DbLeftover {
  host: string;
  port: number;
  name: string;
  user: string;
  host_seen: string;
  /** the sides' own databases and users (each named after `name`: name_<tag>) */
  extra?: string[];
}

/** The note a --db run keeps in its folder while it runs (read by the next run if this one is killed). */
export const DB_LEFTOVER_FILE = 'external-db.json';

/**
 * The user's server (--db): a database AND a user of WP Bench's own on it (a random password, every privilege on that
 * database and nothing else), reached by the site through a relay socket in `dbDir/sock` (PHP runs in a sandbox with
 * a network of its own). WordPress is given only that user. `stop` drops both, and only those. An account that cannot
 * create users is refused (exit 2) and nothing is left on the server.
 */
export async function useExternalDb(url: DbUrl, o: { dbDir: string; php: string; env: NodeJS.ProcessEnv; name: string; password: string; signal?: AbortSignal; leftovers?: readonly DbLeftover[]; onLeftoverDropped?: (l: DbLeftover) => void }): Promise<RunningDb> {
  if (!/^wpbench_[0-9a-f]{12}$/.test(o.name)) throw new Error(`useExternalDb: ${o.name} is not a name of WP Bench's`);
  const sql = (q: string | string[], refusedCode?: 2 | 7) => phpSql(o.php, url, q, o.env, { signal: o.signal, refusedCode });
  const [version, seen] = (await sql(['SELECT VERSION()', "SELECT SUBSTRING_INDEX(USER(), '@', -1)"])).split('\n');
  // A killed run's database and user on this server go first.
  for (const l of o.leftovers ?? []) {
    if (l.host !== url.host || l.port !== url.port || !/^wpbench_[0-9a-f]{12}$/.test(l.name) || l.user !== l.name) continue;
    for (const n of [l.name, ...(Array.isArray(l.extra) ? l.extra : []).filter((x) => typeof x === 'string' && x.startsWith(`${l.name}_`) && /^[a-z0-9_]{1,40}$/.test(x))]) {
      await sql(`DROP DATABASE IF EXISTS \`${n}\``).catch(() => undefined);
      await sql(`DROP USER IF EXISTS '${n}'@${sqlString(l.host_seen)}`).catch(() => undefined);
    }
    o.onLeftoverDropped?.(l);
  }
  const name = o.name;
  const user = name;
  const password = o.password;
  const host = seen.trim() || 'localhost';
  await fs.mkdir(path.join(o.dbDir, 'sock'), { recursive: true, mode: 0o700 });
  await fs.chmod(dbSocketDir(o.dbDir), 0o755);
  // The sides' own databases and users (sideDatabases.ts): noted before they are made, let through the relay, dropped.
  const extra: string[] = [];
  const note: DbLeftover = { host: url.host, port: url.port, name, user, host_seen: host, extra };
  const writeNote = () => fs.writeFile(path.join(o.dbDir, DB_LEFTOVER_FILE), JSON.stringify(note), { mode: 0o600 });
  await writeNote();
  const dropAll = async (signal?: AbortSignal) => {
    // Apart: an account that could not make the user cannot drop one either, and the database must go all the same.
    for (const n of [name, ...extra]) {
      await phpSql(o.php, url, `DROP DATABASE IF EXISTS \`${n}\``, o.env, { timeoutMs: 8000, signal }).catch(() => undefined);
      await phpSql(o.php, url, `DROP USER IF EXISTS '${n}'@${sqlString(host)}`, o.env, { timeoutMs: 8000, signal }).catch(() => undefined);
    }
  };
  try {
    await sql(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    // In a database-level GRANT "_" is a wildcard: escaped, the grant is on this one database only.
    await sql([`CREATE USER '${user}'@${sqlString(host)} IDENTIFIED BY ${sqlString(password)}`, `GRANT ALL PRIVILEGES ON \`${name.replace(/_/g, '\\_')}\`.* TO '${user}'@${sqlString(host)}`], 2);
  } catch (err) {
    await dropAll();
    if (err instanceof MeasureError && err.exitCode === 2) throw new MeasureError(`--db: ${url.user} cannot make WP Bench's user (the server said: ${err.message}); ${DB_PRIVILEGES_NEEDED}`, 2);
    throw err;
  }
  const socket = path.join(dbSocketDir(o.dbDir), 'relay.sock');
  const sockets = new Set<net.Socket>();
  const allowed = new Set([user]);
  const relay = net.createServer((inner) => {
    const outer = net.connect(url.port, tcpHost(url));
    sockets.add(inner).add(outer);
    // Only WordPress's user of this run gets through: the first packet must log in as it (no TLS, where the name could
    // not be read), and no later command may change user. Any other login (the server's root, the user's account) is
    // cut before the server sees it.
    const guard = loginGuard(allowed);
    inner.on('data', (chunk: Buffer) => {
      const pass = guard(chunk);
      if (pass === null) close();
      else if (pass.length) outer.write(pass);
    });
    outer.pipe(inner);
    const close = () => {
      inner.destroy();
      outer.destroy();
      sockets.delete(inner);
      sockets.delete(outer);
    };
    inner.on('error', close).on('close', close);
    outer.on('error', close).on('close', close);
  });
  try {
    await new Promise<void>((resolve, reject) => relay.once('error', reject).listen(socket, () => resolve()));
    // Later errors (EMFILE on accept) end a connection, never the process.
    relay.on('error', () => undefined);
  } catch (err) {
    await dropAll();
    throw err;
  }
  let stopped = false;
  return {
    info: { engine: /mariadb/i.test(version) ? 'mariadb' : 'mysql', version: /^\d+\.\d+\.\d+/.exec(version)?.[0] ?? version.slice(0, 40), server: 'external' },
    host: `localhost:${socket}`,
    name,
    user,
    password,
    admin: { host: url.host, port: url.port, user: url.user, password: url.password },
    userHost: host,
    naming: (tag) => `${name}_${tag}`,
    onSideAdded: async (d) => {
      extra.push(d.name);
      allowed.add(d.user);
      await writeNote();
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => relay.close(() => r()));
      await dropAll();
      await fs.rm(path.join(o.dbDir, DB_LEFTOVER_FILE), { force: true }).catch(() => undefined);
    },
  };
}

/**
 * Reads the client's side of a MySQL connection, packet by packet (3-byte length, 1-byte sequence): the first packet
 * (HandshakeResponse41: capabilities 4, max packet 4, character set 1, filler 23, then the user name, NUL-terminated)
 * must name one of `users` (the run's own) and ask for the plain 4.1 protocol (no compression, no TLS); an SSL request (32 bytes, before the
 * name) and a later COM_CHANGE_USER (a new command: sequence 0, first byte 0x11) are refused. Returns what of each chunk may be forwarded now (the login is held until whole),
 * or null once the connection must be cut.
 */
export function loginGuard(users: string | ReadonlySet<string>): (chunk: Buffer) => Buffer | null {
  const allowed = typeof users === 'string' ? new Set([users]) : users;
  let held = Buffer.alloc(0);
  let loggedIn = false;
  let denied = false;
  let skip = 0;
  let header = Buffer.alloc(0);
  const deny = () => {
    denied = true;
    return null;
  };
  const scan = (data: Buffer): Buffer | null => {
    const out: Buffer[] = [];
    let i = 0;
    while (i < data.length) {
      if (skip > 0) {
        const n = Math.min(skip, data.length - i);
        out.push(data.subarray(i, i + n));
        i += n;
        skip -= n;
        continue;
      }
      if (header.length < 4) {
        const take = data.subarray(i, i + 4 - header.length);
        header = Buffer.concat([header, take]);
        i += take.length;
        if (header.length < 4) break;
      }
      const len = header.readUIntLE(0, 3);
      if (len > 0) {
        // The command byte decides: wait for it.
        if (i >= data.length) break;
        if (header[3] === 0 && data[i] === 0x11) return deny();
      }
      out.push(header);
      header = Buffer.alloc(0);
      skip = len;
    }
    return Buffer.concat(out);
  };
  return (chunk) => {
    if (denied) return null;
    if (loggedIn) return scan(chunk);
    held = Buffer.concat([held, chunk]);
    if (held.length < 4) return Buffer.alloc(0);
    const len = held.readUIntLE(0, 3);
    if (len > 64 * 1024) return deny();
    if (held.length < 4 + len) return Buffer.alloc(0);
    if (len <= 32) return deny();
    // Only the plain 4.1 protocol, whose packets the guard reads: no compression (its frames would hide a later
    // COM_CHANGE_USER), no TLS, the user name at its 4.1 place.
    const caps = held.readUInt32LE(4);
    const CLIENT_COMPRESS = 0x20;
    const CLIENT_PROTOCOL_41 = 0x200;
    const CLIENT_SSL = 0x800;
    const CLIENT_ZSTD = 1 << 26;
    if ((caps & CLIENT_PROTOCOL_41) === 0 || caps & (CLIENT_COMPRESS | CLIENT_SSL | CLIENT_ZSTD)) return deny();
    const end = held.indexOf(0, 4 + 32);
    if (end < 0 || end >= 4 + len || !allowed.has(held.toString('utf8', 4 + 32, end))) return deny();
    loggedIn = true;
    const login = held.subarray(0, 4 + len);
    const rest = scan(held.subarray(4 + len));
    held = Buffer.alloc(0);
    return rest === null ? null : Buffer.concat([login, rest]);
  };
}

/** A MySQL single-quoted string literal. */
function sqlString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
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
