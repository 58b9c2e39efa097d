// The Markdown report of a check, for pull-request comments: every string from the API or a scanned file is escaped.
import { signedCount, signedKb, signedMs } from '../present/format';
import { CONTEXT_NAMES } from '../model';
import { SYNTHETIC_NOTE } from '../present/outcome';
import type { ComponentDiff } from './diff';
import { escapeMarkdown, markdownCode, markdownLink } from '../present/markdownEscape';
import { plainText, problemsSummary } from './plain';
import { budgetUnit, CONTEXT_LABEL, METRIC_LABEL, totalSources, type ComponentVerdict, type Judgement } from './judge';
import { siteMarkdownSection } from './siteFormats';
import { budgetColumn, contextCells, instructionsShown, instructionsText, problemPlace, problemsExplanation, statusText, totalCells, unmeasuredNote, varyingNotices, verdictLine, type RenderOptions } from './reportText';

const GRADE_BADGE: Record<string, string> = { A: '🟢', B: '🟢', C: '🟡', D: '🟠', E: '🔴', F: '🔴' };

function mdCell(text: string): string {
  return escapeMarkdown(text);
}

function mdComponent(v: ComponentVerdict): string {
  const label = v.name && v.name !== v.slug ? `${mdCell(plainText(v.name, 80))} ${markdownCode(v.slug)}` : markdownCode(v.slug);
  return markdownLink(label, v.profileUrl);
}

function mdGrade(v: ComponentVerdict): string {
  if (v.state !== 'benchmarked' || v.source === 'local') return '–';
  const g = plainText(v.grade ?? '?', 8);
  return `${GRADE_BADGE[g.charAt(0).toUpperCase()] ?? ''} **${mdCell(g)}**${v.score !== null ? ` (${v.score})` : ''}`.trim();
}

export function toMarkdown(j: Judgement, opts: RenderOptions = {}): string {
  const ctx = j.config.context;
  const out: string[] = [];
  out.push(`### WP Bench: ${j.failed ? '❌ check failed' : '✅ check passed'}`, '');
  if (opts.diff) out.push(...diffMarkdown(opts.diff), '');
  const headline = totalCells(j.total.contexts[ctx]).ttfb;
  out.push(`${mdCell(verdictLine(j))} Site total on the ${CONTEXT_LABEL[ctx]}: ${j.total.contexts[ctx].measured ? `**${mdCell(headline)} TTFB**` : headline}.`, '');
  if (j.components.length) {
    // check --measure-local --instructions: the CPU instructions a local measurement counted, beside its time.
    const instr = instructionsShown(j, ctx);
    out.push(`| Grade | Plugin or theme | Kind | Version | TTFB (${ctx}) | Memory | Queries |${instr ? ' Instructions |' : ''} Status |`);
    out.push(`|:--|:--|:--|:--|--:|--:|--:|${instr ? '--:|' : ''}:--|`);
    for (const v of j.components) {
      const c = contextCells(v, ctx);
      const status = `${v.failed ? '**fail**' : v.source === 'local' ? `🖥 ${mdCell(statusText(v))}` : mdCell(statusText(v))}${v.stale ? ' (stale)' : ''}`;
      out.push(`| ${mdGrade(v)} | ${mdComponent(v)} | ${v.kind} | ${mdCell(plainText(v.version ?? '–', 30))} | ${mdCell(c.ttfb)} | ${mdCell(c.memory)} | ${mdCell(c.queries)} |${instr ? ` ${mdCell(instructionsText(v, ctx))} |` : ''} ${status} |`);
    }
    const t = totalCells(j.total.contexts[ctx]);
    const note = unmeasuredNote(j, ctx);
    out.push(`| | **Site total** | | | **${mdCell(t.ttfb)}** | **${mdCell(t.memory)}** | **${mdCell(t.queries)}** |${instr ? ' |' : ''} ${note ? mdCell(note) : ''} |`);
  } else {
    out.push('No plugins or themes to check.');
  }
  out.push('');
  out.push('| Context | TTFB | Memory | Queries | Not counted |');
  out.push('|:--|--:|--:|--:|--:|');
  for (const c of CONTEXT_NAMES) {
    const t = j.total.contexts[c];
    const x = totalCells(t);
    out.push(`| ${CONTEXT_LABEL[c]} | ${mdCell(x.ttfb)} | ${mdCell(x.memory)} | ${mdCell(x.queries)} | ${t.notMeasured + j.total.unknown} |`);
  }
  out.push('', `${mdCell(`Site total: ${totalSources(j.total)}.`)}${j.counts.local ? ` ${mdCell('🖥 marks local measurements (this machine, not the benchmark API).')}` : ''}`);
  const varying = varyingNotices(j);
  if (varying.length) out.push('', ...varying.map(({ v, text }) => `- ⚠️ ${mdCell(plainText(v.name ?? v.slug, 60))}: ${mdCell(text)}.`));
  out.push(...problemsMarkdown(j));
  if (j.budgets.length) {
    out.push('', `| Budget | ${budgetColumn(j)} | Limit | |`, '|:--|--:|--:|:--|');
    for (const b of j.budgets) {
      out.push(`| ${CONTEXT_LABEL[b.context]} ${METRIC_LABEL[b.metric]} | ${mdCell(budgetUnit(b.metric, b.actual))} | ${mdCell(budgetUnit(b.metric, b.limit))} | ${b.exceeded ? '❌ over' : '✅ within'} |`);
    }
  }
  const notes: string[] = [];
  if (j.total.unknown) notes.push('Components without a benchmark and unmeasured contexts are listed, never counted as zero.');
  if (j.counts.ignored) notes.push(`${j.counts.ignored} ignored by configuration.`);
  if (j.synthetic) notes.push(`Contains ${SYNTHETIC_NOTE}.`);
  if (notes.length) out.push('', `<sub>${notes.map(mdCell).join(' ')}</sub>`);
  const found = j.components.filter((v) => v.local?.findings?.length);
  if (found.length) {
    out.push('', '**Findings of the local measurements** (what a component does that costs every request, at its line)', '');
    for (const v of found)
      for (const f of v.local!.findings!) out.push(`- ${f.severity === 'warning' ? '⚠️' : 'ℹ️'} ${mdCell(plainText(v.name ?? v.slug, 60))}: ${markdownCode(`${[v.local!.findings_root, f.file].filter(Boolean).join('/')}:${f.line}`)} ${f.kind}: ${mdCell(plainText(f.message, 300))}`);
  }
  if (j.site) out.push('', siteMarkdownSection(j.site, j.config.siteStale));
  return out.join('\n');
}

