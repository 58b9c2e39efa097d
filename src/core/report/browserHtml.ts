// What the visitor pays, as a page: `measure PATH --browser --format html` (one self-contained file: inline CSS and
// SVG, frames as data: images, no script, no request out) and the editor's webview after Measure Locally (the same
// body, styled by the theme: media/browser.css). The figures beside the clean site's, the component's own files, a
// waterfall of the homepage's requests per side on one time scale (the component's own in colour, FCP, LCP and the
// load event marked) and a filmstrip of both sides at the same times. Every string from the record is escaped; a
// frame that is not base64 is left out. `browserMarkdown`: the figures and files for a pull request or an issue.
import type { BrowserDelta, BrowserFigures, BrowserInfo, WaterfallRequest, WaterfallSide } from '../measure/browser/types';
import { frameAt } from '../measure/browser/waterfall';
import type { LocalRecord } from '../measure/record/method';
import { countNoun } from '../present/format';
import { escapeMarkdown } from '../present/markdownEscape';
import { escapeHtml } from '../present/outcome';
import { browserFigure, ROWS } from './browserText';
import { htmlHead } from './htmlPage';
import { plainText } from './plain';

/**
 * The waterfall's and the filmstrip's rules over colour variables: the standalone page gives them its light, printable
 * colours (BROWSER_CSS); the editor's webview gives them the theme's (media/browser.css) and these rules with a nonce.
 */
export const BROWSER_RULES = `
svg.waterfall .wf-bar { fill: var(--wf-other); }
svg.waterfall .wf-bar.own { fill: var(--wf-own); }
svg.waterfall .wf-bar.refused { fill: none; stroke: var(--wf-refused); stroke-dasharray: 3 2; }
svg.waterfall .wf-wait { fill: var(--wf-wait); }
svg.waterfall .wf-wait.own { fill: var(--wf-own); opacity: 0.35; }
svg.waterfall text { font-size: 11px; }
svg.waterfall text.own { font-weight: 700; }
svg.waterfall .wf-grid { stroke: var(--line); }
svg.waterfall .wf-mark { stroke-width: 2; }
svg.waterfall .wf-mark.fcp { stroke: var(--wf-fcp); }
svg.waterfall .wf-mark.lcp { stroke: var(--wf-lcp); }
svg.waterfall .wf-mark.load { stroke: var(--wf-load); stroke-dasharray: 4 3; }
.legend span.swatch { display: inline-block; width: 14px; height: 10px; margin: 0 4px 0 12px; vertical-align: baseline; }
.legend .swatch.own { background: var(--wf-own); }
.legend .swatch.other { background: var(--wf-other); }
.legend .swatch.wait { background: var(--wf-wait); }
.legend .swatch.fcp { background: var(--wf-fcp); width: 3px; }
.legend .swatch.lcp { background: var(--wf-lcp); width: 3px; }
.legend .swatch.load { background: var(--wf-load); width: 3px; }
table.filmstrip th, table.filmstrip td { text-align: center; padding: 3px; }
table.filmstrip th[scope="row"] { text-align: left; white-space: nowrap; }
table.filmstrip img { display: block; margin: 0 auto; border: 1px solid var(--line); }
table.filmstrip td.blank svg { width: auto; margin: 0 auto; }
table.filmstrip td.blank rect { fill: none; stroke: var(--line); stroke-dasharray: 3 2; }
table.filmstrip td.blank text { font-size: 10px; fill: var(--muted); }
`;

/** The standalone page's own colours and width, and the rules. */
export const BROWSER_CSS = `
:root { --wf-own: #d9480f; --wf-other: #8c959f; --wf-wait: #d0d7de; --wf-fcp: #1a7f37; --wf-lcp: #8250df; --wf-load: #0969da; --wf-refused: #c62828; }
body { max-width: 1000px; }${BROWSER_RULES}`;

