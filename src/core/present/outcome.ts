// What people read about a component: hover markdown, webview HTML, tree text and the site total.
// Every string from the API is escaped here, so no markdown, HTML or command link from the API can act.
import { formatAge, formatContext, formatCount, formatMemoryKb, formatMs, gradeRank, plural, signedCount, signedKb, signedMs } from './format';
import type { LookupOutcome } from '../lookup/lookupService';
import { l10n } from '../l10n';
import { CONTEXT_NAMES, type BenchmarkRecord, type ComponentKind, type ContextMeasurement, type ContextName } from '../model';
import { escapeMarkdown, markdownLinkTarget } from './markdownEscape';

export { escapeMarkdown, markdownLinkTarget };

/** A context's name in the user's language. */
export function contextLabel(c: ContextName): string {
  return c === 'activation' ? l10n.t('Activation') : c === 'homepage' ? l10n.t('Homepage') : l10n.t('Admin');
}

export function escapeHtml(text: string): string {
  return String(text).replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function kindLabel(kind: ComponentKind): string {
  return kind === 'plugin' ? l10n.t('Plugin') : l10n.t('Theme');
}

export interface HoverOptions {
  now?: number;
  /** Shown under the title when the API is not configured or a request failed. */
  notice?: string;
  /** Name from the plugin or theme header, used until the API has answered. */
  name?: string | null;
}

/** Markdown for hovers and tooltips (untrusted: no command links, no HTML). */
export function hoverMarkdown(kind: ComponentKind, slug: string, outcome: LookupOutcome | undefined, opts: HoverOptions = {}): string {
  const now = opts.now ?? Date.now();
  const lines: string[] = [];
  const result = outcome?.result;
  const title = result && result.state !== 'not-in-dataset' ? result.record.name : (opts.name ?? slug);
  lines.push(`**${escapeMarkdown(title)}** · ${kindLabel(kind)} \`${slug.replace(/`/g, '')}\` · WP Bench`); // l10n-ignore: the product's name
  lines.push('');
  if (opts.notice) lines.push(`_${escapeMarkdown(opts.notice)}_`, '');
  if (!result) {
    if (outcome?.error) lines.push(escapeMarkdown(outcome.error.message));
    else if (!opts.notice) lines.push(l10n.t('Not looked up yet.'));
    return lines.join('\n').trimEnd();
  }
  if (result.state === 'not-in-dataset') {
    lines.push(l10n.t('Not in the benchmark dataset.'));
  } else if (result.state === 'not-benchmarked') {
    lines.push(result.record.synthetic ? l10n.t('Known, not benchmarked yet. ({0})', syntheticNote()) : l10n.t('Known, not benchmarked yet.'));
  } else {
    const r = result.record;
    lines.push(l10n.t('Grade **{0}** · score {1}', escapeMarkdown(r.grade ?? '?'), r.score ?? '?'));
    lines.push('');
    lines.push(`| ${l10n.t('Context')} | TTFB | ${l10n.t('Memory')} | ${l10n.t('Queries')} |`);
    lines.push('|:--|--:|--:|--:|');
    for (const c of CONTEXT_NAMES) {
      const f = formatContext(r.contexts[c]);
      lines.push(`| ${contextLabel(c)} | ${f.ttfb} | ${f.memory} | ${f.queries} |`);
    }
    lines.push('');
    lines.push(recordFacts(r).map(escapeMarkdown).join(' · '));
  }
  if (result.state !== 'not-in-dataset') {
    const link = markdownLinkTarget(result.record.profileUrl);
    if (link) lines.push('', `[${l10n.t('Open benchmark profile')}](${link})`);
  }
  if (outcome?.stale && outcome.fetchedAt !== undefined) {
    const age = formatAge(now - outcome.fetchedAt);
    lines.push('', outcome.error ? l10n.t('⚠ Stale: fetched {0} — refresh failed: {1}', age, escapeMarkdown(outcome.error.message)) : l10n.t('⚠ Stale: fetched {0}', age));
  } else if (outcome?.fetchedAt !== undefined) {
    lines.push('', `_${l10n.t('Fetched {0}', formatAge(now - outcome.fetchedAt))}_`);
  }
  return lines.join('\n');
}

export const SYNTHETIC_NOTE = 'synthetic data (emulator), not real measurements'; // l10n-ignore: reports (English)

export function syntheticNote(): string {
  return l10n.t('synthetic data (emulator), not real measurements');
}

