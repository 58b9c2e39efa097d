// runtime/: the server that runs the throwaway site: the native `php -S` in its sandbox (phpRuntime.ts), WordPress
// Playground (playgroundRuntime.ts), and which core, runtime, database and sandbox a run uses (this file). May import
// site/, database/, options/ and machine/; nothing above it.
//
// Which WordPress core, PHP runtime, database and sandbox a run uses: the native PHP when it can run WordPress (else
// WordPress Playground, or the user's --runtime); on the native runtime a throwaway MariaDB/MySQL server when one is
// installed (else SQLite, or the user's --db); the sandbox that holds the component's PHP.
import * as path from 'node:path';
import {
  coreCandidates,
  isCore,
  phpVersionOk,
  probePhp,
  sqliteCandidates,
  sqliteSourceUsable,
  wordpressVersion,
  type PhpInfo,
  type SqliteSource,
} from '../machine/environment';
import { findPlayground, PLAYGROUND_PHP, type PlaygroundInfo } from './playgroundRuntime';
import type { RuntimeName } from '../machine/runtime';
import { chooseSandbox, type SandboxProbe } from '../machine/sandbox';
import { MeasureError, type MeasureOptions } from '../options/runOptions';
import { DB_INSTALL_HINT, findDbServer, parseDbOption, type DbUrl, type ServerBinaries } from '../database/database';

/** The database of a run: WordPress's SQLite integration, a throwaway server, or the user's (--db). */
export type EnvDatabase = { kind: 'sqlite' } | { kind: 'server'; bins: ServerBinaries } | { kind: 'url'; url: DbUrl };

export interface Environment {
  runtime: RuntimeName;
  php?: PhpInfo;
  playground?: PlaygroundInfo;
  phpVersion: string;
  core: string;
  wpVersion: string;
  /** the SQLite integration (when the database is SQLite) */
  sqlite?: SqliteSource;
  database: EnvDatabase;
  /** why the default (a server) was not used, when it was not */
  databaseNote?: string;
  /** the native runtime's sandbox (Playground is one of its own) */
  sandbox: SandboxProbe;
}

const INSTALL_HINT = [
  'install PHP 7.4 or newer with SQLite (Debian/Ubuntu/WSL: sudo apt install php-cli php-sqlite3; macOS: brew install php;',
  'or pass --php BIN), or `npm install @wp-playground/cli` for --runtime playground',
].join(' ');

const SQLITE_MISSING =
  "WordPress's SQLite integration was not found: pass --sqlite-integration DIR (the sqlite-database-integration plugin folder, or its zip) or install @wp-playground/cli, which ships it";

