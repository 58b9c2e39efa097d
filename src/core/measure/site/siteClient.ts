// Talking to the running throwaway site: a request, the probe's record of it, and the PHP error text of one that
// failed.
import { existsSync, promises as fs, statSync } from 'node:fs';
import * as path from 'node:path';
import { siteRequest } from './http';
import type { RuntimeServer } from '../machine/runtime';
import { TABLES_PATH, type Site } from './site';
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
}

export function liveSite(site: Site, srv: RuntimeServer, signal: AbortSignal): LiveSite {
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
    return siteRequest(srv.baseUrl, p, { Host: `127.0.0.1:${srv.port}`, ...headers }, reqTimeout, signal, srv.socketPath);
  };
  const serverDied = (err: unknown) => {
    if (signal.aborted) return abortError(signal);
    if (err instanceof MeasureError) return err;
    return new MeasureError(`the site stopped answering (${(err as Error).message}); server output: ${measuredText(srv.log().trim().slice(-600)) || '(none)'}`, 7);
  };
  return { site, srv, signal, get, serverDied };
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
 * Gives a side or a configuration tables of its own: WordPress's (wp_) copied under `to` (unless `copy` is false), then
 * its active plugins and theme set there when given. Throws MeasureError (7) when the database refuses.
 */
export async function ownTables(live: LiveSite, to: string, o: { copy?: boolean; plugins?: string[]; theme?: [string, string]; onSkipped?: (tables: string[]) => void } = {}): Promise<number> {
  const q = new URLSearchParams({ key: live.site.key, from: 'wp_', to, copy: o.copy === false ? '0' : '1', ...(o.plugins ? { plugins: JSON.stringify(o.plugins) } : {}), ...(o.theme ? { theme: JSON.stringify(o.theme) } : {}) });
  const res = await live.get(`${TABLES_PATH}?${q.toString()}`).catch((e) => {
    throw live.serverDied(e);
  });
  let body: { tables?: number; skipped?: string[]; error?: string | null } = {};
  try {
    body = JSON.parse(res.body);
  } catch {
    /* said below */
  }
  if (res.status !== 200 || body.error) throw new MeasureError(`the database could not give ${to} tables of its own (status ${res.status}): ${measuredText(body.error ?? (await phpErrorText(live.site, res.body, live.srv)))}`, 7);
  if (body.skipped?.length) o.onSkipped?.(body.skipped.map((t) => measuredText(String(t))));
  return body.tables ?? 0;
}
