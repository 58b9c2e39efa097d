// A throwaway WordPress up and installed for one run, and everything taken down after it: the run's temporary
// folder, its database (a throwaway MariaDB/MySQL server, --db's database, or SQLite's file from the cached
// template), the PHP server (native php -S in its sandbox, or Playground), WordPress installed, an administrator's
// cookie. `withOpenSite` runs a body against it and removes it all whatever ends the run (success, error, time
// limit, Ctrl-C); a process that ends without `finally` has the exit hook below.
import { crypto } from '../../lazyNode';
import { existsSync, promises as fs, rmSync } from 'node:fs';
import * as path from 'node:path';
import { MeasureCache } from '../record/cache';
import { THROWAWAY_DB_USER, databaseLabel, dbSocketDir, startThrowawayDb, type RunningDb } from '../database/database';
import { useExternalDb } from '../database/externalDb';
import { startPhpServer } from '../runtime/phpRuntime';
import { startPlaygroundServer } from '../runtime/playgroundRuntime';
import type { RuntimeServer } from '../machine/runtime';
import { DEFAULT_DISK_LIMIT_MIB, abortError, MeasureError, raceAbort, type MeasureOptions } from '../options/runOptions';
import { watchDisk } from './diskCap';
import { sandboxLine, type Environment } from '../runtime/runtimeChoice';
import { killMarked, waitGone } from '../machine/sandbox';
import { INSTALL_PATH, makeTempRoot, removeSite, sandboxMounts, type Site } from '../site/site';
import { forgetDbLeftover, keepDbLeftover, keepDbLeftoverSync, readDbLeftovers, sweepOrphanedRoots } from '../site/orphans';
import { liveSite, phpErrorText, registerSecret, type LiveSite } from '../site/siteClient';
import { sideDatabases } from '../database/sideDatabases';

/**
 * Last resort when the process ends without running `finally` (process.exit() from an EPIPE handler, an uncaught
 * exception): the servers still running are killed and the temporary folders removed, synchronously.
 */
const live = { pids: new Set<number>(), roots: new Set<string>(), markers: new Set<string>() };
let exitHookInstalled = false;
export function track(r: { root?: string; pid?: number; marker?: string }): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const pid of live.pids) {
        try {
          process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
      for (const m of live.markers) killMarked(m);
      for (const root of live.roots) {
        // A --db run's database and user stay on the server: their names are kept for the next run to drop.
        keepDbLeftoverSync(root);
        try {
          rmSync(root, { recursive: true, force: true, maxRetries: 3 });
        } catch {
          /* a dying server may still write into it: nothing more can be done while exiting */
        }
      }
    });
  }
  if (r.pid) live.pids.add(r.pid);
  if (r.root) live.roots.add(r.root);
  if (r.marker) live.markers.add(r.marker);
}

/** What the install endpoint answers. */
export interface Installed {
  wp_version: string;
  php_version: string;
  installed_now: boolean;
  opcache?: boolean;
  db_server_info?: string;
  cookies: Record<string, string>;
}

/** Where WordPress connects when the database is a server (a socket in the run's folder). */
export type DbConnection = { host: string; name: string; user: string; password: string };

export interface OpenSite {
  site: Site;
  running: LiveSite;
  srv: RuntimeServer;
  installed: Installed;
  /** the logged-in administrator's cookie, for the admin context */
  cookie: string;
  /** the database server (absent: SQLite) */
  db?: RunningDb;
  /** throws when the run is aborted */
  check: () => void;
}

/**
 * Builds the site with `build` (given the run's folder and, for a server, the connection), starts what it runs on,
 * installs WordPress and runs `body`; then takes everything down. `o.signal` is the run's deadline.
 */
