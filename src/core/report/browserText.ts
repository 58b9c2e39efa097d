// The terminal block of `measure --browser`: what the visitor pays in the browser — each figure with the component −
// clean, "within noise" inside its spread, the clean site's own medians — then the component's own assets, how the
// figures were taken, and why there are none when there are none.
import { browserWithinNoise, BROWSER_NOISE } from '../measure/browser/figures';
import type { BrowserDelta, BrowserInfo } from '../measure/browser/types';
import type { LocalRecord } from '../measure/record/method';
import { countNoun } from '../present/format';
import { plainText, textTable } from './plain';
import { documentLines, ownFilesNote, shiftLines } from './browserPageText';

const signed = (n: number, digits: number) => `${n > 0 ? '+' : n < 0 ? '−' : '±'}${Math.abs(n).toFixed(digits)}`;

type Key = keyof typeof BROWSER_NOISE;
export const ROWS: { key: Key | 'requests' | 'render_blocking'; label: string; unit: string; digits: number }[] = [
  { key: 'bytes_kb', label: 'Bytes', unit: 'KB', digits: 1 },
  { key: 'requests', label: 'Requests', unit: '', digits: 0 },
  { key: 'render_blocking', label: 'Render-blocking', unit: '', digits: 0 },
  { key: 'fcp_ms', label: 'FCP', unit: 'ms', digits: 0 },
  { key: 'lcp_ms', label: 'LCP', unit: 'ms', digits: 0 },
  { key: 'tbt_ms', label: 'TBT', unit: 'ms', digits: 0 },
  { key: 'cls', label: 'CLS', unit: '', digits: 3 },
];

const withUnit = (s: string, unit: string) => (unit ? `${s} ${unit}` : s);

/** One figure's text: "+260 ms", "±3 ms (within noise)", "+1". */
export function browserFigure(d: BrowserDelta, key: (typeof ROWS)[number]['key']): string {
  const row = ROWS.find((r) => r.key === key)!;
  const x = d[key];
  if (key !== 'requests' && key !== 'render_blocking' && browserWithinNoise(d, key)) return `${withUnit(`±${Math.abs(x).toFixed(row.digits)}`, row.unit)} (within noise)`;
  return withUnit(signed(x, row.digits), row.unit);
}

/**
 * One of its files: "/wp-content/plugins/acme/app.js (script, handle acme-app): 300.0 KB, render-blocking, 250 ms main
 * thread"; a file the site answered with an error reads "answered 404" (a request for nothing, render-blocking or not).
 */
export function assetLine(a: BrowserDelta['assets'][number]): string {
  const what = [a.type, a.handle ? `handle ${plainText(a.handle, 60)}` : null].filter(Boolean).join(', ');
  const extra = [a.status ? `answered ${a.status}: a request for nothing` : null, a.render_blocking ? 'render-blocking' : null, a.main_thread_ms !== undefined ? `${a.main_thread_ms.toFixed(0)} ms main thread` : null].filter(Boolean).join(', ');
  return `${plainText(a.url, 120)} (${what}): ${a.bytes_kb.toFixed(1)} KB${extra ? `, ${extra}` : ''}`;
}

export function browserLines(r: LocalRecord): string[] {
  const info = r.local.browser;
  if (!info) return [];
  if ('unavailable' in info) return [`Browser: not measured — ${plainText(info.unavailable, 300)}.`];
  const d = r.contexts.homepage?.browser;
  const b = r.local.baseline.homepage?.browser;
  const lines = [`Browser — what the visitor pays on the homepage: ${profileText(info)}.`];
  if (!d || !b) return [...lines, 'Browser: not measured (the homepage was not measured).'];
  const rows = [['FIGURE', 'WITH THE COMPONENT', 'SPREAD (IQR)', 'CLEAN SITE']];
  for (const row of ROWS) {
    const spread = row.key === 'requests' || row.key === 'render_blocking' ? '' : withUnit(d.spread[row.key].toFixed(row.unit === 'ms' ? 1 : row.digits), row.unit);
    rows.push([row.label, browserFigure(d, row.key), spread, withUnit(b[row.key].toFixed(row.digits), row.unit)]);
  }
  lines.push(textTable(rows));
  if (d.assets.length) {
    lines.push(`Its own files on the homepage (${countNoun(d.assets.length, 'file')}, per load):`);
    for (const a of d.assets.slice(0, 12)) lines.push(`  ${assetLine(a)}`);
    if (d.assets.length > 12) lines.push(`  … and ${d.assets.length - 12} more (--json has them all)`);
  }
  // Whether its files load at all, the page's own HTML growth, the shifts it causes (browserPageText.ts).
  const note = ownFilesNote(d);
  if (note) lines.push(note);
  lines.push(...documentLines(d.document), ...shiftLines(d));
  if (info.cut) lines.push(`Warning: ${countNoun(info.cut, 'load')} never settled within 30 s and ${info.cut === 1 ? 'was' : 'were'} cut there.`);
  if (info.failed_requests?.length) lines.push(`Warning: ${countNoun(info.failed_requests.length, 'request')} of the site failed in most loads (the figures leave out what they would have cost): ${info.failed_requests.slice(0, 5).map((x) => plainText(x, 120)).join(', ')}${info.failed_requests.length > 5 ? ' …' : ''}.`);
  if (info.blocked?.length) lines.push(`The page tried to reach outside the site (refused): ${info.blocked.slice(0, 5).map((x) => plainText(x, 60)).join(', ')}${info.blocked.length > 5 ? ' …' : ''}.`);
  lines.push(info.sandbox === 'bubblewrap' ? 'Chromium ran in bubblewrap with a network of its own: it reached the throwaway site alone.' : `Chromium ran without a sandbox (${plainText(info.sandbox_note ?? '', 200)}).`);
  return lines;
}

function profileText(i: BrowserInfo): string {
  const p = i.profile;
  return `Chromium ${i.chromium}, ${i.device} (${p.throughput_kbps.toLocaleString('en-US', { maximumFractionDigits: 1 })} kb/s, ${p.rtt_ms} ms RTT${p.cpu_slowdown > 1 ? `, ${p.cpu_slowdown}× CPU slowdown` : ''}, ${p.width}×${p.height}), ${countNoun(i.rounds, 'load')} per side${i.confirmation_rounds ? ` (${i.confirmation_rounds} of them a confirmation pass)` : ''}, fresh each`;
}
