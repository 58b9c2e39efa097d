// machine/ (the ground floor of measure/, beside php/): what a run takes from the machine and how it holds the measured
// code there: the PHP binary, the WordPress core copy and the SQLite integration it finds (this file), the sandbox
// (sandbox.ts: bubblewrap, the relay, killing leftovers) and what a runtime must give the run (runtime.ts: a server on
// 127.0.0.1 and a way to stop it). Imports nothing of measure/ (only src/core/lazyNode.ts).
//
// What a measurement needs from the machine: a PHP binary, a WordPress core copy and the SQLite integration.
// Each finder says what it looked at, so "nothing found" can tell the user exactly what to install.
import { childProcess } from '../../lazyNode';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';

export interface PhpInfo {
  bin: string;
  version: string;
  sqlite: boolean;
  /** mysqli is loaded (WordPress on MariaDB/MySQL) */
  mysqli?: boolean;
}

/** A minimal environment for PHP: no API key, token or other secret of the caller reaches the component's code. */
export function scrubbedEnv(env: NodeJS.ProcessEnv, home: string): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { HOME: home, TMPDIR: home, LANG: 'C', LC_ALL: 'C', TZ: 'UTC' };
  if (env.PATH) out.PATH = env.PATH;
  if (process.platform === 'win32' && env.SystemRoot) out.SystemRoot = env.SystemRoot;
  return out;
}

/** Runs a short command (a probe of php's version or extensions): its exit code and output, never a throw. */
export function runProcess(bin: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 15000, signal?: AbortSignal): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve({ code: 130, stdout: '', stderr: 'aborted' });
    childProcess().execFile(bin, args, { env, timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024, ...(signal ? { signal, killSignal: 'SIGKILL' as const } : {}) }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as NodeJS.ErrnoException & { code?: unknown }).code === 'number' ? ((err as unknown as { code: number }).code) : 127) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** Runs `php` to read its version and whether pdo_sqlite is loaded; undefined when it cannot run. */
export async function probePhp(bin: string, env: NodeJS.ProcessEnv): Promise<PhpInfo | undefined> {
  const r = await runProcess(bin, ['-r', 'echo PHP_VERSION, "\\n", extension_loaded("pdo_sqlite") ? "1" : "0", "\\n", extension_loaded("mysqli") ? "1" : "0";'], env);
  if (r.code !== 0) return undefined;
  const [version, sqlite, mysqli] = r.stdout.trim().split('\n');
  if (!/^\d+\.\d+/.test(version ?? '')) return undefined;
  return { bin, version, sqlite: sqlite === '1', mysqli: mysqli === '1' };
}

export function phpVersionOk(version: string): boolean {
  const [maj, min] = version.split('.').map(Number);
  return maj > 7 || (maj === 7 && min >= 4);
}

/**
 * Where a WordPress core copy was looked for, in order: the workspace's, then (given the component's path) the site
 * the component sits in — each folder above it, nearest first, up to six (plugins/x → wp-content → the site's root;
 * Bedrock's web/app/plugins/x → web/wp) —, then the system's. A plugin of a site measured from elsewhere runs on that
 * site's WordPress, not on another version.
 */
export function coreCandidates(workspace: string | undefined, component?: string): string[] {
  const out: string[] = [];
  const at = (dir: string) => {
    for (const rel of ['web/wp', 'wp', 'wordpress', 'public', 'htdocs', '.']) out.push(path.resolve(dir, rel));
  };
  if (workspace) at(workspace);
  if (component) for (let d = path.dirname(path.resolve(component)), i = 0; i < 6 && path.dirname(d) !== d; d = path.dirname(d), i++) at(d);
  out.push('/usr/share/wordpress');
  return [...new Set(out)];
}

export function isCore(dir: string): boolean {
  return existsSync(path.join(dir, 'wp-includes', 'version.php')) && existsSync(path.join(dir, 'wp-settings.php')) && existsSync(path.join(dir, 'wp-admin', 'includes', 'upgrade.php'));
}

export async function wordpressVersion(core: string): Promise<string | undefined> {
  const text = await fs.readFile(path.join(core, 'wp-includes', 'version.php'), 'utf8').catch(() => '');
  return /\$wp_version\s*=\s*'([^']+)'/.exec(text)?.[1];
}

/** The SQLite Database Integration plugin: a folder given by the user, or the zip inside @wp-playground/cli. */
export interface SqliteSource {
  kind: 'dir' | 'zip';
  path: string;
  /** zip: the folder inside the archive */
  prefix?: string;
}

export function sqliteCandidates(explicit: string | undefined, searchFrom: string[]): SqliteSource[] {
  const out: SqliteSource[] = [];
  if (explicit) out.push({ kind: explicit.endsWith('.zip') ? 'zip' : 'dir', path: path.resolve(explicit), prefix: 'plugin-sqlite-database-integration/' });
  for (const from of searchFrom) {
    let dir = path.resolve(from);
    for (;;) {
      out.push({ kind: 'zip', path: path.join(dir, 'node_modules', '@wp-playground', 'cli', 'sqlite-database-integration.zip'), prefix: 'plugin-sqlite-database-integration/' });
      const up = path.dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  return out;
}

export function sqliteSourceUsable(s: SqliteSource): boolean {
  if (s.kind === 'zip') return existsSync(s.path);
  return existsSync(path.join(s.path, 'wp-includes', 'sqlite', 'db.php'));
}
