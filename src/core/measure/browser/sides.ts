// The loads of a browser pass over named sides: a gate per side (gate.ts, the side's headers on every request it
// forwards), Chromium in its sandbox (chromium.ts), one warm-up load, then N rounds of the homepage, the sides' order
// rotating each round (sideOrder: each side first equally often), each load in a fresh context (load.ts). The
// component's pass (pass.ts: clean, measured and REF) and the site's (siteRun/siteBrowser.ts: a side per
// configuration) are both this. Chromium, the gates and the pass's folder are gone when it returns, whatever ends it.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { sideOrder } from '../record/method';
import { DB_HEADER, dbHeaderValue } from '../database/sideDatabases';
import type { SandboxProbe } from '../machine/sandbox';
import type { LiveSite } from '../site/siteClient';
import { CHROMIUM_HINT, findChromium, launchChromium, sandboxedGates, type RunningChromium } from './chromium';
import { startGate, type Gate } from './gate';
import { LOAD_LIMIT_MS, loadPage } from './load';
import { failedRequests } from './figures';
import { DESKTOP, MOBILE, type BrowserInfo, type BrowserLoad } from './types';

/** Loads per side after the warm-up (`--browser-rounds`). */
export const BROWSER_ROUNDS = 5;

/** One side of a pass: its id (BrowserLoad.side) and the headers that select it on the site ("X-WPBench-Side" …). */
export interface BrowserSide {
  id: string;
  headers: Record<string, string>;
  /** the database key of its tables ("side:baseline", "config:stack"), when it has tables of its own */
  db?: string;
}

/** What every browser pass is given: the live site, the machine, the profile and rounds, the run's hooks. */
export interface BrowserRunOptions {
  live: LiveSite;
  sandbox: SandboxProbe;
  /** the native runtime's PHP (the relay inside Chromium's sandbox) */
  php?: string;
  env: NodeJS.ProcessEnv;
  device?: 'desktop' | 'mobile';
  rounds?: number;
  runId?: string;
  onChild?: (pid: number | undefined) => void;
  check: () => void;
  progress: (line: string) => void;
}

export interface SidesPassOptions extends BrowserRunOptions {
  sides: BrowserSide[];
  /** the side of the warm-up load (the one that asks for most files: the measured side, the stack) */
  warmup: string;
  /** what the loads are of, for the progress line ("the homepage per side", "the homepage per configuration") */
  per?: string;
  /** the report's waterfall and filmstrip: one more load of these sides after the rounds, with frames captured (not
   * counted in the figures: capturing costs the browser work) */
  filmstrip?: string[];
  /** asked once after the rounds with every load so far: how many more rounds of every side to load (a confirmation
   * pass, counted on from them; 0: none) */
  confirm?: (loads: BrowserLoad[]) => number | Promise<number>;
}

export type SidesPassResult = { loads: BrowserLoad[]; info: BrowserInfo; shown?: BrowserLoad[] } | { unavailable: string };