export function recordFacts(r: BenchmarkRecord): string[] {
  return [
    r.synthetic ? syntheticNote() : null,
    r.activeInstalls !== null ? l10n.t('{0}+ active installs', formatCount(r.activeInstalls)) : null,
    r.rating !== null ? l10n.t('rating {0}', r.rating) : null,
    r.benchmarkedAt ? l10n.t('measured {0}', r.benchmarkedAt) : null,
  ].filter((x): x is string => x !== null);
}

/** One-line summary for tree items and diagnostics. */
export function summaryText(outcome: LookupOutcome | undefined): string {
  const result = outcome?.result;
  let text: string;
  if (!result) text = outcome?.error ? l10n.t('lookup failed') : l10n.t('not looked up');
  else if (result.state === 'not-in-dataset') text = l10n.t('not in dataset');
  else if (result.state === 'not-benchmarked') text = l10n.t('not benchmarked yet');
  else text = `${result.record.grade} · ${result.record.score}`;
  return outcome?.stale ? l10n.t('{0} (stale)', text) : text;
}

/** The same facts for a screen reader: the grade spelt out ("grade D, score 29.9"), never a colour alone. */
export function accessibleSummary(outcome: LookupOutcome | undefined): string {
  const result = outcome?.result;
  let text: string;
  if (!result) text = outcome?.error ? l10n.t('lookup failed: {0}', outcome.error.message) : l10n.t('not looked up');
  else if (result.state === 'not-in-dataset') text = l10n.t('not in the benchmark dataset');
  else if (result.state === 'not-benchmarked') text = l10n.t('not benchmarked yet');
  else text = l10n.t('grade {0}, score {1}', result.record.grade ?? l10n.t('unknown'), result.record.score ?? l10n.t('unknown'));
  return outcome?.stale ? l10n.t('{0}, stale cached data', text) : text;
}

/** "+3 ms TTFB · +1.0 MB · +2 queries" (or "+1 query"). */
function deltaLine(ttfbMs: number, memoryKb: number, queries: number): string {
  // A local measurement can be below its baseline: "-0.3 ms", never "+-0.3 ms".
  const ttfb = signedMs(ttfbMs);
  const memory = signedKb(memoryKb);
  return plural(
    Math.round(queries),
    l10n.t('{0} TTFB · {1} · +1 query', ttfb, memory),
    l10n.t('{0} TTFB · {1} · {2} queries', ttfb, memory, signedCount(queries)),
  );
}

export function contextLine(r: BenchmarkRecord, c: ContextName): string {
  const m = r.contexts[c];
  if (!m) return l10n.t('not measured');
  return deltaLine(m.ttfbDeltaMs, m.memoryDeltaKb, m.queriesDelta);
}

export interface ContextTotal {
  ttfbDeltaMs: number;
  memoryDeltaKb: number;
  queriesDelta: number;
  /** Components whose measurement for this context is null (not counted as zero). */
  notMeasured: number;
  measured: number;
}

export interface SiteTotal {
  contexts: Record<ContextName, ContextTotal>;
  components: number;
  benchmarked: number;
  /** Components without a benchmark (not benchmarked, not in dataset, not looked up). */
  unknown: number;
  /** Components measured locally (counted in the sums; not in `benchmarked`). */
  local?: number;
}


/** Adds one component's measured deltas to the per-context sums (an unmeasured context is counted as such). */
export function addToTotal(contexts: Record<ContextName, ContextTotal>, measured: Record<ContextName, ContextMeasurement | null>): void {
  for (const c of CONTEXT_NAMES) {
    const m = measured[c];
    const t = contexts[c];
    if (!m) {
      t.notMeasured++;
      continue;
    }
    t.measured++;
    t.ttfbDeltaMs += m.ttfbDeltaMs;
    t.memoryDeltaKb += m.memoryDeltaKb;
    t.queriesDelta += m.queriesDelta;
  }
}

/** Sums the measured deltas per context over the given outcomes. */
export function siteTotal(outcomes: (LookupOutcome | undefined)[]): SiteTotal {
  const contexts = {} as Record<ContextName, ContextTotal>;
  for (const c of CONTEXT_NAMES) contexts[c] = { ttfbDeltaMs: 0, memoryDeltaKb: 0, queriesDelta: 0, notMeasured: 0, measured: 0 };
  let benchmarked = 0;
  for (const o of outcomes) {
    const r = o?.result;
    if (!r || r.state !== 'benchmarked') continue;
    benchmarked++;
    addToTotal(contexts, r.record.contexts);
  }
  return { contexts, components: outcomes.length, benchmarked, unknown: outcomes.length - benchmarked };
}

