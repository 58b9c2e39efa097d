// The team's budgets against the site total: per context and metric, the sum of the measured deltas (or, with the
// site measured locally as a whole, the stack as it runs), whether it is over the limit, and a finding for each one
// exceeded. Pure: no I/O, no vscode.
import { countNoun, formatMemoryKb, formatMs } from '../present/format';
import { CONTEXT_NAMES, type ContextName } from '../model';
import type { ContextTotal, SiteTotal } from '../present/outcome';
import type { SiteRecord } from '../measure/siteRun/siteRecord';
import type { Budget, BudgetMetric } from '../config/teamConfig';
import { CONTEXT_LABEL, type Finding, type ReportLocation } from './findings';

export interface BudgetVerdict {
  context: ContextName;
  metric: BudgetMetric;
  limit: number;
  /** Sum of the measured deltas (or the stack's delta, `JudgeConfig.site`), in the metric's unit (ms, MB, queries). */
  actual: number;
  exceeded: boolean;
  /** Benchmarked components without a measurement in this context (the stack: 1 when it was not measured there). */
  notMeasured: number;
  /** Components without a benchmark at all (not benchmarked, not in dataset, not looked up); the stack: left out of it. */
  unknown: number;
}

/** What budgets are judged on: the sum of the components' figures, or the stack as it runs (`JudgeConfig.site`). */
export type BudgetBasis = 'sum' | 'stack';

/**
 * The stack as it runs in the shape budgets are judged on: per context its figures (a context the stack was not
 * measured in is "not measured", never zero); the components left out of the stack are not counted in it.
 */
export function stackTotal(r: SiteRecord): SiteTotal {
  const contexts = {} as Record<ContextName, ContextTotal>;
  for (const c of CONTEXT_NAMES) {
    const f = r.site.contexts[c];
    contexts[c] = f
      ? { ttfbDeltaMs: f.ttfb_delta_ms, memoryDeltaKb: f.memory_delta_kb, queriesDelta: f.queries_delta, notMeasured: 0, measured: 1 }
      : { ttfbDeltaMs: 0, memoryDeltaKb: 0, queriesDelta: 0, notMeasured: 1, measured: 0 };
  }
  const left = r.components.filter((x) => x.left_out).length;
  return { contexts, components: r.components.length, benchmarked: 0, local: r.components.length - left, unknown: left };
}

/** What a budget's figure leaves out, in words ("1 left out of the stack"); empty when nothing. */
export function budgetMissing(b: BudgetVerdict, basis: BudgetBasis, long = false): string[] {
  if (basis === 'stack') return [b.notMeasured ? `not measured on the ${CONTEXT_LABEL[b.context]}` : null, b.unknown ? `${b.unknown} left out of the stack` : null].filter((x): x is string => x !== null);
  return [
    b.notMeasured ? `${b.notMeasured} not measured${long ? ' in this context' : ''}` : null,
    b.unknown ? `${b.unknown} ${long ? 'without a benchmark' : 'unknown'}` : null,
  ].filter((x): x is string => x !== null);
}

export function budgetUnit(metric: BudgetMetric, value: number): string {
  if (metric === 'ttfbMs') return formatMs(value);
  if (metric === 'memoryMb') return formatMemoryKb(value * 1024);
  return countNoun(Math.round(value), 'query', 'queries');
}

export const METRIC_LABEL: Record<BudgetMetric, string> = { ttfbMs: 'TTFB', memoryMb: 'memory', queries: 'queries' };

/**
 * Every budget set, judged against the site total (in context, then metric order), and a finding for each one
 * exceeded: at the place that set it (`locations`, by `context.metric`), else at `fallback`. `basis` says what the
 * total is: the sum of the components' figures, or the stack as it runs (stackTotal()).
 */
export function judgeBudgets(
  total: SiteTotal,
  config: Partial<Record<ContextName, Budget>>,
  locations: Partial<Record<string, ReportLocation>> | undefined,
  fallback: ReportLocation | undefined,
  basis: BudgetBasis = 'sum',
): { budgets: BudgetVerdict[]; findings: Finding[] } {
  const budgets: BudgetVerdict[] = [];
  const findings: Finding[] = [];
  for (const ctx of CONTEXT_NAMES) {
    const budget = config[ctx];
    if (!budget) continue;
    const t = total.contexts[ctx];
    for (const metric of ['ttfbMs', 'memoryMb', 'queries'] as const) {
      const limit = budget[metric];
      if (limit === undefined) continue;
      const actual = metric === 'ttfbMs' ? t.ttfbDeltaMs : metric === 'memoryMb' ? t.memoryDeltaKb / 1024 : t.queriesDelta;
      const verdict: BudgetVerdict = { context: ctx, metric, limit, actual, exceeded: actual > limit, notMeasured: t.notMeasured, unknown: total.unknown };
      budgets.push(verdict);
      if (!verdict.exceeded) continue;
      const loc = locations?.[`${ctx}.${metric}`] ?? fallback;
      const missing = budgetMissing(verdict, basis, true);
      const what = basis === 'stack' ? 'The stack as it runs' : 'The site total';
      findings.push({
        ruleId: 'budget-exceeded',
        level: 'error',
        message: `${what} on the ${CONTEXT_LABEL[ctx]} adds ${budgetUnit(metric, actual)}${metric === 'queries' ? '' : ` ${METRIC_LABEL[metric]}`}, over the budget of ${budgetUnit(metric, limit)}${missing.length ? ` (${missing.join(', ')}: not counted, so the real ${basis === 'stack' ? 'figure' : 'total'} can only be higher)` : ''}.`,
        locations: loc ? [loc] : [],
        context: ctx,
        metric,
      });
    }
  }
  return { budgets, findings };
}