const ms = (n: number) => `${Math.round(n)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A path short enough for the waterfall's label column: without its query, the end kept. */
function shortUrl(url: string, max = 34): string {
  const p = plainText(url.replace(/[?#].*$/, '') || url, 300);
  return p.length > max ? `…${p.slice(p.length - max + 1)}` : p;
}

/** The tick step of a time axis: at most 8 ticks. */
function tickStep(maxMs: number): number {
  return [50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000].find((s) => maxMs / s <= 8) ?? 20_000;
}

/** The time scale both sides' waterfalls share: the later end of a request or a mark, with a little room. */
export function waterfallScale(sides: readonly WaterfallSide[]): number {
  const ends = sides.flatMap((s) => [s.fcp_ms ?? 0, s.lcp_ms ?? 0, s.load_ms ?? 0, ...s.requests.map((r) => r.end_ms ?? s.end_ms)]);
  return Math.max(100, ...ends) * 1.04;
}

function requestTitle(r: WaterfallRequest, endMs: number, unfinished: boolean): string {
  const facts = [r.type, r.failed ? `refused (${r.failed})` : kb(r.bytes), `${Math.round(r.start_ms)}–${Math.round(endMs)} ms`];
  if (r.render_blocking) facts.push('render-blocking');
  if (unfinished) facts.push('unfinished when observation ended');
  if (r.own) facts.push('its own file');
  return `${plainText(r.url, 300)} — ${facts.join(', ')}`;
}

/** One side's waterfall as inline SVG: a row per request (waiting, then receiving), the marks as vertical lines. */
export function waterfallSvg(side: WaterfallSide, maxMs: number, label: string): string {
  const width = 720;
  const left = 240;
  const plot = width - left - 10;
  const row = 15;
  const top = 22;
  const x = (t: number) => left + (Math.min(Math.max(0, t), maxMs) / maxMs) * plot;
  const height = top + side.requests.length * row + 8;
  const out: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" class="waterfall" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(`Requests of the homepage, ${label}`)}">`, `<title>${escapeHtml(`Requests of the homepage, ${label}`)}</title>`];
  const step = tickStep(maxMs);
  for (let t = 0; t <= maxMs; t += step) out.push(`<line class="wf-grid" x1="${x(t).toFixed(1)}" y1="${top - 6}" x2="${x(t).toFixed(1)}" y2="${height - 4}"/><text x="${x(t).toFixed(1)}" y="${top - 9}" text-anchor="middle">${t} ms</text>`);
  side.requests.forEach((r, i) => {
    const y = top + i * row;
    const unfinished = r.end_ms === null;
    const end = r.end_ms ?? side.end_ms;
    const resp = Math.min(r.response_ms ?? end, end);
    const cls = r.own ? 'own' : r.failed ? 'refused' : r.type;
    const title = escapeHtml(requestTitle(r, end, unfinished));
    out.push(
      `<g><title>${title}</title><text x="${left - 6}" y="${y + 11}" text-anchor="end"${r.own ? ' class="own"' : ''}>${escapeHtml(shortUrl(r.url))}</text>` +
        (resp > r.start_ms ? `<rect class="wf-wait${r.own ? ' own' : ''}" x="${x(r.start_ms).toFixed(1)}" y="${y + 3}" width="${Math.max(0.5, x(resp) - x(r.start_ms)).toFixed(1)}" height="${row - 5}"/>` : '') +
        `<rect class="wf-bar ${cls}" x="${x(resp).toFixed(1)}" y="${y + 3}" width="${Math.max(1.5, x(end) - x(resp)).toFixed(1)}" height="${row - 5}"/></g>`,
    );
  });
  const marks: [string, number | null][] = [['fcp', side.fcp_ms], ['lcp', side.lcp_ms], ['load', side.load_ms]];
  for (const [k, t] of marks) if (t !== null) out.push(`<line class="wf-mark ${k}" x1="${x(t).toFixed(1)}" y1="${top - 4}" x2="${x(t).toFixed(1)}" y2="${height - 4}"><title>${k === 'load' ? 'load event' : k.toUpperCase()} ${ms(t)}</title></line>`);
  out.push('</svg>');
  return out.join('');
}

/** The filmstrip: both sides at the same times, the frame each showed then (the last one captured before). */
export function filmstripHtml(w: NonNullable<BrowserInfo['waterfall']>, info: BrowserInfo, name: string): string {
  const wide = info.profile.width >= info.profile.height;
  const fw = wide ? 96 : 56;
  const fh = Math.round((fw * info.profile.height) / info.profile.width);
  const rows: [string, WaterfallSide][] = [['Clean site', w.baseline], [`With ${name}`, w.measured]];
  const out = ['<table class="filmstrip"><thead><tr><th scope="col"><span class="note">ms from navigation</span></th>', ...w.filmstrip_ms.map((t) => `<th scope="col">${t} ms</th>`), '</tr></thead><tbody>'];
  for (const [label, side] of rows) {
    const frames = side.frames.filter((f) => typeof f.jpeg === 'string' && f.jpeg.length < 400_000 && BASE64.test(f.jpeg) && Number.isFinite(f.at_ms));
    out.push(`<tr><th scope="row">${escapeHtml(label)}</th>`);
    for (const t of w.filmstrip_ms) {
      const f = frameAt(frames, t);
      out.push(f ? `<td><img src="data:image/jpeg;base64,${f.jpeg}" width="${fw}" height="${fh}" alt="${escapeHtml(`${label} at ${t} ms`)}"></td>` : `<td class="blank"><svg viewBox="0 0 ${fw} ${fh}" width="${fw}" height="${fh}" role="img" aria-label="nothing painted"><rect x="0.5" y="0.5" width="${fw - 1}" height="${fh - 1}"/><text x="${fw / 2}" y="${Math.round(fh / 2) + 4}" text-anchor="middle">nothing painted</text></svg></td>`);
    }
    out.push('</tr>');
  }
  out.push('</tbody></table>');
  return out.join('');
}

