// The bodies of the site report and comparison webviews (escaped HTML) and the data their chart script draws.
// The glue wraps them in a page with a CSP nonce; nothing from the API reaches the page unescaped.
import { allCharts, CHART_METRICS, compareChart, type ChartData, type ChartMetric, type CompareColumn, type CompareRow } from './glance';
import { plural } from '../present/format';
import { l10n } from '../l10n';
import { CONTEXT_NAMES, type ContextName } from '../model';
import { contextLabel, escapeHtml, siteTotalLine } from '../present/outcome';
import type { Judgement } from './judge';
import { figuresText, notCountedText, siteFactsLine, type SiteResult } from '../present/siteLocal';
import type { Figures } from '../measure/siteRun/siteRecord';
import { figuresDifference } from './siteText';

export interface GlanceViewData {
  mode: 'site' | 'compare';
  context: ContextName;
  metric: ChartMetric;
  charts: Record<ContextName, Record<ChartMetric, ChartData>>;
  labels: Record<string, unknown>;
}

function labels(): GlanceViewData['labels'] {
  return {
    contexts: Object.fromEntries(CONTEXT_NAMES.map((c) => [c, contextLabel(c)])),
    metrics: { ttfb: 'TTFB', memory: l10n.t('Memory'), queries: l10n.t('Queries') },
    notMeasured: l10n.t('Not measured in this context'),
    unknown: l10n.t('Without a benchmark'),
    budget: l10n.t('Budget'),
    open: l10n.t('Open'),
    nothing: l10n.t('Nothing measured in this context.'),
    component: l10n.t('Plugin or theme'),
    value: l10n.t('Extra cost'),
    share: l10n.t('Share'),
  };
}

/** JSON for a <script type="application/json"> element: "<" escaped so the text can never close the element. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

function syntheticBanner(): string {
  return l10n.t('Synthetic data: these numbers come from the WP Bench emulator, not from real measurements.');
}

function switches(): string {
  const ctx = CONTEXT_NAMES.map((c) => `<button type="button" data-context="${c}" aria-pressed="false">${escapeHtml(contextLabel(c))}</button>`).join('');
  const metrics: Record<ChartMetric, string> = { ttfb: 'TTFB', memory: l10n.t('Memory'), queries: l10n.t('Queries') };
  const met = CHART_METRICS.map((m) => `<button type="button" data-metric="${m}" aria-pressed="false">${escapeHtml(metrics[m])}</button>`).join('');
  return `<div class="switches"><div role="group" aria-label="${escapeHtml(l10n.t('Context'))}">${ctx}</div><div role="group" aria-label="${escapeHtml(l10n.t('Measure'))}">${met}</div></div>`;
}

function chartBlock(): string {
  const l = labels();
  return [
    switches(),
    '<section class="chart-area"><div class="chart-main">',
    '<h2 id="wpb-chart-title"></h2>',
    '<div class="chart-wrap"><canvas id="wpb-chart" role="img"></canvas></div>',
    `<p id="wpb-empty" class="note" hidden>${escapeHtml(String(l.nothing))}</p>`,
    `<details class="values"><summary>${escapeHtml(l10n.t('Values as a table'))}</summary><table id="wpb-values"><thead><tr><th scope="col">${escapeHtml(String(l.component))}</th><th scope="col">${escapeHtml(String(l.value))}</th><th scope="col">${escapeHtml(String(l.share))}</th><th scope="col"><span class="sr-only">${escapeHtml(String(l.open))}</span></th></tr></thead><tbody></tbody></table></details>`,
    '</div><aside id="wpb-side" aria-live="polite"></aside></section>',
  ].join('\n');
}

/** Time, memory and queries one under the other (a narrow panel wraps them at the separators, not mid-figure). */
function stacked(f: Figures | null | undefined): string {
  return figuresText(f).split(' · ').map((x) => `<span class="fig">${escapeHtml(x)}</span>`).join('<br>');
}

