// How a site measurement (Measure Site Locally, `measure ROOT --site`) is said in the editor: the tree's site total
// as the stack as it runs beside the sum of the parts, each component's "in this site · alone", and the hovers that
// explain both. Pure; strings go through l10n.
import { l10n } from '../l10n';
import type { ComponentKind, ContextName } from '../model';
import { shortDatabase } from '../measure/database/database';
import { notCounted, type Figures, type SiteComponentResult, type SiteRecord } from '../measure/siteRun/siteRecord';
import { countInNoise, inNoise } from '../measure/siteRun/sitePlan';
import { formatInstructions, formatMs, signedKb, signedMs, signedQueries } from './format';
import { contextLabel, escapeMarkdown } from './outcome';

/** "+12 ms · +1.2 MB · +3 queries", or "not measured". */
export function figuresText(f: Figures | null | undefined): string {
  if (!f) return l10n.t('not measured');
  const n = countInNoise(f);
  const instr = n === undefined ? '' : ` · ${n ? l10n.t('{0} (within noise)', `±${formatInstructions(Math.abs(f.instructions_delta!))}`) : formatInstructions(f.instructions_delta!, true)}`;
  return `${signedMs(f.ttfb_delta_ms)} · ${signedKb(f.memory_delta_kb)} · ${signedQueries(f.queries_delta)}${instr}`;
}

/** "+12 ms, +1.2 MB" (time and memory: a tree description's room), or "not measured". */
function shortText(f: Figures | null | undefined): string {
  return f ? `${signedMs(f.ttfb_delta_ms)}, ${signedKb(f.memory_delta_kb)}` : l10n.t('not measured');
}

/** A stored site measurement: the record, and why it is stale (undefined while it is not). */
export interface SiteResult {
  record: SiteRecord;
  stale?: string;
}

const staleMark = (r: SiteResult) => (r.stale ? ` ${l10n.t('(stale)')}` : '');

/** The tree's site total: "as it runs: +212 ms, +5.8 MB homepage · sum of the parts: +275 ms, +5.7 MB". */
export function siteTotalText(r: SiteResult, ctx: ContextName = 'homepage'): string {
  const c = r.record;
  return `${l10n.t('as it runs: {0} {1}', shortText(c.site.contexts[ctx]), contextLabel(ctx).toLowerCase())} · ${l10n.t('sum of the parts: {0}', shortText(c.sum_of_alone.contexts[ctx]))}${staleMark(r)}`;
}

/** One context of the site total: the stack in full, then the sum of the parts. */
export function siteContextText(r: SiteResult, ctx: ContextName): string {
  return `${l10n.t('as it runs {0}', figuresText(r.record.site.contexts[ctx]))} · ${l10n.t('sum of the parts {0}', figuresText(r.record.sum_of_alone.contexts[ctx]))}`;
}

/** The component's entry in the site measurement (by kind and slug). */
export function siteMember(r: SiteResult | undefined, kind: ComponentKind, slug: string): SiteComponentResult | undefined {
  return r?.record.components.find((c) => c.kind === kind && c.slug === slug);
}

/** A component's part: "in this site +0.4 ms · alone +31 ms", or why it has none (left out, must-use). */
export function memberText(r: SiteResult, c: SiteComponentResult, ctx: ContextName = 'homepage'): string {
  if (c.left_out) return c.not_installed ? l10n.t('not installed here') : l10n.t('left out of the site measurement');
  if (!c.in_site && !c.alone) return c.must_use ? l10n.t('in the stack, not measured apart') : l10n.t('not measured in the site');
  const inSite = c.in_site?.contexts[ctx];
  const alone = c.alone?.contexts[ctx];
  const msOf = (f: Figures) => (inNoise(f).ttfb ? l10n.t('{0} (within noise)', `±${formatMs(Math.abs(f.ttfb_delta_ms))}`) : signedMs(f.ttfb_delta_ms));
  return `${l10n.t('in this site {0}', inSite ? msOf(inSite) : l10n.t('not measured'))} · ${l10n.t('alone {0}', alone ? msOf(alone) : l10n.t('not measured'))}${staleMark(r)}`;
}

/** The run's facts in words: "measured locally · PHP 8.2 · WordPress 6.1.9 · MariaDB 10.11 · theme x · 9 rounds of 18 configurations · 2026-11-27". */
export function siteFactsLine(r: SiteResult): string {
  return factsList(r.record).join(' · ');
}

