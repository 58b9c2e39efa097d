// compare/: the browser rows of the regression check (`measure PATH --baseline-ref REF --browser`): per browser
// figure of the homepage, what the component adds at the working tree against what it adds at REF (both against the
// same clean loads of one run), judged on the paired loads of each round, and the budgets of `.wp-bench.json`
// ("measure": {"browser": {…}}). Pure; may import record/, the browser's shapes and regression.ts's statistics.
//
// The rule, per figure (BROWSER_FLOOR, browserAllowed):
//
//   allowed = max(P % × |REF's added cost|, the figure's floor, the run's noise)
//
// P from --fail-on-regression / measure.maxRegressionPercent (default 10 %); the noise the larger spread of the two
// records' figure (the interquartile range of their paired rounds against the clean side; none for the counts). With
// at least MIN_PAIRS rounds, the paired differences working tree − REF (load by load in the same round) decide. The
// timed figures (FCP, LCP, TBT, CLS): a REGRESSION when their one-sided 95 % lower bound is over the allowance,
// INCONCLUSIVE when only their median is, else ok; an identical copy so never fails on the machine's noise (every one
// of five paired loads would have to be slower by more than the allowance). Bytes, requests and render-blocking
// requests are near exact (a load's bytes vary by a few; Chromium now and then judges a head script otherwise in one
// load): their paired median over the allowance is a regression, never inconclusive; the counts need one whole
// request more.
import type { LocalRecord } from '../record/method';
import type { BrowserDelta } from '../browser/types';
import type { PairedBrowser } from '../browser/paired';
import { BROWSER_FIGURES, type BrowserComparison, type BrowserFigure, type BrowserReport } from './comparison';
import { MIN_PAIRS, compareRecords, pairedBound, type Exceeded, type PairedTtfb, type RegressionPolicy, type RegressionReport } from './regression';

// The CLI's one import of the comparison (compareWithBrowser and what it needs of regression.ts).
export { DEFAULT_MAX_REGRESSION_PERCENT, MIN_PAIRS, confirmWhenUndecided, type PairedTtfb, type RegressionPolicy } from './regression';

/**
 * Differences at or under these never fail, whatever the percentage: 1 KB (headers and compression vary by bytes),
 * 50 ms of FCP, LCP or TBT (three frames at 60 Hz; a busy second core moves a load's own work by tens of ms), 0.01
 * of CLS (a tenth of Lighthouse's "good" 0.1). Requests are counted exactly: one more than allowed fails.
 */
export const BROWSER_FLOOR: Record<BrowserFigure, number> = { bytes_kb: 1, requests: 0, render_blocking: 0, fcp_ms: 50, lcp_ms: 50, tbt_ms: 50, cls: 0.01 };

/** The figures timed on the machine (their noise can leave a row inconclusive); bytes and requests are counted. */
const TIMED = new Set<BrowserFigure>(['fcp_ms', 'lcp_ms', 'tbt_ms', 'cls']);
const COUNTED = new Set<BrowserFigure>(['requests', 'render_blocking']);

export const FIGURE_NAME: Record<BrowserFigure, string> = { bytes_kb: 'bytes', requests: 'requests', render_blocking: 'render-blocking requests', fcp_ms: 'FCP', lcp_ms: 'LCP', tbt_ms: 'TBT', cls: 'CLS' };

const roundTo = (f: BrowserFigure, x: number) => (COUNTED.has(f) ? Math.round(x * 10) / 10 : f === 'cls' ? Math.round(x * 1000) / 1000 : Math.round(x * 10) / 10);

/** A browser figure in its unit: "112.7 KB", "2", "161.3 ms", "0.148"; `signed`: "+100.4 KB", "−5.0 ms", "±0". */
export function formatFigure(f: BrowserFigure, value: number, signed = false): string {
  const sign = signed ? (value > 0 ? '+' : value < 0 ? '−' : '±') : value < 0 ? '−' : '';
  const a = Math.abs(value);
  if (f === 'bytes_kb') return `${sign}${a.toFixed(1)} KB`;
  if (f === 'cls') return `${sign}${a.toFixed(3)}`;
  if (COUNTED.has(f)) return `${sign}${Number.isInteger(a) ? a : a.toFixed(1)}`;
  return `${sign}${a.toFixed(1)} ms`;
}

/** The largest increase that passes: max(percent % × |REF's added cost|, the figure's floor, the run's noise). */
export function browserAllowed(f: BrowserFigure, ref: number, percent: number, noise: number): number {
  return roundTo(f, Math.max((Math.abs(ref) * percent) / 100, BROWSER_FLOOR[f], noise));
}

const deltaOf = (r: LocalRecord): BrowserDelta | undefined => r.contexts.homepage?.browser;
const unavailableOf = (r: LocalRecord): string | undefined => (r.local.browser && 'unavailable' in r.local.browser ? r.local.browser.unavailable : undefined);
const spreadOf = (d: BrowserDelta | undefined, f: BrowserFigure): number => (d && f in d.spread ? Math.abs(d.spread[f as keyof BrowserDelta['spread']]) : 0);

