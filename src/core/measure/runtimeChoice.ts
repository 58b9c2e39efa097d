// Which WordPress core, PHP runtime and sandbox a run uses: the native PHP when it can run WordPress on SQLite (else
// WordPress Playground, or the user's --runtime), and the sandbox that holds the component's PHP.
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
} from './environment';
import { findPlayground, PLAYGROUND_PHP, type PlaygroundInfo } from './playgroundRuntime';
import type { RuntimeName } from './runtime';
import { chooseSandbox, type SandboxProbe } from './sandbox';
import { MeasureError, type MeasureOptions } from './runOptions';

export interface Environment {
  runtime: RuntimeName;
  php?: PhpInfo;
  playground?: PlaygroundInfo;
  phpVersion: string;
  core: string;
  wpVersion: string;
  sqlite: SqliteSource;
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
    core = coreCandidates(o.cwd).find(isCore);
  }
  if (!core) {
    throw new MeasureError(
      `no WordPress core found: looked in ${coreCandidates(o.cwd).join(', ')}. Pass --wordpress DIR (an unpacked wordpress.org download), or on Debian/Ubuntu/WSL: sudo apt install wordpress`,
      8,
    );
  }
  const wpVersion = (await wordpressVersion(core)) ?? 'unknown';
  const sqlite = sqliteCandidates(o.sqliteIntegration, searchFrom).find(sqliteSourceUsable);

  const tryPhp = async (): Promise<PhpInfo | string> => {
    const bin = o.php ?? 'php';
    const info = await probePhp(bin, { PATH: o.env.PATH });
    if (!info) return `${bin} cannot be run`;
    if (!phpVersionOk(info.version)) return `${bin} is PHP ${info.version}; 7.4 or newer is needed`;
    if (!info.sqlite) return `${bin} has no pdo_sqlite extension (Debian/Ubuntu: sudo apt install php-sqlite3)`;
    if (!sqlite) return SQLITE_MISSING;
    return info;
  };
  // PHP itself is fine when only the SQLite integration is missing: the advice is then about that alone (it said
  // "install PHP 7.4 or newer with SQLite" to a machine that had PHP 8.2 with SQLite).
  const hint = (reason: string) => (reason === SQLITE_MISSING ? '' : `. To measure, ${INSTALL_HINT}`);
  const tryPlayground = (): PlaygroundInfo | string => findPlayground(searchFrom) ?? 'the npm package @wp-playground/cli is not installed (npm install @wp-playground/cli)';

  if (o.runtime === 'php' || o.runtime === undefined) {
    const php = await tryPhp();
    if (typeof php !== 'string') return { runtime: 'php', php, phpVersion: php.version, core, wpVersion, sqlite: sqlite!, sandbox: await nativeSandbox(o) };
    if (o.runtime === 'php') throw new MeasureError(`the php runtime cannot run: ${php}${hint(php)}`, 8);
    const pg = tryPlayground();
    if (typeof pg === 'string') throw new MeasureError(`no runtime can run: ${php}; ${pg}${hint(php)}`, 8);
    o.progress?.(`php runtime not usable (${php}); using WordPress Playground`);
    return { runtime: 'playground', playground: pg, phpVersion: PLAYGROUND_PHP, core, wpVersion, sqlite: sqlite ?? { kind: 'zip', path: pg.sqliteZip, prefix: 'plugin-sqlite-database-integration/' }, sandbox: PLAYGROUND_SANDBOX };
  }
  const pg = tryPlayground();
  if (typeof pg === 'string') throw new MeasureError(`the playground runtime cannot run: ${pg}`, 8);
  return { runtime: 'playground', playground: pg, phpVersion: PLAYGROUND_PHP, core, wpVersion, sqlite: sqlite ?? { kind: 'zip', path: pg.sqliteZip, prefix: 'plugin-sqlite-database-integration/' }, sandbox: PLAYGROUND_SANDBOX };
}

/** Playground's PHP is WebAssembly: it sees only the folders mounted into it and has no process to start. */
const PLAYGROUND_SANDBOX: SandboxProbe = { name: 'playground', why: 'WordPress Playground (PHP compiled to WebAssembly, only its mounted folders visible) is its own sandbox' };

async function nativeSandbox(o: MeasureOptions): Promise<SandboxProbe> {
  const s = await chooseSandbox(o.sandbox ?? 'auto', o.env);
  if (o.sandbox === 'bubblewrap' && s.name !== 'bubblewrap') throw new MeasureError(`--sandbox bubblewrap: ${s.why}`, 8);
  return s;
}

/** The progress line saying what holds the component's PHP. */
export function sandboxLine(s: SandboxProbe): string {
  if (s.name === 'bubblewrap') return 'sandbox: bubblewrap (own PID namespace, read-only system, only the throwaway site writable, no home or cache folder)';
  if (s.name === 'playground') return 'sandbox: WordPress Playground (WebAssembly PHP, only the throwaway site mounted)';
  return `warning: no sandbox — ${s.why ?? 'none available'}; the component's PHP can do whatever your user can`;
}
