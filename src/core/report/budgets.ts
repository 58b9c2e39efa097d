// The team's budgets against the site total: per context and metric, the sum of the measured deltas, whether it is
// over the limit, and a finding for each one exceeded. Pure: no I/O, no vscode.
import { countNoun, formatMemoryKb, formatMs } from '../present/format';
import { CONTEXT_NAMES, type ContextName } from '../model';
import type { SiteTotal } from '../present/outcome';
import type { Budget, BudgetMetric } from '../config/teamConfig';
import { CONTEXT_LABEL, type Finding, type ReportLocation } from './findings';

export interface BudgetVerdict {
  context: ContextName;
  metric: BudgetMetric;
  limit: number;
  /** Sum of the measured deltas, in the metric's unit (ms, MB, queries). */
  actual: number;
  exceeded: boolean;
  /** Benchmarked components without a measurement in this context. */
  notMeasured: number;
  /** Components without a benchmark at all (not benchmarked, not in dataset, not looked up). */
  unknown: number;
}

export function budgetUnit(metric: BudgetMetric, value: number): string {
  if (metric === 'ttfbMs') return formatMs(value);
  if (metric === 'memoryMb') return formatMemoryKb(value * 1024);
  return countNoun(Math.round(value), 'query', 'queries');
}

export const METRIC_LABEL: Record<BudgetMetric, string> = { ttfbMs: 'TTFB', memoryMb: 'memory', queries: 'queries' };

/**
 * Every budget set, judged against the site total (in context, then metric order), and a finding for each one
 * exceeded: at the place that set it (`locations`, by `context.metric`), else at `fallback`.
 */
export function judgeBudgets(
  total: SiteTotal,
  config: Partial<Record<ContextName, Budget>>,
  locations: Partial<Record<string, ReportLocation>> | undefined,
  fallback: ReportLocation | undefined,
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
      const missing = [
        verdict.notMeasured ? `${verdict.notMeasured} not measured in this context` : null,
        verdict.unknown ? `${verdict.unknown} without a benchmark` : null,
      ].filter(Boolean);
      findings.push({
        ruleId: 'budget-exceeded',
        level: 'error',
        message: `The site total on the ${CONTEXT_LABEL[ctx]} adds ${budgetUnit(metric, actual)}${metric === 'queries' ? '' : ` ${METRIC_LABEL[metric]}`}, over the budget of ${budgetUnit(metric, limit)}${missing.length ? ` (${missing.join(', ')}: not counted, so the real total can only be higher)` : ''}.`,
        locations: loc ? [loc] : [],
        context: ctx,
        metric,
      });
    }
  }
  return { budgets, findings };
}
