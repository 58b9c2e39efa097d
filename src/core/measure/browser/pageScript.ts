// What runs in the page during a load: PerformanceObservers (paint, largest-contentful-paint, layout-shift, longtask,
// each buffered) in an isolated world of WP Bench's own — the page's scripts share its DOM but not its JavaScript, so
// they cannot replace the observers or fake the entries — reporting through a CDP binding only that world can call.
// At the load event it also reads the handles WordPress printed as the scripts' and styles' ids.

/** The isolated world's name, and the binding its reports go through. */
export const WORLD = '__wpbench_world';
export const BINDING = '__wpbenchReport';

/** One report of the page script. */
export type PageReport =
  | { k: 'fcp'; t: number }
  | { k: 'lcp'; t: number; u?: string }
  | { k: 'shift'; t: number; v: number }
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
  observe('layout-shift', (e) => { if (!e.hadRecentInput) send({ k: 'shift', t: e.startTime, v: e.value }); });
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
    if (o.k === 'shift' && typeof o.v !== 'number') return undefined;
    if (o.k === 'task' && typeof o.d !== 'number') return undefined;
    if (o.k === 'load' && !Array.isArray(o.handles)) return undefined;
    if (o.k === 'lcp' && o.u !== undefined && typeof o.u !== 'string') return undefined;
    return ['fcp', 'lcp', 'shift', 'task', 'load'].includes(o.k) ? o : undefined;
  } catch {
    return undefined;
  }
}