function figuresTable(d: BrowserDelta, b: BrowserFigures): string {
  const out = ['<table class="browser-figures"><thead><tr><th scope="col">Figure</th><th scope="col">Clean site</th><th scope="col">With the component</th><th scope="col">Difference</th><th scope="col">Spread (IQR)</th></tr></thead><tbody>'];
  for (const row of ROWS) {
    const fmt = (v: number) => `${v.toFixed(row.digits)}${row.unit ? ` ${row.unit}` : ''}`;
    const spread = row.key === 'requests' || row.key === 'render_blocking' ? '' : fmt(d.spread[row.key]);
    const text = browserFigure(d, row.key);
    out.push(`<tr><th scope="row">${escapeHtml(row.label)}</th><td>${escapeHtml(fmt(b[row.key]))}</td><td>${escapeHtml(fmt(b[row.key] + d[row.key]))}</td><td${/within noise/.test(text) ? ' class="within"' : ''}>${escapeHtml(text)}</td><td>${escapeHtml(spread)}</td></tr>`);
  }
  out.push('</tbody></table>');
  return out.join('');
}

function assetsTable(d: BrowserDelta): string {
  if (!d.assets.length) return '<p class="note">None of its own files loads on the homepage.</p>';
  const out = ['<table class="browser-assets"><thead><tr><th scope="col" class="name">File</th><th scope="col" class="name">Handle</th><th scope="col">Kind</th><th scope="col">Bytes</th><th scope="col">Main thread</th><th scope="col">Render-blocking</th></tr></thead><tbody>'];
  for (const a of d.assets.slice(0, 40)) {
    out.push(`<tr><td class="name"><code>${escapeHtml(plainText(a.url, 200))}</code></td><td class="name">${a.handle ? `<code>${escapeHtml(plainText(a.handle, 80))}</code>` : '–'}</td><td>${escapeHtml(a.type)}</td><td>${a.bytes_kb.toFixed(1)} KB</td><td>${a.main_thread_ms !== undefined ? ms(a.main_thread_ms) : '–'}</td><td>${a.render_blocking ? 'yes' : 'no'}</td></tr>`);
  }
  out.push('</tbody></table>');
  if (d.assets.length > 40) out.push(`<p class="note">… and ${d.assets.length - 40} more (--json has them all).</p>`);
  return out.join('');
}

function profileWords(i: BrowserInfo): string {
  const p = i.profile;
  return `${i.device} profile (${p.throughput_kbps.toLocaleString('en-US', { maximumFractionDigits: 1 })} kb/s, ${p.rtt_ms} ms RTT${p.cpu_slowdown > 1 ? `, ${p.cpu_slowdown}× CPU slowdown` : ''}, ${p.width}×${p.height}), Chromium ${i.chromium}, ${countNoun(i.rounds, 'load')} per side`;
}