export async function withOpenSite<T>(
  o: MeasureOptions,
  env: Environment,
  cache: MeasureCache | undefined,
  build: (root: string, db: DbConnection | undefined) => Promise<Site>,
  body: (s: OpenSite) => Promise<T>,
): Promise<T> {
  const progress = o.progress ?? (() => undefined);
  // The run's deadline and abort (o.signal), and the disk cap's: one signal for everything below.
  const ac = new AbortController();
  const outer = o.signal!;
  const onOuter = () => ac.abort(outer.reason);
  if (outer.aborted) onOuter();
  else outer.addEventListener('abort', onOuter, { once: true });
  const signal = ac.signal;
  let disk: { stop: () => void; rebase: () => Promise<void> } | undefined;
  const check = () => {
    if (signal.aborted) throw abortError(signal);
  };
  // Every process of the run carries this marker; without a sandbox its leftovers are found by it and killed (in the
  // sandbox the kernel ends them all with its PID namespace; Playground starts none).
  const runId = crypto().randomBytes(12).toString('hex');
  const sweep = env.sandbox.name === 'none' && env.runtime === 'php';
  if (sweep) track({ marker: runId });
  let root: string | undefined;
  let server: RuntimeServer | undefined;
  let startP: Promise<RuntimeServer> | undefined;
  let dbP: Promise<RunningDb> | undefined;
  try {
    // Folders left by runs that were killed (SIGKILL: no clean-up could run) go first.
    // A killed --db run's database and user are noted for the next run against that server.
    const swept = await sweepOrphanedRoots(undefined, undefined, (orphan) => keepDbLeftover(orphan)).catch(() => []);
    if (swept.length) progress(`removed ${swept.length === 1 ? 'a temporary folder' : `${swept.length} temporary folders`} left by a killed run (${swept.map((r) => path.basename(r)).join(', ')})`);
    root = await makeTempRoot();
    track({ root });
    o.onResource?.({ root });
    check();
    if (env.databaseNote) progress(`warning: ${env.databaseNote}`);
    // The database server starts while the site is copied: its connection is known before (a socket in the run's folder).
    // The database's folder is beside the site's, not in it: PHP's sandbox sees only its socket folder.
    const dbDir = path.join(root, 'db');
    const dbName = env.database.kind === 'url' ? `wpbench_${crypto().randomBytes(6).toString('hex')}` : 'wordpress';
    // WordPress's own database user's password: random per run, never the user's (and never shown).
    // Every character class, so a server's password policy (MySQL's validate_password) accepts it.
    const dbPassword = `Aa1-${crypto().randomBytes(24).toString('base64url')}`;
    registerSecret(dbPassword);
    let dbConn: DbConnection | undefined;
    if (env.database.kind === 'server') {
      const b = env.database.bins;
      progress(`starting a throwaway ${databaseLabel({ engine: b.engine, version: b.version })} server (${env.sandbox.name === 'bubblewrap' ? 'in a sandbox of its own, ' : ''}a Unix socket in the run's folder, networking off)`);
      const templateDir = path.join(o.cacheDir ?? path.join(root, 'work'), 'db-templates', `${b.engine}-${b.version}`);
      dbP = startThrowawayDb(b, { dbDir, templateDir, env: o.env, signal, onPid: (pid) => (track({ pid }), o.onResource?.({ pid })), sandbox: env.sandbox, password: dbPassword });
      dbConn = { host: `localhost:${path.join(dbSocketDir(dbDir), 'mysqld.sock')}`, name: dbName, user: THROWAWAY_DB_USER, password: dbPassword };
    } else if (env.database.kind === 'url') {
      const u = env.database.url;
      registerSecret(u.password);
      progress(`using the database server at ${u.host}:${u.port} (--db): a database and a user of its own, ${dbName}, dropped at the end`);
      dbP = useExternalDb(u, {
        dbDir,
        php: env.php!.bin,
        env: o.env,
        name: dbName,
        password: dbPassword,
        signal,
        leftovers: await readDbLeftovers(),
        onLeftoverDropped: (l) => (progress(`dropped ${l.name} (database and user) left on ${u.host}:${u.port} by a killed run`), void forgetDbLeftover(l.name)),
      });
      dbConn = { host: `localhost:${path.join(dbSocketDir(dbDir), 'relay.sock')}`, name: dbName, user: dbName, password: dbPassword };
    }
    // Never an unhandled rejection while the site is built: awaited below, or in finally.
    dbP?.catch(() => undefined);
    progress(`building a throwaway site (WordPress ${env.wpVersion}, ${env.runtime === 'php' ? `PHP ${env.phpVersion}` : 'Playground'}) in ${root}`);
    const site = await build(root, dbConn);
    check();
    // What the measured code writes is capped (the copies above are not its writes: counted from here on, they are
    // read-only to it and not in the watched folders).
    const limitMiB = o.diskLimitMiB ?? DEFAULT_DISK_LIMIT_MIB;
    disk = watchDisk(() => [...sandboxMounts(site).filter((m) => m.writable).map((m) => m.path), dbDir], limitMiB, (err) => ac.abort(err));
    // A fresh install through the SQLite translator takes seconds: the database of an earlier fresh install of the
    // same core, integration and baseline theme is copied instead (it holds no data of the user's).
    const template = cache && env.sqlite && !dbConn ? cache.templateFile(MeasureCache.key({ core: env.core, wordpress: env.wpVersion, sqlite: env.sqlite.path, theme: site.baseTheme, runtime: env.runtime, format: 1 })) : undefined;
    const t0 = Date.now();
    const db = dbP ? await raceAbort(dbP, signal) : undefined;
    if (db) progress(`database: ${databaseLabel(db.info)}${db.info.server === 'throwaway' ? ` (ready ${((Date.now() - t0) / 1000).toFixed(1)} s after the site was built)` : ''}`);
    const dbFile = path.join(site.workDir, 'db', 'site.sqlite');
    const templateBytes = template ? await cache!.readTemplate(template, (l) => progress(`warning: ${l}`)) : undefined;
    if (templateBytes) await fs.writeFile(dbFile, templateBytes);
    progress(env.runtime === 'php' ? 'starting php -S on 127.0.0.1' : 'starting WordPress Playground (its first requests are slow)');
    progress(sandboxLine(env.sandbox));
    startP =
      env.runtime === 'php'
        ? startPhpServer(env.php!, site, o.env, (c) => (track({ pid: c.pid }), o.onResource?.({ pid: c.pid })), env.sandbox, runId, (w) => progress(`warning: ${w}`))
        : startPlaygroundServer(env.playground!, site, o.env, (c) => (track({ pid: c.pid }), o.onResource?.({ pid: c.pid })), signal);
    server = await raceAbort(startP, signal);
    o.onResource?.({ port: server.port, pid: server.pid });
    // --db's relay lets only the run's user through; with the machine's network the measured PHP could reach the
    // server directly, as any account: refused rather than measured.
    if (env.database.kind === 'url' && server.network === 'host' && env.sandbox.name === 'bubblewrap')
      throw new MeasureError(`--db needs the sandbox's own network, and the temporary folder's path is too long for its socket (over 100 bytes): set TMPDIR to a shorter folder`, 8);
    progress(`site at ${server.baseUrl} (server pid ${server.pid ?? '?'})`);
    const srv = server;

    // The running site as the install, the activation and the rounds request it.
    // With a database server, each other side gets a database and a user of its own (sideDatabases.ts), made and
    // copied through WP Bench's own connection, never PHP's.
    const sides = db && env.php ? { ...sideDatabases({ php: env.php.bin, conn: db.admin, env: o.env, signal, userHost: db.userHost, naming: db.naming, onAdded: db.onSideAdded, registerSecret }), from: db.name } : undefined;
    const running = liveSite(site, srv, signal, sides, { sweep: env.runtime === 'php' && env.sandbox.name === 'bubblewrap', note: (l) => progress(`warning: ${l}`) });
    const { get, serverDied } = running;

    progress('installing WordPress');
    const inst = await get(`${INSTALL_PATH}?key=${site.key}`).catch((e) => {
      throw serverDied(e);
    });
    let installed: { wp_version: string; php_version: string; installed_now: boolean; opcache?: boolean; db_server_info?: string; cookies: Record<string, string> };
    try {
      installed = JSON.parse(inst.body);
    } catch {
      throw new MeasureError(`WordPress ${env.wpVersion} did not install on PHP ${env.phpVersion ?? '?'} (status ${inst.status}): ${await phpErrorText(site, inst.body, srv)}. A core older than this PHP may not run on it: --wordpress DIR names another core (and --php BIN another PHP)`, 7);
    }
    if (template && installed.installed_now && !existsSync(`${dbFile}-wal`)) await cache!.saveTemplate(dbFile, template).catch(() => undefined);
    // From here on, what the run's folders grow by is the measured code's (and the copies of its tables).
    await disk?.rebase();
    const cookie = Object.entries(installed.cookies)
      .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
      .join('; ');

    return await body({ site, running, srv, installed, cookie, db, check });
  } catch (err) {
    if (signal.aborted) throw abortError(signal);
    throw err;
  } finally {
    disk?.stop();
    outer.removeEventListener('abort', onOuter);
    // A server still starting when the run was aborted is stopped once it is up (or has failed to start).
    if (!server && startP) server = await startP.catch(() => undefined);
    if (server) await server.stop();
    // The database after PHP (a request may still hold a connection): the throwaway server stopped, or --db's database dropped.
    const dbRun = dbP ? await dbP.catch(() => undefined) : undefined;
    if (dbRun) await dbRun.stop();
    if (dbRun?.pid) live.pids.delete(dbRun.pid);
    // Unsandboxed, detached children (setsid, nohup, env -i) escape the process group: found by the run's marker or
    // their working folder, killed, and waited for (also after a server that failed to start).
    if (sweep) await waitGone(killMarked(runId, root));
    live.markers.delete(runId);
    if (root) await removeSite(root);
    if (server?.pid) live.pids.delete(server.pid);
    if (root) live.roots.delete(root);
  }
}
