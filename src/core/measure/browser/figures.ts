// The browser figures' arithmetic, pure (unit-tested on recorded loads): one load's figures from what it recorded
// (TBT by Lighthouse's definition, CLS by its session windows), the medians of each side, the differences and their
// spread (the interquartile range of the paired per-round differences, as the server figures), and the component's
// own assets. Imports only the shapes and the method's quantiles.
import { iqr, median, type LocalRecord } from '../record/method';
import type { BrowserAsset, BrowserDelta, BrowserFigures, BrowserInfo, BrowserLoad, LayoutShift, LongTask, ResourceKind } from './types';

/** A long task blocks the main thread for what it runs past 50 ms (Lighthouse, TBT). */
export const BLOCKING_THRESHOLD_MS = 50;

const round1 = (x: number) => Math.round(x * 10) / 10;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Total Blocking Time, Lighthouse's definition: over the long tasks after First Contentful Paint (a task that began
 * before it counts from FCP on), the sum of each one's time past 50 ms, until the end of observation (the page is
 * quiet by then: no long task in the last second, so this is Lighthouse's "until Time to Interactive"). Without an
 * FCP nothing is counted.
 */
export function totalBlockingTime(tasks: readonly LongTask[], fcpMs: number | null): number {
  if (fcpMs === null) return 0;
  let total = 0;
  for (const t of tasks) {
    const end = t.start_ms + t.duration_ms;
    if (end <= fcpMs) continue;
    const counted = end - Math.max(t.start_ms, fcpMs);
    total += Math.max(0, counted - BLOCKING_THRESHOLD_MS);
  }
  return total;
}

/**
 * Cumulative Layout Shift as Lighthouse and web-vitals define it: shifts without recent input grouped in session
 * windows (a window ends after a 1 s gap or 5 s in all); the largest window's sum.
 */
export function cumulativeLayoutShift(shifts: readonly LayoutShift[]): number {
  const s = [...shifts].sort((a, b) => a.start_ms - b.start_ms);
  let best = 0;
  let sum = 0;
  let first = -Infinity;
  let last = -Infinity;
  for (const x of s) {
    if (x.start_ms - last >= 1000 || x.start_ms - first >= 5000) {
      sum = 0;
      first = x.start_ms;
    }
    sum += x.value;
    last = x.start_ms;
    best = Math.max(best, sum);
  }
  return best;
}

/**
 * The requests a load made to the site: not those the gate or the browser refused, nor the favicon headless Chromium
 * asks for by itself on some loads and not others (no page names it).
 */
export function siteRequests(load: BrowserLoad): BrowserLoad['requests'] {
  return load.requests.filter((r) => (!r.failed || !/^blocked/.test(r.failed)) && !(r.type === 'other' && r.url === '/favicon.ico'));
}

/**
 * The site's requests that failed or were answered with an error in most of a side's loads ("path (side: 404)"), at
 * most 20: a core or theme file missing from the site (a stripped WordPress build), a file the component names wrong.
 * The figures leave out what they would have cost, so a run says them.
 */
export function failedRequests(loads: readonly BrowserLoad[]): string[] {
  const out: string[] = [];
  for (const side of [...new Set(loads.map((l) => l.side))]) {
    const mine = loads.filter((l) => l.side === side && l.round >= 0);
    const failed = new Map<string, { n: number; why: string }>();
    for (const l of mine) {
      const seen = new Set<string>();
      for (const r of siteRequests(l)) {
        const why = r.failed ?? (r.status >= 400 ? String(r.status) : undefined);
        const p = pathOf(r.url);
        if (!why || seen.has(p)) continue;
        seen.add(p);
        failed.set(p, { n: (failed.get(p)?.n ?? 0) + 1, why });
      }
    }
    for (const [p, f] of failed) if (f.n * 2 > mine.length && !out.some((o) => o.startsWith(`${p} (`))) out.push(`${p.slice(0, 200)} (${side}: ${f.why.slice(0, 40)})`);
  }
  return out.slice(0, 20);
}

