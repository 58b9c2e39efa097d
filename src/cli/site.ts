// What `measure SITE --site` says in the terminal (English, as the CLI): the stack as it runs beside the sum of its
// parts measured alone (and the difference, which is the point), then each component by what it adds in the site.
import type { ContextFigures, Figures } from '../core/measure/siteRecord';
import type { SiteRecord } from '../core/measure/siteRecord';
import { databaseLabel } from '../core/measure/database';
import { CONTEXTS } from '../core/measure/method';

const ms = (x: number) => `${x > 0 ? '+' : ''}${x.toFixed(1)} ms`;
const kb = (x: number) => `${x > 0 ? '+' : ''}${x.toLocaleString('en-US')} KB`;
const q = (x: number) => `${x > 0 ? '+' : ''}${x} q`;
const cell = (f: Figures | null | undefined) => (f ? `${ms(f.ttfb_delta_ms)} · ${kb(f.memory_delta_kb)} · ${q(f.queries_delta)}` : 'not measured');

function pad(rows: string[][]): string[] {
  const w = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(w[i]))).join('  ').trimEnd());
}

function difference(a: Figures | null, b: Figures | null): string {
  if (!a || !b) return '—';
  return cell({ ttfb_delta_ms: Math.round((a.ttfb_delta_ms - b.ttfb_delta_ms) * 10) / 10, memory_delta_kb: a.memory_delta_kb - b.memory_delta_kb, queries_delta: a.queries_delta - b.queries_delta });
}

export function siteTable(r: SiteRecord): string {
  const l = r.local;
  const out = [
    `The site as it runs — measured locally: ${l.runtime} runtime, PHP ${l.php}, WordPress ${l.wordpress}, ${databaseLabel(l.database ?? undefined)}, theme ${l.theme ?? '(none: the baseline theme)'}, ${l.rounds} rounds of ${l.configurations} configurations, ${l.duration_s} s`,
    '',
    ...pad([
      ['CONTEXT', 'THE STACK, AS IT RUNS', 'SUM OF THE PARTS, EACH ALONE', 'DIFFERENCE'],
      ...CONTEXTS.map((c) => [c, cell(r.site.contexts[c]), cell(r.sum_of_alone.contexts[c]), difference(r.site.contexts[c], r.sum_of_alone.contexts[c])]),
    ]),
    '',
    'Each component, by what it adds in this site (the stack against the stack without it) and what it costs alone:',
  ];
  const rows = [['KIND', 'SLUG', 'IN THIS SITE (homepage)', 'ALONE (homepage)', 'IN THIS SITE (admin)', 'ALONE (admin)']];
  const fig = (x: { contexts: ContextFigures } | null, c: 'homepage' | 'admin') => cell(x?.contexts[c]);
  for (const x of r.components) {
    if (x.left_out) continue;
    if (x.note) continue;
    rows.push([x.kind, x.slug, fig(x.in_site, 'homepage'), fig(x.alone, 'homepage'), fig(x.in_site, 'admin'), fig(x.alone, 'admin')]);
  }
  out.push(...pad(rows));
  const mus = r.components.filter((c) => c.must_use && !c.left_out);
  if (mus.length) out.push(`Must-use plugins in the stack, not measured apart in this version (the sum of the parts leaves them out): ${mus.map((c) => c.slug).join(', ')}`);
  const left = r.components.filter((x) => x.left_out);
  if (left.length || r.drop_ins_left_out.length) {
    out.push('', 'Left out of the stack:');
    for (const x of left) out.push(`  ${x.kind} ${x.slug}: ${x.left_out}`);
    for (const d of r.drop_ins_left_out) out.push(`  drop-in ${d}: drop-ins are not measured (a cache or database drop-in changes what every request does)`);
  }
  out.push('', 'Deltas of medians against the same clean site (no plugin, the baseline theme); "in this site": the stack against the stack without it (a theme: with the baseline theme instead); KB are KiB.');
  return out.join('\n');
}