export function siteTotalLine(t: ContextTotal): string {
  // "+0 ms" would read as "costs nothing" when nothing was measured (all failed, unknown or not measured).
  if (t.measured === 0) return t.notMeasured ? l10n.t('no measurement ({0} not measured)', t.notMeasured) : l10n.t('no measurement');
  const base = deltaLine(t.ttfbDeltaMs, t.memoryDeltaKb, t.queriesDelta);
  return t.notMeasured ? l10n.t('{0} ({1} not measured)', base, t.notMeasured) : base;
}

/** Worst first (F before A, lower score first); components without a grade after graded ones; then by slug. */
export function compareWorstFirst(a: { slug: string; outcome?: LookupOutcome }, b: { slug: string; outcome?: LookupOutcome }): number {
  const rank = (o?: LookupOutcome) => (o?.result?.state === 'benchmarked' ? gradeRank(o.result.record.grade) : -1);
  return rank(b.outcome) - rank(a.outcome) || scoreOf(a.outcome) - scoreOf(b.outcome) || a.slug.localeCompare(b.slug);
}

function scoreOf(o?: LookupOutcome): number {
  return o?.result?.state === 'benchmarked' ? (o.result.record.score ?? 0) : 0;
}

/** Body of the lookup webview: the hover's facts as escaped HTML. */
export function lookupHtml(kind: ComponentKind, slug: string, outcome: LookupOutcome | undefined, now = Date.now()): string {
  const result = outcome?.result;
  const name = result && result.state !== 'not-in-dataset' ? result.record.name : slug;
  const parts: string[] = [];
  parts.push(`<header><h1>${escapeHtml(name)}</h1><p class="sub">${kindLabel(kind)} <code>${escapeHtml(slug)}</code></p></header>`);
  if (outcome?.stale && outcome.fetchedAt !== undefined) {
    const age = formatAge(now - outcome.fetchedAt);
    const text = outcome.error ? l10n.t('Stale: fetched {0} — refresh failed: {1}', age, outcome.error.message) : l10n.t('Stale: fetched {0}', age);
    parts.push(`<p class="stale" role="status">${escapeHtml(text)}</p>`);
  }
  if (!result) {
    parts.push(`<p class="error">${escapeHtml(outcome?.error?.message ?? l10n.t('No answer yet.'))}</p>`);
  } else if (result.state === 'not-in-dataset') {
    parts.push(`<p class="state">${escapeHtml(l10n.t('Not in the benchmark dataset.'))}</p>`);
  } else if (result.state === 'not-benchmarked') {
    parts.push(`<p class="state">${escapeHtml(l10n.t('Known, not benchmarked yet.'))}</p>`);
  } else {
    const r = result.record;
    const letter = escapeHtml((r.grade ?? '?').charAt(0).toUpperCase());
    const spoken = escapeHtml(accessibleSummary(outcome));
    parts.push(`<div class="grade grade-${letter}" role="img" aria-label="${spoken}"><span class="letter" aria-hidden="true">${escapeHtml(r.grade ?? '?')}</span><span class="score" aria-hidden="true">${escapeHtml(l10n.t('score {0}', String(r.score ?? '?')))}</span></div>`);
    const [caption, context, memory, queries] = [l10n.t('Extra cost when it is active, by context'), l10n.t('Context'), l10n.t('Memory'), l10n.t('Queries')].map(escapeHtml);
    parts.push(`<table><caption>${caption}</caption><thead><tr><th scope="col">${context}</th><th scope="col">TTFB</th><th scope="col">${memory}</th><th scope="col">${queries}</th></tr></thead><tbody>`);
    for (const c of CONTEXT_NAMES) {
      const f = formatContext(r.contexts[c]);
      const cls = r.contexts[c] ? '' : ' class="nm"';
      parts.push(`<tr${cls}><th scope="row">${escapeHtml(contextLabel(c))}</th><td>${f.ttfb}</td><td>${f.memory}</td><td>${f.queries}</td></tr>`);
    }
    parts.push('</tbody></table>');
    parts.push(`<p class="facts">${recordFacts(r).map(escapeHtml).join(' · ')}</p>`);
  }
  if (result && result.state !== 'not-in-dataset' && markdownLinkTarget(result.record.profileUrl)) {
    parts.push(`<p><button id="open-profile" type="button">${escapeHtml(l10n.t('Open benchmark profile'))}</button></p>`);
  }
  return parts.join('\n');
}
