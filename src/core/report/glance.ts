// "At a glance": what the inline annotations, the site report, the comparison and the HTML report show, computed
// from a judgement or from outcomes (no vscode, no I/O). Measured values are bars; what is not measured or not
// benchmarked is listed beside them, never drawn as zero.
import { formatCount, formatMemoryKb, formatMs, plural, signed, signedMs } from '../present/format';
import { l10n } from '../l10n';
import type { LookupOutcome } from '../lookup/lookupService';
import { CONTEXT_NAMES, type BenchmarkRecord, type ComponentKind, type ContextMeasurement, type ContextName, type LookupDecision } from '../model';
import { contextLabel, summaryText } from '../present/outcome';
import type { ComponentVerdict, Judgement } from './judge';
import { localAsBenchmark, localGradeText, localWords } from '../present/local';
import type { LocalRecord } from '../measure/record/method';
import { lookupNote } from '../scan/lookup';
import type { BudgetMetric } from '../config/teamConfig';

export type ChartMetric = 'ttfb' | 'memory' | 'queries';
export const CHART_METRICS: readonly ChartMetric[] = ['ttfb', 'memory', 'queries'];
const BUDGET_OF: Record<ChartMetric, BudgetMetric> = { ttfb: 'ttfbMs', memory: 'memoryMb', queries: 'queries' };

/** A measurement in the chart's unit: ms, MB or queries. */
export function metricValue(m: ContextMeasurement, metric: ChartMetric): number {
  return metric === 'ttfb' ? m.ttfbDeltaMs : metric === 'memory' ? m.memoryDeltaKb / 1024 : m.queriesDelta;
}

export function formatMetric(value: number, metric: ChartMetric): string {
  if (metric === 'ttfb') return formatMs(value);
  if (metric === 'memory') return formatMemoryKb(value * 1024);
  return plural(Math.round(value), l10n.t('1 query'), l10n.t('{0} queries', formatCount(value)));
}

export function metricLabel(metric: ChartMetric): string {
  return metric === 'ttfb' ? 'TTFB' : metric === 'memory' ? l10n.t('Memory') : l10n.t('Queries');
}

export interface ChartItem {
  kind: ComponentKind;
  slug: string;
  name: string;
  grade: string | null;
}

export interface ChartBar extends ChartItem {
  value: number;
  display: string;
  /** Share of the sum of the bars, 0…1. */
  share: number;
}

export interface ChartData {
  context: ContextName;
  metric: ChartMetric;
  title: string;
  unit: string;
  /** Largest first. */
  bars: ChartBar[];
  total: number;
  totalDisplay: string;
  budget: number | null;
  budgetDisplay: string | null;
  overBudget: boolean;
  /** Benchmarked, but with no measurement in this context. */
  notMeasured: ChartItem[];
  /** Not benchmarked, not in the dataset, not looked up: with the reason in words. */
  unknown: (ChartItem & { why: string })[];
  synthetic: boolean;
}

function verdictName(v: ComponentVerdict): string {
  return v.name ?? v.slug;
}

function unknownWhy(v: ComponentVerdict): string {
  if (v.state === 'not-benchmarked') return l10n.t('not benchmarked yet');
  if (v.state === 'not-in-dataset') return l10n.t('not in dataset');
  if (v.unknownReason === 'not-a-wordpress-org-slug' || v.unknownReason === 'not-from-wordpress-org' || v.unknownReason === 'outside-workspace') return lookupNote(v.unknownReason);
  if (v.unknownReason === 'local') return lookupNote('update-uri');
  if (v.unknownReason === 'error') return l10n.t('lookup failed');
  return l10n.t('not looked up');
}

/** One context and metric of a judgement as a chart: the site total, a bar per measured component, the budget. */
export function chartData(j: Judgement, context: ContextName, metric: ChartMetric): ChartData {
  const bars: ChartBar[] = [];
  const notMeasured: ChartItem[] = [];
  const unknown: (ChartItem & { why: string })[] = [];
  for (const v of j.components) {
    // A local measurement is never mixed silently with the API's numbers: its bar says so.
    const name = v.source !== 'local' ? verdictName(v) : v.stale ? l10n.t('{0} (measured locally, stale)', verdictName(v)) : l10n.t('{0} (measured locally)', verdictName(v));
    const item: ChartItem = { kind: v.kind, slug: v.slug, name, grade: v.grade };
    if (v.state !== 'benchmarked' || !v.contexts) {
      unknown.push({ ...item, why: unknownWhy(v) });
      continue;
    }
    const m = v.contexts[context];
    if (!m) {
      notMeasured.push(item);
      continue;
    }
    const value = metricValue(m, metric);
    bars.push({ ...item, value, display: formatMetric(value, metric), share: 0 });
  }
  const budget = j.config.budgets[context]?.[BUDGET_OF[metric]] ?? null;
  return finishChart(context, metric, bars, notMeasured, unknown, budget, j.synthetic);
}

