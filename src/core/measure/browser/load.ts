// One page load through CDP: a fresh browser context (no cache, no cookies, no storage) whose requests all go through
// its side's gate, the profile's network and CPU applied (Network.emulateNetworkConditions,
// Emulation.setCPUThrottlingRate, the viewport), the page's observers in WP Bench's isolated world (pageScript.ts),
// the requests from the Network domain, the scripts' main-thread time from a trace (devtools.timeline), then the page
// watched until it settles: after the load event, a second with no request in flight, no long task and no layout
// shift (at most 10 s), or the time limit (30 s), when the load is cut and said.
import type { Cdp } from './cdp';
import { BINDING, PAGE_SCRIPT, WORLD, parseReport, shiftNodes } from './pageScript';
import { documentParts } from './documentParts';
import { scriptTimes, type TraceEvent } from './trace';
import { handleOfId } from './figures';
import type { BrowserLoad, BrowserProfile, LoadRequest, ResourceKind } from './types';

export const QUIET_MS = 1000;
export const SETTLE_CAP_MS = 10_000;
export const LOAD_LIMIT_MS = 30_000;

const TRACE_CATEGORIES = ['-*', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'toplevel'].join(',');

const KIND: Record<string, ResourceKind> = { Document: 'document', Script: 'script', Stylesheet: 'stylesheet', Image: 'image', Font: 'font', Fetch: 'fetch', XHR: 'fetch', Media: 'image' };

export interface LoadOptions {
  cdp: Cdp;
  /** the side's gate, as Chromium reaches it */
  proxy: string;
  /** the site's origin: "http://127.0.0.1:PORT" */
  origin: string;
  side: string;
  round: number;
  profile: BrowserProfile;
  limitMs?: number;
  quietMs?: number;
  signal?: AbortSignal;
  /** capture a filmstrip (Page.startScreencast: small JPEGs, each frame's time from the navigation's start) */
  frames?: boolean;
}

/** The filmstrip's frames: small (the report shows them ~200 px wide) and light (the record keeps a few). */
export const FRAME_WIDTH = 200;
export const FRAME_QUALITY = 40;

