// Renderers of a check: a terminal table, JSON (stable, documented in the README), Markdown for pull-request
// comments and SARIF 2.1.0 for code-scanning UIs. Every string from the API or a scanned file is escaped here.
import { countNoun, formatAge, formatContext, formatCount, formatMemoryKb, formatMs, isoTime, signedCount, signedKb, signedMs, signedQueries } from '../present/format';
import { CONTEXT_NAMES, type ContextName } from '../model';
import { SYNTHETIC_NOTE, type ContextTotal } from '../present/outcome';
import type { ComponentDiff } from './diff';
import { escapeMarkdown, markdownCode, markdownLink } from '../present/markdownEscape';
import { pad, plainText, problemsSummary, textTable } from './plain';
import { budgetUnit, CONTEXT_LABEL, METRIC_LABEL, RULES, totalSources, type ComponentVerdict, type Finding, type Judgement, type ReportProblem } from './judge';

export const REPORT_FORMATS = ['table', 'json', 'markdown', 'sarif', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Version of the JSON shape; bumped only on an incompatible change. */
export const JSON_REPORT_VERSION = 1;

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

export function budgetLines(j: Judgement): string[] {
  return j.budgets.map(
    (b) =>
      `${b.exceeded ? 'over' : 'within'} budget: ${CONTEXT_LABEL[b.context]} ${METRIC_LABEL[b.metric]} ${budgetUnit(b.metric, b.actual)} of ${budgetUnit(b.metric, b.limit)}${b.notMeasured || b.unknown ? ` (${[b.notMeasured ? `${b.notMeasured} not measured` : null, b.unknown ? `${b.unknown} unknown` : null].filter(Boolean).join(', ')}: not counted)` : ''}`,
  );
}

// --- table -------------------------------------------------------------------------------------------------

export function toTable(j: Judgement, opts: RenderOptions = {}): string {
  const now = opts.now ?? Date.now();
  const ctx = j.config.context;
  const out: string[] = [];
  if (opts.diff) out.push(...diffText(opts.diff), '');
  if (j.components.length === 0) {
    out.push('No plugins or themes to check.');
  } else {
    const rows = [['GRADE', 'KIND', 'SLUG', 'VERSION', `TTFB (${ctx})`, 'MEMORY', 'QUERIES', 'STATUS']];
    for (const v of j.components) {
      const c = contextCells(v, ctx);
      const stale = v.stale && v.fetchedAt !== null ? ` (stale, ${formatAge(now - v.fetchedAt)})` : '';
      rows.push([plainText(v.grade ?? '-', 8), v.kind, v.slug, plainText(v.version ?? '-', 30), c.ttfb, c.memory, c.queries, statusText(v) + stale]);
    }
    const t = totalCells(j.total.contexts[ctx]);
    rows.push(['', '', 'SITE TOTAL', '', t.ttfb, t.memory, t.queries, unmeasuredNote(j, ctx) ?? '']);
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

// --- JSON --------------------------------------------------------------------------------------------------

function contextsJson(v: ComponentVerdict) {
  return v.contexts ? Object.fromEntries(CONTEXT_NAMES.map((c) => [c, v.contexts![c] ? { ...v.contexts![c]! } : null])) : null;
}

function componentJson(v: ComponentVerdict, findings: Finding[]) {
  return {
    kind: v.kind,
    slug: v.slug,
    name: v.name,
    version: v.version,
    state: v.state,
    grade: v.grade,
    score: v.score,
    failed: v.failed,
    stale: v.stale,
    fetchedAt: isoTime(v.fetchedAt),
    synthetic: v.synthetic,
    unknownReason: v.unknownReason ?? null,
    source: v.source,
    local: v.local ? { label: v.localLabel, runtime: v.local.local.runtime, php_version: v.local.local.php_version, wordpress_version: v.local.local.wordpress_version, measured_at: v.local.benchmarked_at, rounds: v.local.local.rounds, estimated_grade: v.local.speed_score?.grade ?? null } : null,
    contexts: contextsJson(v),
    profileUrl: v.profileUrl,
    locations: v.locations.map((l) => ({ file: l.file, line: l.line, column: l.column, source: l.source })),
    findings: findings.filter((f) => f.kind === v.kind && f.slug === v.slug).map((f) => ({ ruleId: f.ruleId, level: f.level, message: f.message })),
  };
}

function totalJson(t: Judgement['total']) {
  return {
    ...Object.fromEntries(CONTEXT_NAMES.map((c) => [c, { ...t.contexts[c] }])),
    components: t.components,
    benchmarked: t.benchmarked,
    local: t.local ?? 0,
    unknown: t.unknown,
    sources: totalSources(t),
  };
}

/** The JSON report (shape documented in the README; `version` changes only on an incompatible change). */
export function toJson(j: Judgement, opts: RenderOptions = {}): string {
  const d = opts.diff;
  const body: Record<string, unknown> = {
    version: JSON_REPORT_VERSION,
    passed: !j.failed,
    failOn: j.config.failOn,
    context: j.config.context,
    counts: { ...j.counts },
    siteTotal: totalJson(j.total),
    budgets: j.budgets.map((b) => ({ ...b })),
    components: j.components.map((v) => componentJson(v, j.findings)),
    findings: j.findings.map((f) => ({ ruleId: f.ruleId, level: f.level, message: f.message, kind: f.kind ?? null, slug: f.slug ?? null, context: f.context ?? null, metric: f.metric ?? null, locations: f.locations.map((l) => ({ file: l.file, line: l.line, column: l.column })) })),
    problems: j.problems.map((p) => ({ ...p })),
  };
  if (d) {
    const lite = (v: ComponentVerdict) => ({ kind: v.kind, slug: v.slug, name: v.name, version: v.version, state: v.state, grade: v.grade, contexts: contextsJson(v) });
    body.diff = {
      ref: d.ref,
      headline: d.headline,
      added: d.added.map(lite),
      removed: d.removed.map(lite),
      changed: d.changed,
      siteTotal: { base: totalJson(d.base), head: totalJson(d.head), delta: d.delta },
    };
  }
  return JSON.stringify(body, null, 2);
}

// --- Markdown ----------------------------------------------------------------------------------------------

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
    out.push(`| Grade | Plugin or theme | Kind | Version | TTFB (${ctx}) | Memory | Queries | Status |`);
    out.push('|:--|:--|:--|:--|--:|--:|--:|:--|');
    for (const v of j.components) {
      const c = contextCells(v, ctx);
      const status = `${v.failed ? '**fail**' : v.source === 'local' ? `🖥 ${mdCell(statusText(v))}` : mdCell(statusText(v))}${v.stale ? ' (stale)' : ''}`;
      out.push(`| ${mdGrade(v)} | ${mdComponent(v)} | ${v.kind} | ${mdCell(plainText(v.version ?? '–', 30))} | ${mdCell(c.ttfb)} | ${mdCell(c.memory)} | ${mdCell(c.queries)} | ${status} |`);
    }
    const t = totalCells(j.total.contexts[ctx]);
    const note = unmeasuredNote(j, ctx);
    out.push(`| | **Site total** | | | **${mdCell(t.ttfb)}** | **${mdCell(t.memory)}** | **${mdCell(t.queries)}** | ${note ? mdCell(note) : ''} |`);
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
  out.push(...problemsMarkdown(j));
  if (j.budgets.length) {
    out.push('', '| Budget | Site total | Limit | |', '|:--|--:|--:|:--|');
    for (const b of j.budgets) {
      out.push(`| ${CONTEXT_LABEL[b.context]} ${METRIC_LABEL[b.metric]} | ${mdCell(budgetUnit(b.metric, b.actual))} | ${mdCell(budgetUnit(b.metric, b.limit))} | ${b.exceeded ? '❌ over' : '✅ within'} |`);
    }
  }
  const notes: string[] = [];
  if (j.total.unknown) notes.push('Components without a benchmark and unmeasured contexts are listed, never counted as zero.');
  if (j.counts.ignored) notes.push(`${j.counts.ignored} ignored by configuration.`);
  if (j.synthetic) notes.push(`Contains ${SYNTHETIC_NOTE}.`);
  if (notes.length) out.push('', `<sub>${notes.map(mdCell).join(' ')}</sub>`);
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

// --- SARIF 2.1.0 -------------------------------------------------------------------------------------------

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
/** The tool's public page (the npm package the README's `npx wp-bench` runs). */
export const INFORMATION_URI = 'https://www.npmjs.com/package/wp-bench';

export interface SarifOptions {
  /** Path of the checked folder inside the repository ('' at the root), prepended to every file. */
  uriPrefix?: string;
  toolVersion?: string;
  informationUri?: string;
}

function artifactUri(prefix: string, file: string): string {
  const full = [prefix, file].filter((p) => p !== '').join('/').replace(/\\/g, '/').replace(/^\.\//, '');
  return full.split('/').map(encodeURIComponent).join('/');
}

/** SARIF results of the scan's problems, at their file and line (a problem without a file has no location). */
function problemResults(j: Judgement, ruleIndex: number | undefined, location: (file: string, line: number, column: number) => unknown): Record<string, unknown>[] {
  return j.problems.map((p) => ({
    ruleId: 'scan-problem',
    ruleIndex,
    level: p.severity === 'info' ? 'note' : 'warning',
    message: { text: sarifText(plainText(p.message, 1000)) },
    locations: p.file ? [location(p.file, p.line, p.column)] : [],
    partialFingerprints: { 'wpBench/v1': `scan-problem/${p.file}/${plainText(p.message, 200)}` },
  }));
}

/** SARIF message text: `[text](url)` is an embedded link there, so literal brackets (and backslashes) are escaped (§3.11.6). */
function sarifText(text: string): string {
  return text.replace(/[\\[\]]/g, (c) => `\\${c}`);
}

/** A SARIF 2.1.0 log of one run of WP Bench, paths relative to the repository root (%SRCROOT%). */
export function sarifLog(rules: unknown[], results: unknown[], properties: Record<string, unknown>, opts: Pick<SarifOptions, 'toolVersion' | 'informationUri'> = {}) {
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'WP Bench',
            informationUri: opts.informationUri ?? INFORMATION_URI,
            ...(opts.toolVersion ? { version: opts.toolVersion, semanticVersion: opts.toolVersion } : {}),
            rules,
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { description: { text: 'The repository root.' } } },
        results,
        properties,
      },
    ],
  };
}