/** One load's figures. A page without a paint reads its FCP and LCP at the end of observation. */
export function loadFigures(load: BrowserLoad): BrowserFigures {
  const reqs = siteRequests(load);
  const fcp = load.fcp_ms ?? load.end_ms;
  return {
    bytes_kb: reqs.reduce((t, r) => t + r.bytes, 0) / 1024,
    requests: reqs.length,
    render_blocking: reqs.filter((r) => r.render_blocking).length,
    fcp_ms: fcp,
    lcp_ms: Math.max(load.lcp_ms ?? fcp, fcp),
    tbt_ms: totalBlockingTime(load.long_tasks, load.fcp_ms),
    cls: cumulativeLayoutShift(load.layout_shifts),
  };
}

const KEYS = ['bytes_kb', 'requests', 'render_blocking', 'fcp_ms', 'lcp_ms', 'tbt_ms', 'cls'] as const;

function rounded(f: BrowserFigures): BrowserFigures {
  return { bytes_kb: round1(f.bytes_kb), requests: Math.round(f.requests), render_blocking: Math.round(f.render_blocking), fcp_ms: round1(f.fcp_ms), lcp_ms: round1(f.lcp_ms), tbt_ms: round1(f.tbt_ms), cls: round3(f.cls) };
}

/** The medians of a side's loads, rounded as the record says them (ms and KB to 0.1, CLS to 0.001). */
export function sideMedians(loads: readonly BrowserLoad[]): BrowserFigures {
  if (!loads.length) throw new Error('no loads');
  const figs = loads.map(loadFigures);
  return rounded(Object.fromEntries(KEYS.map((k) => [k, median(figs.map((f) => f[k]))])) as unknown as BrowserFigures);
}

/**
 * The differences (with the component − clean) of the sides' medians, and per figure the interquartile range of the
 * paired differences of the loads of the same round (the convention of the server figures: record/method.ts).
 */
export function browserDelta(baseline: readonly BrowserLoad[], measured: readonly BrowserLoad[], assets: BrowserAsset[] = []): BrowserDelta {
  const b = sideMedians(baseline);
  const m = sideMedians(measured);
  const byRound = new Map(baseline.map((l) => [l.round, loadFigures(l)]));
  const pairs = measured.filter((l) => byRound.has(l.round)).map((l) => [loadFigures(l), byRound.get(l.round)!] as const);
  const spreadOf = (k: (typeof KEYS)[number]) => (pairs.length ? iqr(pairs.map(([x, y]) => x[k] - y[k])) : 0);
  const d = rounded(Object.fromEntries(KEYS.map((k) => [k, m[k] - b[k]])) as unknown as BrowserFigures);
  return {
    ...d,
    spread: { bytes_kb: round1(spreadOf('bytes_kb')), fcp_ms: round1(spreadOf('fcp_ms')), lcp_ms: round1(spreadOf('lcp_ms')), tbt_ms: round1(spreadOf('tbt_ms')), cls: round3(spreadOf('cls')) },
    assets,
  };
}

/** The site-relative folders of a component's own files: "/wp-content/plugins/acme/" (or themes/, mu-plugins/). */
export function ownFolders(kind: 'plugin' | 'theme', slug: string, mustUse = false, parent?: string): string[] {
  if (kind === 'theme') return [`/wp-content/themes/${slug}/`, ...(parent ? [`/wp-content/themes/${parent}/`] : [])];
  return [mustUse ? `/wp-content/mu-plugins/${slug}/` : `/wp-content/plugins/${slug}/`, ...(mustUse ? [`/wp-content/mu-plugins/${slug}.php`] : [])];
}