export async function findEnvironment(o: MeasureOptions): Promise<Environment> {
  const searchFrom = [o.cwd, ...(o.searchFrom ?? [])];
  // WordPress core.
  let core: string | undefined;
  if (o.wordpress) {
    core = path.resolve(o.cwd, o.wordpress);
    if (!isCore(core)) throw new MeasureError(`--wordpress ${core} is not a WordPress core folder (no wp-settings.php, wp-includes/version.php)`, 2);
  } else {
    core = coreCandidates(o.cwd, o.path ? path.resolve(o.cwd, o.path) : undefined).find(isCore);
  }
  if (!core) {
    throw new MeasureError(
      `no WordPress core found: looked in ${coreCandidates(o.cwd, o.path ? path.resolve(o.cwd, o.path) : undefined).join(', ')}. Pass --wordpress DIR (an unpacked wordpress.org download), or on Debian/Ubuntu/WSL: sudo apt install wordpress`,
      8,
    );
  }
  const wpVersion = (await wordpressVersion(core)) ?? 'unknown';
  const sqlite = sqliteCandidates(o.sqliteIntegration, searchFrom).find(sqliteSourceUsable);

  // WPBENCH_DB_URL: the URL without putting its password on a command line (visible in `ps`).
  const db = parseDbOption(o.db ?? (o.env.WPBENCH_DB_URL || undefined));
  if (db.kind === 'url' && o.runtime === 'playground') throw new MeasureError('--db mysql://… needs the native php runtime: Playground runs WordPress on SQLite only', 2);
  // The native runtime's database: --db, else a throwaway server when one is installed and PHP has mysqli, else SQLite.
  let database: EnvDatabase = { kind: 'sqlite' };
  let databaseNote: string | undefined;
  const tryPhp = async (): Promise<PhpInfo | string> => {
    const bin = o.php ?? 'php';
    const info = await probePhp(bin, { PATH: o.env.PATH });
    if (!info) return `${bin} cannot be run`;
    if (!phpVersionOk(info.version)) return `${bin} is PHP ${info.version}; 7.4 or newer is needed`;
    if (db.kind === 'url') {
      if (!info.mysqli) throw new MeasureError(`--db: ${bin} has no mysqli extension (Debian/Ubuntu: sudo apt install php-mysql)`, 8);
      database = { kind: 'url', url: db.url };
      return info;
    }
    if (db.kind === 'auto') {
      const server = await findDbServer(o.env);
      if (typeof server !== 'string' && info.mysqli) {
        database = { kind: 'server', bins: server };
        return info;
      }
      databaseNote = typeof server === 'string' ? `${server}; measuring on SQLite (${DB_INSTALL_HINT})` : `${bin} has no mysqli extension (Debian/Ubuntu: sudo apt install php-mysql); measuring on SQLite`;
    }
    if (!info.sqlite) return `${bin} has no pdo_sqlite extension (Debian/Ubuntu: sudo apt install php-sqlite3)`;
    if (!sqlite) return SQLITE_MISSING;
    return info;
  };
  // PHP itself is fine when only the SQLite integration is missing: the advice is then about that alone (it said
  // "install PHP 7.4 or newer with SQLite" to a machine that had PHP 8.2 with SQLite).
  const hint = (reason: string) => (reason === SQLITE_MISSING ? '' : `. To measure, ${INSTALL_HINT}`);
  const tryPlayground = (): PlaygroundInfo | string => findPlayground(searchFrom) ?? 'the npm package @wp-playground/cli is not installed (npm install @wp-playground/cli)';
  const onPlayground = (pg: PlaygroundInfo): Environment => ({
    runtime: 'playground',
    playground: pg,
    phpVersion: PLAYGROUND_PHP,
    core,
    wpVersion,
    sqlite: sqlite ?? { kind: 'zip', path: pg.sqliteZip, prefix: 'plugin-sqlite-database-integration/' },
    database: { kind: 'sqlite' },
    sandbox: PLAYGROUND_SANDBOX,
  });

  if (o.runtime === 'php' || o.runtime === undefined) {
    const php = await tryPhp();
    if (typeof php !== 'string') return { runtime: 'php', php, phpVersion: php.version, core, wpVersion, ...(database.kind === 'sqlite' ? { sqlite: sqlite! } : {}), database, ...(databaseNote ? { databaseNote } : {}), sandbox: await nativeSandbox(o) };
    if (o.runtime === 'php') throw new MeasureError(`the php runtime cannot run: ${php}${hint(php)}`, 8);
    const pg = tryPlayground();
    if (typeof pg === 'string') throw new MeasureError(`no runtime can run: ${php}; ${pg}${hint(php)}`, 8);
    o.progress?.(`php runtime not usable (${php}); using WordPress Playground`);
    return onPlayground(pg);
  }
  const pg = tryPlayground();
  if (typeof pg === 'string') throw new MeasureError(`the playground runtime cannot run: ${pg}`, 8);
  return onPlayground(pg);
}

/** Playground's PHP is WebAssembly: it sees only the folders mounted into it and has no process to start. */
const PLAYGROUND_SANDBOX: SandboxProbe = { name: 'playground', why: 'WordPress Playground (PHP compiled to WebAssembly, only its mounted folders visible) is its own sandbox' };

async function nativeSandbox(o: MeasureOptions): Promise<SandboxProbe> {
  const s = await chooseSandbox(o.sandbox ?? 'auto', o.env);
  if (o.sandbox === 'bubblewrap' && s.name !== 'bubblewrap') throw new MeasureError(`--sandbox bubblewrap: ${s.why}`, 8);
  return s;
}

/**
 * Whether the site's core and components may be hard links to the user's files: only when native PHP runs in
 * bubblewrap, which mounts them read-only (unsandboxed or in Playground, a plugin writing into its own folder would
 * write into the working tree).
 */
export function linksAreSafe(env: Pick<Environment, 'runtime' | 'sandbox'>): boolean {
  return env.runtime === 'php' && env.sandbox.name === 'bubblewrap';
}

/** The progress line saying what holds the component's PHP. */
export function sandboxLine(s: SandboxProbe): string {
  if (s.name === 'bubblewrap')
    return `sandbox: bubblewrap (own PID${s.hardened ? ', user' : ''} namespace, read-only system, the site's code and WP Bench's files read-only, only uploads, caches and temporary folders writable, no home or cache folder${s.hardened ? ', no user namespaces inside' : ''}${s.limits ? `; ${s.limits}` : ''}; the database server in a sandbox of its own)`;
  if (s.name === 'playground') return 'sandbox: WordPress Playground (WebAssembly PHP, only the throwaway site mounted)';
  return `warning: no sandbox — ${s.why ?? 'none available'}; the component's PHP can do whatever your user can`;
}
