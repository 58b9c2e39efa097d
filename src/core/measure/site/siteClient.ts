// Talking to the running throwaway site: a request, the probe's record of it, and the PHP error text of one that
// failed.
import { existsSync, promises as fs, statSync } from 'node:fs';
import * as path from 'node:path';
import { siteRequest } from './http';
import type { RuntimeServer } from '../machine/runtime';
import type { Site } from './site';
import { descendants, killLeftovers } from '../machine/leftovers';
import { DB_HEADER, dbHeaderValue, stateChange, type SideDatabases, type SideDb, type SideState } from '../database/sideDatabases';
import { abortError, MeasureError } from '../options/runOptions';
import { measuredText } from '../component/measuredText';

export { measuredText, registerSecret } from '../component/measuredText';

/** The running site, as the steps after its start (install, activation, rounds) request it. */
export interface LiveSite {
  site: Site;
  srv: RuntimeServer;
  /** the run's one deadline and abort */
  signal: AbortSignal;
  get: (p: string, headers?: Record<string, string>) => ReturnType<typeof siteRequest>;
  /** what a request that got no answer means: the run was aborted, or the site stopped answering */
  serverDied: (err: unknown) => MeasureError;
  /** the sides' own databases (a database server; absent on SQLite), and the measured side's, copied from */
  sides?: SideDatabases & { from: string };
  /** each side's or configuration's own database, by "side:<side>" or "config:<id>" */
  dbOf: Map<string, SideDb>;
}

export function liveSite(site: Site, srv: RuntimeServer, signal: AbortSignal, sides?: SideDatabases & { from: string }, guard?: { sweep: boolean; note: (line: string) => void }): LiveSite {
  const dbOf = new Map<string, SideDb>();
  // The PHP sandbox's own processes once it listens (its init, the server, the relay): after every request any other
  // is killed before the next request (machine/leftovers.ts), said once.
  const sweep = guard?.sweep && srv.pid && process.platform === 'linux' ? { root: srv.pid, expected: new Set(descendants(srv.pid).keys()) } : undefined;
  let said = false;
  const afterRequest = async () => {
    if (!sweep) return;
    const { killed, stuck } = await killLeftovers(sweep.root, sweep.expected);
    if (stuck) throw new MeasureError('the measured code keeps starting processes that outlive its requests (they could tamper with the other side\'s requests): the run is stopped', 7);
    if (killed.length && !said) {
      said = true;
      guard!.note(`the component left ${killed.length === 1 ? 'a process' : `${killed.length} processes`} running after its request (${measuredText([...new Set(killed)].slice(0, 3).join(', '))}): ended before the next request — a process outliving its request could tamper with the other side's (said once)`);
    }
  };
  const reqTimeout = 120_000;
  // The relay's socket is in a folder the measured PHP can write: a process of its that replaced it would see (and
  // could slow) every side's requests. The socket WP Bench first reached is the only one it uses.
  let socketIno: number | undefined;
  const sameSocket = () => {
    if (!srv.socketPath) return;
    const ino = statSync(srv.socketPath, { throwIfNoEntry: false })?.ino;
    socketIno ??= ino;
    if (ino === undefined || ino !== socketIno) throw new MeasureError(`the site's socket (${srv.socketPath}) was replaced during the run: something the measured code started took WP Bench's place; the run is stopped`, 7);
  };
  const get = (p: string, headers: Record<string, string> = {}): ReturnType<typeof siteRequest> => {
    try {
      sameSocket();
    } catch (err) {
      return Promise.reject(err);
    }
    const req = siteRequest(srv.baseUrl, p, { Host: `127.0.0.1:${srv.port}`, ...withDb(headers) }, reqTimeout, signal, srv.socketPath);
    return sweep
      ? req.then(
          async (r) => (await afterRequest(), r),
          async (e) => {
            await afterRequest();
            throw e;
          },
        )
      : req;
  };
  // A side's (or a configuration's) own database: its credentials go with its requests, and only with them. A caller
  // naming X-WPBench-Db itself ("": the measured side's, wp-config.php's own) is left as it is.
  const withDb = (headers: Record<string, string>): Record<string, string> => {
    if (DB_HEADER in headers) {
      if (headers[DB_HEADER] !== '') return headers;
      const { [DB_HEADER]: _, ...rest } = headers;
      return rest;
    }
    const key = headers['X-WPBench-Config'] !== undefined ? `config:${headers['X-WPBench-Config']}` : headers['X-WPBench-Side'] !== undefined ? `side:${headers['X-WPBench-Side']}` : undefined;
    const db = key ? dbOf.get(key) : undefined;
    return db ? { ...headers, [DB_HEADER]: dbHeaderValue(db) } : headers;
  };
  const serverDied = (err: unknown) => {
    if (signal.aborted) return abortError(signal);
    if (err instanceof MeasureError) return err;
    return new MeasureError(`the site stopped answering (${(err as Error).message}); server output: ${measuredText(srv.log().trim().slice(-600)) || '(none)'}`, 7);
  };
  return { site, srv, signal, get, serverDied, sides, dbOf };
}

