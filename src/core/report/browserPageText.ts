// The parts of the browser block that say more than the figures: whether the component's files load at all, the
// page's own HTML growth itemised (what it printed inline, by WordPress's ids, and the rest as markup), and the layout
// shifts it causes by the element moved. Plain text: every name from the page (or the measured code) as measuredLine
// writes it (a line break as \n).
import type { BrowserDelta, DocumentGrowth, InlineKind } from '../measure/browser/types';
import { countNoun } from '../present/format';
import { measuredLine } from '../measure/component/measuredText';

/**
 * When none of the component's files loaded on the homepage: "None of its files load on the homepage (it has 12
 * front-end files …)" or "It has no front-end files …"; undefined when some did (or the record does not say).
 */
export function ownFilesNote(d: Pick<BrowserDelta, 'assets' | 'front_end_files'>): string | undefined {
  if (d.assets.length || d.front_end_files === undefined) return undefined;
  if (d.front_end_files > 0) return `None of its files load on the homepage (it has ${countNoun(d.front_end_files, 'front-end file')}: scripts, styles, images or fonts).`;
  return 'It has no front-end files (no scripts, styles, images or fonts in its folder).';
}

const KIND_TEXT: Record<InlineKind, string> = {
  localize: 'wp_localize_script data of',
  before: 'wp_add_inline_script before',
  after: 'wp_add_inline_script after',
  'inline-css': 'wp_add_inline_style of',
  script: 'inline script',
  style: 'inline style',
};

const signedKb = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x).toFixed(1)} KB`;

/** The page's own HTML growth: on the wire and decoded, then each inline part and the markup. Nothing when it did not grow. */
export function documentLines(g: DocumentGrowth | undefined): string[] {
  if (!g || (!g.inline.length && Math.abs(g.html_kb) < 0.1 && Math.abs(g.bytes_kb) < 0.1)) return [];
  const out = [`The page's own HTML: ${signedKb(g.bytes_kb)} on the wire, ${signedKb(g.html_kb)} decoded${g.inline.length ? ':' : '.'}`];
  if (!g.inline.length) return out;
  for (const p of g.inline.slice(0, 8)) out.push(`  ${measuredLine(p.id, 80)} (${KIND_TEXT[p.kind]}${p.handle ? ` ${measuredLine(p.handle, 60)}` : ''}): ${p.bytes_kb.toFixed(1)} KB`);
  if (g.inline.length > 8) out.push(`  … and ${g.inline.length - 8} more inline parts (--json has them all)`);
  out.push(`  the rest of the markup: ${signedKb(g.markup_kb)}`);
  return out;
}

/** The layout shifts the component causes, by the element moved; --findings puts each one it can place at its line. */
export function shiftLines(d: Pick<BrowserDelta, 'layout_shifts'>): string[] {
  const s = d.layout_shifts ?? [];
  if (!s.length) return [];
  const out = [`Layout shifts with the component (per load, beyond the clean site's):`];
  for (const x of s.slice(0, 5)) {
    const ins = x.inserted?.length ? `, after a script inserted ${x.inserted.map((n) => measuredLine(n.node, 80)).join(', ')} before it` : '';
    out.push(`  ${measuredLine(x.node, 120)} moves: ${x.cls.toFixed(3)} (in ${countNoun(x.loads, 'load')})${ins}`);
  }
  if (s.length > 5) out.push(`  … and ${s.length - 5} more (--json has them all)`);
  return out;
}
