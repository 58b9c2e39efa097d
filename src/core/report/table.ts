// The terminal table of a check: one row per component, the site total per context, the budgets, the scan's
// problems and the verdict line.
import { formatAge, signedKb, signedMs, signedQueries } from '../present/format';
import { CONTEXT_NAMES } from '../model';
import { SYNTHETIC_NOTE } from '../present/outcome';
import type { ComponentDiff } from './diff';
import { pad, plainText, textTable } from './plain';
import { CONTEXT_LABEL, totalSources, type Judgement } from './judge';
import { siteTable } from './siteText';
import { budgetLines, contextCells, instructionsShown, instructionsText, NO_MEASUREMENT, problemLines, statusText, totalCells, unmeasuredNote, varyingNotices, verdictLine, type RenderOptions } from './reportText';

export function toTable(j: Judgement, opts: RenderOptions = {}): string {
  const now = opts.now ?? Date.now();
  const ctx = j.config.context;
  const out: string[] = [];
  if (opts.diff) out.push(...diffText(opts.diff), '');
  if (j.components.length === 0) {
    out.push('No plugins or themes to check.');
  } else {
    // check --measure-local --instructions: the CPU instructions a local measurement counted, beside its time.
    const instr = instructionsShown(j, ctx);
    const rows = [['GRADE', 'KIND', 'SLUG', 'VERSION', `TTFB (${ctx})`, 'MEMORY', 'QUERIES', ...(instr ? ['INSTRUCTIONS'] : []), 'STATUS']];
    for (const v of j.components) {
      const c = contextCells(v, ctx);
      const stale = v.stale && v.fetchedAt !== null ? ` (stale, ${formatAge(now - v.fetchedAt)})` : '';
      rows.push([plainText(v.grade ?? '-', 8), v.kind, v.slug, plainText(v.version ?? '-', 30), c.ttfb, c.memory, c.queries, ...(instr ? [instructionsText(v, ctx)] : []), statusText(v) + stale]);
    }
    const t = totalCells(j.total.contexts[ctx]);
    rows.push(['', '', 'SITE TOTAL', '', t.ttfb, t.memory, t.queries, ...(instr ? [''] : []), unmeasuredNote(j, ctx) ?? '']);
    out.push(textTable(rows));
  }
  out.push('');
  for (const c of CONTEXT_NAMES) {
    const t = j.total.contexts[c];
    const x = totalCells(t);
    const sums = t.measured ? `${x.ttfb} TTFB, ${x.memory}, ${x.queries} ${Math.round(t.queriesDelta) === 1 ? 'query' : 'queries'}` : NO_MEASUREMENT;
    out.push(`Site total, ${CONTEXT_LABEL[c]}: ${sums} (${t.measured} measured${t.notMeasured ? `, ${t.notMeasured} not measured` : ''})`);
  }
  out.push(`Site total: ${totalSources(j.total)}.${j.counts.local ? ' Local measurements are marked "measured locally" and are not the benchmark API\'s numbers.' : ''}`);
  for (const { v, text } of varyingNotices(j)) out.push(`${v.slug}: ${text}.`);
  if (j.site) out.push('', siteTable(j.site), '');
  out.push(...budgetLines(j));
  if (j.counts.ignored) out.push(`${j.counts.ignored} ignored by configuration.`);
  if (j.synthetic) out.push(`Note: ${SYNTHETIC_NOTE}.`);
  out.push(...problemLines(j));
  out.push(verdictLine(j));
  return out.join('\n');
}

function diffText(d: ComponentDiff): string[] {
  const out = [`Compared with ${plainText(d.ref, 80)}: ${d.headline}`];
  for (const v of d.added) out.push(`  + ${v.kind} ${v.slug}${v.grade ? ` (grade ${plainText(v.grade, 8)})` : ` (${statusText(v)})`}`);
  for (const v of d.removed) out.push(`  - ${v.kind} ${v.slug}${v.grade ? ` (grade ${plainText(v.grade, 8)})` : ` (${statusText(v)})`}`);
  for (const c of d.changed) out.push(`  ~ ${c.kind} ${c.slug} ${plainText(c.from ?? '?', 30)} -> ${plainText(c.to ?? '?', 30)}`);
  for (const c of CONTEXT_NAMES) {
    const x = d.delta[c];
    out.push(`  ${pad(`${CONTEXT_LABEL[c]}:`, 12)} ${signedMs(x.ttfbDeltaMs)} TTFB, ${signedKb(x.memoryDeltaKb)}, ${signedQueries(x.queriesDelta)}`);
  }
  return out;
}
