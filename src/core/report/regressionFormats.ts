// Reports of `wp-bench measure PATH --baseline-ref REF`: a terminal table, JSON ({current, baseline, exceeded}),
// Markdown for a pull-request comment or job summary, SARIF 2.1.0 at the main plugin file, and a small
// self-contained HTML page. Every string from a file or git is escaped for its place.
import { databaseLabel } from '../measure/database/database';
import type { LocalRecord } from '../measure/record/method';
import { METRIC_NAME, MIN_PAIRS, formatMetric, type MetricComparison, type RegressionReport } from '../measure/compare/regression';
import { INSTRUCTIONS_RULE, instructionsDiffText, instructionsNote, instructionsOk, instructionsProperties, instructionsSarifRows, judgedOnText, NOT_JUDGED, passedInstructions } from './regressionInstructions';
import { escapeHtml } from '../present/outcome';
import { sarifLog } from './sarifLog';
import { plainText, textTable } from './plain';
import { escapeMarkdown, markdownCode } from '../present/markdownEscape';
import { regressionSources, sourcePath, subjectDiff } from './regressionSources';
import { savedText } from './findingsFormats';
import { BROWSER_RULES, browserHtmlLines, browserJson, browserMarkdownLines, browserRuleOf, browserSarifProperties, browserTableLines, inconclusiveVerdict } from './regressionBrowser';

export interface RegressionSubject {
  /** what REF was given as, and the commit it named */
  ref: string;
  commit?: string;
  current: LocalRecord;
  baseline: LocalRecord;
  report: RegressionReport;
  /** the main plugin file (or the theme's style.css), relative to the repository root, for SARIF */
  mainFile?: string;
}

const cell = (m: MetricComparison, v: number | null) => (v === null ? 'not measured' : formatMetric(m.metric, v));

function resultText(m: MetricComparison): string {
  if (m.current === null || m.baseline === null) return m.current === null && m.baseline !== null ? 'BROKEN' : '–';
  if (m.judged === false) return m.ceiling !== null && m.current > m.ceiling ? `${NOT_JUDGED}; over its ceiling ${formatMetric(m.metric, m.ceiling)}` : NOT_JUDGED;
  const parts = [m.regression ? 'REGRESSION' : m.inconclusive ? 'INCONCLUSIVE (noise)' : m.cpu?.verdict === 'unchanged' ? 'ok (server CPU time unchanged; wall-clock noise)' : okText(m)];
  if (m.overCeiling) parts.push(`over ceiling ${formatMetric(m.metric, m.ceiling!)}`);
  return parts.join(', ');
}

/**
 * "ok", and why when the difference column reads over the allowance: TTFB is judged request by request (the median
 * of the paired differences), not on the difference of the two medians, which the run's noise can push over.
 */
function okText(m: MetricComparison): string {
  if (m.metric === 'instructions') return instructionsOk(m);
  if (m.paired && m.difference !== null && m.allowed !== null && m.difference > m.allowed) {
    return `ok (within noise: request by request ${formatMetric(m.metric, m.paired.median, true)}, median of ${m.paired.n} paired rounds)`;
  }
  return 'ok';
}

function diffText(m: MetricComparison): string {
  if (m.difference === null) return '–';
  if (m.metric === 'instructions') return instructionsDiffText(m);
  return `${formatMetric(m.metric, m.difference, true)}${m.percent !== null ? ` (${m.percent > 0 ? '+' : ''}${m.percent} %)` : ''}`;
}

export function how(s: RegressionSubject): string {
  const l = s.current.local;
  return `measured locally, interleaved in one run: ${l.runtime} runtime, PHP ${l.php_version}, WordPress ${l.wordpress_version}${l.database ? `, ${databaseLabel(l.database)}` : ''}, ${l.rounds} rounds, ${s.current.benchmarked_at.slice(0, 10)}`;
}

export function verdict(s: RegressionSubject): string {
  const n = s.report.exceeded.length;
  const k = s.report.inconclusive?.length ?? 0;
  const judged = judgedOnText(s.report);
  const said = (text: string) => (judged ? `${text} ${judged}` : text);
  if (n) return said(`FAILED: ${n} budget${n === 1 ? '' : 's'} exceeded.`);
  const withBrowser = inconclusiveVerdict(s.report);
  if (withBrowser) return said(withBrowser);
  if (k) return said(`INCONCLUSIVE: ${k} TTFB difference${k === 1 ? '' : 's'} too close to the threshold for this run's noise, even after a confirmation pass (memory and queries within budget).`);
  return said(`PASSED: no regression over ${s.report.policy.maxRegressionPercent} %${passedInstructions(s.report)} and no ceiling exceeded.`);
}

