// What every report of `measure SITE --site` says alike (English, as the CLI): the figures of a context, the
// difference between the stack as it runs and the sum of its parts, the measurement's facts, the members by what
// they add in the site, and the terminal table. Plain text here: markdown and HTML (siteFormats.ts) escape it.
import { notCounted, type ContextFigures, type Figures, type SiteComponentResult, type SiteRecord } from '../measure/siteRun/siteRecord';
import { countInNoise, inNoise } from '../measure/siteRun/sitePlan';
import { databaseLabel } from '../measure/database/database';
import { CONTEXTS } from '../measure/record/method';
import { textTable } from './plain';
import { formatInstructions } from '../present/format';
import { siteBrowserLines } from './siteBrowserText';

export const NOT_MEASURED = 'not measured';

const ms = (x: number) => `${x > 0 ? '+' : ''}${x.toFixed(1)} ms`;
const kb = (x: number) => `${x > 0 ? '+' : ''}${x.toLocaleString('en-US')} KB`;
const q = (x: number) => `${x > 0 ? '+' : ''}${x} q`;

const noise = (x: string) => `${x.replace(/^[+-]/, '±')} (within noise)`;

/** "+12.3 ms · +3,000 KB · +3 q" (a part inside its spread: "±0.4 ms (within noise)"), or "not measured". */
export const figuresCell = (f: Figures | null | undefined): string => {
  if (!f) return NOT_MEASURED;
  const n = inNoise(f);
  const instr = f.instructions_delta === undefined ? '' : ` · ${countInNoise(f) ? `±${formatInstructions(Math.abs(f.instructions_delta))} (within noise)` : formatInstructions(f.instructions_delta, true)}`;
  return `${n.ttfb ? noise(ms(f.ttfb_delta_ms)) : ms(f.ttfb_delta_ms)} · ${n.memory ? noise(kb(f.memory_delta_kb)) : kb(f.memory_delta_kb)} · ${n.queries ? noise(q(f.queries_delta)) : q(f.queries_delta)}${instr}`;
};

/** The stack as it runs minus the sum of the parts (null when either is not measured). */
export function figuresDifference(a: Figures | null, b: Figures | null): Figures | null {
  if (!a || !b) return null;
  const instr = a.instructions_delta !== undefined && b.instructions_delta !== undefined ? { instructions_delta: a.instructions_delta - b.instructions_delta } : {};
  // Its spread: the two figures' spreads as independent errors (the root of their squares), so a difference inside it
  // reads "within noise" as every other figure does.
  const h = (x: number | undefined, y: number | undefined) => (x === undefined || y === undefined ? undefined : Math.hypot(x, y));
  const spread = a.spread && b.spread ? { spread: { ttfb_ms: Math.round(h(a.spread.ttfb_ms, b.spread.ttfb_ms)! * 10) / 10, memory_kb: Math.round(h(a.spread.memory_kb, b.spread.memory_kb)!), queries: Math.round(h(a.spread.queries, b.spread.queries)!), ...(h(a.spread.instructions, b.spread.instructions) !== undefined ? { instructions: Math.round(h(a.spread.instructions, b.spread.instructions)!) } : {}) } } : {};
  return { ttfb_delta_ms: Math.round((a.ttfb_delta_ms - b.ttfb_delta_ms) * 10) / 10, memory_delta_kb: a.memory_delta_kb - b.memory_delta_kb, queries_delta: a.queries_delta - b.queries_delta, ...instr, ...spread };
}

export const differenceCell = (a: Figures | null, b: Figures | null): string => {
  const d = figuresDifference(a, b);
  return d ? figuresCell(d) : '—';
};

/** A member's figures in a context, as a cell. */
export const memberCell = (x: { contexts: ContextFigures } | null, c: keyof ContextFigures): string => figuresCell(x?.contexts[c]);

/** Per context: the stack, the sum of the parts, the difference (the rows of the first table of every format). */
export function stackRows(r: SiteRecord): Array<{ context: (typeof CONTEXTS)[number]; stack: string; sum: string; difference: string }> {
  return CONTEXTS.map((c) => ({ context: c, stack: figuresCell(r.site.contexts[c]), sum: figuresCell(r.sum_of_alone.contexts[c]), difference: differenceCell(r.site.contexts[c], r.sum_of_alone.contexts[c]) }));
}

/** "Not in the sum of the parts (not measured alone): a (homepage, admin); b (activation)", or undefined. */
export function notCountedLine(r: SiteRecord): string | undefined {
  const by = new Map<string, string[]>();
  for (const c of CONTEXTS) for (const slug of notCounted(r, c)) by.set(slug, [...(by.get(slug) ?? []), c]);
  if (!by.size) return undefined;
  return `Not in the sum of the parts (not measured alone): ${[...by].map(([slug, cs]) => `${slug} (${cs.join(', ')})`).join('; ')}`;
}

/** "php runtime, PHP 8.2.36, WordPress 6.8.1, MariaDB 10.11.6, theme t, 10 rounds of 7 configurations, 19.2 s" */
export function measuredFacts(r: SiteRecord): string {
  const l = r.local;
  return `${l.runtime} runtime, PHP ${l.php}, WordPress ${l.wordpress}, ${databaseLabel(l.database ?? undefined)}, theme ${l.theme ?? '(none: the baseline theme)'}, ${l.rounds} rounds of ${l.configurations} configurations, ${l.duration_s} s`;
}

