// What people read about a local measurement (WP Bench: Measure Locally), on every surface an API answer has: hover
// (both side by side when the API has numbers too), tree, inline text, diagnostics and the site total. Always marked
// as measured on this machine, in words a screen reader says ("measured locally, PHP 8.2, WordPress 6.1.9,
// 2026-11-25"), and never mixed silently with the API's numbers.
import { shortDatabase } from '../measure/database/database';
import { formatContext, formatCount, formatMemoryKb, formatMs, isWorseThan, plural } from './format';
import { hasInstructions, instructionsCell, varyingNotice } from './instructions';
import { l10n } from '../l10n';
import type { LookupOutcome } from '../lookup/lookupService';
import type { LocalRecord } from '../measure/record/method';
import { CONTEXT_NAMES, type BenchmarkRecord, type ComponentKind, type ContextMeasurement, type ContextName } from '../model';
import { contextLabel, contextLine, escapeMarkdown, siteTotal, type SiteTotal } from './outcome';
import type { LocalResult } from '../measure/record/method';
import { visitorHoverLines } from './visitor';

export const MEASURE_COMMAND = 'wpBench.measureLocally';

/** The record in the API's normalised shape (grade = the estimated one), for the shared formatters and totals. */
export function localAsBenchmark(r: LocalRecord): BenchmarkRecord {
  const ctx = (c: ContextName): ContextMeasurement | null => {
    const m = r.contexts[c];
    return m ? { ttfbDeltaMs: m.ttfb_delta_ms, memoryDeltaKb: m.memory_delta_kb, queriesDelta: m.queries_delta } : null;
  };
  return {
    slug: r.slug,
    kind: r.type,
    name: r.name,
    benchmarked: true,
    benchmarkedAt: r.benchmarked_at,
    grade: r.speed_score?.grade ?? null,
    score: r.speed_score?.numeric ?? null,
    contexts: { activation: ctx('activation'), homepage: ctx('homepage'), admin: ctx('admin') },
    activeInstalls: null,
    rating: null,
    profileUrl: null,
  };
}

const phpMinor = (v: string) => /^\d+\.\d+/.exec(v)?.[0] ?? v;
const day = (at: string) => at.slice(0, 10);

/** "measured locally, PHP 8.2, WordPress 6.1.9, 2026-11-25" (what a screen reader says, and the hover's facts). */
export function localWords(r: LocalRecord): string {
  return l10n.t('measured locally, PHP {0}, WordPress {1}, {2}', phpMinor(r.local.php_version), r.local.wordpress_version, day(r.benchmarked_at));
}

/** "≈B local" (the estimated grade, marked), or "local" when the activation context has no figure. */
export function localGradeText(r: LocalRecord): string {
  // An add-on measured without its parent that did nothing there: what it needs, not a grade.
  const needs = r.local.needs;
  if (needs?.did_nothing) return l10n.t('local: did nothing measurable, needs {0}', needs.plugins.length ? needs.plugins.join(', ') : l10n.t('what its notice says'));
  return r.speed_score ? l10n.t('≈{0} local', r.speed_score.grade) : l10n.t('local, no grade');
}

function localGradeSpoken(r: LocalRecord): string {
  return r.speed_score ? l10n.t('estimated grade {0}', r.speed_score.grade) : l10n.t('no grade');
}

/** The API has a benchmark with numbers for it. */
export function apiBenchmarked(outcome: LookupOutcome | undefined): BenchmarkRecord | undefined {
  return outcome?.result?.state === 'benchmarked' ? outcome.result.record : undefined;
}

/** Where `measure` should look for a detected component: its plugin's main file or its theme's folder, if in the workspace. */
export function measurableSource(entry: { kind: ComponentKind; locations: { file: string; source: string }[] }): string | undefined {
  const at = entry.locations.find((l) => l.source === 'plugin-header' || l.source === 'mu-plugin' || l.source === 'theme-header');
  if (!at) return undefined;
  return at.source === 'theme-header' ? at.file.replace(/[\\/][^\\/]*$/, '') : at.file;
}

/** A command link that runs Measure Locally for one component; only kind and a validated slug travel in it. */
export function measureLink(kind: ComponentKind, slug: string, label = l10n.t('Measure locally')): string {
  const args = encodeURIComponent(JSON.stringify([{ kind, slug }]));
  return `[${escapeMarkdown(label)}](command:${MEASURE_COMMAND}?${args})`;
}

