// Reports of `wp-bench measure PATH --findings`: the lines the terminal table ends with, Markdown (a pull-request
// comment or job summary), SARIF 2.1.0 with each finding at its line, and a self-contained HTML page. Also the
// "saved" line of `--baseline-ref` (what a fix saved, measured). Every string from a file is escaped for its place; a
// finding's texts come from the measured code and are written as measuredLine writes them (a line break as `\n`).
import type { LocalRecord } from '../measure/record/method';
import { FINDING_KINDS, type Finding, type FindingKind, type FindingSaves } from '../measure/findings/types';
import { formatMetric, type RegressionReport } from '../measure/compare/regression';
import { escapeHtml } from '../present/outcome';
import { escapeMarkdown, markdownCode } from '../present/markdownEscape';
import { sarifLog } from './sarifLog';
import { htmlHead } from './htmlPage';
import { plainText } from './plain';
import { measuredLine } from '../measure/component/measuredText';

export const FINDING_RULES: Record<FindingKind, { name: string; text: string }> = {
  'autoloaded-option': { name: 'AutoloadedOption', text: 'An option the component writes with autoload on that no front-end request reads (or over 150 KB): every request loads it.' },
  'repeated-query': { name: 'RepeatedQuery', text: 'The same query shape runs 5 or more times in one request from one line: a query in a loop.' },
  'remote-request': { name: 'RemoteRequest', text: "An HTTP request through WordPress's API on every request: a network round trip each time on a live site." },
  'render-blocking-script': { name: 'RenderBlockingScript', text: "A script the component prints in the page's head without defer or async." },
  'large-asset': { name: 'LargeAsset', text: "A script or stylesheet over 300,000 bytes (Plugin Check's limit)." },
  'admin-asset-everywhere': { name: 'AdminAssetEverywhere', text: 'A script or stylesheet enqueued on every admin screen, not only on the component\'s own.' },
  'main-thread': { name: 'MainThread', text: "A script of the component's that keeps the browser's main thread busy 50 ms or more per homepage load (measured in Chromium, --browser)." },
  'layout-shift': { name: 'LayoutShift', text: 'A layout shift on the homepage that the component causes (measured in Chromium, --browser), at the line that names the element or enqueues the script that inserted it.' },
};

/** "homepage −200 KB, −3 queries" of what fixing it saves per request. */
export function savesText(f: Finding): string {
  const parts: string[] = [];
  for (const [ctx, s] of Object.entries(f.saves) as [string, FindingSaves][]) {
    const bits = [
      s.memory_kb ? `−${s.memory_kb.toLocaleString('en-US')} KB` : '',
      s.queries ? `−${s.queries} ${s.queries === 1 ? 'query' : 'queries'}` : '',
      s.http_requests ? `−${s.http_requests} HTTP ${s.http_requests === 1 ? 'request' : 'requests'}` : '',
      s.bytes ? `−${Math.round(s.bytes / 1024).toLocaleString('en-US')} KB download` : '',
    ].filter(Boolean);
    if (bits.length) parts.push(`${ctx} ${bits.join(', ')}`);
  }
  return parts.join('; ');
}

/**
 * What the browser measured at a finding's line (--browser): "Measured in Chromium: 252 ms main thread, 230.4 KB on
 * the wire per load." ('' without it, and for main-thread and layout-shift findings, whose message says it).
 */
export function browserEvidenceText(f: Finding): string {
  // The browser's own kinds say their measurements in their message.
  if (f.kind === 'main-thread' || f.kind === 'layout-shift') return '';
  const ev = f.evidence as { main_thread_ms?: unknown; transfer_kb?: unknown };
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const ms = num(ev.main_thread_ms);
  const kb = num(ev.transfer_kb);
  const bits = [ms !== undefined ? `${Math.round(ms)} ms main thread` : '', kb !== undefined ? `${kb.toFixed(1)} KB on the wire` : ''].filter(Boolean);
  return bits.length ? `Measured in Chromium: ${bits.join(', ')} per load.` : '';
}

/** The SARIF result's properties of a finding measured in the browser (numbers, and the shifted node). */
function browserProperties(f: Finding): Record<string, unknown> {
  const ev = f.evidence as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of ['main_thread_ms', 'transfer_kb', 'cls', 'loads']) if (typeof ev[k] === 'number') out[k] = ev[k];
  if (f.kind === 'layout-shift' && typeof ev.node === 'string') out.node = ev.node;
  return out;
}