/** The site measured as it runs (Measure Site Locally): the stack beside the sum of the parts, each component's part. */
function asItRuns(site: SiteResult): string[] {
  const rec = site.record;
  const parts = [`<section class="as-it-runs"><h2>${escapeHtml(l10n.t('The site as it runs'))}</h2>`];
  parts.push(`<p class="sub">${escapeHtml(siteFactsLine(site))}</p>`);
  if (site.stale) parts.push(`<p class="stale" role="note">${escapeHtml(l10n.t('⚠ Stale: {0}. Run WP Bench: Measure Site Locally again.', site.stale))}</p>`);
  parts.push(`<table class="totals"><caption>${escapeHtml(l10n.t('Every plugin, must-use plugin and the theme active together, against clean WordPress; the sum of the parts adds each measured alone'))}</caption>`);
  parts.push(`<thead><tr><th scope="col"></th><th scope="col">${escapeHtml(l10n.t('As it runs'))}</th><th scope="col">${escapeHtml(l10n.t('Sum of the parts'))}</th><th scope="col">${escapeHtml(l10n.t('Difference'))}</th></tr></thead><tbody>`);
  for (const c of CONTEXT_NAMES) {
    const a = rec.site.contexts[c];
    const b = rec.sum_of_alone.contexts[c];
    const d = figuresDifference(a, b);
    parts.push(`<tr><th scope="row">${escapeHtml(contextLabel(c))}</th><td>${stacked(a)}</td><td>${stacked(b)}</td><td>${d ? stacked(d) : '—'}</td></tr>`);
  }
  parts.push('</tbody></table>');
  const nc = notCountedText(rec);
  if (nc) parts.push(`<p class="note">${escapeHtml(nc)}</p>`);
  const members = rec.components.filter((c) => !c.left_out && (c.in_site || c.alone));
  if (members.length) {
    parts.push(`<table class="members"><caption>${escapeHtml(l10n.t('What each component adds in this site (the stack without it) and costs alone, on the homepage'))}</caption>`);
    parts.push(`<thead><tr><th scope="col">${escapeHtml(l10n.t('Plugin or theme'))}</th><th scope="col">${escapeHtml(l10n.t('In this site'))}</th><th scope="col">${escapeHtml(l10n.t('Alone'))}</th></tr></thead><tbody>`);
    for (const c of members) parts.push(`<tr><th scope="row">${escapeHtml(c.name)} <code>${escapeHtml(c.slug)}</code></th><td>${stacked(c.in_site?.contexts.homepage)}</td><td>${stacked(c.alone?.contexts.homepage)}</td></tr>`);
    parts.push('</tbody></table>');
  }
  const left = rec.components.filter((c) => c.left_out);
  if (left.length || rec.drop_ins_left_out.length) {
    parts.push(`<details><summary>${escapeHtml(l10n.t('Left out of the stack ({0})', left.length + rec.drop_ins_left_out.length))}</summary><ul>`);
    for (const c of left) parts.push(`<li><code>${escapeHtml(c.slug)}</code>: ${escapeHtml(c.left_out!)}</li>`);
    for (const d of rec.drop_ins_left_out) parts.push(`<li><code>${escapeHtml(d)}</code>: ${escapeHtml(l10n.t('a drop-in: not measured (it changes what every request does)'))}</li>`);
    parts.push('</ul></details>');
  }
  const mus = rec.components.filter((c) => c.must_use && !c.left_out && !c.in_site && !c.alone);
  if (mus.length) parts.push(`<p class="note">${escapeHtml(l10n.t('In the stack, not measured apart: {0}', mus.map((c) => (c.note ? `${c.slug} (${c.note})` : c.slug)).join(', ')))}</p>`);
  parts.push('</section>');
  return parts;
}

/**
 * The site report: the site as it runs when it was measured so, then the total of the parts per context, then the
 * chart with its switches and the lists beside it.
 */
