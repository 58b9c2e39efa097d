// compare/: how two refs are compared (`--baseline-ref`): the regression rule over two records and the paired
// differences of one interleaved run (this file), the instructions row (instructions.ts), the metrics and a row's
// shape (comparison.ts). Pure; may import record/ only (and present/format's unit formatters).
//
// The regression check of `wp-bench measure PATH --baseline-ref REF`: per context and metric, the component's added
// cost at the working tree against its added cost at REF (both measured in one interleaved run), judged against a
// maximum regression in percent and the per-context ceilings of `.wp-bench.json` ("measure"). Pure: numbers only.
import { CONTEXTS, type ContextFigures, type LocalRecord, type MeasureContext } from '../record/method';
import { formatInstructions } from '../../present/format';
import { DEFAULT_INSTRUCTIONS_PERCENT, compareInstructions, instructionsMessage } from './instructions';
import { MEASURE_METRICS, type BrowserFigure, type BrowserReport, type ComparedMetric, type MeasureMetric, type MetricComparison } from './comparison';

export { MEASURE_METRICS, type ComparedMetric, type MeasureMetric, type MetricComparison } from './comparison';

/** Default maximum regression: 10 % of the component's added cost at the baseline. */
export const DEFAULT_MAX_REGRESSION_PERCENT = 10;

/**
 * Changes at or under these never count as a regression, whatever the percentage: the noise of a short run on a
 * shared machine (a +0.3 ms on 1 ms is +30 % and means nothing). Queries are counted exactly: no floor beyond
 * "at least one more query".
 */
export const NOISE_FLOOR: Record<MeasureMetric, number> = { ttfbMs: 5, memoryMb: 0.25, queries: 0 };

export type Ceiling = Partial<Record<MeasureMetric, number>>;

export interface RegressionPolicy {
  maxRegressionPercent: number;
  /** upper bounds on the component's own added cost at the working tree, per context */
  ceilings: Partial<Record<MeasureContext, Ceiling>>;
  floors?: Record<MeasureMetric, number>;
  /** the instructions row's threshold, in percent of REF's request count (default DEFAULT_INSTRUCTIONS_PERCENT, 0.5) */
  instructionsPercent?: number;
  /** `--browser`: upper bounds on the component's own added browser cost at the working tree (homepage; compare/browser.ts) */
  browser?: Partial<Record<BrowserFigure, number>>;
}

export type ExceededRule = 'regression' | 'ceiling' | 'broken';

export interface Exceeded {
  rule: ExceededRule;
  context: MeasureContext;
  /** absent for `broken` (the context is no longer measurable at all) and for a browser figure */
  metric?: ComparedMetric;
  /** `--browser`: the browser figure of the homepage that was exceeded (compare/browser.ts) */
  figure?: BrowserFigure;
  current: number | null;
  baseline: number | null;
  difference: number | null;
  limit: number | null;
  message: string;
}

export interface RegressionReport {
  policy: RegressionPolicy;
  rows: MetricComparison[];
  exceeded: Exceeded[];
  /** contexts measurable at the baseline and not at the working tree (a fatal error, a redirect …) */
  broken: Array<{ context: MeasureContext; reason: string }>;
  /** rows the run's noise could not decide (TTFB near the threshold): neither a failure nor a pass */
  inconclusive: MetricComparison[];
  /** contexts judged on instructions, memory and queries (both records counted instructions there): TTFB not judged */
  judgedOnInstructions: MeasureContext[];
  /** `--browser`: the homepage's browser figures compared (compare/browser.ts); absent when neither record has them */
  browser?: BrowserReport;
}

/**
 * Fewest pairs for a paired verdict: below 5 the smallest difference is no 95 % bound (87.5 % with 3 pairs, 93.75 %
 * with 4); such a run keeps the medians-and-spread rule. `--baseline-ref` asks for 5 rounds at least.
 */
export const MIN_PAIRS = 5;

/** Per context, the paired TTFB differences of a comparison (working tree − REF, ms), one per measured round. */
export type PairedTtfb = Partial<Record<MeasureContext, number[]>>;

/**
 * The rank k (1-based) of the order statistic that is a one-sided lower confidence bound of level ≥ 1 − alpha on the
 * median of n paired differences (distribution-free: the sign test's binomial). At least 1 (the smallest).
 */