/** Loads the homepage once in a fresh context; what it recorded. */
export async function loadPage(o: LoadOptions): Promise<BrowserLoad> {
  const { cdp } = o;
  const limitMs = o.limitMs ?? LOAD_LIMIT_MS;
  const quietMs = o.quietMs ?? QUIET_MS;
  const { browserContextId } = await cdp.send<{ browserContextId: string }>('Target.createBrowserContext', { disposeOnDetach: true, proxyServer: o.proxy, proxyBypassList: '<-loopback>' });
  const offs: (() => void)[] = [];
  try {
    const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank', browserContextId });
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    const send = <T = unknown>(m: string, p: Record<string, unknown> = {}) => cdp.send<T>(m, p, sessionId);
    const on = (m: string, f: (p: Record<string, unknown>) => void) => offs.push(cdp.on(m, (p, sid) => sid === sessionId && f(p)));

    let lastActivity = 0;
    const touch = () => (lastActivity = Date.now());
    const reqs = new Map<string, LoadRequest & { t0: number }>();
    let navStart: number | undefined;
    const blocked: string[] = [];
    const inFlight = new Set<string>();
    const rel = (ts: number) => Math.round((ts - (navStart ?? ts)) * 10000) / 10;
    // The HTML document's body, read when it has arrived (its inline parts: documentParts.ts).
    let docBody: Promise<{ body: string; base64Encoded: boolean } | undefined> | undefined;
    on('Network.requestWillBeSent', (p) => {
      touch();
      const r = p.request as { url: string };
      const id = p.requestId as string;
      if (!/^(https?|wss?):/i.test(r.url)) return;
      const ts = p.timestamp as number;
      if (navStart === undefined && p.type === 'Document') navStart = ts;
      const own = r.url.startsWith(`${o.origin}/`) || r.url === o.origin;
      if (!own) {
        const host = /^[a-z]+:\/\/([^/]+)/i.exec(r.url)?.[1] ?? r.url.slice(0, 60);
        if (!blocked.includes(host)) blocked.push(host);
      }
      inFlight.add(id);
      reqs.set(id, { url: own ? r.url.slice(o.origin.length) : r.url, type: KIND[p.type as string] ?? 'other', bytes: 0, status: 0, render_blocking: p.renderBlockingBehavior === 'Blocking', start_ms: 0, response_ms: null, end_ms: null, t0: ts, ...(own ? {} : { failed: 'blocked: not the site' }) });
    });
    on('Network.responseReceived', (p) => {
      touch();
      const r = reqs.get(p.requestId as string);
      if (r) {
        r.status = (p.response as { status: number }).status;
        r.response_ms = p.timestamp as number;
      }
    });
    on('Network.loadingFinished', (p) => {
      touch();
      const id = p.requestId as string;
      inFlight.delete(id);
      const r = reqs.get(id);
      if (r && !r.failed) {
        r.bytes = p.encodedDataLength as number;
        r.end_ms = p.timestamp as number;
        if (r.type === 'document' && !docBody && !/^[a-z]+:/i.test(r.url)) docBody = send<{ body: string; base64Encoded: boolean }>('Network.getResponseBody', { requestId: id }).catch(() => undefined);
      }
    });
    on('Network.loadingFailed', (p) => {
      touch();
      const id = p.requestId as string;
      inFlight.delete(id);
      const r = reqs.get(id);
      if (r) {
        r.failed ??= String(p.errorText ?? 'failed');
        r.end_ms = p.timestamp as number;
      }
    });
    // WebSockets never pass the gate (CONNECT is refused); their attempts are noted.
    on('Network.webSocketCreated', (p) => {
      const host = /^[a-z]+:\/\/([^/]+)/i.exec(String(p.url))?.[1] ?? 'websocket';
      if (!blocked.includes(`ws ${host}`)) blocked.push(`ws ${host}`);
    });
    const load: BrowserLoad = { side: o.side, round: o.round, fcp_ms: null, lcp_ms: null, load_ms: null, end_ms: 0, long_tasks: [], layout_shifts: [], requests: [], scripts: [], blocked };
    on('Runtime.bindingCalled', (p) => {
      if (p.name !== BINDING) return;
      const r = parseReport(String(p.payload));
      if (!r) return;
      if (r.k === 'fcp') load.fcp_ms ??= r.t;
      else if (r.k === 'lcp') {
        touch();
        load.lcp_ms = Math.max(load.lcp_ms ?? 0, r.t);
        if (r.u) load.lcp_url = r.u.startsWith(`${o.origin}/`) ? r.u.slice(o.origin.length) : r.u.slice(0, 300);
        else delete load.lcp_url;
      }
      else if (r.k === 'shift') (touch(), load.layout_shifts.push({ start_ms: r.t, value: r.v, ...shiftNodes(r) }));
      else if (r.k === 'task') (touch(), load.long_tasks.push({ start_ms: r.t, duration_ms: r.d }));
      else if (r.k === 'load') {
        load.load_ms = r.t;
        const named = r.handles.filter((h) => Array.isArray(h) && typeof h[0] === 'string' && typeof h[1] === 'string');
        load.handles = Object.fromEntries(named.flatMap(([u, id]) => (handleOfId(id) ? [[u, handleOfId(id)!]] : [])));
      }
    });
    const trace: TraceEvent[] = [];
    // The filmstrip: each frame's wall-clock time against the document request's (wallTime), as ms from its start.
    let navWall: number | undefined;
    on('Network.requestWillBeSent', (p) => {
      if (navWall === undefined && p.type === 'Document' && typeof p.wallTime === 'number') navWall = p.wallTime;
    });
    const frames: { wall: number; jpeg: string }[] = [];
    on('Page.screencastFrame', (p) => {
      const meta = p.metadata as { timestamp?: number } | undefined;
      if (typeof meta?.timestamp === 'number' && typeof p.data === 'string') frames.push({ wall: meta.timestamp, jpeg: p.data });
      void send('Page.screencastFrameAck', { sessionId: p.sessionId }).catch(() => undefined);
    });
    on('Tracing.dataCollected', (p) => trace.push(...(p.value as TraceEvent[])));
    const traced = new Promise<void>((resolve) => on('Tracing.tracingComplete', () => resolve()));

    const { profile: pr } = o;
    await Promise.all([
      send('Network.enable'),
      send('Page.enable'),
      send('Runtime.enable'),
      send('Runtime.addBinding', { name: BINDING, executionContextName: WORLD }),
      send('Page.addScriptToEvaluateOnNewDocument', { source: PAGE_SCRIPT, worldName: WORLD }),
      send('Network.emulateNetworkConditions', { offline: false, latency: pr.rtt_ms, downloadThroughput: (pr.throughput_kbps * 1024) / 8, uploadThroughput: (pr.throughput_kbps * 1024) / 8 }),
      send('Emulation.setCPUThrottlingRate', { rate: pr.cpu_slowdown }),
      send('Emulation.setDeviceMetricsOverride', { width: pr.width, height: pr.height, deviceScaleFactor: pr.device_scale_factor, mobile: pr.mobile }),
      // file:, and anything not http(s), never loads; the gate refuses the rest.
      send('Network.setBlockedURLs', { urls: ['file:*', 'ftp:*', 'chrome:*', 'chrome-extension:*'] }),
    ]);
    if (o.frames) await send('Page.startScreencast', { format: 'jpeg', quality: FRAME_QUALITY, maxWidth: FRAME_WIDTH, maxHeight: Math.round((FRAME_WIDTH * pr.height) / pr.width), everyNthFrame: 1 });
    await send('Tracing.start', { categories: TRACE_CATEGORIES, transferMode: 'ReportEvents' });
    const started = Date.now();
    touch();
    await send('Page.navigate', { url: `${o.origin}/` });
    // Settled: loaded, then quiet (nothing in flight, no entry) for quietMs; at most SETTLE_CAP_MS after the load; cut at limitMs.
    let cut = false;
    let loadedAt: number | undefined;
    for (;;) {
      if (o.signal?.aborted) throw o.signal.reason ?? new Error('aborted');
      const now = Date.now();
      if (load.load_ms !== null) loadedAt ??= now;
      if (loadedAt !== undefined && ((inFlight.size === 0 && now - lastActivity >= quietMs) || now - loadedAt >= SETTLE_CAP_MS)) break;
      if (now - started >= limitMs) {
        cut = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    load.end_ms = Date.now() - started;
    await send('Tracing.end');
    await Promise.race([traced, new Promise((r) => setTimeout(r, 10_000))]);
    load.scripts = scriptTimes(trace).map((s) => ({ ...s, url: s.url.startsWith(`${o.origin}/`) ? s.url.slice(o.origin.length) : s.url }));
    load.requests = [...reqs.values()].map(({ t0, ...r }) => ({ ...r, start_ms: rel(t0), response_ms: r.response_ms === null ? null : rel(r.response_ms), end_ms: r.end_ms === null ? null : rel(r.end_ms) }));
    if (cut) load.cut = true;
    const body = await docBody;
    if (body && typeof body.body === 'string' && body.body.length <= 8 * 1024 * 1024) load.document = documentParts(body.base64Encoded ? Buffer.from(body.body, 'base64').toString('utf8') : body.body);
    if (o.frames) {
      await send('Page.stopScreencast').catch(() => undefined);
      // Frames before the navigation (about:blank) are not the page's.
      if (navWall !== undefined) load.frames = frames.map((f) => ({ at_ms: Math.round((f.wall - navWall!) * 1000), jpeg: f.jpeg })).filter((f) => f.at_ms >= 0);
    }
    return load;
  } finally {
    for (const off of offs) off();
    await cdp.send('Target.disposeBrowserContext', { browserContextId }).catch(() => undefined);
  }
}
