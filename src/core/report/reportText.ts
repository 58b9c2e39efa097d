// What every report of a check says alike, whatever its format: a component's status and cells, the site total's
// cells, the verdict line, the budgets and the scan's problems as plain lines. Strings are plain text here: each
// format escapes them.
import { countNoun, formatContext, signedCount, signedKb, signedMs } from '../present/format';
import type { ContextName } from '../model';
import type { ContextTotal } from '../present/outcome';
import type { ComponentDiff } from './diff';
import { plainText, problemsSummary } from './plain';
import { instructionsCell, varyingNotice } from '../present/instructions';
import { budgetMissing, budgetUnit, CONTEXT_LABEL, METRIC_LABEL, type ComponentVerdict, type Judgement, type ReportProblem } from './judge';

export interface RenderOptions {
  diff?: ComponentDiff;
  now?: number;
}

export function statusText(v: ComponentVerdict): string {
  if (v.source === 'local') return v.localLabel ?? 'measured locally';
  switch (v.state) {
    case 'benchmarked':
      return v.failed ? 'FAIL' : 'ok';
    case 'not-benchmarked':
      return 'not benchmarked';
    case 'not-in-dataset':
      return 'not in dataset';
    default:
      return v.unknownReason === 'limit' ? 'not looked up (limit)' : v.unknownReason === 'time' ? 'not looked up (time limit)' : v.unknownReason === 'timeouts' ? 'not looked up (server too slow)' : v.unknownReason === 'offline' ? 'not cached (offline)' : v.unknownReason === 'local' ? 'not looked up (Update URI)' : v.unknownReason === 'not-a-wordpress-org-slug' ? 'not a wordpress.org slug' : v.unknownReason === 'not-from-wordpress-org' ? 'not looked up (mu-plugin)' : v.unknownReason === 'outside-workspace' ? 'not looked up (outside the workspace)' : v.unknownReason === 'error' ? 'lookup failed' : 'not looked up';
  }
}

/** `check --measure-local --instructions`: whether a local measurement has instruction counts in the context (the column shows then). */
export function instructionsShown(j: Judgement, ctx: ContextName): boolean {
  return j.components.some((v) => v.source === 'local' && instructionsCell(v.local, ctx) !== null);
}

/** A component's instructions cell: what its local measurement counted in the context, else "–". */
export function instructionsText(v: ComponentVerdict, ctx: ContextName): string {
  return (v.source === 'local' && instructionsCell(v.local, ctx)) || '–';
}

/** The locally measured components whose counted requests varied, each with the notice. */
export function varyingNotices(j: Judgement): Array<{ v: ComponentVerdict; text: string }> {
  return j.components.flatMap((v) => {
    const text = v.source === 'local' && v.local ? varyingNotice(v.local) : null;
    return text ? [{ v, text }] : [];
  });
}

export function contextCells(v: ComponentVerdict, ctx: ContextName): { ttfb: string; memory: string; queries: string } {
  if (v.state !== 'benchmarked' || !v.contexts) return { ttfb: '–', memory: '–', queries: '–' };
  return formatContext(v.contexts[ctx]);
}

/** "no measurement" when nothing is measured in the context: "+0 ms" would read as "costs nothing". */
export const NO_MEASUREMENT = 'no measurement';

export function totalCells(t: ContextTotal): { ttfb: string; memory: string; queries: string } {
  if (t.measured === 0) return { ttfb: NO_MEASUREMENT, memory: NO_MEASUREMENT, queries: NO_MEASUREMENT };
  return { ttfb: signedMs(t.ttfbDeltaMs), memory: signedKb(t.memoryDeltaKb), queries: signedCount(t.queriesDelta) };
}

export function unmeasuredNote(j: Judgement, ctx: ContextName): string | null {
  const t = j.total.contexts[ctx];
  const parts = [t.notMeasured ? `${t.notMeasured} not measured on the ${CONTEXT_LABEL[ctx]}` : null, j.total.unknown ? `${j.total.unknown} without a benchmark` : null].filter(Boolean);
  return parts.length ? `${parts.join(', ')}: not counted (never as zero)` : null;
}

export function verdictLine(j: Judgement): string {
  const notJudged = `${j.counts.unknown ? ` ${j.counts.unknown} component${j.counts.unknown === 1 ? ' was' : 's were'} not looked up and not judged.` : ''}${problemsNote(j)}`;
  if (!j.failed) {
    const grades = j.config.failOn ? `no component graded worse than ${j.config.failOn}` : 'no minimum grade set';
    return `PASSED: ${grades}${j.budgets.length ? ', every budget kept' : ''}.${notJudged}`;
  }
  const parts = [
    j.counts.gradeFailures ? `${j.counts.gradeFailures} graded worse than ${j.config.failOn}` : null,
    j.counts.budgetFailures ? `${j.counts.budgetFailures} budget${j.counts.budgetFailures === 1 ? '' : 's'} exceeded` : null,
  ].filter(Boolean);
  return `FAILED: ${parts.join(', ')}.${notJudged}`;
}

/** What the scan could not read is not counted: a report that passes says how much (notes of the scan leave nothing uncounted). */
function problemsNote(j: Judgement): string {
  const n = j.counts.uncounted;
  return n ? ` ${countNoun(n, 'component or file', 'components or files')} could not be counted (see the scan problems).` : '';
}

/** What the problems section means, for what it holds. */
export function problemsExplanation(j: Judgement): string {
  return [
    j.counts.uncounted ? 'what a problem concerns is not judged or counted' : null,
    j.counts.notes ? 'a note (info) is for information and leaves nothing uncounted' : null,
  ]
    .filter(Boolean)
    .join('; ');
}

/** `file:line`, or the checked folder itself for a problem without a file. */
export function problemPlace(p: ReportProblem): string {
  return p.file ? `${p.file}:${p.line}` : '(checked folder)';
}

/** The scan's problems as plain lines (the table report; the CLI also prints them on stderr). */
export function problemLines(j: Judgement): string[] {
  if (!j.problems.length) return [];
  return [`Problems found by the scan (${problemsSummary(j.problems)}):`, ...j.problems.map((p) => `  ${problemPlace(p)}: ${p.severity === 'info' ? '(info) ' : ''}${plainText(p.message, 300)}`)];
}

/** The budgets as plain lines; judged on the stack as it runs (the site measured locally as a whole), they say so. */
export function budgetLines(j: Judgement): string[] {
  const basis = j.site ? 'stack' : 'sum';
  return j.budgets.map((b) => {
    const missing = budgetMissing(b, basis);
    return `${b.exceeded ? 'over' : 'within'} budget: ${CONTEXT_LABEL[b.context]} ${METRIC_LABEL[b.metric]} ${budgetUnit(b.metric, b.actual)} of ${budgetUnit(b.metric, b.limit)}${basis === 'stack' ? ', the stack as it runs' : ''}${missing.length ? ` (${missing.join(', ')}: not counted)` : ''}`;
  });
}

/** The budgets' figure column: the site total, or the stack as it runs. */
export function budgetColumn(j: Judgement): string {
  return j.site ? 'The stack, as it runs' : 'Site total';
}
