// What every report of `measure SITE --site --browser` says of the browser (English, as the CLI; plain text here:
// siteFormats.ts escapes it for Markdown and HTML): the stack against the clean site and each member in the site
// (the stack against the stack without it: what removing it would save the visitor), figure by figure with "within
// noise" as `measure --browser` says it (browserText.ts), each member's own files on the homepage (or that none
// loads there), the clean site's own medians, how the loads were taken, and why there are none when there are none.
import type { BrowserDelta, BrowserInfo } from '../measure/browser/types';
import type { SiteComponentResult, SiteRecord } from '../measure/siteRun/siteRecord';
import { countNoun } from '../present/format';
import { assetLine, browserFigure } from './browserText';
import { plainText, textTable } from './plain';

export const BROWSER_TITLE = 'What the visitor pays on the homepage';
export const BROWSER_HEADERS = ['In this site', 'Bytes', 'Requests', 'Render-blocking', 'FCP', 'LCP', 'TBT', 'CLS', 'Its files'];
const KEYS = ['bytes_kb', 'requests', 'render_blocking', 'fcp_ms', 'lcp_ms', 'tbt_ms', 'cls'] as const;
export const STACK_LABEL = 'the stack (against clean WordPress)';
export const BROWSER_FOOTNOTE =
  'Browser: the homepage of each configuration loaded in headless Chromium with the profile\'s network and CPU, fresh each load, the configurations alternating; a figure is the difference of the medians, its spread the interquartile range of the round-by-round differences; "within noise" inside it or under 0.5 KB, 16.7 ms (FCP, LCP), 10 ms (TBT), 0.001 (CLS). The stack: against clean WordPress; a member: the stack against the stack without it (a theme: with the baseline theme instead), what removing it would save the visitor; its files: the requests under its folder in the stack\'s loads. KB are KiB.';

export interface BrowserRow {
  /** the member (null: the stack) */
  member: SiteComponentResult | null;
  label: string;
  cells: string[];
}

export interface SiteBrowserView {
  /** "Chromium 140…, desktop (10,240 kb/s, 40 ms RTT, 1350×940), 5 loads per configuration, fresh each" */
  how: string;
  rows: BrowserRow[];
  /** per member with files on the homepage: each file as a line; `none`: members none of whose files loads there */
  files: { member: SiteComponentResult; lines: string[] }[];
  none: SiteComponentResult[];
  /** the clean site's medians, loads cut, what was refused, the sandbox */
  notes: string[];
}

const filesCell = (d: BrowserDelta) => (d.assets.length ? `${countNoun(d.assets.length, 'file')}, ${d.assets.reduce((t, a) => t + a.bytes_kb, 0).toFixed(1)} KB` : 'none');

/** "plugin acme", "must-use loader", "theme shop" (siteText.ts's kindLabel; not imported: it imports this file). */
export const memberLabel = (c: SiteComponentResult): string => `${c.must_use ? 'must-use' : c.kind} ${c.slug}`;

/** The browser figures of a site record; a string (why there are none) when not measured; undefined without --browser. */
export function siteBrowserView(r: SiteRecord): SiteBrowserView | string | undefined {
  const info = r.local.browser;
  if (!info) return undefined;
  if ('unavailable' in info) return `Browser: not measured — ${plainText(info.unavailable, 300)}.`;
  const stack = r.site.browser;
  if (!stack) return 'Browser: not measured (no figures in the record).';
  const row = (member: SiteComponentResult | null, d: BrowserDelta): BrowserRow => ({ member, label: member ? memberLabel(member) : STACK_LABEL, cells: [...KEYS.map((k) => browserFigure(d, k)), filesCell(d)] });
  // Members by what they add in bytes, most first; then by slug.
  const members = r.components.filter((c) => !c.left_out && c.in_site?.browser).sort((x, y) => y.in_site!.browser!.bytes_kb - x.in_site!.browser!.bytes_kb || x.slug.localeCompare(y.slug));
  const clean = r.site.clean?.browser;
  const notes = [
    ...(clean ? [`Clean WordPress itself in the browser: ${clean.bytes_kb.toFixed(1)} KB, ${countNoun(clean.requests, 'request')} (${clean.render_blocking} render-blocking), FCP ${clean.fcp_ms.toFixed(0)} ms, LCP ${clean.lcp_ms.toFixed(0)} ms, TBT ${clean.tbt_ms.toFixed(0)} ms, CLS ${clean.cls.toFixed(3)}`] : []),
    ...(info.cut ? [`Warning: ${countNoun(info.cut, 'load')} never settled within 30 s and ${info.cut === 1 ? 'was' : 'were'} cut there: ${info.cut === 1 ? 'its' : 'their'} figures are what was seen until then`] : []),
    ...(info.failed_requests?.length ? [`Warning: ${countNoun(info.failed_requests.length, 'request')} of the site failed in most loads (the figures leave out what they would have cost): ${info.failed_requests.slice(0, 5).map((x) => plainText(x, 120)).join(', ')}${info.failed_requests.length > 5 ? ' …' : ''}`] : []),
    ...(info.blocked?.length ? [`The pages tried to reach outside the site (refused): ${info.blocked.slice(0, 5).map((x) => plainText(x, 60)).join(', ')}${info.blocked.length > 5 ? ' …' : ''}`] : []),
    info.sandbox === 'bubblewrap' ? 'Chromium ran in bubblewrap with a network of its own: it reached the throwaway site alone' : `Chromium ran without a sandbox (${plainText(info.sandbox_note ?? '', 200)})`,
  ];
  return {
    how: howText(info),
    rows: [row(null, stack), ...members.map((m) => row(m, m.in_site!.browser!))],
    files: members.filter((m) => m.in_site!.browser!.assets.length).map((m) => ({ member: m, lines: m.in_site!.browser!.assets.slice(0, 12).map(assetLine).concat(m.in_site!.browser!.assets.length > 12 ? [`… and ${m.in_site!.browser!.assets.length - 12} more (--json has them all)`] : []) })),
    none: members.filter((m) => !m.in_site!.browser!.assets.length),
    notes,
  };
}

function howText(i: BrowserInfo): string {
  const p = i.profile;
  return `Chromium ${plainText(i.chromium, 40)}, ${i.device} (${p.throughput_kbps.toLocaleString('en-US', { maximumFractionDigits: 1 })} kb/s, ${p.rtt_ms} ms RTT${p.cpu_slowdown > 1 ? `, ${p.cpu_slowdown}× CPU slowdown` : ''}, ${p.width}×${p.height}), ${countNoun(i.rounds, 'load')} per configuration, fresh each`;
}

export const NO_FILES = 'none of its files loads on the homepage';

/** The terminal lines (after the site's table). */
export function siteBrowserLines(r: SiteRecord): string[] {
  const v = siteBrowserView(r);
  if (v === undefined) return [];
  if (typeof v === 'string') return ['', v];
  const out = ['', `${BROWSER_TITLE}: ${v.how}:`, textTable([BROWSER_HEADERS.map((h) => h.toUpperCase()), ...v.rows.map((x) => [x.label, ...x.cells])])];
  for (const f of v.files) for (const l of f.lines) out.push(`  ${memberLabel(f.member)}: ${l}`);
  for (const m of v.none) out.push(`  ${memberLabel(m)}: ${NO_FILES}`);
  out.push(...v.notes, BROWSER_FOOTNOTE);
  return out;
}