export interface Probe {
  memory: number;
  queries: number | null;
  status: number;
  location: string | null;
  error: string | null;
  db_errors?: number;
  db_error?: string | null;
  cpu_ms?: number | null;
}

/** The probe's record of a request; it is written at the very end of the request, so wait for it briefly. */
export async function readProbe(site: Site, id: string, signal: AbortSignal): Promise<Probe | undefined> {
  const file = path.join(site.probeDir, `${id}.json`);
  const deadline = Date.now() + 3000;
  for (;;) {
    const text = await fs.readFile(file, 'utf8').catch(() => undefined);
    if (text) {
      try {
        const p = JSON.parse(text) as Probe;
        await fs.rm(file, { force: true });
        // The measured code's words, on one line and without its secrets.
        if (typeof p.error === 'string') p.error = measuredText(p.error);
        if (typeof p.db_error === 'string') p.db_error = measuredText(p.db_error);
        if (typeof p.location === 'string') p.location = measuredText(p.location);
        return p;
      } catch {
        /* partly written: read again */
      }
    }
    if (Date.now() > deadline || signal.aborted) return undefined;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Readable text of an HTML answer (a wp_die() page): no head, styles or scripts, no tags, entities decoded. */
export function htmlText(html: string): string {
  return measuredText(
    html
    .replace(/<(head|style|script)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(rsaquo|lsaquo|amp|lt|gt|quot|#039|nbsp);/g, (_, e: string) => ({ rsaquo: '›', lsaquo: '‹', amp: '&', lt: '<', gt: '>', quot: '"', '#039': "'", nbsp: ' ' })[e] ?? ' ')
    .replace(/\s+/g, ' ')
    .trim());
}

/** The PHP error text for a failed request: the error log's last lines, else the body's text. */
export async function phpErrorText(site: Site, body: string, server: RuntimeServer): Promise<string> {
  const logFile = path.join(site.workDir, 'php-errors.log');
  const log = existsSync(logFile) ? await fs.readFile(logFile, 'utf8').catch(() => '') : '';
  const lines = log.trim().split('\n');
  const fatal = lines.map((l) => l.replace(/^\[[^\]]*\]\s*/, '')).filter((l) => /^PHP (Fatal|Parse) error/.test(l)).pop();
  const lastLog = fatal ? fatal.slice(0, 600) : lines.slice(-3).join(' | ');
  const text = htmlText(body).slice(0, 400);
  return measuredText(lastLog || text || server.log().trim().slice(-400) || '(no error text)');
}

/**
 * Gives a side or a configuration (`key`: "side:baseline", "side:ref", "config:<id>") a database and a user of its own:
 * the measured side's tables copied into it the first time, then its active plugins and theme set when given. From
 * then on that side's requests carry its credentials (see LiveSite.get). Throws MeasureError (7) when the database
 * refuses.
 */
export async function ownTables(live: LiveSite, key: string, o: { plugins?: string[]; theme?: [string, string]; onSkipped?: (tables: string[]) => void } = {}): Promise<void> {
  const sides = live.sides;
  if (!sides) throw new Error('ownTables: the site runs on SQLite');
  let db = live.dbOf.get(key);
  if (!db) {
    // Named by number (s1, s2, …): a configuration's id ("alone:acme/acme.php") is no database name.
    const made = await sides.add(`s${live.dbOf.size + 1}`, sides.from);
    if (made.skipped.length) o.onSkipped?.(made.skipped.map((t) => measuredText(t)));
    db = made.db;
    live.dbOf.set(key, db);
  }
  const options: Record<string, string | string[]> = {};
  if (o.plugins) options.active_plugins = o.plugins;
  if (o.theme) {
    options.stylesheet = o.theme[0];
    options.template = o.theme[1];
  }
  if (Object.keys(options).length) await sides.set(db.name, options);
}

/** The state of each side or configuration with tables of its own that is not measured code's (the clean site, REF). */
export async function sideStates(live: LiveSite, keys: string[]): Promise<Map<string, SideState>> {
  const out = new Map<string, SideState>();
  for (const k of keys) {
    const db = live.dbOf.get(k);
    if (db && live.sides) out.set(k, await live.sides.state(db.name));
  }
  return out;
}

/**
 * Fails the run (exit 7) when a side that no measured code may touch changed while it was measured: its figures would
 * not be the clean site's (or REF's).
 */
export async function checkSidesUnchanged(live: LiveSite, before: Map<string, SideState>, label: (key: string) => string): Promise<void> {
  for (const [k, was] of before) {
    const now = (await sideStates(live, [k])).get(k);
    const change = now ? stateChange(was, now) : 'it could not be read';
    if (change) throw new MeasureError(`${label(k)} changed during the run (${measuredText(change)}): its figures would not be its own, so none is reported`, 7);
  }
}