/** The table's lines: one per finding, its fix, and how many there are of each severity. */
export function findingsLines(findings: readonly Finding[] | undefined, rootLabel = '', asked = false): string[] {
  if (!findings) return asked ? ['Findings: not looked for (they need the native php runtime; see the warning above).'] : [];
  if (!findings.length) return ['Findings: none (autoloaded options, repeated queries, HTTP requests, scripts and styles checked).'];
  const w = findings.filter((f) => f.severity === 'warning').length;
  const out = [`Findings: ${findings.length} (${w} warning${w === 1 ? '' : 's'}, ${findings.length - w} information)`];
  for (const f of findings) {
    const saves = savesText(f);
    out.push(`  ${f.severity === 'warning' ? 'warning' : 'info   '} ${rootLabel}${measuredLine(f.file, 200)}:${f.line} ${f.kind} [${f.contexts.join(', ')}]`);
    const measured = browserEvidenceText(f);
    out.push(`          ${measuredLine(f.message, 400)}${saves ? ` Saves per request: ${saves}.` : ''}${measured ? ` ${measuredLine(measured, 300)}` : ''}`);
    out.push(`          Fix: ${measuredLine(f.fix.description, 300)}${f.fix.edits?.length ? ' (--fix applies it)' : ''}`);
  }
  return out;
}

export function findingsMarkdown(r: LocalRecord): string {
  const fs = r.findings ?? [];
  const out = [`### WP Bench findings in ${escapeMarkdown(plainText(r.name, 80))} ${markdownCode(r.slug)}`, ''];
  if (!fs.length) {
    out.push('No findings: no unread autoloaded option, repeated query, HTTP request on page loads, render-blocking script, large asset or admin asset on every screen.');
    return out.join('\n');
  }
  out.push('| Severity | Where | Kind | What | Saves per request | Fix |', '|:--|:--|:--|:--|:--|:--|');
  for (const f of fs) {
    out.push(
      `| ${f.severity === 'warning' ? '⚠️ warning' : 'ℹ️ information'} | ${markdownCode(`${measuredLine(f.file, 200)}:${f.line}`)} | ${f.kind} | ${escapeMarkdown(measuredLine(`${f.message}${browserEvidenceText(f) ? ` ${browserEvidenceText(f)}` : ''}`, 700))} | ${escapeMarkdown(savesText(f) || '–')} | ${escapeMarkdown(measuredLine(f.fix.description, 300))}${f.fix.edits?.length ? ' (`--fix`)' : ''} |`,
    );
  }
  out.push('', `<sub>${escapeMarkdown('Found on a throwaway WordPress site by WP Bench (measure --findings): each at the innermost line of the component\'s own code.')}</sub>`);
  return out.join('\n');
}