export function siteReportView(j: Judgement, site?: SiteResult): { body: string; data: GlanceViewData } {
  const parts: string[] = [];
  parts.push(`<header><h1>${escapeHtml(l10n.t('Site report'))}</h1><p class="sub">${escapeHtml(plural(j.counts.components, l10n.t('1 plugin or theme, {0} benchmarked', j.counts.benchmarked), l10n.t('{0} plugins and themes, {1} benchmarked', j.counts.components, j.counts.benchmarked)))}</p></header>`);
  if (j.synthetic) parts.push(`<p class="synthetic" role="note">${escapeHtml(syntheticBanner())}</p>`);
  if (site) parts.push(...asItRuns(site));
  const caption = site ? l10n.t('The sum of the parts: each plugin and theme as benchmarked alone, per context') : l10n.t('Site total: the measured extra cost of every plugin and theme, per context');
  parts.push(`<table class="totals"><caption>${escapeHtml(caption)}</caption><tbody>`);
  for (const c of CONTEXT_NAMES) parts.push(`<tr><th scope="row">${escapeHtml(contextLabel(c))}</th><td>${escapeHtml(siteTotalLine(j.total.contexts[c]))}</td></tr>`);
  parts.push('</tbody></table>');
  parts.push(chartBlock());
  return { body: parts.join('\n'), data: { mode: 'site', context: j.config.context, metric: 'ttfb', charts: allCharts(j), labels: labels() } };
}

/** The comparison: the side-by-side table (best of each row marked, not by colour alone), then the same chart. */
export function compareView(columns: CompareColumn[], rows: CompareRow[], context: ContextName): { body: string; data: GlanceViewData } {
  const parts: string[] = [];
  parts.push(`<header><h1>${escapeHtml(l10n.t('Comparison'))}</h1><p class="sub">${escapeHtml(columns.map((c) => c.name).join(' · '))}</p></header>`);
  if (columns.some((c) => c.record?.synthetic)) parts.push(`<p class="synthetic" role="note">${escapeHtml(syntheticBanner())}</p>`);
  const best = escapeHtml(l10n.t('best'));
  parts.push(`<table class="compare"><caption>${escapeHtml(l10n.t('Side by side; ★ marks the best value of each row'))}</caption><thead><tr><th scope="col"></th>`);
  for (const c of columns) {
    const local = c.local ? `<br><span class="local">${escapeHtml(l10n.t('measured locally'))}</span>` : '';
    parts.push(`<th scope="col">${escapeHtml(c.name)}<br><code>${escapeHtml(c.slug)}</code>${local}${c.stale ? ` <span class="stale">${escapeHtml(l10n.t('(stale)'))}</span>` : ''}</th>`);
  }
  parts.push('</tr></thead><tbody>');
  for (const r of rows) {
    parts.push(`<tr><th scope="row">${escapeHtml(r.label)}</th>`);
    r.cells.forEach((cell, i) => {
      const isBest = r.best.includes(i);
      parts.push(isBest ? `<td class="best"><span aria-hidden="true">★ </span>${escapeHtml(cell)}<span class="sr-only"> (${best})</span></td>` : `<td>${escapeHtml(cell)}</td>`);
    });
    parts.push('</tr>');
  }
  parts.push('</tbody></table>');
  if (columns.some((c) => c.local)) parts.push(`<p class="note" role="note">${escapeHtml(l10n.t('"Measured locally": measured on this machine with the API\'s method (Measure Locally). ★ compares its memory and queries with the API\'s figures, not its grade, score or time to first byte, which depend on the machine.'))}</p>`);
  parts.push(chartBlock());
  const charts = {} as Record<ContextName, Record<ChartMetric, ChartData>>;
  for (const c of CONTEXT_NAMES) {
    charts[c] = {} as Record<ChartMetric, ChartData>;
    for (const m of CHART_METRICS) charts[c][m] = compareChart(columns, c, m);
  }
  return { body: parts.join('\n'), data: { mode: 'compare', context, metric: 'ttfb', charts, labels: labels() } };
}
