// The paired browser figures of a `--baseline-ref --browser` run: per figure, the differences working tree − REF of
// the loads of the same round (both against the same clean loads, so the clean side cancels out), what the
// regression check judges the time figures on (compare/browser.ts); and the main-thread time of each copy's own
// scripts, paired the same way (what decides a paint the page's noise could not). Pure.
import { loadFigures, pathOf } from './figures';
import type { BrowserFigures, BrowserLoad } from './types';

/**
 * Per browser figure, one difference per round in which both sides were loaded (`a` − `b`, in the figure's unit);
 * `main_thread_ms`: the main-thread time of each side's own scripts (under its folders), paired the same way, and
 * `blocking_main_thread_ms` that of its own render-blocking ones (work done before the first paint).
 */
export type PairedBrowser = Partial<Record<keyof BrowserFigures | 'main_thread_ms' | 'blocking_main_thread_ms', number[]>>;

const KEYS: ReadonlyArray<keyof BrowserFigures> = ['bytes_kb', 'requests', 'render_blocking', 'fcp_ms', 'lcp_ms', 'tbt_ms', 'cls'];

const bySide = (loads: readonly BrowserLoad[], side: string) => new Map(loads.filter((l) => l.side === side && l.round >= 0).map((l) => [l.round, l]));
/** The rounds both sides were loaded in, in order. */
const bothRounds = (A: Map<number, BrowserLoad>, B: Map<number, BrowserLoad>) => [...A.keys()].filter((r) => B.has(r)).sort((x, y) => x - y);

/** The paired differences of side `a`'s loads against side `b`'s, round by round (rounds one side lacks are left out). */
export function pairedBrowser(loads: readonly BrowserLoad[], a = 'measured', b = 'ref'): PairedBrowser {
  const A = bySide(loads, a);
  const B = bySide(loads, b);
  const rounds = bothRounds(A, B);
  if (!rounds.length) return {};
  const figs = (m: Map<number, BrowserLoad>) => new Map(rounds.map((r) => [r, loadFigures(m.get(r)!)]));
  const [FA, FB] = [figs(A), figs(B)];
  return Object.fromEntries(KEYS.map((k) => [k, rounds.map((r) => FA.get(r)![k] - FB.get(r)![k])])) as PairedBrowser;
}

/**
 * One load's main-thread time in the scripts under `folders` (site-relative, "/wp-content/plugins/acme/"), ms;
 * `blocking`: only the scripts of these paths (its render-blocking ones).
 */
export function ownMainThread(load: BrowserLoad, folders: readonly string[], blocking?: ReadonlySet<string>): number {
  const mine = (url: string) => folders.some((f) => pathOf(url).startsWith(f)) && (!blocking || blocking.has(pathOf(url)));
  return load.scripts.filter((s) => mine(s.url)).reduce((t, s) => t + s.main_thread_ms, 0);
}

/** The paths render-blocking in more than half of the loads that fetched them (one load Chromium judged otherwise is not). */
function blockingPaths(loads: Iterable<BrowserLoad>): Set<string> {
  const fetched = new Map<string, number>();
  const blocked = new Map<string, number>();
  for (const l of loads) {
    for (const p of new Set(l.requests.map((r) => pathOf(r.url)))) fetched.set(p, (fetched.get(p) ?? 0) + 1);
    for (const p of new Set(l.requests.filter((r) => r.render_blocking).map((r) => pathOf(r.url)))) blocked.set(p, (blocked.get(p) ?? 0) + 1);
  }
  return new Set([...blocked].filter(([p, n]) => n * 2 > fetched.get(p)!).map(([p]) => p));
}

type Copy = { side: string; folders: readonly string[] };

/** Per round, side `a`'s own scripts' main-thread time − side `b`'s (each under its own folders); `blocking`: of its
 * render-blocking scripts only (those render-blocking in most of the side's loads). */
export function pairedMainThread(loads: readonly BrowserLoad[], a: Copy, b: Copy, blocking = false): number[] {
  const A = bySide(loads, a.side);
  const B = bySide(loads, b.side);
  const [bA, bB] = blocking ? [blockingPaths(A.values()), blockingPaths(B.values())] : [undefined, undefined];
  return bothRounds(A, B).map((r) => Math.round((ownMainThread(A.get(r)!, a.folders, bA) - ownMainThread(B.get(r)!, b.folders, bB)) * 10) / 10);
}