/** The report's body: headings, figures, files, waterfall, filmstrip (the page and the webview wrap it). */
export function browserReportBody(r: LocalRecord): string[] {
  const name = plainText(r.name || r.slug, 80);
  const info = r.local.browser;
  const out = [`<header><h1>${escapeHtml(`What the visitor pays: ${name}`)}</h1>`];
  if (!info || 'unavailable' in info) {
    out.push(`<p class="meta">${escapeHtml(`${r.type} ${r.slug}, measured locally ${r.benchmarked_at.slice(0, 10)}`)}</p></header>`);
    out.push(`<p>${escapeHtml(`Browser figures: not measured — ${info ? plainText(info.unavailable, 300) : 'the run had no --browser'}.`)}</p>`);
    return out;
  }
  out.push(`<p class="meta">${escapeHtml(`The homepage, ${profileWords(info)}; measured locally ${r.benchmarked_at.slice(0, 10)}.`)}</p></header>`);
  const d = r.contexts.homepage?.browser;
  const b = r.local.baseline.homepage?.browser;
  if (!d || !b) return [...out, '<p>Browser figures: not measured (the homepage was not measured).</p>'];
  out.push('<h2>The figures: the medians with the component − the clean site</h2>', figuresTable(d, b), '<p class="note">A difference inside its spread (the interquartile range of the per-round differences) or under its floor reads “within noise”.</p>');
  out.push('<h2>Its own files on the homepage</h2>', assetsTable(d));
  const w = info.waterfall;
  if (w) {
    const max = waterfallScale([w.baseline, w.measured]);
    out.push(
      '<h2>Requests of the homepage</h2>',
      '<p class="legend"><span class="swatch own"></span>its own files<span class="swatch other"></span>other requests<span class="swatch wait"></span>waiting for the first byte<span class="swatch fcp"></span>FCP<span class="swatch lcp"></span>LCP<span class="swatch load"></span>load event</p>',
    );
    for (const [label, side] of [['Clean site', w.baseline], [`With ${name}`, w.measured]] as const) {
      out.push(`<h3>${escapeHtml(label)}</h3>`, `<figure>${waterfallSvg(side, max, label)}</figure>`);
      if (side.cut) out.push(`<p class="note over">${escapeHtml('This load never settled and was cut at the time limit: the requests drawn to its end had not finished.')}</p>`);
      if (side.more_requests) out.push(`<p class="note">${escapeHtml(`… and ${countNoun(side.more_requests, 'more request')}, not drawn.`)}</p>`);
    }
    out.push('<h2>Filmstrip: both sides at the same times</h2>', filmstripHtml(w, info, name));
    out.push('<p class="note">The waterfall and the filmstrip are one more load of each side after the measured ones, with frames captured (capturing costs the browser work, so that load is not counted); the figures are the medians of the measured loads.</p>');
  }
  if (info.blocked?.length) out.push(`<p class="note">${escapeHtml(`The page tried to reach outside the site (refused): ${info.blocked.slice(0, 5).map((x) => plainText(x, 60)).join(', ')}${info.blocked.length > 5 ? ' …' : ''}.`)}</p>`);
  return out;
}

/** `measure PATH --browser --format html`: the self-contained page. */
export function browserHtml(r: LocalRecord): string {
  return [...htmlHead(`What the visitor pays — ${plainText(r.name || r.slug, 80)}`, BROWSER_CSS), ...browserReportBody(r), '</body>', '</html>', ''].join('\n');
}

/** `measure PATH --browser --format markdown`: the figures and the component's files. */
export function browserMarkdown(r: LocalRecord): string {
  const info = r.local.browser;
  const lines = [`### What the visitor pays: ${escapeMarkdown(plainText(r.name || r.slug, 80))}`, ''];
  const d = r.contexts.homepage?.browser;
  const b = r.local.baseline.homepage?.browser;
  if (!info || 'unavailable' in info || !d || !b) return [...lines, escapeMarkdown(`Browser figures: not measured — ${info && 'unavailable' in info ? plainText(info.unavailable, 300) : 'the homepage was not measured'}.`), ''].join('\n');
  lines.push(escapeMarkdown(`The homepage, ${profileWords(info)}.`), '', '| Figure | With the component | Spread (IQR) | Clean site |', '|:--|--:|--:|--:|');
  for (const row of ROWS) {
    const fmt = (v: number) => `${v.toFixed(row.digits)}${row.unit ? ` ${row.unit}` : ''}`;
    lines.push(`| ${row.label} | ${browserFigure(d, row.key)} | ${row.key === 'requests' || row.key === 'render_blocking' ? '' : fmt(d.spread[row.key])} | ${fmt(b[row.key])} |`);
  }
  if (d.assets.length) {
    lines.push('', '| Its own file | Handle | Bytes | Main thread | Render-blocking |', '|:--|:--|--:|--:|:--|');
    for (const a of d.assets.slice(0, 40)) lines.push(`| ${escapeMarkdown(plainText(a.url, 200))} | ${a.handle ? escapeMarkdown(plainText(a.handle, 80)) : '–'} | ${a.bytes_kb.toFixed(1)} KB | ${a.main_thread_ms !== undefined ? ms(a.main_thread_ms) : '–'} | ${a.render_blocking ? 'yes' : 'no'} |`);
  }
  return [...lines, ''].join('\n');
}