/** Over the allowance: more than it (counts: and one whole request at least). */
const over = (f: BrowserFigure, x: number, allowed: number) => x > allowed + 1e-9 && (!COUNTED.has(f) || x >= 1);

/** The browser rows of two records and what they exceed; undefined when neither record has browser figures. */
export function compareBrowser(current: LocalRecord, baseline: LocalRecord, policy: RegressionPolicy, paired: PairedBrowser = {}): { report: BrowserReport; exceeded: Exceeded[] } | undefined {
  const cd = deltaOf(current);
  const bd = deltaOf(baseline);
  const unavailable = unavailableOf(current) ?? unavailableOf(baseline);
  if (unavailable) return { report: { rows: [], inconclusive: [], unavailable }, exceeded: [] };
  if (!cd && !bd && !current.local.browser && !baseline.local.browser) return undefined;
  const { rows, exceeded } = browserRows(cd, bd, policy, paired);
  const confirmation = current.local.browser && 'rounds' in current.local.browser ? current.local.browser.confirmation_rounds : undefined;
  return { report: { rows, inconclusive: rows.filter((r) => r.inconclusive), ...(confirmation ? { confirmation_rounds: confirmation } : {}), ...(cd || bd ? {} : { unavailable: 'the homepage was measured at neither ref' }) }, exceeded };
}

/**
 * The question the browser pass of a comparison asks after its loads (MeasureOptions.confirmBrowser): which timed
 * figures are undecided at the threshold (their names: "FCP", "LCP")? Then one confirmation pass of as many loads a
 * side again is loaded, and every figure is judged on all of them.
 */
export function browserUndecided(policy: RegressionPolicy): (current: BrowserDelta, ref: BrowserDelta, paired: PairedBrowser) => string[] {
  return (current, ref, paired) => browserRows(current, ref, policy, paired).rows.filter((r) => r.inconclusive).map((r) => FIGURE_NAME[r.figure]);
}

/** The figures the component's own scripts' main-thread time can decide: what was done before the first paint (its
 * render-blocking scripts) for FCP and LCP, all of it for TBT. CLS, bytes and requests are no main-thread work. A
 * paint the page read as within noise is asked too: render-blocking work that grew delays it, however noisy the page;
 * TBT only when undecided (work in short tasks blocks nothing). */
const PAINTS = new Set<BrowserFigure>(['fcp_ms', 'lcp_ms']);
const MAIN_THREAD_OF: Partial<Record<BrowserFigure, 'blocking_main_thread_ms' | 'main_thread_ms'>> = { fcp_ms: 'blocking_main_thread_ms', lcp_ms: 'blocking_main_thread_ms', tbt_ms: 'main_thread_ms' };

/**
 * A timed figure the page's loads left undecided (its paired median over the allowance, its bound not), asked of the
 * component's own scripts' main-thread time in the same paired loads (nearly blind to how busy the machine is, as
 * the server's CPU time is to TTFB): `grew` when its 95 % lower bound is over the allowance without the run's noise
 * (max(percent, floor): the component added that much work, and the figure moved), `unchanged` when its upper bound
 * is within it and nothing else of the page changed (bytes, requests, render-blocking requests: their paired median
 * under their floor), so the paint moved with the machine. Else undefined: still undecided.
 */
export function mainThreadVerdict(f: BrowserFigure, paired: PairedBrowser, allowed: number): BrowserComparison['main_thread'] {
  const key = MAIN_THREAD_OF[f];
  const diffs = key ? paired[key] : undefined;
  if (!diffs || diffs.length < MIN_PAIRS) return undefined;
  const b = pairedBound(diffs);
  const r = (x: number) => Math.round(x * 10) / 10;
  const out = { n: b.n, median: r(b.median), lower: r(b.lower), upper: r(b.upper) };
  if (b.lower > allowed + 1e-9) return { verdict: 'grew', ...out };
  const same = (k: 'bytes_kb' | 'requests' | 'render_blocking') => !paired[k]?.length || Math.abs(pairedBound(paired[k]!).median) < Math.max(BROWSER_FLOOR[k], 1);
  if (b.upper <= allowed + 1e-9 && same('bytes_kb') && same('requests') && same('render_blocking')) return { verdict: 'unchanged', ...out };
  return undefined;
}