function factsList(rec: SiteRecord): string[] {
  const l = rec.local;
  const parts = [
    l10n.t('measured locally'),
    `PHP ${/^\d+\.\d+/.exec(l.php)?.[0] ?? l.php}`,
    `WordPress ${l.wordpress}`,
    l.database ? shortDatabase(l.database) : null,
    l.theme ? l10n.t('theme {0}', l.theme) : l10n.t('the baseline theme'),
    l10n.t('{0} rounds of {1} configurations', l.rounds, l.configurations),
    rec.measured_at ? rec.measured_at.slice(0, 10) : null,
  ].filter((x): x is string => x !== null);
  return parts;
}

function facts(rec: SiteRecord): string {
  return factsList(rec).map(escapeMarkdown).join(' · ');
}

/** The run's facts in a line: "MariaDB 10.11 · 2026-11-27 · 2 left out", and "(stale)". */
export function siteFactsText(r: SiteResult): string {
  const rec = r.record;
  const left = rec.components.filter((c) => c.left_out).length;
  return [
    rec.local.database ? shortDatabase(rec.local.database) : null,
    rec.measured_at?.slice(0, 10) ?? null,
    left ? l10n.t('{0} left out', left) : null,
    r.stale ? l10n.t('stale: {0}', r.stale) : null,
  ].filter((x): x is string => x !== null).join(' · ');
}

function staleLine(r: SiteResult): string[] {
  return r.stale ? ['', escapeMarkdown(l10n.t('⚠ Stale: {0}. Run WP Bench: Measure Site Locally again.', r.stale))] : [];
}

/** "Not in the sum of the parts (not measured alone): a, b", or undefined. */
export function notCountedText(rec: SiteRecord): string | undefined {
  const slugs = [...new Set((['activation', 'homepage', 'admin'] as const).flatMap((c) => notCounted(rec, c)))];
  return slugs.length ? l10n.t('Not in the sum of the parts (not measured alone): {0}', slugs.join(', ')) : undefined;
}

/** The site total's tooltip: the stack and the sum of the parts in each context, and what the difference means. */
export function siteTotalTooltip(r: SiteResult): string[] {
  const rec = r.record;
  const lines = [
    `**${l10n.t('The site as it runs')}** — ${escapeMarkdown(l10n.t('every plugin, must-use plugin and the theme active together, against clean WordPress'))}`,
    '',
    `| ${l10n.t('Context')} | ${l10n.t('As it runs')} | ${l10n.t('Sum of the parts')} |`,
    '|:--|--:|--:|',
  ];
  for (const c of ['activation', 'homepage', 'admin'] as const) lines.push(`| ${contextLabel(c)} | ${figuresText(rec.site.contexts[c])} | ${figuresText(rec.sum_of_alone.contexts[c])} |`);
  lines.push('', escapeMarkdown(l10n.t('The sum of the parts adds each component measured alone: code two components share is counted twice there, and a component that needs another costs nothing alone.')));
  const nc = notCountedText(rec);
  if (nc) lines.push('', escapeMarkdown(nc));
  const left = rec.components.filter((c) => c.left_out).length + rec.drop_ins_left_out.length;
  if (left) lines.push('', escapeMarkdown(l10n.t('{0} left out of the stack (hover a component, or see the report, for why).', left)));
  lines.push('', `_${facts(rec)}_`, ...staleLine(r));
  return lines;
}

/** A component's hover part: what it adds in this site and what it costs alone, per context, and why they differ. */
export function siteHoverSection(r: SiteResult, c: SiteComponentResult): string[] {
  const lines = ['', `**${l10n.t('In this site')}** · ${escapeMarkdown(memberText(r, c))}`];
  if (c.left_out) lines.push('', escapeMarkdown(l10n.t('Left out of the site measurement: {0}', c.left_out)));
  else if (c.note) lines.push('', escapeMarkdown(c.note));
  if (c.in_site || c.alone) {
    lines.push('', `| ${l10n.t('Context')} | ${l10n.t('In this site')} | ${l10n.t('Alone')} |`, '|:--|--:|--:|');
    for (const ctx of ['activation', 'homepage', 'admin'] as const) lines.push(`| ${contextLabel(ctx)} | ${figuresText(c.in_site?.contexts[ctx])} | ${figuresText(c.alone?.contexts[ctx])} |`);
    lines.push('', escapeMarkdown(l10n.t('"In this site": the whole stack with it against the stack without it (a theme: with the baseline theme instead) — what removing it would save. "Alone": it against clean WordPress. Shared code or a plugin it extends makes them differ.')));
  }
  lines.push('', `_${facts(r.record)}_`, ...staleLine(r));
  return lines;
}