function refLabel(s: RegressionSubject): string {
  return `${plainText(s.ref, 80)}${s.commit ? ` (${s.commit.slice(0, 12)})` : ''}`;
}

export function regressionTable(s: RegressionSubject): string {
  const out = [`${plainText(s.current.name, 80)} (${s.current.type} ${s.current.slug}): working tree against ${refLabel(s)} — ${how(s)}`];
  const rows = [['CONTEXT', 'METRIC', 'BASELINE', 'CURRENT', 'DIFFERENCE', 'ALLOWED', 'RESULT']];
  for (const m of s.report.rows) rows.push([m.context, METRIC_NAME[m.metric], cell(m, m.baseline), cell(m, m.current), diffText(m), m.allowed === null ? '–' : `+${formatMetric(m.metric, m.allowed)}`, resultText(m)]);
  out.push(textTable(rows));
  out.push(...browserTableLines(s.report, s.current));
  for (const b of s.report.broken) out.push(`Broken: ${b.context} was measured at the baseline, not at the working tree (${plainText(b.reason, 200)}).`);
  for (const e of s.report.exceeded) if (e.rule !== 'broken') out.push(`Exceeded: ${plainText(e.message, 300)}.`);
  for (const m of s.report.inconclusive ?? []) out.push(`Inconclusive: ${inconclusiveText(m)}.`);
  const saved = savedText(s.report);
  if (saved) out.push(`Saved against ${refLabel(s)}, per request: ${saved}.`);
  for (const x of regressionSources(s)) out.push(`Where it came from (${x.context}): ${x.amount} in ${plainText(x.change.function, 120)} (${plainText(x.where, 200)}).`);
  out.push('Figures are what the component adds over the same clean WordPress (deltas of medians).');
  out.push(...instructionsNote(s.report));
  out.push(verdict(s));
  return out.join('\n');
}

function inconclusiveText(m: MetricComparison): string {
  const p = m.paired!;
  if (p.n < MIN_PAIRS) return `${m.context} ${METRIC_NAME[m.metric]}: ${formatMetric(m.metric, m.difference ?? 0, true)} over the baseline, more than the ${formatMetric(m.metric, m.allowed ?? 0)} allowed, on ${p.n} paired rounds: too few for a 95 % bound (${MIN_PAIRS} needed)`;
  return `${m.context} ${METRIC_NAME[m.metric]}: request by request ${formatMetric(m.metric, p.median, true)} (median of ${p.n} paired rounds) is over the ${formatMetric(m.metric, m.allowed ?? 0)} allowed, but its 95 % lower bound ${formatMetric(m.metric, p.lower, true)} is not`;
}

export function regressionJson(s: RegressionSubject): string {
  return JSON.stringify({
    ref: s.ref,
    commit: s.commit ?? null,
    passed: s.report.exceeded.length === 0 && (s.report.inconclusive?.length ?? 0) === 0 && !s.report.browser?.inconclusive.length,
    inconclusive: (s.report.inconclusive ?? []).map((m) => ({ context: m.context, metric: m.metric, paired: m.paired, allowed: m.allowed })),
    maxRegressionPercent: s.report.policy.maxRegressionPercent,
    ...instructionsProperties(s.report),
    current: s.current,
    baseline: s.baseline,
    exceeded: s.report.exceeded,
    comparison: s.report.rows,
    saved: savedText(s.report) ?? null,
    ...browserJson(s.report),
    ...(subjectDiff(s) ? { profile_diff: subjectDiff(s) } : {}),
  });
}