export function toSarif(j: Judgement, opts: SarifOptions = {}): string {
  const prefix = (opts.uriPrefix ?? '').replace(/\\/g, '/').replace(/^\/+|\/+$/g, '');
  const rules = RULES.map((r) => ({
    id: r.id,
    name: r.name,
    shortDescription: { text: r.short },
    fullDescription: { text: r.full },
    defaultConfiguration: { level: r.level },
    help: { text: r.full },
  }));
  const ruleIndex = new Map(RULES.map((r, i) => [r.id, i]));
  const location = (l: Finding['locations'][number]) => ({
    physicalLocation: {
      artifactLocation: { uri: artifactUri(prefix, l.file), uriBaseId: '%SRCROOT%' },
      region: { startLine: Math.max(1, l.line), startColumn: Math.max(1, l.column), ...(l.length ? { endColumn: Math.max(1, l.column) + l.length } : {}) },
    },
  });
  const results = j.findings.map((f) => {
    const [primary, ...others] = f.locations;
    const result: Record<string, unknown> = {
      ruleId: f.ruleId,
      ruleIndex: ruleIndex.get(f.ruleId),
      level: f.level,
      message: { text: sarifText(plainText(f.message, 1000)) },
      locations: primary ? [location(primary)] : [],
      partialFingerprints: { 'wpBench/v1': f.slug ? `${f.ruleId}/${f.kind}/${f.slug}` : `${f.ruleId}/${f.context}/${f.metric}` },
    };
    if (others.length) result.relatedLocations = others.map((l, i) => ({ id: i + 1, ...location(l), message: { text: 'Also declared here' } }));
    return result;
  });
  results.push(...problemResults(j, ruleIndex.get('scan-problem'), (file, line, column) => location({ file, line, column })));
  const measuredLocally = j.components.filter((v) => v.source === 'local').map((v) => ({ kind: v.kind, slug: v.slug, label: v.localLabel }));
  const sarif = sarifLog(rules, results, { passed: !j.failed, context: j.config.context, failOn: j.config.failOn, siteTotal: totalSources(j.total), measuredLocally }, opts);
  return JSON.stringify(sarif, null, 2);
}