function finishChart(context: ContextName, metric: ChartMetric, bars: ChartBar[], notMeasured: ChartItem[], unknown: (ChartItem & { why: string })[], budget: number | null, synthetic: boolean): ChartData {
  bars.sort((a, b) => b.value - a.value || a.slug.localeCompare(b.slug));
  const total = bars.reduce((s, b) => s + b.value, 0);
  for (const b of bars) b.share = total > 0 ? Math.max(0, b.value) / total : 0;
  return {
    context,
    metric,
    title: l10n.t('{0}: {1} per component', contextLabel(context), metricLabel(metric)),
    unit: metric === 'ttfb' ? 'ms' : metric === 'memory' ? 'MB' : l10n.t('queries'),
    bars,
    total,
    totalDisplay: formatMetric(total, metric),
    budget,
    budgetDisplay: budget === null ? null : formatMetric(budget, metric),
    overBudget: budget !== null && total > budget,
    notMeasured,
    unknown,
    synthetic,
  };
}

/** Every context × metric of a judgement: what the site report's switches choose from. */
export function allCharts(j: Judgement): Record<ContextName, Record<ChartMetric, ChartData>> {
  const out = {} as Record<ContextName, Record<ChartMetric, ChartData>>;
  for (const c of CONTEXT_NAMES) {
    out[c] = {} as Record<ChartMetric, ChartData>;
    for (const m of CHART_METRICS) out[c][m] = chartData(j, c, m);
  }
  return out;
}

// ---- inline annotations ---------------------------------------------------------------------------------

/** The quiet text at the end of a declaring line: "A+ · +3 ms homepage", "not benchmarked", "not measured"… */
export function inlineText(outcome: LookupOutcome | undefined, lookup: LookupDecision, context: ContextName, ignored: boolean): string | null {
  if (ignored) return l10n.t('ignored');
  if (lookup !== 'yes' && !outcome?.result) return lookupNote(lookup);
  const result = outcome?.result;
  if (!result) return outcome?.error ? l10n.t('lookup failed') : null;
  let text: string;
  if (result.state === 'not-in-dataset') text = l10n.t('not in dataset');
  else if (result.state === 'not-benchmarked') text = l10n.t('not benchmarked');
  else {
    const m = result.record.contexts[context];
    const where = contextLabel(context).toLowerCase();
    text = m ? l10n.t('{0} · {1} {2}', result.record.grade ?? '?', signedMs(m.ttfbDeltaMs), where) : l10n.t('{0} · not measured ({1})', result.record.grade ?? '?', where);
  }
  return outcome?.stale ? l10n.t('{0} (stale)', text) : text;
}

// ---- comparison -------------------------------------------------------------------------------------------

export interface CompareColumn {
  kind: ComponentKind;
  slug: string;
  name: string;
  /** `measured-locally`: the API has no benchmark of it, and its column holds the local measurement. */
  state: 'benchmarked' | 'not-benchmarked' | 'not-in-dataset' | 'failed' | 'measured-locally' | 'not-looked-up';
  summary: string;
  record: BenchmarkRecord | null;
  stale: boolean;
  /** "measured locally, PHP 8.2, WordPress 6.1.9, 2026-11-25" for a local column, else null. */
  local: string | null;
  /** The estimated grade of a local column ("≈B local"). */
  localGrade?: string;
}

/** What compare gets for one item: the API's outcome, and the local measurement if there is one. */
export interface CompareInput {
  kind: ComponentKind;
  slug: string;
  outcome: LookupOutcome | undefined;
  local?: { record: LocalRecord; stale: boolean };
  /** A workspace component the API is never asked about, and why (no outcome then). */
  notLookedUp?: Exclude<LookupDecision, 'yes'>;
}

export interface CompareRow {
  label: string;
  /** One cell per column. */
  cells: string[];
  /** Indexes of the best cells (lowest cost, best grade, most installs…); empty when nothing compares. */
  best: number[];
}

function bestOf(values: (number | null)[], lowerIsBetter: boolean): number[] {
  const known = values.filter((v): v is number => v !== null);
  if (known.length < 2) return [];
  const target = lowerIsBetter ? Math.min(...known) : Math.max(...known);
  return values.flatMap((v, i) => (v === target ? [i] : []));
}