/** Per browser figure, its row and, when it fails, what it exceeds (the records' deltas; either may be missing). */
function browserRows(cd: BrowserDelta | undefined, bd: BrowserDelta | undefined, policy: RegressionPolicy, paired: PairedBrowser): { rows: BrowserComparison[]; exceeded: Exceeded[] } {
  const rows: BrowserComparison[] = [];
  const exceeded: Exceeded[] = [];
  const pct = policy.maxRegressionPercent;
  for (const f of BROWSER_FIGURES) {
    const cur = cd ? roundTo(f, cd[f]) : null;
    const base = bd ? roundTo(f, bd[f]) : null;
    const difference = cur !== null && base !== null ? roundTo(f, cur - base) : null;
    const noise = cd && bd ? roundTo(f, Math.max(spreadOf(cd, f), spreadOf(bd, f))) : null;
    const allowed = base !== null ? browserAllowed(f, base, pct, noise ?? 0) : null;
    const ceiling = policy.browser?.[f] ?? null;
    const pairs = difference !== null ? paired[f] : undefined;
    let regression = false;
    let extra: Pick<BrowserComparison, 'paired' | 'inconclusive'> = {};
    if (difference !== null && allowed !== null) {
      if (pairs && pairs.length >= MIN_PAIRS) {
        const b = pairedBound(pairs);
        // Timed: the lower bound clears the allowance. Bytes and counts, near exact: their median does (a load that
        // Chromium judged otherwise — a script not render-blocking once — neither makes nor undoes a regression).
        regression = over(f, TIMED.has(f) ? b.lower : b.median, allowed);
        let undecided = !regression && over(f, b.median, allowed);
        // FCP, LCP or TBT the page's noise left undecided, and a paint it read as within noise: asked of the
        // component's own scripts' main-thread time (mainThreadVerdict). Render-blocking work delays every paint.
        const asked = undecided || (!regression && PAINTS.has(f)) ? mainThreadVerdict(f, paired, browserAllowed(f, base!, pct, 0)) : undefined;
        const mt = asked?.verdict === 'grew' || (asked && undecided) ? asked : undefined;
        if (mt) [regression, undecided] = [mt.verdict === 'grew', false];
        extra = { paired: { n: b.n, median: roundTo(f, b.median), lower: roundTo(f, b.lower) }, ...(undecided ? { inconclusive: true } : {}), ...(mt ? { main_thread: mt } : {}) };
      } else if (pairs?.length && TIMED.has(f)) {
        // Paired, but too few loads for a 95 % bound: a timed figure is never failed on them, only said undecided.
        const b = pairedBound(pairs);
        extra = { paired: { n: b.n, median: roundTo(f, b.median), lower: roundTo(f, b.lower) }, ...(over(f, difference, allowed) ? { inconclusive: true } : {}) };
      } else regression = over(f, difference, allowed);
    }
    const overCeiling = cur !== null && ceiling !== null && cur > ceiling + 1e-9;
    const percent = difference !== null && base !== null && base !== 0 && Math.abs(base) >= Math.max(BROWSER_FLOOR[f], 1e-9) ? Math.round((difference / Math.abs(base)) * 1000) / 10 : null;
    const row: BrowserComparison = { figure: f, current: cur, baseline: base, difference, percent, noise, allowed, ceiling, regression, overCeiling, ...extra };
    rows.push(row);
    const name = `homepage ${FIGURE_NAME[f]} (browser)`;
    if (regression) {
      // Decided by its own scripts' work: against the allowance without the run's noise (the page's, not the work's).
      const mt = row.main_thread;
      const limit = mt ? browserAllowed(f, base!, pct, 0) : allowed!;
      const bound = mt
        ? `; its own ${f === 'tbt_ms' ? '' : 'render-blocking '}scripts' main-thread time grew by at least ${formatFigure('tbt_ms', mt.lower, true)} (95 % bound over ${mt.n} paired loads)`
        : row.paired && row.paired.n >= MIN_PAIRS
          ? `; load by load at least ${formatFigure(f, row.paired.lower, true)} (95 % bound over ${row.paired.n} paired loads)`
          : '';
      const rule = `${pct} %, at least ${COUNTED.has(f) ? 'one request more' : formatFigure(f, BROWSER_FLOOR[f])}${mt ? "; the page's loads alone were too noisy to bound it" : noise ? " and the run's noise" : ''}`;
      exceeded.push({ rule: 'regression', context: 'homepage', figure: f, current: cur, baseline: base, difference, limit, message: `${name}: ${formatFigure(f, difference!, true)} over the baseline (${formatFigure(f, base!)} → ${formatFigure(f, cur!)})${bound}, more than the ${formatFigure(f, limit)} allowed (${rule})` });
    }
    if (overCeiling) exceeded.push({ rule: 'ceiling', context: 'homepage', figure: f, current: cur, baseline: base, difference, limit: ceiling, message: `${name}: the component adds ${formatFigure(f, cur!)}, over the budget of ${formatFigure(f, ceiling!)} (measure.browser.${f})` });
  }
  return { rows, exceeded };
}

/**
 * The whole comparison of a `--baseline-ref` run: the server's rows (compareRecords) and, where the records have
 * browser figures, the browser's (compareBrowser), their exceeded budgets after the server's.
 */
export function compareWithBrowser(current: LocalRecord, baseline: LocalRecord, policy: RegressionPolicy, paired?: PairedTtfb, pairedCpu?: PairedTtfb, pairedBrowser?: PairedBrowser): RegressionReport {
  const server = compareRecords(current, baseline, policy, paired, pairedCpu);
  const browser = compareBrowser(current, baseline, policy, pairedBrowser);
  if (!browser) return server;
  return { ...server, exceeded: [...server.exceeded, ...browser.exceeded], browser: browser.report };
}

/** The browser rows the noise could not decide (0 without browser rows). */
export function browserInconclusiveCount(r: RegressionReport): number {
  return r.browser?.inconclusive.length ?? 0;
}
