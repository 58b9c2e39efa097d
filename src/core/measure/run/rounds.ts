// The rounds: in each, every context is requested on every side (the clean site, the component and, in a comparison,
// the other copy) in a balanced order. A side that fails in a context is not requested there again; WordPress
// failing without the component ends the run. Also the paired differences of a comparison, round by round.
import { crypto } from '../../lazyNode';
import type { MeasuredComponent } from '../component/component';
import { CONTEXTS, sideOrder, type MeasureContext, type NullReason, type Sample } from '../record/method';
import type { PairedTtfb } from '../compare/regression';
import { MeasureError } from '../options/runOptions';
import { BOOT_PATH } from '../site/site';
import { phpErrorText, readProbe, type LiveSite } from '../site/siteClient';
import { limitError, markLog, newEntries, noteClean, orLimitError, sayEntries } from './phpLog';
import { adminNotices } from '../record/needs';

export const PATH_URL: Record<MeasureContext, string> = { activation: BOOT_PATH, homepage: '/', admin: '/wp-admin/' };

export type Side = 'baseline' | 'measured' | 'ref';

/**
 * A request's figures or why it failed, the entries PHP logged during it (`logged`, see phpLog.ts) and, in the admin
 * context, the texts of the page's notices (`notices`, record/needs.ts: an add-on saying what it needs).
 */
export type Outcome = ({ ok: Sample } | { fail: NullReason }) & { logged?: string[]; notices?: string[] };

/** What the rounds gathered: per context and side, the samples of the measured rounds; per side, the contexts it failed in. */
export interface RoundsState {
  samples: Record<MeasureContext, Record<Side, Sample[]>>;
  failed: Record<'measured' | 'ref', Partial<Record<MeasureContext, NullReason>>>;
  /** `side:context` of the first requests made (what PHP logged during them is said) */
  firsts: Set<string>;
  /** per side, the admin page's notices of its first answered admin request */
  notices: Partial<Record<Side, string[]>>;
}

export function newRoundsState(): RoundsState {
  return {
    samples: Object.fromEntries(CONTEXTS.map((c) => [c, { baseline: [], measured: [], ref: [] }])) as unknown as Record<MeasureContext, Record<Side, Sample[]>>,
    failed: { measured: {}, ref: {} },
    firsts: new Set(),
    notices: {},
  };
}

/** One request of a context on one side, and what the probe recorded of it. */
function requestSide(live: LiveSite, cookie: string, ctx: MeasureContext, side: Side, who: string, extra: Record<string, string> = {}): Promise<Outcome> {
  return requestContext(live, cookie, ctx, { 'X-WPBench-Side': side, ...extra }, who);
}

/**
 * One request of a context with these headers (a side, or `--site`'s configuration), what the probe recorded and what
 * PHP logged. Throws MeasureError (7) when `who` (the measured code) reached one of the sandbox's limits.
 */
export async function requestContext(live: LiveSite, cookie: string, ctx: MeasureContext, extra: Record<string, string>, who = 'the measured code'): Promise<Outcome> {
  const { site, signal, get, serverDied } = live;
  const id = crypto().randomBytes(8).toString('hex');
  const headers: Record<string, string> = { 'X-WPBench-Req': id, ...extra };
  if (ctx === 'admin') headers.Cookie = cookie;
  await markLog(site);
  const res = await get(PATH_URL[ctx], headers).catch(async (e) => {
    throw await orLimitError(site, who, serverDied(e));
  });
  const probe = await readProbe(site, id, signal);
  const logged = await newEntries(site);
  const limit = limitError(site, who, logged, probe?.error ?? '');
  if (limit) throw limit;
  const notices = ctx === 'admin' && res.status === 200 ? { notices: adminNotices(res.body) } : {};
  return { ...(await outcomeOf(live, res, probe)), logged, ...notices };
}

async function outcomeOf(live: LiveSite, res: Awaited<ReturnType<LiveSite['get']>>, probe: Awaited<ReturnType<typeof readProbe>>): Promise<Outcome> {
  if (probe?.error) return { fail: { reason: 'PHP fatal error', status: res.status, php_error: probe.error } };
  if (res.status >= 300 && res.status < 400) {
    return { fail: { reason: `redirect (${res.status}) to ${String(res.headers.location ?? probe?.location ?? '?').slice(0, 300)}`, status: res.status, location: String(res.headers.location ?? '') } };
  }
  if (res.status >= 400) return { fail: { reason: `HTTP ${res.status}`, status: res.status, php_error: await phpErrorText(live.site, res.body, live.srv) } };
  if (!probe || probe.queries === null) return { fail: { reason: 'the request left no measurement (WordPress did not load)', status: res.status } };
  return { ok: { ttfbMs: res.ttfbMs, memoryBytes: probe.memory, queries: probe.queries, dbErrors: probe.db_errors ?? 0, dbError: probe.db_error ?? null, cpuMs: typeof probe.cpu_ms === 'number' ? probe.cpu_ms : null } };
}