export function regressionMarkdown(s: RegressionSubject): string {
  const failed = s.report.exceeded.length > 0;
  const out = [
    `### WP Bench: ${failed ? '❌ performance regression' : s.report.inconclusive?.length || s.report.browser?.inconclusive.length ? '⚠️ inconclusive' : '✅ no performance regression'} in ${escapeMarkdown(plainText(s.current.name, 80))} ${markdownCode(s.current.slug)}`,
    '',
    `${escapeMarkdown(verdict(s))} Working tree against ${markdownCode(plainText(s.ref, 80))}${s.commit ? ` (${markdownCode(s.commit.slice(0, 12))})` : ''}; ${escapeMarkdown(how(s))}.`,
    '',
    '| Context | Metric | Baseline | Current | Difference | Allowed | Result |',
    '|:--|:--|--:|--:|--:|--:|:--|',
  ];
  for (const m of s.report.rows) {
    const r = resultText(m);
    out.push(
      `| ${m.context} | ${METRIC_NAME[m.metric]} | ${escapeMarkdown(cell(m, m.baseline))} | ${escapeMarkdown(cell(m, m.current))} | ${escapeMarkdown(diffText(m))} | ${m.allowed === null ? '–' : escapeMarkdown(`+${formatMetric(m.metric, m.allowed)}`)} | ${r.startsWith('ok') ? `✅ ${escapeMarkdown(r)}` : m.judged === false ? `➖ ${escapeMarkdown(r)}` : m.inconclusive && !m.regression && !m.overCeiling ? `⚠️ ${escapeMarkdown(r)}` : `❌ ${escapeMarkdown(r)}`} |`,
    );
  }
  out.push(...browserMarkdownLines(s.report, s.current));
  const saved = savedText(s.report);
  if (saved) out.push('', `**Saved** against ${markdownCode(plainText(s.ref, 80))}, per request: ${escapeMarkdown(saved)}`);
  if (s.report.exceeded.length) {
    out.push('', '**Exceeded**', '');
    for (const e of s.report.exceeded) out.push(`- ${escapeMarkdown(plainText(e.message, 300))}`);
  }
  const note = instructionsNote(s.report);
  if (note.length) out.push('', ...note.map(escapeMarkdown));
  if (s.report.inconclusive?.length) {
    out.push('', '**Inconclusive**', '');
    for (const m of s.report.inconclusive) out.push(`- ${escapeMarkdown(inconclusiveText(m))}`);
  }
  const sources = regressionSources(s);
  if (sources.length) {
    out.push('', '**Where it came from** (profiled: inclusive time per request, largest growth first)', '');
    for (const x of sources) out.push(`- ${x.context}: ${escapeMarkdown(x.amount)} in ${markdownCode(plainText(x.change.function, 120))} (${escapeMarkdown(plainText(x.where, 200))})`);
  }
  out.push('', `<sub>${escapeMarkdown('What the component adds over the same clean WordPress (deltas of medians), both copies measured in one interleaved run on this runner; not numbers of the benchmark API.')}</sub>`);
  return out.join('\n');
}