/** The scan's problems as a Markdown section (empty when there are none). */
export function problemsMarkdown(j: Judgement): string[] {
  if (!j.problems.length) return [];
  const out = ['', `**Problems found by the scan (${problemsSummary(j.problems)})**: ${problemsExplanation(j)}.`, ''];
  for (const p of j.problems) out.push(`- ${mdCell(problemPlace(p))}: ${p.severity === 'info' ? mdCell('(info) ') : ''}${mdCell(plainText(p.message, 300))}`);
  return out;
}

function diffMarkdown(d: ComponentDiff): string[] {
  const out = [`**${mdCell(d.headline)}**`, ''];
  if (d.added.length || d.removed.length || d.changed.length) {
    out.push(`| | Plugin or theme | Grade | TTFB (${d.context}) | Memory | Queries |`, '|:--|:--|:--|--:|--:|--:|');
    const row = (sign: string, v: ComponentVerdict) => {
      const c = contextCells(v, d.context);
      out.push(`| ${sign} | ${mdComponent(v)} | ${v.state === 'benchmarked' ? mdGrade(v) : mdCell(statusText(v))} | ${mdCell(c.ttfb)} | ${mdCell(c.memory)} | ${mdCell(c.queries)} |`);
    };
    for (const v of d.added) row('➕ added', v);
    for (const v of d.removed) row('➖ removed', v);
    for (const c of d.changed) out.push(`| 🔄 version | ${markdownCode(c.slug)} | ${mdCell(plainText(c.from ?? '?', 30))} → ${mdCell(plainText(c.to ?? '?', 30))} | | | |`);
    out.push('');
  }
  out.push(`| Site total | ${mdCell(plainText(d.ref, 60))} | this branch | change |`, '|:--|--:|--:|--:|');
  for (const c of CONTEXT_NAMES) {
    const b = d.base.contexts[c];
    const h = d.head.contexts[c];
    const x = d.delta[c];
    out.push(`| ${CONTEXT_LABEL[c]} TTFB | ${mdCell(totalCells(b).ttfb)} | ${mdCell(totalCells(h).ttfb)} | **${mdCell(signedMs(x.ttfbDeltaMs))}** |`);
  }
  const x = d.delta[d.context];
  out.push(`| ${CONTEXT_LABEL[d.context]} memory | | | ${mdCell(signedKb(x.memoryDeltaKb))} |`);
  out.push(`| ${CONTEXT_LABEL[d.context]} queries | | | ${mdCell(signedCount(x.queriesDelta))} |`);
  return out;
}
