// The shapes of a comparison of two refs (`--baseline-ref`): the metrics compared and one row of the comparison,
// what regression.ts judges and instructions.ts adds, and the browser rows of browser.ts (their own module, so none
// imports another for them). Pure; types and constants.
import type { MeasureContext } from '../record/method';

export type MeasureMetric = 'ttfbMs' | 'memoryMb' | 'queries';
export const MEASURE_METRICS: readonly MeasureMetric[] = ['ttfbMs', 'memoryMb', 'queries'];
/** The metrics of a comparison's rows: the three, and `instructions` where both records counted them (instructions.ts). */
export type ComparedMetric = MeasureMetric | 'instructions';

/**
 * What every row of a comparison says: the added cost at both refs, their difference, what was allowed, the verdict.
 * Browser rows (bytes, requests, FCP …: the homepage in Chromium) read "added" as with the component − clean, medians;
 * their noise is the larger spread of the two records (0 for requests, counted exactly).
 */
export interface ComparedRow {
  /**
   * added cost at the working tree / at the baseline, in the metric's unit (ms, MB, queries); null: not measured.
   * instructions: the whole request's count (the clean site's median + the component's delta), exact integers.
   */
  current: number | null;
  baseline: number | null;
  /** current − baseline; null when either is not measured */
  difference: number | null;
  /** difference in percent of |baseline| (null when the baseline is 0 or not measured) */
  percent: number | null;
  /** the run's own noise in this context and metric: the larger interquartile range of the two records' paired differences */
  noise: number | null;
  /** the largest difference allowed: max(percent × |baseline|, noise floor, the run's noise) */
  allowed: number | null;
  ceiling: number | null;
  regression: boolean;
  overCeiling: boolean;
  /**
   * TTFB judged on the run's paired differences (working tree − REF, request by request in the same round): the
   * median and a one-sided 95 % lower bound on it. Absent when no pairs were given (older callers, memory, queries).
   */
  paired?: { n: number; median: number; lower: number };
  /** the noise cannot decide at the threshold: the median difference is over the allowance, its lower bound is not */
  inconclusive?: boolean;
}

export interface MetricComparison extends ComparedRow {
  context: MeasureContext;
  metric: ComparedMetric;
  /**
   * TTFB the wall clock could not decide, decided by the server's CPU time of the same requests: 'unchanged' (its
   * upper bound within the allowance: the wall-clock difference was the machine's noise) or 'grew' (its lower bound
   * over the allowance: real work was added).
   */
  cpu?: { verdict: 'unchanged' | 'grew'; median: number; lower: number; upper: number };
  /** false: shown, not judged (TTFB in a context judged on instructions: it can neither fail nor be inconclusive) */
  judged?: false;
}

/** The browser figures of `--baseline-ref --browser` (the homepage, contexts.homepage.browser), in the record's units. */
export type BrowserFigure = 'bytes_kb' | 'requests' | 'render_blocking' | 'fcp_ms' | 'lcp_ms' | 'tbt_ms' | 'cls';
export const BROWSER_FIGURES: readonly BrowserFigure[] = ['bytes_kb', 'requests', 'render_blocking', 'fcp_ms', 'lcp_ms', 'tbt_ms', 'cls'];

/** One browser row: what the component adds to the homepage in the browser at the working tree against at REF. */
export interface BrowserComparison extends ComparedRow {
  figure: BrowserFigure;
  /**
   * FCP, LCP or TBT the page's loads could not decide, decided by the component's own scripts' main-thread time in
   * the same paired loads (its render-blocking ones for the paints): 'grew' (a regression) or 'unchanged' (ok), ms.
   */
  main_thread?: { verdict: 'grew' | 'unchanged'; n: number; median: number; lower: number; upper: number };
}

/** The browser part of a comparison: its rows, those the noise left undecided, or why there are none. */
export interface BrowserReport {
  rows: BrowserComparison[];
  inconclusive: BrowserComparison[];
  /** loads per side of the confirmation pass the rows were judged after (the first loads left a timed figure undecided) */
  confirmation_rounds?: number;
  /** the browser figures could not be taken (no Chromium, the browser broke …): judged on the server alone */
  unavailable?: string;
}