export interface RoundsPlan {
  live: LiveSite;
  /** the logged-in admin's cookie, for the admin context */
  cookie: string;
  component: MeasuredComponent;
  /** the other copy, in a comparison */
  ref?: MeasuredComponent;
  warmup: number;
  /** throws when the run is aborted */
  check: () => void;
  progress: (line: string) => void;
  /** headers of the measured side's warm-up requests (`--findings`: marked for the collector's note of option writes) */
  warmupHeaders?: Record<string, string>;
}

/**
 * Rounds `from` to `to` (not included), into `state`: rounds below `warmup` are warm-up rounds, not recorded.
 * A confirmation pass is the rounds after the measured ones.
 */
export async function runRounds(p: RoundsPlan, state: RoundsState, from: number, to: number): Promise<void> {
  const { component, warmup, check, progress } = p;
  const refComponent = p.ref;
  const { samples, failed } = state;
  const sides: Side[] = refComponent ? ['baseline', 'measured', 'ref'] : ['baseline', 'measured'];
  for (let r = from; r < to; r++) {
    const warm = r < warmup;
    for (const ctx of CONTEXTS) {
      if (failed.measured[ctx] && (!refComponent || failed.ref[ctx])) continue;
      check();
      progress(warm ? `warm-up ${r + 1}/${warmup}: ${ctx}` : `round ${r - warmup + 1}/${to - warmup}: ${ctx}`);
      // A balanced order: every side follows every other side equally often (see sideOrder).
      const order = sideOrder(sides, r);
      for (const side of order) {
        if (side !== 'baseline' && failed[side][ctx]) continue;
        const copy = side === 'ref' ? refComponent! : component;
        const out = await requestSide(p.live, p.cookie, ctx, side, `the ${copy.kind}${side === 'ref' ? ' (baseline copy)' : ''}`, warm && side === 'measured' ? p.warmupHeaders : undefined);
        // What PHP said during the first request of each context on a side of the component: its warnings, uncaught
        // exceptions and fatal errors; not what it says on the clean side too (WordPress's own, said first in round 1).
        if (!state.firsts.has(`${side}:${ctx}`)) {
          state.firsts.add(`${side}:${ctx}`);
          if (side === 'baseline') noteClean(p.live.site, out.logged ?? []);
          else sayEntries(p.live.site, out.logged ?? [], `${ctx}${side === 'ref' ? ' (baseline copy)' : ''}, first request`, progress);
        }
        if ('fail' in out) {
          if (side === 'baseline') {
            throw new MeasureError(`WordPress itself fails without the component (${ctx}: ${out.fail.reason}${out.fail.php_error ? `: ${out.fail.php_error}` : ''})`, 7);
          }
          if (warm) continue; // one-time redirects (welcome screens) and first-request work settle during warm-up
          if (ctx === 'activation' && side === 'measured') {
            throw new MeasureError(`the ${component.kind} breaks WordPress on every request: ${out.fail.reason}${out.fail.php_error ? `: ${out.fail.php_error}` : ''}`, 7);
          }
          failed[side][ctx] = out.fail;
          continue;
        }
        if (out.notices && !state.notices[side]) state.notices[side] = out.notices;
        if (!warm) samples[ctx][side].push(out.ok);
      }
    }
  }
}

/**
 * Paired differences (working tree − REF) of one figure, request by request in the same round: per context where
 * neither copy failed and every pair has the figure.
 */
export function pairedOf(state: RoundsState, f: (x: Sample) => number | null | undefined): PairedTtfb {
  const { samples, failed } = state;
  return Object.fromEntries(
    CONTEXTS.filter((c) => !failed.measured[c] && !failed.ref[c])
      .map((c) => {
        const n = Math.min(samples[c].measured.length, samples[c].ref.length);
        const d = Array.from({ length: n }, (_, i) => {
          const a = f(samples[c].measured[i]);
          const b = f(samples[c].ref[i]);
          return typeof a === 'number' && typeof b === 'number' ? a - b : NaN;
        });
        return [c, d] as const;
      })
      .filter(([, d]) => d.length > 0 && d.every(Number.isFinite)),
  );
}