export function regressionSarif(s: RegressionSubject, toolVersion?: string): string {
  const rules = [
    { id: 'performance-regression', name: 'PerformanceRegression', text: 'The component adds more TTFB, memory or queries than at the baseline ref, beyond the allowed regression (--fail-on-regression, or measure.maxRegressionPercent in .wp-bench.json).' },
    { id: 'ceiling-exceeded', name: 'CeilingExceeded', text: 'The component adds more than a ceiling of measure.ceilings in .wp-bench.json.' },
    { id: 'context-broken', name: 'ContextBroken', text: 'A context measured at the baseline ref can no longer be measured at the working tree (a fatal error, a redirect away, a 5xx).' },
    { id: 'regression-source', name: 'RegressionSource', text: "Where a regression came from: a function of the component whose inclusive time per request grew (measure --baseline-ref --profile)." },
    // Only in a log with instructions rows (a run without --instructions writes the rules it always wrote).
    ...(s.report.judgedOnInstructions?.length ? [INSTRUCTIONS_RULE] : []),
    // Only in a log of a run with browser figures.
    ...(s.report.browser ? BROWSER_RULES : []),
  ];
  const ruleOf = { regression: 0, ceiling: 1, broken: 2 } as const;
  const indexOf = (e: RegressionReport['exceeded'][number]): number => (e.figure ? rules.indexOf(browserRuleOf(e)) : e.metric === 'instructions' ? rules.indexOf(INSTRUCTIONS_RULE) : ruleOf[e.rule]);
  const uri = (s.mainFile ?? '').replace(/\\/g, '/').replace(/^\/+/, '');
  const results = s.report.exceeded.map((e) => ({
    ruleId: rules[indexOf(e)].id,
    ruleIndex: indexOf(e),
    level: 'error',
    message: { text: plainText(`${s.current.name}: ${e.message}`, 1000).replace(/[\\[\]]/g, (c) => `\\${c}`) },
    locations: uri ? [{ physicalLocation: { artifactLocation: { uri: uri.split('/').map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' }, region: { startLine: 1, startColumn: 1 } } }] : [],
    partialFingerprints: { 'wpBench/v1': `${rules[indexOf(e)].id}/${s.current.type}/${s.current.slug}/${e.context}/${e.metric ?? e.figure ?? ''}` },
  }));
  // Only where TTFB (or instructions) was judged a regression: a passing run's growth is no finding.
  for (const x of regressionSources(s).filter((y) => s.report.exceeded.some((e) => (e.metric === 'ttfbMs' || e.metric === 'instructions') && e.context === y.context))) {
    const at = sourcePath(s.mainFile, x.change.file);
    results.push({
      ruleId: rules[3].id,
      ruleIndex: 3,
      level: 'warning',
      message: { text: plainText(`${s.current.name}, ${x.context}: ${x.amount} in ${x.change.function} (${x.where})`, 1000).replace(/[\\[\]]/g, (c) => `\\${c}`) },
      locations: at ? [{ physicalLocation: { artifactLocation: { uri: at.split('/').map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' }, region: { startLine: Math.max(1, x.change.line), startColumn: 1 } } }] : [],
      partialFingerprints: { 'wpBench/v1': `${rules[3].id}/${s.current.type}/${s.current.slug}/${x.context}/${x.change.file}/${x.change.function}` },
    });
  }
  const rulesJson = rules.map((r) => ({ id: r.id, name: r.name, shortDescription: { text: r.text }, fullDescription: { text: r.text }, defaultConfiguration: { level: 'error' }, help: { text: r.text } }));
  const properties = { passed: s.report.exceeded.length === 0, ref: s.ref, commit: s.commit ?? null, maxRegressionPercent: s.report.policy.maxRegressionPercent, ...instructionsProperties(s.report), ...instructionsSarifRows(s.report), ...browserSarifProperties(s.report) };
  return JSON.stringify(sarifLog(rulesJson, results, properties, { toolVersion }), null, 2);
}

export function regressionHtml(s: RegressionSubject): string {
  const failed = s.report.exceeded.length > 0;
  const e = (t: string) => escapeHtml(plainText(t, 300));
  const out = [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>WP Bench regression check — ${e(s.current.name)}</title>`,
    '<style>body{font:14px/1.45 -apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1f2328;max-width:180mm;margin:0 auto;padding:24px}table{border-collapse:collapse;width:100%}th,td{padding:4px 6px;border-bottom:1px solid #d1d9e0;text-align:right}th:first-child,td:first-child,td:nth-child(2),th:nth-child(2),td:last-child,th:last-child{text-align:left}.bad{color:#c62828;font-weight:600}.ok{color:#1a7f37}.note{color:#59636e}</style>',
    '</head>',
    '<body>',
    `<h1>${e(s.current.name)} <code>${escapeHtml(s.current.slug)}</code></h1>`,
    `<p class="note">Working tree against <code>${e(s.ref)}</code>${s.commit ? ` (<code>${escapeHtml(s.commit.slice(0, 12))}</code>)` : ''} — ${e(how(s))}</p>`,
    `<p class="${failed ? 'bad' : 'ok'}">${e(verdict(s))}</p>`,
    '<table><thead><tr><th scope="col">Context</th><th scope="col">Metric</th><th scope="col">Baseline</th><th scope="col">Current</th><th scope="col">Difference</th><th scope="col">Allowed</th><th scope="col">Result</th></tr></thead><tbody>',
  ];
  for (const m of s.report.rows) {
    const r = resultText(m);
    out.push(`<tr><td>${m.context}</td><td>${METRIC_NAME[m.metric]}</td><td>${e(cell(m, m.baseline))}</td><td>${e(cell(m, m.current))}</td><td>${e(diffText(m))}</td><td>${m.allowed === null ? '–' : e(`+${formatMetric(m.metric, m.allowed)}`)}</td><td class="${r.startsWith('ok') ? 'ok' : m.judged === false ? 'note' : 'bad'}">${e(r)}</td></tr>`);
  }
  out.push('</tbody></table>', ...browserHtmlLines(s.report, s.current));
  for (const line of instructionsNote(s.report)) out.push(`<p class="note">${escapeHtml(plainText(line, 600))}</p>`);
  const saved = savedText(s.report);
  if (saved) out.push(`<p class="ok">Saved against <code>${e(s.ref)}</code>, per request: ${e(saved)}</p>`);
  if (failed) out.push('<h2>Exceeded</h2>', '<ul>', ...s.report.exceeded.map((x) => `<li>${e(x.message)}</li>`), '</ul>');
  const sources = regressionSources(s);
  if (sources.length) out.push('<h2>Where it came from</h2>', '<ul>', ...sources.map((x) => `<li>${x.context}: ${e(x.amount)} in <code>${e(x.change.function)}</code> (${e(x.where)})</li>`), '</ul>');
  out.push('<p class="note">What the component adds over the same clean WordPress (deltas of medians), both copies measured in one interleaved run; not numbers of the benchmark API.</p>', '</body>', '</html>', '');
  return out.join('\n');
}
