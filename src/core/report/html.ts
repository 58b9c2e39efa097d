// The report for clients: one self-contained HTML file (inline CSS and SVG, no script, no external request — its
// Content-Security-Policy forbids any), printable on A4 and Letter. Every string from the API or a file is escaped.
import { chartData, type ChartData } from './glance';
import { countNoun } from '../present/format';
import { CONTEXT_NAMES } from '../model';
import { escapeHtml, markdownLinkTarget } from '../present/outcome';
import { plainText, problemsSummary } from './plain';
import { budgetUnit, CONTEXT_LABEL, METRIC_LABEL, totalSources, type ComponentVerdict, type Judgement } from './judge';
import { budgetColumn, contextCells, problemPlace, problemsExplanation, statusText, totalCells, verdictLine, type RenderOptions } from './formats';
import { instructionsShown, instructionsText, varyingNotices } from './reportText';
import { siteHtmlSection } from './siteFormats';
import { htmlHead } from './htmlPage';

/** A horizontal bar chart as inline SVG: one <rect class="bar"> per measured component, the budget as a line. */
export function chartSvg(chart: ChartData): string {
  const width = 640;
  const label = 220;
  const valueCol = 80;
  const row = 22;
  const top = 8;
  const plot = width - label - valueCol;
  const max = Math.max(chart.budget ?? 0, ...chart.bars.map((b) => b.value), 0) || 1;
  const x = (v: number) => label + (Math.max(0, v) / max) * plot;
  const height = top + chart.bars.length * row + 26;
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(chart.title)}">`);
  parts.push(`<title>${escapeHtml(chart.title)}</title>`);
  chart.bars.forEach((b, i) => {
    const y = top + i * row;
    const w = Math.max(1, x(b.value) - label);
    const name = plainText(b.name, 30);
    parts.push(
      `<g><text x="${label - 8}" y="${y + 15}" text-anchor="end">${escapeHtml(name)}</text>` +
        `<rect class="bar" x="${label}" y="${y + 3}" width="${w.toFixed(1)}" height="${row - 7}"><title>${escapeHtml(`${b.name} (${b.slug}): +${b.display}`)}</title></rect>` +
        `<text x="${(label + w + 6).toFixed(1)}" y="${y + 15}">+${escapeHtml(b.display)}</text></g>`,
    );
  });
  const axisY = top + chart.bars.length * row + 2;
  parts.push(`<line class="axis" x1="${label}" y1="${top}" x2="${label}" y2="${axisY}"/>`);
  if (chart.budget !== null) {
    const bx = x(chart.budget).toFixed(1);
    parts.push(`<line class="budget" x1="${bx}" y1="${top - 4}" x2="${bx}" y2="${axisY}"/>`);
    parts.push(`<text x="${bx}" y="${axisY + 16}" text-anchor="middle">budget ${escapeHtml(chart.budgetDisplay ?? '')}</text>`);
  }
  parts.push('</svg>');
  return parts.join('');
}

function componentCell(v: ComponentVerdict): string {
  const link = markdownLinkTarget(v.profileUrl);
  const name = escapeHtml(plainText(v.name ?? v.slug, 60));
  return `${link ? `<a href="${escapeHtml(link)}">${name}</a>` : name} <code>${escapeHtml(v.slug)}</code>`;
}

/** The scan's problems as a section (empty when there are none). */
function problemsHtml(j: Judgement): string[] {
  if (!j.problems.length) return [];
  const items = j.problems.map((p) => `<li><code>${escapeHtml(problemPlace(p))}</code>: ${p.severity === 'info' ? '(info) ' : ''}${escapeHtml(plainText(p.message, 300))}</li>`);
  const note = `${problemsSummary(j.problems)}: ${problemsExplanation(j)}.`;
  return ['<h2>Problems found by the scan</h2>', `<p class="note">${escapeHtml(note)}</p>`, '<ul class="problems">', ...items, '</ul>'];
}

export interface HtmlOptions extends RenderOptions {
  /** Shown under the title: the repository or site the report is about. */
  subject?: string;
}