/** Loads every side's homepage `rounds` times after a warm-up; the loads and how they were taken. */
export async function browserSidesPass(o: SidesPassOptions): Promise<SidesPassResult> {
  const bin = findChromium(o.env);
  if (!bin) return { unavailable: `Chromium was not found: ${CHROMIUM_HINT}` };
  const rounds = o.rounds ?? BROWSER_ROUNDS;
  const profile = o.device === 'mobile' ? MOBILE : DESKTOP;
  const { site, srv } = o.live;
  const dir = path.join(site.root, 'browser');
  await fs.mkdir(dir, { recursive: true });
  const origin = `http://127.0.0.1:${srv.port}`;
  const sockets = sandboxedGates(o.sandbox, dir, o.php);
  const gates: Record<string, Gate> = {};
  let chromium: RunningChromium | undefined;
  try {
    for (const [i, side] of o.sides.entries()) {
      const db = side.db ? o.live.dbOf.get(side.db) : undefined;
      const headers = { ...side.headers, ...(db ? { [DB_HEADER]: dbHeaderValue(db) } : {}) };
      // Socket names by position: a configuration's id ("alone:acme/acme.php") is no file name.
      gates[side.id] = await startGate({ origin, port: srv.port, socketPath: srv.socketPath, headers }, sockets ? path.join(dir, `gate-${i}.sock`) : undefined);
    }
    chromium = await launchChromium({ bin, dir, gates, sandbox: o.sandbox, php: o.php, env: o.env, runId: o.runId, onChild: o.onChild, signal: o.live.signal });
    o.progress(`browser: Chromium ${chromium.version} (${profile.name}: ${profile.throughput_kbps.toLocaleString('en-US')} kb/s, ${profile.rtt_ms} ms RTT${profile.cpu_slowdown > 1 ? `, ${profile.cpu_slowdown}× CPU` : ''}, ${profile.width}×${profile.height}), ${rounds} loads of ${o.per ?? 'the homepage per side'}`);
    const loads: BrowserLoad[] = [];
    const one = (side: string, round: number, frames = false) => {
      o.check();
      return loadPage({ cdp: chromium!.cdp, proxy: chromium!.proxyOf[side], origin, side, round, profile, signal: o.live.signal, frames });
    };
    // One warm-up load: the browser's first load (its processes, fonts) and the server's first answers for every
    // static file the other sides ask for (theirs are a part of them).
    await one(o.warmup, -1);
    const ids = o.sides.map((s) => s.id);
    const roundsOf = async (from: number, to: number) => {
      for (let r = from; r < to; r++) {
        o.progress(`browser: load ${r + 1}/${to}`);
        for (const side of sideOrder(ids, r)) loads.push(await one(side, r));
      }
    };
    await roundsOf(0, rounds);
    const more = Math.max(0, Math.floor((await o.confirm?.(loads)) ?? 0));
    if (more) await roundsOf(rounds, rounds + more);
    const total = rounds + more;
    const cut = loads.filter((l) => l.cut).length;
    if (cut) o.progress(`warning: browser: ${cut === 1 ? 'a load' : `${cut} loads`} never settled within ${LOAD_LIMIT_MS / 1000} s and ${cut === 1 ? 'was' : 'were'} cut there: ${cut === 1 ? 'its' : 'their'} figures are what was seen until then`);
    const blocked = [...new Set([...loads.flatMap((l) => l.blocked), ...Object.values(gates).flatMap((g) => g.blocked)])];
    if (blocked.length) o.progress(`browser: the page tried to reach outside the site, refused: ${blocked.slice(0, 5).join(', ')}${blocked.length > 5 ? ' …' : ''}`);
    const failed = failedRequests(loads);
    if (failed.length) o.progress(`warning: browser: ${failed.length === 1 ? 'a request of the site' : `${failed.length} requests of the site`} failed in most loads, and the figures leave out what ${failed.length === 1 ? 'it' : 'they'} would have cost: ${failed.slice(0, 5).join(', ')}${failed.length > 5 ? ' …' : ''}`);
    const info: BrowserInfo = {
      chromium: chromium.version,
      device: profile.name,
      rounds: total,
      ...(more ? { confirmation_rounds: more } : {}),
      profile,
      sandbox: chromium.sandbox,
      ...(chromium.sandboxNote ? { sandbox_note: chromium.sandboxNote } : {}),
      ...(cut ? { cut } : {}),
      ...(blocked.length ? { blocked: blocked.slice(0, 20) } : {}),
      ...(failed.length ? { failed_requests: failed } : {}),
    };
    const shown: BrowserLoad[] = [];
    for (const side of o.filmstrip ?? []) shown.push(await one(side, total, true));
    return { loads, info, ...(o.filmstrip ? { shown } : {}) };
  } finally {
    await chromium?.stop();
    for (const g of Object.values(gates)) await g.close();
    await fs.rm(dir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  }
}
