// The shapes of a comparison of two refs (`--baseline-ref`): the metrics compared and one row of the comparison,
// what regression.ts judges and instructions.ts adds (its own module, so neither imports the other for them). Pure;
// types and one constant.
import type { MeasureContext } from '../record/method';

export type MeasureMetric = 'ttfbMs' | 'memoryMb' | 'queries';
export const MEASURE_METRICS: readonly MeasureMetric[] = ['ttfbMs', 'memoryMb', 'queries'];
/** The metrics of a comparison's rows: the three, and `instructions` where both records counted them (instructions.ts). */
export type ComparedMetric = MeasureMetric | 'instructions';

export interface MetricComparison {
  context: MeasureContext;
  metric: ComparedMetric;
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
  /**
   * TTFB the wall clock could not decide, decided by the server's CPU time of the same requests: 'unchanged' (its
   * upper bound within the allowance: the wall-clock difference was the machine's noise) or 'grew' (its lower bound
   * over the allowance: real work was added).
   */
  cpu?: { verdict: 'unchanged' | 'grew'; median: number; lower: number; upper: number };
  /** false: shown, not judged (TTFB in a context judged on instructions: it can neither fail nor be inconclusive) */
  judged?: false;
}