export function toHtml(j: Judgement, opts: HtmlOptions = {}): string {
  const ctx = j.config.context;
  const now = new Date(opts.now ?? Date.now());
  const chart = chartData(j, ctx, 'ttfb');
  const out: string[] = [];
  out.push(...htmlHead(`WP Bench report${opts.subject ? ` — ${plainText(opts.subject, 80)}` : ''}`));
  out.push(`<header><h1>WP Bench performance report</h1><p class="meta">${opts.subject ? `${escapeHtml(plainText(opts.subject, 80))} · ` : ''}${escapeHtml(now.toISOString().slice(0, 10))} · ${countNoun(j.counts.components, 'plugin or theme', 'plugins and themes')}, ${j.counts.benchmarked} benchmarked</p></header>`);
  if (j.synthetic) out.push('<p class="synthetic" role="note">Synthetic data: these numbers come from the WP Bench emulator, not from real measurements.</p>');
  out.push(`<p class="verdict ${j.failed ? 'failed' : 'passed'}">${escapeHtml(verdictLine(j))}</p>`);

  out.push('<h2>Site total</h2>', '<table class="totals"><thead><tr><th scope="col">Context</th><th scope="col">TTFB</th><th scope="col">Memory</th><th scope="col">Queries</th><th scope="col">Not counted</th></tr></thead><tbody>');
  for (const c of CONTEXT_NAMES) {
    const t = j.total.contexts[c];
    const x = totalCells(t);
    out.push(`<tr><th scope="row">${CONTEXT_LABEL[c]}</th><td>${x.ttfb}</td><td>${x.memory}</td><td>${x.queries}</td><td>${t.notMeasured + j.total.unknown}</td></tr>`);
  }
  out.push('</tbody></table>', `<p class="note">${escapeHtml(`Site total: ${totalSources(j.total)}.`)}${j.counts.local ? ' Components marked “measured locally” were measured on this machine, not by the benchmark API.' : ''}</p>`, '<p class="note">The sum of the measured extra cost of each plugin and theme over a clean WordPress. Components without a benchmark and unmeasured contexts are listed below, never counted as zero.</p>');

  out.push(`<h2>${escapeHtml(`Extra time to first byte on the ${CONTEXT_LABEL[ctx]}, per component`)}</h2>`);
  out.push(chart.bars.length ? `<figure>${chartSvg(chart)}<figcaption class="note">Largest first; total +${escapeHtml(chart.totalDisplay)}${chart.budget !== null ? `, budget ${escapeHtml(chart.budgetDisplay ?? '')} (${j.site ? 'judged on the stack as it runs, below' : chart.overBudget ? 'exceeded' : 'kept'})` : ''}.</figcaption></figure>` : '<p class="note">Nothing measured in this context.</p>');

  if (j.budgets.length) {
    out.push('<h2>Budgets</h2>', `<table><thead><tr><th scope="col">Budget</th><th scope="col">${budgetColumn(j)}</th><th scope="col">Limit</th><th scope="col">Result</th></tr></thead><tbody>`);
    for (const b of j.budgets) {
      out.push(`<tr><th scope="row">${CONTEXT_LABEL[b.context]} ${METRIC_LABEL[b.metric]}</th><td>${escapeHtml(budgetUnit(b.metric, b.actual))}</td><td>${escapeHtml(budgetUnit(b.metric, b.limit))}</td><td class="${b.exceeded ? 'over' : 'within'}">${b.exceeded ? 'over budget' : 'within budget'}</td></tr>`);
    }
    out.push('</tbody></table>');
  }

  out.push('<h2>Plugins and themes, worst first</h2>');
  if (j.components.length) {
    // check --measure-local --instructions: the CPU instructions a local measurement counted, beside its time.
    const instr = instructionsShown(j, ctx);
    out.push(`<table class="components"><thead><tr><th scope="col">Grade</th><th scope="col" class="name">Plugin or theme</th><th scope="col">Kind</th><th scope="col">TTFB (${CONTEXT_LABEL[ctx]})</th><th scope="col">Memory</th><th scope="col">Queries</th>${instr ? '<th scope="col">Instructions</th>' : ''}<th scope="col">Status</th></tr></thead><tbody>`);
    for (const v of j.components) {
      const c = contextCells(v, ctx);
      const grade = v.state === 'benchmarked' && v.source === 'api' ? `${escapeHtml(v.grade ?? '?')}${v.score !== null ? ` <span class="note">(${escapeHtml(String(v.score))})</span>` : ''}` : '–';
      out.push(`<tr${v.failed ? ' class="fail"' : ''}><td class="grade">${grade}</td><td class="name">${componentCell(v)}</td><td>${v.kind}</td><td>${escapeHtml(c.ttfb)}</td><td>${escapeHtml(c.memory)}</td><td>${escapeHtml(c.queries)}</td>${instr ? `<td>${escapeHtml(instructionsText(v, ctx))}</td>` : ''}<td${v.source === 'local' ? ' class="local"' : ''}>${escapeHtml(`${v.failed ? 'FAIL' : statusText(v)}${v.stale ? ' (stale)' : ''}`)}</td></tr>`);
    }
    out.push('</tbody></table>');
    const varying = varyingNotices(j);
    if (varying.length) out.push('<ul class="varying">', ...varying.map(({ v, text }) => `<li>${escapeHtml(plainText(v.name ?? v.slug, 60))}: ${escapeHtml(text)}.</li>`), '</ul>');
  } else {
    out.push('<p>No plugins or themes were found.</p>');
  }

  if (chart.notMeasured.length || chart.unknown.length) {
    out.push('<h2>Not measured</h2>', `<p class="note">Not counted in the totals above (never as zero).</p><ul class="unknown">`);
    const item = (i: { name: string; slug: string }) => `${escapeHtml(plainText(i.name, 60))}${i.name.toLowerCase() === i.slug.toLowerCase() ? '' : ` <code>${escapeHtml(i.slug)}</code>`}`;
    for (const i of chart.notMeasured) out.push(`<li>${item(i)}: benchmarked, not measured on the ${CONTEXT_LABEL[ctx]}</li>`);
    for (const i of chart.unknown) out.push(`<li>${item(i)}: ${escapeHtml(i.why)}</li>`);
    out.push('</ul>');
  }
  out.push(...problemsHtml(j));
  const found = j.components.filter((v) => v.local?.findings?.length);
  if (found.length) {
    out.push('<h2>Findings of the local measurements</h2>', '<p class="note">What a component does that costs every request, at the line of its own code.</p><ul>');
    for (const v of found)
      for (const f of v.local!.findings!) out.push(`<li>${escapeHtml(f.severity)} — ${escapeHtml(plainText(v.name ?? v.slug, 60))}: <code>${escapeHtml(plainText(`${[v.local!.findings_root, f.file].filter(Boolean).join('/')}:${f.line}`, 200))}</code> ${f.kind}: ${escapeHtml(plainText(f.message, 300))}</li>`);
    out.push('</ul>');
  }
  if (j.site) out.push(siteHtmlSection(j.site, j.config.siteStale));
  out.push(`<footer><p class="note">WP Bench measures each plugin and theme against a clean WordPress baseline. Generated ${escapeHtml(now.toISOString().replace('T', ' ').slice(0, 16))} UTC; homepage TTFB total ${escapeHtml(totalCells(j.total.contexts.homepage).ttfb)}.</p></footer>`);
  out.push('</body>', '</html>', '');
  return out.join('\n');
}
