// compare/: the instructions row of the regression check (`measure PATH --baseline-ref REF --instructions`). CPU
// instructions per request are counted (callgrind), not timed: a busy machine does not change them, so where both
// records have them they judge the context instead of TTFB. Pure; may import record/ and present/format's formatters.
import { median, type LocalRecord, type MeasureContext } from '../record/method';
import { formatInstructions, instructionsPercent } from '../../present/format';
import type { MetricComparison } from './comparison';

/**
 * The threshold of the instructions row, in percent of REF's request count (`measure.instructions` of .wp-bench.json
 * overrides it). The rule (instructionsAllowed, compareInstructions): the working tree fails a context when
 *
 *   current − REF > max(percent % × REF, noise)
 *
 * where current and REF are the instructions PHP executes for one request with the component (the clean site's
 * median count + the component's delta, each record its own) and noise is the larger `local.spread.<ctx>.instructions`
 * of the two records (each the larger max − min range of its two sides' counted requests). So a change fails only
 * when it adds more than 0.25 % of the whole request at REF AND more than the run's own spread: noise never fails (a
 * change adding 0.5 % always fails, one adding 0.1 % is shown as a difference). An
 * instructions row is never inconclusive (the counts do not depend on the machine's load), and the TTFB row of a
 * context judged on instructions is shown, not judged.
 */
export const DEFAULT_INSTRUCTIONS_PERCENT = 0.25;

/** A side's count of a context: the median of its counted requests, and their spread (max − min). */
export function countOf(xs: number[] | undefined): { median: number; spread: number } | undefined {
  if (!xs?.length) return undefined;
  return { median: Math.round(median(xs)), spread: Math.max(...xs) - Math.min(...xs) };
}


/** The rule in words, for the reports and the docs: "more than 0.25 % of the baseline's request and more than the run's spread". */
export function instructionsRule(percent: number): string {
  return `more than ${percent} % of the baseline's request and more than the run's spread`;
}

/** The instructions PHP executes for one request with the component: the clean site's median + the delta; null without. */
export function requestInstructions(r: LocalRecord, ctx: MeasureContext): number | null {
  const delta = r.contexts[ctx]?.instructions_delta;
  const clean = r.local.baseline?.[ctx]?.instructions;
  return typeof delta === 'number' && typeof clean === 'number' && Number.isFinite(delta) && Number.isFinite(clean) ? clean + delta : null;
}

/** The run's noise of the counts in a context: the larger spread of the two records (0 where a record has none). */
export function instructionsNoise(current: LocalRecord, baseline: LocalRecord, ctx: MeasureContext): number {
  const of = (r: LocalRecord) => {
    const x = r.local.spread?.[ctx]?.instructions;
    return typeof x === 'number' && Number.isFinite(x) ? Math.abs(x) : 0;
  };
  return Math.max(of(current), of(baseline));
}

/** The largest increase that passes (whole instructions): max(percent % × REF's request count, noise). */
export function instructionsAllowed(refCount: number, percent: number, noise: number): number {
  return Math.floor(Math.max((Math.abs(refCount) * percent) / 100, noise));
}

/** The instructions row of a context where both records counted them, else null (the context is judged as before). */
export function compareInstructions(current: LocalRecord, baseline: LocalRecord, ctx: MeasureContext, percent: number): MetricComparison | null {
  const cur = requestInstructions(current, ctx);
  const base = requestInstructions(baseline, ctx);
  if (cur === null || base === null) return null;
  const difference = Math.round(cur - base);
  const noise = Math.round(instructionsNoise(current, baseline, ctx));
  const allowed = instructionsAllowed(base, percent, noise);
  return {
    context: ctx,
    metric: 'instructions',
    current: Math.round(cur),
    baseline: Math.round(base),
    difference,
    percent: base > 0 ? Math.round((difference / base) * 10000) / 100 : null,
    noise,
    allowed,
    ceiling: null,
    regression: difference > allowed,
    overCeiling: false,
  };
}

/** The exceeded line of an instructions row that failed. */
export function instructionsMessage(m: MetricComparison, percent: number): string {
  const d = m.difference ?? 0;
  const base = m.baseline ?? 0;
  return `${m.context} instructions: ${formatInstructions(d, true)} per request over the baseline (${formatInstructions(base)} → ${formatInstructions(m.current ?? 0)}, ${instructionsPercent(d, base)}), more than the ${formatInstructions(m.allowed ?? 0)} allowed (${percent} % of the baseline's request, at least the run's spread of ${formatInstructions(m.noise ?? 0)})`;
}