export function lowerBoundRank(n: number, alpha = 0.05): number {
  let k = 0;
  let cdf = 0;
  let term = Math.pow(0.5, n);
  // P(Bin(n, ½) ≤ k) grows with k; the largest k with P(≤ k − 1) ≤ alpha.
  for (let j = 0; j <= n; j++) {
    cdf += term;
    if (cdf > alpha) break;
    k = j + 1;
    term = (term * (n - j)) / (j + 1);
  }
  return Math.max(1, k);
}

/** Median and lower (and, symmetric, upper) bound of paired differences (see lowerBoundRank). */
export function pairedBound(diffs: number[], alpha = 0.05): { n: number; median: number; lower: number; upper: number } {
  const s = [...diffs].sort((a, b) => a - b);
  const n = s.length;
  const m = n % 2 ? s[n >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2;
  const k = lowerBoundRank(n, alpha);
  return { n, median: m, lower: s[k - 1], upper: s[n - k] };
}

/**
 * A TTFB row the wall clock left inconclusive, asked of the server's CPU time of the same paired requests (what the
 * code did, nearly blind to other processes on the machine): grew, unchanged, or still undecided.
 */
export function cpuVerdict(cpuDiffs: number[] | undefined, allowed: number): MetricComparison['cpu'] | undefined {
  if (!cpuDiffs || cpuDiffs.length < MIN_PAIRS) return undefined;
  const b = pairedBound(cpuDiffs);
  const r = (x: number) => Math.round(x * 10) / 10;
  if (b.lower > allowed + 1e-9) return { verdict: 'grew', median: r(b.median), lower: r(b.lower), upper: r(b.upper) };
  if (b.upper <= allowed + 1e-9) return { verdict: 'unchanged', median: r(b.median), lower: r(b.lower), upper: r(b.upper) };
  return undefined;
}

/**
 * The TTFB verdict on paired differences: a regression only when the lower bound is over the allowance (clear of
 * the run's noise); inconclusive when the median is over it and the bound is not; else no regression.
 */
export function pairedVerdict(diffs: number[], allowed: number): { verdict: 'regression' | 'inconclusive' | 'ok'; bound: { n: number; median: number; lower: number; upper: number } } {
  const bound = pairedBound(diffs);
  if (bound.lower > allowed + 1e-9) return { verdict: 'regression', bound };
  if (bound.median > allowed + 1e-9) return { verdict: 'inconclusive', bound };
  return { verdict: 'ok', bound };
}

/**
 * The question a comparison asks after its measured rounds (MeasureOptions.confirm): is any TTFB row undecided at
 * the threshold? Then one confirmation pass of as many rounds again is measured before the records are judged. The
 * same for plugins and themes, and for every caller of measureCompare.
 */
export function confirmWhenUndecided(policy: RegressionPolicy): (current: LocalRecord, baseline: LocalRecord, paired: PairedTtfb) => boolean {
  return (current, baseline, paired) => compareRecords(current, baseline, policy, paired).inconclusive.length > 0;
}

export function metricValue(m: ContextFigures, metric: MeasureMetric): number {
  if (metric === 'ttfbMs') return m.ttfb_delta_ms;
  if (metric === 'memoryMb') return m.memory_delta_kb / 1024;
  return m.queries_delta;
}

// Memory to the whole KB (a record's unit; exact in MB as a multiple of 1/1024): three decimals of a MB read −64 KB as −63.
const round = (x: number, metric: MeasureMetric) => (metric === 'queries' ? Math.round(x) : metric === 'memoryMb' ? Math.round(x * 1024) / 1024 : Math.round(x * 10) / 10);

export const METRIC_NAME: Record<ComparedMetric, string> = { ttfbMs: 'TTFB', memoryMb: 'memory', queries: 'queries', instructions: 'instructions' };

export function formatMetric(metric: ComparedMetric, value: number, signed = false): string {
  if (metric === 'instructions') return formatInstructions(value, signed);
  const sign = signed ? (value > 0 ? '+' : value < 0 ? '−' : '±') : value < 0 ? '−' : '';
  const a = Math.abs(value);
  if (metric === 'ttfbMs') return `${sign}${a.toFixed(1)} ms`;
  if (metric === 'memoryMb') return a < 1 ? `${sign}${Math.round(a * 1024)} KB` : `${sign}${a.toFixed(2)} MB`;
  return `${sign}${Math.round(a)} ${Math.round(a) === 1 ? 'query' : 'queries'}`;
}

/**
 * The largest allowed increase: the percentage of the baseline's added cost, never under the noise floor nor under
 * the run's own noise (the spread of its paired rounds: a run on a busy machine cannot fail on its noise).
 */
export function allowedIncrease(baseline: number, metric: MeasureMetric, percent: number, floors: Record<MeasureMetric, number> = NOISE_FLOOR, noise = 0): number {
  return Math.max((Math.abs(baseline) * percent) / 100, floors[metric], noise);
}

/** A regression: the increase is above the allowed increase (and, for queries, at least one whole query). */
export function isRegression(current: number, baseline: number, metric: MeasureMetric, percent: number, floors: Record<MeasureMetric, number> = NOISE_FLOOR, noise = 0): boolean {
  const diff = current - baseline;
  if (metric === 'queries' && diff < 1) return false;
  return diff > allowedIncrease(baseline, metric, percent, floors, noise) + 1e-9;
}

function spreadOf(r: LocalRecord, ctx: MeasureContext, metric: MeasureMetric): number {
  const sp = r.local.spread[ctx];
  if (!sp) return 0;
  return metric === 'ttfbMs' ? sp.ttfb_ms : metric === 'memoryMb' ? sp.memory_kb / 1024 : sp.queries;
}

/**
 * Judges the working tree against REF. With `paired` (the run's paired TTFB differences per context), TTFB is judged
 * on them: the allowance is the percentage of REF's added cost or the noise floor, and a regression needs the lower
 * bound of the paired median over it (see pairedVerdict) — the run's noise can make a TTFB row inconclusive, never a
 * failure. Memory and queries (and TTFB without pairs) keep the rule: over the allowance and the run's own spread.
 */
export function compareRecords(current: LocalRecord, baseline: LocalRecord, policy: RegressionPolicy, paired?: PairedTtfb, pairedCpu?: PairedTtfb): RegressionReport {
  const floors = policy.floors ?? NOISE_FLOOR;
  const rows: MetricComparison[] = [];
  const inconclusive: MetricComparison[] = [];
  const exceeded: Exceeded[] = [];
  const broken: RegressionReport['broken'] = [];
  const judgedOnInstructions: MeasureContext[] = [];
  const instructionsPercent = policy.instructionsPercent ?? DEFAULT_INSTRUCTIONS_PERCENT;
  for (const ctx of CONTEXTS) {
    const c = current.contexts[ctx];
    const b = baseline.contexts[ctx];
    // Both records counted instructions here: they judge the context instead of TTFB (instructions.ts).
    const instructions = c && b ? compareInstructions(current, baseline, ctx, instructionsPercent) : null;
    if (instructions) judgedOnInstructions.push(ctx);
    if (!c && b) {
      const reason = current.local.null_reasons[ctx]?.reason ?? 'not measured';
      broken.push({ context: ctx, reason });
      exceeded.push({ rule: 'broken', context: ctx, current: null, baseline: null, difference: null, limit: null, message: `${ctx}: measured at the baseline, not at the working tree (${reason})` });
    }
    for (const metric of MEASURE_METRICS) {
      const cur = c ? round(metricValue(c, metric), metric) : null;
      const base = b ? round(metricValue(b, metric), metric) : null;
      const ceiling = policy.ceilings[ctx]?.[metric] ?? null;
      const difference = cur !== null && base !== null ? round(cur - base, metric) : null;
      const noise = c && b ? round(Math.max(spreadOf(current, ctx, metric), spreadOf(baseline, ctx, metric)), metric) : null;
      const allowedBase = base !== null ? round(allowedIncrease(base, metric, policy.maxRegressionPercent, floors, noise ?? 0), metric) : null;
      const pairs = metric === 'ttfbMs' && c && b ? paired?.[ctx] : undefined;
      let regression: boolean;
      let allowed: number | null;
      let extra: Pick<MetricComparison, 'paired' | 'inconclusive'> = {};
      if (pairs && pairs.length >= MIN_PAIRS && base !== null) {
        allowed = round(allowedIncrease(base, metric, policy.maxRegressionPercent, floors, 0), metric);
        const v = pairedVerdict(pairs, allowed);
        // Undecided on the wall clock: the same requests' CPU time decides when it can (and says so).
        const cpu = v.verdict === 'inconclusive' ? cpuVerdict(pairedCpu?.[ctx], allowed) : undefined;
        regression = v.verdict === 'regression' || cpu?.verdict === 'grew';
        const undecided = v.verdict === 'inconclusive' && !cpu;
        extra = { paired: { n: v.bound.n, median: round(v.bound.median, metric), lower: round(v.bound.lower, metric) }, ...(undecided ? { inconclusive: true } : {}), ...(cpu ? { cpu } : {}) };
      } else if (pairs) {
        // Paired, but fewer than MIN_PAIRS: no 95 % bound, so TTFB is never failed on these rounds' noise (a theme
        // compared with itself on 3 busy rounds read +6.5 ms over a 5.8 ms allowance on the medians). What the
        // medians-and-spread rule would fail is inconclusive; --baseline-ref always measures enough rounds.
        allowed = allowedBase;
        regression = false;
        const bound = pairedBound(pairs);
        extra = { paired: { n: bound.n, median: round(bound.median, metric), lower: round(bound.lower, metric) } };
        if (cur !== null && base !== null && isRegression(cur, base, metric, policy.maxRegressionPercent, floors, noise ?? 0)) extra.inconclusive = true;
      } else {
        allowed = allowedBase;
        regression = cur !== null && base !== null && isRegression(cur, base, metric, policy.maxRegressionPercent, floors, noise ?? 0);
      }
      // Judged on instructions: TTFB is shown, and neither fails (nor a ceiling of it) nor makes the run inconclusive.
      const shownOnly = instructions !== null && metric === 'ttfbMs';
      if (shownOnly) {
        regression = false;
        delete extra.inconclusive;
      }
      const overCeiling = !shownOnly && cur !== null && ceiling !== null && cur > ceiling;
      // A percentage of a baseline inside the noise floor says nothing ("-2.5 -> 0.9 ms (+136 %)" for identical code).
      const percent = difference !== null && base !== null && base !== 0 && Math.abs(base) >= floors[metric] ? Math.round((difference / Math.abs(base)) * 1000) / 10 : null;
      const row: MetricComparison = { context: ctx, metric, current: cur, baseline: base, difference, percent, noise, allowed, ceiling, regression, overCeiling, ...extra, ...(shownOnly ? { judged: false as const } : {}) };
      rows.push(row);
      if (row.inconclusive) inconclusive.push(row);
      if (regression) {
        exceeded.push({
          rule: 'regression',
          context: ctx,
          metric,
          current: cur,
          baseline: base,
          difference,
          limit: allowed,
          message: row.cpu
            ? `${ctx} ${METRIC_NAME[metric]}: ${formatMetric(metric, difference!, true)} over the baseline (${formatMetric(metric, base!)} → ${formatMetric(metric, cur!)}); the wall clock was too noisy to decide, but the server's CPU time per request grew by at least ${formatMetric(metric, row.cpu.lower, true)} (95 % bound), more than the ${formatMetric(metric, allowed!)} allowed`
            : row.paired
            ? `${ctx} ${METRIC_NAME[metric]}: ${formatMetric(metric, difference!, true)} over the baseline (${formatMetric(metric, base!)} → ${formatMetric(metric, cur!)}); request by request at least ${formatMetric(metric, row.paired.lower, true)} (95 % bound over ${row.paired.n} paired rounds), more than the ${formatMetric(metric, allowed!)} allowed (${policy.maxRegressionPercent} %, at least ${formatMetric(metric, floors[metric])})`
            : `${ctx} ${METRIC_NAME[metric]}: ${formatMetric(metric, difference!, true)} over the baseline (${formatMetric(metric, base!)} → ${formatMetric(metric, cur!)}), more than the ${formatMetric(metric, allowed!)} allowed (${policy.maxRegressionPercent} %, at least ${formatMetric(metric, floors[metric])} and the run's noise)`,
        });
      }
      if (overCeiling) {
        exceeded.push({
          rule: 'ceiling',
          context: ctx,
          metric,
          current: cur,
          baseline: base,
          difference,
          limit: ceiling,
          message: `${ctx} ${METRIC_NAME[metric]}: the component adds ${formatMetric(metric, cur!)}, over the ceiling of ${formatMetric(metric, ceiling!)}`,
        });
      }
    }
    if (instructions) {
      rows.push(instructions);
      const m = instructions;
      if (m.regression) exceeded.push({ rule: 'regression', context: ctx, metric: 'instructions', current: m.current, baseline: m.baseline, difference: m.difference, limit: m.allowed, message: instructionsMessage(m, instructionsPercent) });
    }
  }
  return { policy, rows, exceeded, broken, inconclusive, judgedOnInstructions };
}