function cell(m: ContextMeasurement | null, instr: string | null = null): string {
  const f = formatContext(m);
  return m ? `${f.ttfb} · ${f.memory} · ${f.queries}${instr ? ` · ${escapeMarkdown(instr)}` : ''}` : f.ttfb;
}

/** The tree's line of a local context: "+12.4 ms TTFB · +10 MB · +7 queries", and its instructions when counted. */
export function localContextLine(r: LocalRecord, c: ContextName): string {
  const instr = r.contexts[c] ? instructionsCell(r, c) : null;
  return `${contextLine(localAsBenchmark(r), c)}${instr ? ` · ${instr}` : ''}`;
}

/**
 * The hover's local part: a table with the local figures, beside the API's when it has them too ("API" and
 * "Measured locally" columns), the facts in words, staleness and a link to measure again.
 */
export function localHoverSection(local: LocalResult, api: BenchmarkRecord | undefined, opts: { link: boolean }): string[] {
  const r = local.record;
  const rec = localAsBenchmark(r);
  const lines: string[] = ['', `**${l10n.t('Measured locally')}** · ${escapeMarkdown(localGradeText(r))} (${l10n.t('estimated by WP Bench, not the API\'s grade')})`, ''];
  if (api) {
    lines.push(`| ${l10n.t('Context')} | ${l10n.t('API: TTFB · memory · queries')} | ${l10n.t('Local: TTFB · memory · queries')} |`, '|:--|--:|--:|');
    for (const c of CONTEXT_NAMES) lines.push(`| ${contextLabel(c)} | ${cell(api.contexts[c])} | ${cell(rec.contexts[c], instructionsCell(r, c))} |`);
  } else {
    // `--instructions`: the CPU instructions beside time, in a column of their own.
    const instr = hasInstructions(r);
    lines.push(`| ${l10n.t('Context')} | TTFB | ${l10n.t('Memory')} | ${l10n.t('Queries')} |${instr ? ` ${l10n.t('Instructions')} |` : ''}`, `|:--|--:|--:|--:|${instr ? '--:|' : ''}`);
    for (const c of CONTEXT_NAMES) {
      const f = formatContext(rec.contexts[c]);
      lines.push(`| ${contextLabel(c)} | ${f.ttfb} | ${f.memory} | ${f.queries} |${instr ? ` ${escapeMarkdown(instructionsCell(r, c) ?? '–')} |` : ''}`);
    }
  }
  lines.push(...instructionsLines(r));
  // --browser: what the visitor pays, beside the server figures (present/visitor.ts).
  lines.push(...visitorHoverLines(r, opts.link ? { kind: r.type, slug: local.slug } : undefined));
  lines.push('');
  const facts = [localWords(r), l10n.t('{0} runtime', r.local.runtime), l10n.t('{0} rounds', r.local.rounds)];
  if (r.local.database) facts.push(l10n.t('database: {0}', shortDatabase(r.local.database)));
  if (r.local.opcache !== undefined) facts.push(r.local.opcache ? l10n.t('opcache on') : l10n.t('opcache off'));
  // What held the component's PHP (records from before the sandbox say nothing).
  if (r.local.sandbox === 'bubblewrap') facts.push(l10n.t('sandboxed (bubblewrap)'));
  else if (r.local.sandbox === 'none') facts.push(l10n.t('no sandbox'));
  lines.push(`_${facts.map(escapeMarkdown).join(' · ')}_`);
  const dbErr = CONTEXT_NAMES.filter((c) => r.local.database_errors?.[c]);
  if (dbErr.length) {
    const parts = dbErr.map((c) => `${contextLabel(c)}: ${l10n.t('{0} database errors per request', r.local.database_errors![c]!.per_request)}`);
    lines.push('', escapeMarkdown(l10n.t('⚠ Not representative (database errors the clean site has not): {0}', parts.join('; '))));
  }
  const why = CONTEXT_NAMES.filter((c) => r.local.null_reasons[c]).map((c) => `${contextLabel(c)}: ${r.local.null_reasons[c]!.reason}`);
  if (why.length) lines.push('', escapeMarkdown(l10n.t('Not measured: {0}', why.join('; '))));
  if (local.stale) lines.push('', l10n.t('⚠ Stale: its files changed since this measurement.') + (opts.link ? ` ${measureLink(r.type, local.slug, l10n.t('Measure again'))}` : ''));
  return lines;
}

/** `measure --instructions`: what the column counts, and the contexts whose counted requests varied; nothing without. */
function instructionsLines(r: LocalRecord): string[] {
  if (!hasInstructions(r)) return [];
  const lines = ['', `_${escapeMarkdown(l10n.t('CPU instructions per request counted with callgrind: exact where time is noisy.'))}_`];
  const varying = varyingNotice(r, contextLabel);
  if (varying) lines.push('', escapeMarkdown(`⚠ ${varying}.`));
  return lines;
}