/**
 * The side-by-side table: grade, score, each context's three deltas, installs, rating, measured when. An item the
 * API has no benchmark for shows its local measurement, marked as such in its header, grade and "Measured" cells.
 * Local figures take part in the ★ only where another machine does not change them (memory and queries): the grade,
 * the score and TTFB of this machine are not compared with the API's.
 */
export function compareTable(items: CompareInput[]): { columns: CompareColumn[]; rows: CompareRow[] } {
  const columns: CompareColumn[] = items.map(({ kind, slug, outcome, local, notLookedUp }) => {
    const r = outcome?.result;
    const record = r && r.state !== 'not-in-dataset' ? r.record : null;
    if (r?.state !== 'benchmarked' && local) {
      return {
        kind,
        slug,
        name: local.record.name || slug,
        state: 'measured-locally',
        summary: localWords(local.record),
        record: localAsBenchmark(local.record),
        stale: local.stale,
        local: localWords(local.record),
        localGrade: localGradeText(local.record),
      };
    }
    return {
      kind,
      slug,
      name: record?.name ?? slug,
      state: r ? r.state : notLookedUp ? 'not-looked-up' : 'failed',
      summary: !r && notLookedUp ? lookupNote(notLookedUp) : summaryText(outcome),
      record: r?.state === 'benchmarked' ? r.record : null,
      stale: outcome?.stale ?? false,
      local: null,
    };
  });
  const rows: CompareRow[] = [];
  const apiOnly = (values: (number | null)[]) => values.map((v, i) => (columns[i].local ? null : v));
  const row = (label: string, values: (number | null)[], show: (v: number) => string, lowerIsBetter: boolean, empty = '—') =>
    rows.push({ label, cells: values.map((v) => (v === null ? empty : show(v))), best: bestOf(values, lowerIsBetter) });
  const rec = (c: CompareColumn) => c.record;
  rows.push({
    label: l10n.t('Grade'),
    cells: columns.map((c) => c.localGrade ?? c.record?.grade ?? c.summary),
    best: bestOf(apiOnly(columns.map((c) => c.record?.score ?? null)), false),
  });
  rows.push({
    label: l10n.t('Score'),
    cells: columns.map((c) => (c.record?.score == null ? '—' : c.local ? `≈${c.record.score}` : String(c.record.score))),
    best: bestOf(apiOnly(columns.map((c) => c.record?.score ?? null)), false),
  });
  for (const ctx of CONTEXT_NAMES) {
    const m = (c: CompareColumn) => rec(c)?.contexts[ctx] ?? null;
    const nm = l10n.t('not measured');
    const cellsEmpty = (c: CompareColumn) => (rec(c) ? nm : '—');
    for (const metric of CHART_METRICS) {
      const values = columns.map((c) => {
        const x = m(c);
        return x ? metricValue(x, metric) : null;
      });
      rows.push({
        label: `${contextLabel(ctx)} · ${metricLabel(metric)}`,
        cells: values.map((v, i) => (v === null ? cellsEmpty(columns[i]) : signed(formatMetric(v, metric)))),
        best: bestOf(metric === 'ttfb' ? apiOnly(values) : values, true),
      });
    }
  }
  row(l10n.t('Active installs'), columns.map((c) => rec(c)?.activeInstalls ?? null), (v) => `${formatCount(v)}+`, false);
  row(l10n.t('Rating'), columns.map((c) => rec(c)?.rating ?? null), (v) => String(v), false);
  rows.push({ label: l10n.t('Measured'), cells: columns.map((c) => c.local ?? rec(c)?.benchmarkedAt ?? '—'), best: [] });
  return { columns, rows };
}

/** The comparison's chart: one bar per compared item with a measurement (same shape as the site report's). */
export function compareChart(columns: CompareColumn[], context: ContextName, metric: ChartMetric): ChartData {
  const bars: ChartBar[] = [];
  const notMeasured: ChartItem[] = [];
  const unknown: (ChartItem & { why: string })[] = [];
  for (const c of columns) {
    // A local bar says so in its name, as on the site report.
    const name = c.local ? (c.stale ? l10n.t('{0} (measured locally, stale)', c.name) : l10n.t('{0} (measured locally)', c.name)) : c.name;
    const item: ChartItem = { kind: c.kind, slug: c.slug, name, grade: c.local ? null : (c.record?.grade ?? null) };
    const m = c.record?.contexts[context];
    if (!c.record) unknown.push({ ...item, why: c.summary });
    else if (!m) notMeasured.push(item);
    else {
      const value = metricValue(m, metric);
      bars.push({ ...item, value, display: formatMetric(value, metric), share: 0 });
    }
  }
  return finishChart(context, metric, bars, notMeasured, unknown, null, columns.some((c) => c.record?.synthetic ?? false));
}