/** SARIF 2.1.0: one result per finding at its line; `prefix` is the component's folder relative to the repository root. */
export function findingsSarif(r: LocalRecord, prefix = '', toolVersion?: string): string {
  const rules = FINDING_KINDS.map((k) => ({ id: k, name: FINDING_RULES[k].name, shortDescription: { text: FINDING_RULES[k].text }, fullDescription: { text: FINDING_RULES[k].text }, defaultConfiguration: { level: 'warning' }, help: { text: FINDING_RULES[k].text } }));
  const esc = (t: string) => t.replace(/[\\[\]]/g, (c) => `\\${c}`);
  const results = (r.findings ?? []).map((f) => {
    const uri = [prefix.replace(/\\/g, '/').replace(/^\/+|\/+$/g, ''), f.file].filter(Boolean).join('/');
    const saves = savesText(f);
    return {
      ruleId: f.kind,
      ruleIndex: FINDING_KINDS.indexOf(f.kind),
      level: f.severity === 'warning' ? 'warning' : 'note',
      message: { text: esc(measuredLine(`${f.message}${saves ? ` Saves per request: ${saves}.` : ''}${browserEvidenceText(f) ? ` ${browserEvidenceText(f)}` : ''} Fix: ${f.fix.description}`, 1000)) },
      ...(Object.keys(browserProperties(f)).length ? { properties: browserProperties(f) } : {}),
      locations: [{ physicalLocation: { artifactLocation: { uri: uri.split('/').map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' }, region: { startLine: Math.max(1, f.line), startColumn: 1 } } }],
      partialFingerprints: { 'wpBench/v1': `${f.kind}/${r.type}/${r.slug}/${f.file}/${JSON.stringify((f.evidence as { option?: string; handle?: string; query?: string; host?: string }).option ?? (f.evidence as { handle?: string }).handle ?? (f.evidence as { query?: string }).query ?? (f.evidence as { host?: string }).host ?? f.line)}` },
      ...(f.fix.edits?.length
        ? { fixes: [{ description: { text: f.fix.description }, artifactChanges: [{ artifactLocation: { uri: uri.split('/').map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' }, replacements: f.fix.edits.map((e) => ({ deletedRegion: { startLine: e.line, endLine: e.end_line }, insertedContent: { text: e.new + '\n' } })) }] }] }
        : {}),
    };
  });
  return JSON.stringify(sarifLog(rules, results, { component: r.slug, findings: results.length }, { toolVersion }), null, 2);
}

export function findingsHtml(r: LocalRecord): string {
  const e = (t: string, max = 400) => escapeHtml(plainText(t, max));
  const m = (t: string, max = 400) => escapeHtml(measuredLine(t, max));
  const fs = r.findings ?? [];
  // The report pages' own head (the same policy and styles as `check --format html`).
  const out = [
    ...htmlHead(`WP Bench findings — ${plainText(r.name, 80)}`),
    `<h1>${e(r.name, 80)} <code>${escapeHtml(r.slug)}</code></h1>`,
    `<p class="note">Findings of WP Bench (measure --findings) on a throwaway WordPress ${e(r.local.wordpress_version, 20)}, PHP ${e(r.local.php_version, 20)}: each at the innermost line of the component's own code.</p>`,
  ];
  if (!fs.length) out.push('<p>No findings.</p>');
  else {
    out.push('<table><thead><tr><th scope="col">Severity</th><th scope="col">Where</th><th scope="col">Kind</th><th scope="col">What</th><th scope="col">Saves per request</th><th scope="col">Fix</th></tr></thead><tbody>');
    for (const f of fs) out.push(`<tr><td class="${f.severity === 'warning' ? 'over' : 'note'}">${f.severity}</td><td><code>${m(`${f.file}:${f.line}`, 200)}</code></td><td>${f.kind}</td><td>${m(f.message)}${browserEvidenceText(f) ? ` ${m(browserEvidenceText(f), 300)}` : ''}</td><td>${e(savesText(f) || '–')}</td><td>${m(f.fix.description, 300)}${f.fix.edits?.length ? ' (<code>--fix</code>)' : ''}</td></tr>`);
    out.push('</tbody></table>');
  }
  out.push('</body>', '</html>', '');
  return out.join('\n');
}

/**
 * `--baseline-ref` after a fix: what the working tree saves against REF, per context, where the saving is outside the
 * run's noise ("homepage −200 KB, −0.4 ms"); undefined when nothing was saved.
 */
export function savedText(report: RegressionReport): string | undefined {
  const by = new Map<string, string[]>();
  // Memory and queries first, then time: "homepage −204 KB, −1.3 ms".
  const order: Record<string, number> = { memoryMb: 0, queries: 1, ttfbMs: 2 };
  for (const m of [...report.rows].sort((a, b) => (order[a.metric] ?? 3) - (order[b.metric] ?? 3))) {
    if (m.difference === null || m.difference >= 0) continue;
    // Memory and queries are exact (their spread is typically 0): any whole KB or query beyond the spread is said.
    // Time: at least 1 ms beyond its spread. Instructions: past 0.1 % of the request (the two copies' folders are
    // named apart: about 10,000 instructions of an identical copy's 30–60 million per request are its path's).
    const floor = m.metric === 'ttfbMs' ? 1 : m.metric === 'memoryMb' ? 0.5 / 1024 : m.metric === 'instructions' ? 0.001 * Math.abs(m.baseline ?? 0) : 0.5;
    if (-m.difference <= Math.max(m.noise ?? 0, floor)) continue;
    by.set(m.context, [...(by.get(m.context) ?? []), m.metric === 'memoryMb' ? `−${Math.round(-m.difference * 1024).toLocaleString('en-US')} KB` : formatMetric(m.metric, m.difference, true).replace(/^-/, '−')]);
  }
  if (!by.size) return undefined;
  const ctxOrder = ['activation', 'homepage', 'admin'];
  return [...by].sort(([a], [b]) => ctxOrder.indexOf(a) - ctxOrder.indexOf(b)).map(([c, parts]) => `${c} ${parts.join(', ')}`).join('; ');
}
