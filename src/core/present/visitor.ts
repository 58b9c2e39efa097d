// What the visitor pays (`measure --browser`), in the editor's words: one line beside the server figures in the
// component's hover ("Visitor (homepage, desktop): +295 KB, +4 requests, LCP +176 ms, TBT +42 ms, CLS +0.058"), its
// heaviest own files, the way to the report (waterfall and filmstrip), and the tree's row. A figure inside its spread
// reads "within noise"; no figures read "not measured" with why (Chromium missing: the command to install it).
import { browserWithinNoise } from '../measure/browser/figures';
import type { BrowserDelta } from '../measure/browser/types';
import type { LocalRecord } from '../measure/record/method';
import type { ComponentKind } from '../model';
import { l10n } from '../l10n';
import { escapeMarkdown } from './markdownEscape';
import { plural } from './format';

export const BROWSER_REPORT_COMMAND = 'wpBench.showBrowserReport';

const sign = (x: number) => (x > 0 ? '+' : x < 0 ? '−' : '±');
const num = (x: number, digits: number) => Math.abs(x).toFixed(digits);
const kbText = (x: number) => num(x, Math.abs(x) >= 10 ? 0 : 1);
const clsText = (x: number) => (x === 0 ? '0' : num(x, 3));

type Key = 'bytes_kb' | 'lcp_ms' | 'tbt_ms' | 'cls';

/** One figure: "+295 KB", "LCP +176 ms", "CLS ±0 (within noise)". */
function figure(d: BrowserDelta, key: Key): string {
  const within = browserWithinNoise(d, key);
  const x = d[key];
  const value = key === 'bytes_kb' ? l10n.t('{0} KB', kbText(x)) : key === 'cls' ? clsText(x) : l10n.t('{0} ms', num(x, 0));
  const signed = `${within ? '±' : sign(x)}${value}`;
  const text = key === 'bytes_kb' ? signed : `${key === 'lcp_ms' ? 'LCP' : key === 'tbt_ms' ? 'TBT' : 'CLS'} ${signed}`; // l10n-ignore: metric names
  return within ? l10n.t('{0} (within noise)', text) : text;
}

function requestsText(n: number, short = false): string {
  const s = `${sign(n)}${Math.abs(n)}`;
  if (short) return l10n.t('{0} req', s);
  return plural(Math.abs(n), l10n.t('{0} request', s), l10n.t('{0} requests', s));
}

/** The record's browser figures, or why there are none (undefined: a record without --browser). */
function browserOf(r: LocalRecord): { d: BrowserDelta; device: string } | { why: string } | undefined {
  const info = r.local.browser;
  if (!info) return undefined;
  if ('unavailable' in info) return { why: info.unavailable };
  const d = r.contexts.homepage?.browser;
  return d ? { d, device: info.device } : { why: l10n.t('the homepage was not measured') };
}

/** "Visitor (homepage, desktop): +295 KB, +4 requests, LCP +176 ms, TBT +42 ms, CLS +0.058", or why not measured. */
export function visitorLine(r: LocalRecord): string | undefined {
  const b = browserOf(r);
  if (!b) return undefined;
  if ('why' in b) return l10n.t('Visitor: not measured — {0}', b.why);
  return `${l10n.t('Visitor (homepage, {0}):', b.device)} ${figures(b.d).join(', ')}`;
}

function figures(d: BrowserDelta, short = false): string[] {
  return [figure(d, 'bytes_kb'), requestsText(d.requests, short), figure(d, 'lcp_ms'), figure(d, 'tbt_ms'), figure(d, 'cls')];
}

/** The hover's lines: the visitor line (with the link to the report) under the server figures, its heaviest own files. */
export function visitorHoverLines(r: LocalRecord, link?: { kind: ComponentKind; slug: string }): string[] {
  const b = browserOf(r);
  if (!b) return [];
  if ('why' in b) return ['', escapeMarkdown(visitorLine(r)!)];
  const head = l10n.t('Visitor (homepage, {0}):', b.device);
  // The link on the visitor line itself: a hover as tall as VS Code allows would cut a last paragraph off.
  const report = link ? ` · [${escapeMarkdown(l10n.t('Show the waterfall and filmstrip'))}](command:${BROWSER_REPORT_COMMAND}?${encodeURIComponent(JSON.stringify([{ kind: link.kind, slug: link.slug }]))})` : '';
  const lines = ['', `**${escapeMarkdown(head)}** ${escapeMarkdown(figures(b.d).join(', '))}${report}`];
  if (b.d.assets.length) {
    const files = b.d.assets.slice(0, 4).map((a) => {
      const facts = [l10n.t('{0} KB', a.bytes_kb.toFixed(1)), ...(a.main_thread_ms !== undefined ? [l10n.t('{0} ms main thread', a.main_thread_ms.toFixed(0))] : []), ...(a.render_blocking ? [l10n.t('render-blocking')] : [])];
      return `${a.url.replace(/^.*\//, '').slice(0, 60)} ${facts.join(', ')}`;
    });
    const more = b.d.assets.length > 4 ? ` ${l10n.t('… and {0} more', b.d.assets.length - 4)}` : '';
    lines.push('', `_${escapeMarkdown(l10n.t('Its own files: {0}', files.join(' · ')) + more)}_`);
  }
  return lines;
}

export interface VisitorTreeText {
  label: string;
  description: string;
  spoken: string;
}

/** The tree's row under a measured component: "Visitor (desktop)" and its figures, short. */
export function visitorTreeText(r: LocalRecord): VisitorTreeText | undefined {
  const b = browserOf(r);
  if (!b) return undefined;
  if ('why' in b) return { label: l10n.t('Visitor'), description: l10n.t('not measured — {0}', b.why), spoken: visitorLine(r)! };
  return { label: l10n.t('Visitor ({0})', b.device), description: figures(b.d, true).join(' · '), spoken: visitorLine(r)! };
}
