// The browser pass of `measure PATH --browser`, after the server rounds (and before --instructions, --profile and
// --findings): a gate per side (gate.ts), Chromium in its sandbox (chromium.ts), one warm-up load, then N
// rounds of the homepage, the sides alternating (sideOrder: each side first equally often), each load in a fresh
// context (load.ts); the figures of both sides (figures.ts). Chromium, the gates and the pass's folder (in the run's
// folder, out of PHP's sandbox) are gone when it returns, whatever ends it. No Chromium: said, and no figures.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { sideOrder } from '../record/method';
import { DB_HEADER, dbHeaderValue } from '../database/sideDatabases';
import type { SandboxProbe } from '../machine/sandbox';
import { measuredText, type LiveSite } from '../site/siteClient';
import { MeasureError } from '../options/runOptions';
import { CHROMIUM_HINT, findChromium, launchChromium, sandboxedGates, type RunningChromium } from './chromium';
import { browserDelta, ownAssets, ownFolders, sideMedians } from './figures';
import { startGate, type Gate } from './gate';
import { LOAD_LIMIT_MS, loadPage } from './load';
import { DESKTOP, MOBILE, type BrowserDelta, type BrowserFigures, type BrowserInfo, type BrowserLoad } from './types';

/** Loads per side after the warm-up (`--browser-rounds`). */
export const BROWSER_ROUNDS = 5;

export interface BrowserPassOptions {
  live: LiveSite;
  sandbox: SandboxProbe;
  /** the native runtime's PHP (the relay inside Chromium's sandbox) */
  php?: string;
  env: NodeJS.ProcessEnv;
  device?: 'desktop' | 'mobile';
  rounds?: number;
  component: { kind: 'plugin' | 'theme'; slug: string; mustUse?: boolean; parent?: { slug: string } };
  runId?: string;
  onChild?: (pid: number | undefined) => void;
  check: () => void;
  progress: (line: string) => void;
  /** every load, as recorded (the later surfaces: waterfall, filmstrip) */
  onLoads?: (loads: BrowserLoad[]) => void;
}

export type BrowserPassResult = { delta: BrowserDelta; baseline: BrowserFigures; info: BrowserInfo; loads: BrowserLoad[] } | { unavailable: string };

type BrowserSide = 'baseline' | 'measured';

export async function browserPass(o: BrowserPassOptions): Promise<BrowserPassResult> {
  const bin = findChromium(o.env);
  if (!bin) return { unavailable: `Chromium was not found: ${CHROMIUM_HINT}` };
  const rounds = o.rounds ?? BROWSER_ROUNDS;
  const profile = o.device === 'mobile' ? MOBILE : DESKTOP;
  const { site, srv } = o.live;
  const dir = path.join(site.root, 'browser');
  await fs.mkdir(dir, { recursive: true });
  const origin = `http://127.0.0.1:${srv.port}`;
  const sockets = sandboxedGates(o.sandbox, dir, o.php);
  const gates: Partial<Record<BrowserSide, Gate>> = {};
  let chromium: RunningChromium | undefined;
  try {
    for (const side of ['baseline', 'measured'] as const) {
      const db = o.live.dbOf.get(`side:${side}`);
      const headers = { 'X-WPBench-Side': side, ...(db ? { [DB_HEADER]: dbHeaderValue(db) } : {}) };
      gates[side] = await startGate({ origin, port: srv.port, socketPath: srv.socketPath, headers }, sockets ? path.join(dir, `gate-${side}.sock`) : undefined);
    }
    chromium = await launchChromium({ bin, dir, gates: gates as Record<BrowserSide, Gate>, sandbox: o.sandbox, php: o.php, env: o.env, runId: o.runId, onChild: o.onChild, signal: o.live.signal });
    o.progress(`browser: Chromium ${chromium.version} (${profile.name}: ${profile.throughput_kbps.toLocaleString('en-US')} kb/s, ${profile.rtt_ms} ms RTT${profile.cpu_slowdown > 1 ? `, ${profile.cpu_slowdown}× CPU` : ''}, ${profile.width}×${profile.height}), ${rounds} loads of the homepage per side`);
    const loads: BrowserLoad[] = [];
    const one = (side: BrowserSide, round: number) => {
      o.check();
      return loadPage({ cdp: chromium!.cdp, proxy: chromium!.proxyOf[side], origin, side, round, profile, signal: o.live.signal });
    };
    // One warm-up load, with the component: the browser's first load (its processes, fonts) and the server's first
    // answers for every static file either side asks for (the clean side's are a part of them).
    await one('measured', -1);
    for (let r = 0; r < rounds; r++) {
      o.progress(`browser: load ${r + 1}/${rounds}`);
      for (const side of sideOrder(['baseline', 'measured'] as const, r)) loads.push(await one(side, r));
    }
    o.onLoads?.(loads);
    const base = loads.filter((l) => l.side === 'baseline');
    const meas = loads.filter((l) => l.side === 'measured');
    const cut = loads.filter((l) => l.cut).length;
    if (cut) o.progress(`warning: browser: ${cut === 1 ? 'a load' : `${cut} loads`} never settled within ${LOAD_LIMIT_MS / 1000} s and ${cut === 1 ? 'was' : 'were'} cut there: ${cut === 1 ? 'its' : 'their'} figures are what was seen until then`);
    const blocked = [...new Set([...loads.flatMap((l) => l.blocked), ...gates.baseline!.blocked, ...gates.measured!.blocked])];
    if (blocked.length) o.progress(`browser: the page tried to reach outside the site, refused: ${blocked.slice(0, 5).join(', ')}${blocked.length > 5 ? ' …' : ''}`);
    const folders = ownFolders(o.component.kind, o.component.slug, o.component.mustUse, o.component.parent?.slug);
    const info: BrowserInfo = {
      chromium: chromium.version,
      device: profile.name,
      rounds,
      profile,
      sandbox: chromium.sandbox,
      ...(chromium.sandboxNote ? { sandbox_note: chromium.sandboxNote } : {}),
      ...(cut ? { cut } : {}),
      ...(blocked.length ? { blocked: blocked.slice(0, 20) } : {}),
    };
    return { delta: browserDelta(base, meas, ownAssets(meas, folders)), baseline: sideMedians(base), info, loads };
  } catch (err) {
    // The run's abort and its own failures go on; a browser that broke (crashed, never answered) costs only its figures.
    if (o.live.signal.aborted || err instanceof MeasureError) throw err;
    return { unavailable: `the browser failed (${measuredText(String((err as Error)?.message ?? err)).slice(0, 300)})` };
  } finally {
    await chromium?.stop();
    for (const g of Object.values(gates)) await g.close();
    await fs.rm(dir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  }
}