/** A site-relative URL without its query or fragment. */
export const pathOf = (url: string) => url.replace(/[?#].*$/, '');

/**
 * The component's own requests in the measured side's loads (under one of `folders`), by path: the median of their
 * bytes over the loads, Chromium's render-blocking judgement, scripts' main-thread time, the WordPress handle the page
 * gave them; largest first.
 */
export function ownAssets(measured: readonly BrowserLoad[], folders: readonly string[]): BrowserAsset[] {
  // Render-blocking: in more than half of the loads that fetched it (one load's judgement flagged a footer script).
  const by = new Map<string, { type: ResourceKind; bytes: number[]; blocking: number; ms: number[]; errors: number[]; handle?: string }>();
  for (const load of measured) {
    const seen = new Map<string, number>();
    const blockedHere = new Set<string>();
    for (const r of siteRequests(load)) {
      const p = pathOf(r.url);
      if (!folders.some((f) => p.startsWith(f))) continue;
      seen.set(p, (seen.get(p) ?? 0) + r.bytes);
      const a = by.get(p) ?? { type: r.type, bytes: [], blocking: 0, ms: [], errors: [] };
      if (r.render_blocking) blockedHere.add(p);
      if (r.status >= 400) a.errors.push(r.status);
      a.handle ??= load.handles?.[p];
      by.set(p, a);
    }
    for (const [p, bytes] of seen) by.get(p)!.bytes.push(bytes);
    for (const p of blockedHere) by.get(p)!.blocking++;
    for (const s of load.scripts) {
      const a = by.get(pathOf(s.url));
      if (a) a.ms.push(s.main_thread_ms);
    }
  }
  const out: BrowserAsset[] = [];
  for (const [url, a] of by) {
    // Main-thread time per load: a load where the script ran nothing measurable counts as 0.
    const ms = a.type === 'script' ? [...a.ms, ...Array(Math.max(0, a.bytes.length - a.ms.length)).fill(0)] : [];
    out.push({
      url,
      type: a.type,
      bytes_kb: round1(median(a.bytes) / 1024),
      ...(a.blocking * 2 > a.bytes.length ? { render_blocking: true as const } : {}),
      ...(ms.length ? { main_thread_ms: round1(median(ms)) } : {}),
      ...(a.handle ? { handle: a.handle } : {}),
      // An error in most of the loads that asked for it (a missing file: `css/` enqueued, `CSS/` on disk).
      ...(a.errors.length * 2 > a.bytes.length ? { status: median(a.errors) } : {}),
    });
  }
  return out.sort((x, y) => y.bytes_kb - x.bytes_kb || x.url.localeCompare(y.url));
}

/** The handle WordPress printed as an element's id ("acme-app-js" → "acme-app", "acme-style-css" → "acme-style"). */
export function handleOfId(id: string): string | undefined {
  const m = /^(.+)-(js|css)$/.exec(id);
  return m ? m[1] : undefined;
}

/**
 * The record with its browser figures: contexts.homepage.browser (the differences, their spread, the component's own
 * assets), local.baseline.homepage.browser (the clean side's medians), local.browser (how they were taken). A record
 * whose homepage was not measured on the server keeps only local.browser. `unavailable`: why there are none.
 */
export function withBrowser(record: LocalRecord, r: { delta: BrowserDelta; baseline: BrowserFigures; info: BrowserInfo } | { unavailable: string }): LocalRecord {
  if ('unavailable' in r) return { ...record, local: { ...record.local, browser: { unavailable: r.unavailable } } };
  const home = record.contexts.homepage;
  const base = record.local.baseline.homepage;
  return {
    ...record,
    contexts: { ...record.contexts, homepage: home ? { ...home, browser: r.delta } : home },
    local: { ...record.local, baseline: { ...record.local.baseline, homepage: base ? { ...base, browser: r.baseline } : base }, browser: r.info },
  };
}

/**
 * Below these a browser difference is no finding even when the run's spread is tighter: half a kilobyte (headers
 * and gzip vary by bytes), one frame at 60 Hz (16.7 ms) for FCP and LCP, 10 ms of blocking, 0.001 of layout shift.
 */
export const BROWSER_NOISE = { bytes_kb: 0.5, fcp_ms: 16.7, lcp_ms: 16.7, tbt_ms: 10, cls: 0.001 } as const;

/** Whether a browser difference is inside its spread (or under its floor): "within noise". A difference of the floor
 * itself, repeated exactly (a plugin's 0.5 KB of head markup, spread 0), is a difference. */
export function browserWithinNoise(d: BrowserDelta, key: keyof typeof BROWSER_NOISE): boolean {
  return Math.abs(d[key]) <= d.spread[key] || Math.abs(d[key]) < BROWSER_NOISE[key];
}
