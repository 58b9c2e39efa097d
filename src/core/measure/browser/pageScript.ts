// What runs in the page during a load: PerformanceObservers (paint, largest-contentful-paint, layout-shift, longtask,
// each buffered) in an isolated world of WP Bench's own — the page's scripts share its DOM but not its JavaScript, so
// they cannot replace the observers or fake the entries — reporting through a CDP binding only that world can call.
// At the load event it also reads the handles WordPress printed as the scripts' and styles' ids; each layout shift
// names the nodes it moved and the elements a script inserted just before it.
import type { ShiftNode } from './types';

/** The isolated world's name, and the binding its reports go through. */
export const WORLD = '__wpbench_world';
export const BINDING = '__wpbenchReport';

/** An element as the page script names it: its selector ("div#x.y") and the ids and classes of it and its ancestors. */
export interface PageNode {
  n: string;
  a: string[];
}

/** One report of the page script. */
export type PageReport =
  | { k: 'fcp'; t: number }
  | { k: 'lcp'; t: number; u?: string }
  | { k: 'shift'; t: number; v: number; s?: PageNode[]; i?: PageNode[] }
  | { k: 'task'; t: number; d: number }
  | { k: 'load'; t: number; handles: [string, string][] };

export const PAGE_SCRIPT = `(() => {
  const report = globalThis[${JSON.stringify(BINDING)}];
  // The page's own figures: a frame's paints and shifts are not the page's (web-vitals and Lighthouse read the top frame).
  if (typeof report !== 'function' || window.top !== window) return;
  const send = (o) => { try { report(JSON.stringify(o)); } catch (e) {} };
  const observe = (type, each) => {
    try { new PerformanceObserver((l) => l.getEntries().forEach(each)).observe({ type, buffered: true }); } catch (e) {}
  };
  observe('paint', (e) => { if (e.name === 'first-contentful-paint') send({ k: 'fcp', t: e.startTime }); });
  observe('largest-contentful-paint', (e) => send({ k: 'lcp', t: e.renderTime || e.loadTime || e.startTime, u: e.url || undefined }));
  // A shift's sources (the nodes it moved) and the elements a script inserted since the previous shift (after the
  // page was parsed: the parser's own insertions are the markup's), each named by its ids and classes and its
  // ancestors' — what attributes it to a component's markup or script.
  const name = (n) => {
    let el = n && n.nodeType === 1 ? n : n && n.parentElement;
    if (!el || el === document.documentElement || el === document.body) return null;
    const sel = (el.localName || 'node') + (el.id ? '#' + el.id : '') + Array.from(el.classList || []).slice(0, 3).map((c) => '.' + c).join('');
    const a = [];
    for (let x = el, d = 0; x && x !== document.body && x !== document.documentElement && d < 8 && a.length < 12; x = x.parentElement, d++) {
      if (x.id) a.push('#' + x.id);
      Array.from(x.classList || []).slice(0, 4).forEach((c) => a.length < 12 && a.push('.' + c));
    }
    return { n: sel.slice(0, 120), a: a.map((s) => s.slice(0, 80)) };
  };
  let added = [];
  let lastShift = 0;
  const watch = () => {
    try {
      new MutationObserver((rs) => {
        const t = performance.now();
        added = added.filter((x) => t - x.t < 1000);
        for (const r of rs) for (const n of r.addedNodes) if (n.nodeType === 1 && added.length < 50) added.push({ t, n });
      }).observe(document, { childList: true, subtree: true });
    } catch (e) {}
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', watch); else watch();
  observe('layout-shift', (e) => {
    if (e.hadRecentInput) return;
    const s = Array.from(e.sources || []).map((x) => name(x.node)).filter(Boolean).slice(0, 5);
    const i = added.filter((x) => x.t <= e.startTime + 1 && x.t >= Math.max(lastShift, e.startTime - 1000)).map((x) => name(x.n)).filter(Boolean).slice(0, 5);
    added = added.filter((x) => x.t > e.startTime + 1);
    lastShift = e.startTime;
    send({ k: 'shift', t: e.startTime, v: e.value, s, i });
  });
  observe('longtask', (e) => send({ k: 'task', t: e.startTime, d: e.duration }));
  const atLoad = () => {
    const handles = [];
    document.querySelectorAll('script[src][id], link[rel~="stylesheet"][href][id]').forEach((el) => {
      const u = el.getAttribute('src') || el.getAttribute('href');
      try { handles.push([new URL(u, location.href).pathname, el.id]); } catch (e) {}
    });
    send({ k: 'load', t: performance.now(), handles });
  };
  if (document.readyState === 'complete') atLoad(); else addEventListener('load', () => setTimeout(atLoad, 0));
})();`;

/** A report from the binding's payload, or undefined when it is not one (the page cannot call the binding; still checked). */
export function parseReport(payload: string): PageReport | undefined {
  try {
    const o = JSON.parse(payload) as PageReport;
    if (!o || typeof o !== 'object' || typeof o.t !== 'number' || !Number.isFinite(o.t)) return undefined;
    if (o.k === 'shift' && (typeof o.v !== 'number' || !Number.isFinite(o.v))) return undefined;
    if (o.k === 'shift' && o.s !== undefined) o.s = pageNodes(o.s);
    if (o.k === 'shift' && o.i !== undefined) o.i = pageNodes(o.i);
    if (o.k === 'task' && typeof o.d !== 'number') return undefined;
    if (o.k === 'load' && !Array.isArray(o.handles)) return undefined;
    if (o.k === 'lcp' && o.u !== undefined && typeof o.u !== 'string') return undefined;
    return ['fcp', 'lcp', 'shift', 'task', 'load'].includes(o.k) ? o : undefined;
  } catch {
    return undefined;
  }
}

/** The named nodes of a shift report, checked for shape and size (at most five, their texts capped). */
function pageNodes(x: unknown): PageNode[] {
  if (!Array.isArray(x)) return [];
  return x
    .filter((n): n is PageNode => !!n && typeof n === 'object' && typeof (n as PageNode).n === 'string' && Array.isArray((n as PageNode).a))
    .slice(0, 5)
    .map((n) => ({ n: n.n.slice(0, 120), a: n.a.filter((s): s is string => typeof s === 'string').slice(0, 12).map((s) => s.slice(0, 80)) }));
}

/** A shift report's nodes as the load records them (none: no key). */
export function shiftNodes(r: { s?: PageNode[]; i?: PageNode[] }): { sources?: ShiftNode[]; inserted?: ShiftNode[] } {
  const of = (ns?: PageNode[]) => (ns ?? []).map((n) => ({ node: n.n, names: n.a }));
  const sources = of(r.s);
  const inserted = of(r.i);
  return { ...(sources.length ? { sources } : {}), ...(inserted.length ? { inserted } : {}) };
}