export interface LocalTreeText {
  /** Appended to (or standing for) the tree item's description. */
  description: string;
  /** The words a screen reader says. */
  spoken: string;
}

export function localTreeText(local: LocalResult): LocalTreeText {
  const r = local.record;
  const grade = localGradeText(r);
  const stale = local.stale ? ` ${l10n.t('(stale)')}` : '';
  // Short enough for a narrow side bar: the date and versions are in the tooltip and the spoken label.
  const description = `${grade}${stale}`;
  const spoken = `${localGradeSpoken(r)}, ${localWords(r)}${local.stale ? `, ${l10n.t('stale: its files changed since')}` : ''}`;
  return { description, spoken };
}

/** Inline text: the API's first when it has a benchmark ("B · +3 ms homepage · ≈A local"), else the local one. */
export function localInlineText(apiText: string | null, local: LocalResult, api: BenchmarkRecord | undefined, context: ContextName): string {
  const r = local.record;
  const stale = local.stale ? ` ${l10n.t('(stale)')}` : '';
  if (api && apiText) return `${apiText} · ${localGradeText(r)}${stale}`;
  const m = r.contexts[context];
  const where = contextLabel(context).toLowerCase();
  // A local delta can be below zero (noise on a light plugin): "−0.4 ms", never "+-0.4 ms".
  const figure = !m ? l10n.t('not measured ({0})', where) : m.ttfb_delta_ms < 0 ? l10n.t('−{0} {1}', formatMs(-m.ttfb_delta_ms), where) : l10n.t('+{0} {1}', formatMs(m.ttfb_delta_ms), where);
  return `${localGradeText(r)} · ${figure}${stale}`;
}

/** A warning when the estimated grade is below the minimum (the API's own grade, when it has one, decides instead). */
export function localDiagnosticMessage(local: LocalResult, minimum: string): string | null {
  const r = local.record;
  if (!r.speed_score || !isWorseThan(r.speed_score.grade, minimum)) return null;
  const a = r.contexts.activation;
  const text = l10n.t('{0}: estimated grade {1} ({2}), below the minimum {3}.', r.name, r.speed_score.grade, localWords(r), minimum);
  const cost = a
    ? ` ${plural(
        a.queries_delta,
        l10n.t('Activation adds {0} TTFB, {1} memory, 1 query.', formatMs(a.ttfb_delta_ms), formatMemoryKb(a.memory_delta_kb)),
        l10n.t('Activation adds {0} TTFB, {1} memory, {2} queries.', formatMs(a.ttfb_delta_ms), formatMemoryKb(a.memory_delta_kb), formatCount(a.queries_delta)),
      )}`
    : '';
  const stale = local.stale ? ` ${l10n.t('(stale: its files changed since)')}` : '';
  return `${text}${cost}${stale}`;
}

export interface MixedSiteTotal extends SiteTotal {
  /** Counted with the API's numbers. */
  fromApi: number;
  /** Counted with numbers measured on this machine (no API benchmark). */
  local: number;
  /** Of those, measured before their files changed. */
  localStale: number;
}

/** The site total over API and local numbers: the API's benchmark when it has one, else the local measurement. */
export function mixedSiteTotal(items: { outcome: LookupOutcome | undefined; local: LocalResult | undefined }[]): MixedSiteTotal {
  let local = 0;
  let localStale = 0;
  const outcomes = items.map(({ outcome, local: l }): LookupOutcome | undefined => {
    if (apiBenchmarked(outcome) || !l) return outcome;
    local++;
    if (l.stale) localStale++;
    return { kind: l.kind, slug: l.slug, result: { state: 'benchmarked', record: localAsBenchmark(l.record) }, stale: false, fromCache: true };
  });
  const t = siteTotal(outcomes);
  return { ...t, fromApi: t.benchmarked - local, local, localStale };
}

/** "12 from the benchmark API, 3 measured locally, 2 unknown". */
export function siteSourcesLine(t: MixedSiteTotal): string {
  const parts = [l10n.t('{0} from the benchmark API', t.fromApi), l10n.t('{0} measured locally', t.local), l10n.t('{0} unknown', t.unknown)];
  if (t.localStale) parts.push(plural(t.localStale, l10n.t('1 local measurement stale'), l10n.t('{0} local measurements stale', t.localStale)));
  return parts.join(', ');
}
