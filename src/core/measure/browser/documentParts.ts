// The HTML document's own growth, pure (unit-tested on recorded HTML): what one document holds — its size and each
// inline `<script id>` / `<style id>` WordPress printed (wp_localize_script's "HANDLE-js-extra", wp_add_inline_script's
// "HANDLE-js-before" / "-after", wp_add_inline_style's "HANDLE-inline-css") — and, over the loads of both sides, what
// the component added: the inline parts that grew or are new, by id, and the rest of the HTML's growth (the markup).
import { median } from '../record/method';
import type { BrowserLoad, DocumentGrowth, DocumentParts, InlineKind } from './types';

/** Inline parts are kept per document at most this many (a page printing thousands is said by its markup). */
const MAX_INLINE = 200;
/** An inline part that grew by less than this (a nonce, a version) is no part of the growth: 0.05 KB. */
const MIN_GROWTH_BYTES = 52;

const ELEMENT = /<(script|style)\b([^>]*)>([\s\S]*?)<\/\1\s*>/gi;
const ID = /(?:^|\s)id\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;
const SRC = /(?:^|\s)src\s*=/i;

/** One document's size and its inline scripts and styles with an id (a script with a src is a file, no inline part). */
export function documentParts(html: string): DocumentParts {
  const inline: DocumentParts['inline'] = [];
  for (const m of html.matchAll(ELEMENT)) {
    const tag = m[1].toLowerCase() as 'script' | 'style';
    if (tag === 'script' && SRC.test(m[2])) continue;
    const id = ID.exec(m[2]);
    const name = id ? (id[1] ?? id[2] ?? id[3]) : '';
    if (!name) continue;
    inline.push({ id: name.slice(0, 200), tag, bytes: Buffer.byteLength(m[0], 'utf8') });
    if (inline.length >= MAX_INLINE) break;
  }
  return { html_bytes: Buffer.byteLength(html, 'utf8'), inline };
}

/** What an inline part's id says (WordPress's own suffixes), and the handle it belongs to. */
export function inlineKind(id: string, tag: 'script' | 'style'): { kind: InlineKind; handle?: string } {
  const m = /^(.+)-(js-extra|js-before|js-after|inline-css)$/.exec(id);
  if (!m) return { kind: tag };
  const kind: InlineKind = m[2] === 'js-extra' ? 'localize' : m[2] === 'js-before' ? 'before' : m[2] === 'js-after' ? 'after' : 'inline-css';
  return { kind, handle: m[1] };
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/**
 * The document's growth (with the component − clean, medians over the loads whose body was read): on the wire, the
 * HTML decoded, each inline part by id that grew by 0.05 KB or more (a part a load lacks counts 0 there), largest
 * first, and the markup (the HTML's growth less those parts). Undefined when a side has no body read.
 */
export function documentGrowth(baseline: readonly BrowserLoad[], measured: readonly BrowserLoad[]): DocumentGrowth | undefined {
  const b = baseline.filter((l) => l.document);
  const m = measured.filter((l) => l.document);
  if (!b.length || !m.length) return undefined;
  const wire = (ls: BrowserLoad[]) => median(ls.map((l) => l.requests.find((r) => r.type === 'document')?.bytes ?? 0));
  const html = (ls: BrowserLoad[]) => median(ls.map((l) => l.document!.html_bytes));
  const tags = new Map<string, 'script' | 'style'>();
  for (const l of [...b, ...m]) for (const p of l.document!.inline) tags.set(p.id, p.tag);
  const sizeOf = (ls: BrowserLoad[], id: string) => median(ls.map((l) => l.document!.inline.filter((p) => p.id === id).reduce((t, p) => t + p.bytes, 0)));
  const grown = [...tags]
    .map(([id, tag]) => ({ id, tag, bytes: sizeOf(m, id) - sizeOf(b, id) }))
    .filter((p) => p.bytes >= MIN_GROWTH_BYTES)
    .sort((x, y) => y.bytes - x.bytes || x.id.localeCompare(y.id));
  const htmlGrowth = html(m) - html(b);
  const inlineBytes = grown.reduce((t, p) => t + p.bytes, 0);
  return {
    bytes_kb: round1((wire(m) - wire(b)) / 1024),
    html_kb: round1(htmlGrowth / 1024),
    inline: grown.map((p) => ({ id: p.id, ...inlineKind(p.id, p.tag), bytes_kb: round1(p.bytes / 1024) })),
    markup_kb: round1((htmlGrowth - inlineBytes) / 1024),
  };
}
