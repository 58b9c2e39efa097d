// An add-on measured without what it needs: the plugins its `Requires Plugins:` header names (WordPress 6.5+), or, with
// no header, its own admin notice saying what it requires (Astra Pro without Astra). A throwaway site holds only the
// component, so such an add-on usually does nothing there: when every figure is within noise it gets no grade but the
// words "did nothing measurable here — it needs …"; when it costs something the figures stand and the need is said.
// Pure (the record, the notices the rounds read); may import component/ (measuredText) and method.ts.
import { measuredLine } from '../component/measuredText';
import { CONTEXTS, type LocalRecord, type NeedsInfo } from './method';

/** The floors under which a figure is noise, as the table's "within noise" (report/measureText.ts). */
const TTFB_FLOOR_MS = 1;
const MEMORY_FLOOR_KB = 16;

/**
 * Words that make a notice one about a missing parent ("requires WooCommerce to be installed and active", "you need to
 * activate Elementor", "WooCommerce is not active"). "Install" or "activate" alone is not enough: a welcome notice
 * ("Thank you for installing Astra! … Install the Starter Templates plugin to get started", a real theme's) asks for
 * nothing the component needs.
 */
const NEEDS_WORDS = /\b(requires?|required|needs?|depends on|(?:is|are) not (?:installed|active|activated)|must be (?:installed|active|activated)|to be (?:installed|active|activated))\b/i;

/** The texts of an admin page's notices (`<div class="notice …">`, `error`, `updated`), one line each. */
export function adminNotices(html: string): string[] {
  const out: string[] = [];
  const re = /<div\b[^>]*\bclass\s*=\s*["']([^"']*)["'][^>]*>([\s\S]*?)<\/div>/gi;
  for (let m = re.exec(html); m && out.length < 50; m = re.exec(html)) {
    if (!/(^|\s)(notice|error|updated)(\s|$|-)/.test(m[1])) continue;
    const text = m[2]
      .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<[^>]*>/g, ' ')
      .replace(/&(amp|lt|gt|quot|#0?39|nbsp|rsquo|lsquo|ldquo|rdquo);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#039': "'", '#39': "'", nbsp: ' ', rsquo: '’', lsquo: '‘', ldquo: '“', rdquo: '”' })[e] ?? ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (text) out.push(measuredLine(text, 200));
  }
  return out;
}

/** The component's own notice about what it needs: on its side's admin page, not on the clean site's. */
export function ownNeedsNotice(measured: readonly string[], clean: readonly string[]): string | undefined {
  const cleanSet = new Set(clean);
  return measured.find((t) => !cleanSet.has(t) && NEEDS_WORDS.test(t));
}

/**
 * Nothing measurable: no query and no memory beyond the floor in any measured context (both are exact), and no TTFB
 * above its noise in every context (a cost of loading the add-on shows in all three; one context's TTFB beyond its
 * spread is what a few rounds on a busy machine give a plugin that does nothing). False when no context was measured.
 */
export function nothingMeasurable(r: LocalRecord): boolean {
  const measured = CONTEXTS.filter((c) => r.contexts[c]);
  if (!measured.length) return false;
  const exact = measured.every((c) => r.contexts[c]!.queries_delta === 0 && Math.abs(r.contexts[c]!.memory_delta_kb) <= Math.max(r.local.spread[c]?.memory_kb ?? 0, MEMORY_FLOOR_KB));
  const slower = measured.every((c) => r.contexts[c]!.ttfb_delta_ms > Math.max(r.local.spread[c]?.ttfb_ms ?? 0, TTFB_FLOOR_MS));
  return exact && !slower;
}

/**
 * The record with `local.needs` when the component needs plugins the site has not (`requires`) or said so in a notice;
 * no grade when it did nothing measurable. Unchanged otherwise.
 */
export function withNeeds(r: LocalRecord, requires: readonly string[] | undefined, notice: string | undefined): LocalRecord {
  const plugins = [...(requires ?? [])];
  if (!plugins.length && !notice) return r;
  const didNothing = nothingMeasurable(r);
  const what = plugins.length ? `${plugins.join(', ')} (its Requires Plugins header), which this site does not have` : `what its own admin notice says: "${notice}"`;
  const note = didNothing ? `did nothing measurable here — it needs ${what}` : `it needs ${what}: the figures are what it costs without ${plugins.length > 1 ? 'them' : 'it'}`;
  const needs: NeedsInfo = { plugins, ...(!plugins.length && notice ? { notice } : {}), did_nothing: didNothing, note };
  return { ...r, ...(didNothing ? { speed_score: null } : {}), local: { ...r.local, needs } };
}

/**
 * The order to activate a site's plugins in: each after the members its Requires Plugins names (WordPress 6.5+
 * activates no plugin whose parents are not active yet), otherwise as given; a loop or a parent not among them changes
 * nothing. `of` gives a member's folder slug (the name WordPress matches a Requires Plugins slug against) and needs.
 */
export function parentsFirst<T>(members: readonly T[], of: (m: T) => { slug: string; requires?: readonly string[] }): T[] {
  const bySlug = new Map(members.map((m) => [of(m).slug, m]));
  const out: T[] = [];
  const placed = new Set<T>();
  const visiting = new Set<T>();
  const place = (m: T) => {
    if (placed.has(m) || visiting.has(m)) return;
    visiting.add(m);
    for (const r of of(m).requires ?? []) {
      const parent = bySlug.get(r);
      if (parent !== undefined) place(parent);
    }
    visiting.delete(m);
    placed.add(m);
    out.push(m);
  };
  for (const m of members) place(m);
  return out;
}