/** "Clean WordPress itself (the baseline): activation 21.3 ms · 2,048 KB · 10 q; …" (undefined in records before it was kept). */
export function cleanLine(r: SiteRecord): string | undefined {
  const c = r.site.clean?.contexts;
  if (!c) return undefined;
  const one = (ctx: (typeof CONTEXTS)[number]) => {
    const m = c[ctx];
    return `${ctx} ${m ? `${m.ttfb_ms.toFixed(1)} ms · ${m.memory_kb.toLocaleString('en-US')} KB · ${m.queries} q` : NOT_MEASURED}`;
  };
  return `Clean WordPress itself (the baseline): ${CONTEXTS.map(one).join('; ')}`;
}

/** "plugin", "must-use" or "theme": how a member's kind reads in every report. */
export const kindLabel = (x: SiteComponentResult): string => (x.must_use ? 'must-use' : x.kind);

const whatItAdds = (x: SiteComponentResult) => x.in_site?.contexts.homepage?.ttfb_delta_ms ?? -Infinity;

/** The members measured in the stack, by what they add in the site (homepage TTFB), most first; then by slug. */
export function measuredMembers(r: SiteRecord): SiteComponentResult[] {
  return r.components.filter((x) => !x.left_out && !x.note).sort((x, y) => whatItAdds(y) - whatItAdds(x) || x.slug.localeCompare(y.slug));
}

/** Must-use plugins in the stack not measured apart (records from before they were). */
export const mustUseMembers = (r: SiteRecord): SiteComponentResult[] => r.components.filter((c) => c.must_use && !c.left_out && !c.in_site && !c.alone && !c.measured_with);

/** Members without figures of their own and a note saying why (a must-use plugin measured with its loader). */
export const notedMembers = (r: SiteRecord): SiteComponentResult[] => r.components.filter((c) => c.note && !c.left_out && !mustUseMembers(r).includes(c));

export const MUST_USE_LINE = 'Must-use plugins in the stack, not measured apart in this version (the sum of the parts leaves them out)';
export const COMPONENTS_LINE = 'Each component, by what it adds in this site (the stack against the stack without it) and what it costs alone';
export const DROP_IN_REASON = 'drop-ins are not measured (a cache or database drop-in changes what every request does)';
export const SITE_FOOTNOTE = 'Deltas against the same clean site (no plugin, the baseline theme): TTFB the median of the round-by-round differences, memory and queries of the medians; "in this site": the stack against the stack without it (a theme: with the baseline theme instead); "within noise": inside the spread of its round-by-round differences (TTFB: or its 95 % interval reaching ±1 ms); KB are KiB.';

export const INSTRUCTIONS_FOOTNOTE = 'instr: CPU instructions PHP executes per request (callgrind, opcache warm, every configuration\'s clock set to the same start), the difference of the two configurations\' median counts; "within noise" inside the larger of their max−min ranges or under 0.1 M.';

/**
 * What the run marks (every format says it, never just the table): configurations whose queries or memory changed
 * between rounds, and with --instructions those whose counted work varied.
 */
export function markedSections(r: SiteRecord): Array<{ heading: string; lines: string[] }> {
  const out: Array<{ heading: string; lines: string[] }> = [];
  if (r.state_dependent?.length) out.push({ heading: 'State-dependent (queries or memory changed between rounds; figures that use these configurations are not reliable)', lines: r.state_dependent.map((d) => `${d.config}, ${d.context}: ${d.queries[0]}–${d.queries[1]} queries, ${d.memory_kb[0]}–${d.memory_kb[1]} KB`) });
  if (r.instructions_varying?.length) out.push({ heading: 'Counted work that varied (instructions changed from one counted request to the next: something depends on the time or on its own state)', lines: r.instructions_varying.map((v) => `${v.config}, ${v.context}: ${formatInstructions(v.counts[0])} – ${formatInstructions(v.counts[1])}`) });
  return out;
}

/** The terminal table of `measure SITE --site` (and of `check --measure-local --site`). */
export function siteTable(r: SiteRecord): string {
  const out = [
    `The site as it runs — measured locally: ${measuredFacts(r)}`,
    '',
    textTable([['CONTEXT', 'THE STACK, AS IT RUNS', 'SUM OF THE PARTS, EACH ALONE', 'DIFFERENCE'], ...stackRows(r).map((x) => [x.context, x.stack, x.sum, x.difference])]),
    ...(notCountedLine(r) ? [notCountedLine(r)!] : []),
    ...(cleanLine(r) ? [cleanLine(r)!] : []),
    '',
    `${COMPONENTS_LINE}:`,
  ];
  const rows = [['KIND', 'SLUG', 'IN THIS SITE (homepage)', 'ALONE (homepage)', 'IN THIS SITE (admin)', 'ALONE (admin)']];
  for (const x of measuredMembers(r)) rows.push([kindLabel(x), x.slug, memberCell(x.in_site, 'homepage'), memberCell(x.alone, 'homepage'), memberCell(x.in_site, 'admin'), memberCell(x.alone, 'admin')]);
  out.push(textTable(rows));
  const mus = mustUseMembers(r);
  if (mus.length) out.push(`${MUST_USE_LINE}: ${mus.map((c) => c.slug).join(', ')}`);
  for (const x of notedMembers(r)) out.push(`${kindLabel(x)} ${x.slug}: ${x.note}`);
  const left = r.components.filter((x) => x.left_out);
  if (left.length || r.drop_ins_left_out.length) {
    out.push('', 'Left out of the stack:');
    for (const x of left) out.push(`  ${kindLabel(x)} ${x.slug}: ${x.left_out}`);
    for (const d of r.drop_ins_left_out) out.push(`  drop-in ${d}: ${DROP_IN_REASON}`);
  }
  for (const m of markedSections(r)) out.push('', `${m.heading}:`, ...m.lines.map((l) => `  ${l}`));
  out.push(...siteBrowserLines(r), '', SITE_FOOTNOTE);
  if (r.local.instructions) out.push(INSTRUCTIONS_FOOTNOTE);
  return out.join('\n');
}
