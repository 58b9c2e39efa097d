// The emulator's injectable faults (EmulatorOptions.faults, setFault()): which one a request gets, and how each
// answers: in place of the API (hang, 5xx, redirect, any status) or by changing the API's answer on its way out.
import type * as http from 'node:http';
import type { WireRecord } from './dataset';
import { errorBody, JSON_TYPE, sendText, type Payload } from './respond';

export type FaultMode =
  /** Accept the request, never send a status line. */
  | 'hang-headers'
  /** Headers at once, then the body one byte per `trickleIntervalMs` (1 s). */
  | 'trickle'
  /** Headers with the full Content-Length, half the body, then the socket is destroyed. */
  | 'reset-mid-body'
  /** JSON `internal_error` body. */
  | 'status-500'
  /** HTML body, as a proxy would send. */
  | 'status-502'
  /** text/plain body, no Retry-After. */
  | 'status-503'
  /** 200 (or whatever the request earned) with the JSON body cut in half. */
  | 'invalid-json'
  /** 200 with grade missing, numbers as strings, `contexts` an array (records) / strings in /me. */
  | 'wrong-shape'
  /** 200 streaming `hugeBodyBytes` (20 MiB) of JSON-looking data, chunked, no Content-Length. */
  | 'huge-body'
  /** The normal response without any X-RateLimit-* header. */
  | 'no-ratelimit-headers'
  /** Redirect (302 by default) to another origin; the request path below apiRoot is appended unless `exact`. */
  | { redirectTo: string; status?: 301 | 302 | 303 | 307 | 308; exact?: boolean }
  /** Answer `status` for the first `times` requests of each path (all of them when `times` is absent). */
  | { status: number; times?: number; retryAfter?: number; body?: string };

export type FaultSetting = FaultMode | ((req: { path: string; n: number }) => FaultMode | undefined);

/** What the body faults need from the running emulator. */
export interface FaultContext {
  /** Timers cleared by close(). */
  timers: Set<NodeJS.Timeout>;
  /** Delay between bytes of `trickle`. */
  trickleMs: number;
  /** Size of `huge-body`. */
  hugeBytes: number;
}

/** Every field keeps its name; values change type or go missing, as a broken server might send. */
function wrongShape(body: unknown): unknown {
  if (!body || typeof body !== 'object') return body;
  const b = body as Record<string, unknown>;
  if ('slug' in b) {
    const r = b as unknown as WireRecord;
    const str = (c: Record<string, number> | null) =>
      c && Object.fromEntries(Object.entries(c).map(([k, v]) => [k, String(v)]));
    return {
      ...r,
      speed_score: { numeric: String(r.speed_score?.numeric ?? '') },
      contexts: [
        str(r.contexts.activation as unknown as Record<string, number>),
        str(r.contexts.homepage as unknown as Record<string, number>),
        str(r.contexts.admin as unknown as Record<string, number>),
      ],
      metadata: { active_installs: String(r.metadata.active_installs), rating: String(r.metadata.rating) },
    };
  }
  if ('tier' in b) {
    return { tier: 42, quota: String(b.quota), used: String(b.used), remaining: String(b.remaining), reset_at: 1 };
  }
  return body;
}

function trickle(res: http.ServerResponse, status: number, headers: Record<string, string>, body: string, ctx: FaultContext) {
  const buf = Buffer.from(body);
  res.writeHead(status, { ...headers, 'Content-Type': JSON_TYPE, 'Content-Length': String(buf.length) });
  res.flushHeaders();
  let i = 0;
  const timer = setInterval(() => {
    if (i >= buf.length) {
      clearInterval(timer);
      ctx.timers.delete(timer);
      res.end();
      return;
    }
    res.write(buf.subarray(i, i + 1));
    i++;
  }, ctx.trickleMs);
  ctx.timers.add(timer);
  res.on('close', () => {
    clearInterval(timer);
    ctx.timers.delete(timer);
  });
}

function resetMidBody(res: http.ServerResponse, status: number, headers: Record<string, string>, body: string, ctx: FaultContext) {
  const buf = Buffer.from(body);
  res.writeHead(status, { ...headers, 'Content-Type': JSON_TYPE, 'Content-Length': String(buf.length) });
  res.write(buf.subarray(0, Math.floor(buf.length / 2)), () => {
    // Give the half body a moment on the wire, then drop the connection without a FIN-clean end.
    const t = setTimeout(() => {
      ctx.timers.delete(t);
      res.socket?.resetAndDestroy?.() ?? res.socket?.destroy();
    }, 20);
    ctx.timers.add(t);
  });
}

async function hugeBody(res: http.ServerResponse, headers: Record<string, string>, slug: string, hugeBytes: number) {
  res.writeHead(200, { ...headers, 'Content-Type': JSON_TYPE });
  const head = `{"slug":${JSON.stringify(slug)},"padding":"`;
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let sent = 0;
  let closed = false;
  res.on('close', () => (closed = true));
  res.write(head);
  sent += head.length;
  while (sent < hugeBytes - 2 && !closed) {
    const n = Math.min(chunk.length, hugeBytes - 2 - sent);
    const ok = res.write(n === chunk.length ? chunk : chunk.subarray(0, n));
    sent += n;
    if (!ok) await new Promise<void>((r) => {
      const done = () => { res.off('drain', done); res.off('close', done); r(); };
      res.on('drain', done);
      res.on('close', done);
    });
  }
  if (!closed) res.end('"}');
}

export function resolveFault(fault: FaultSetting | undefined, path: string, n: number): FaultMode | undefined {
  const f = typeof fault === 'function' ? fault({ path, n }) : fault;
  if (f && typeof f === 'object' && 'status' in f && !('redirectTo' in f) && f.times !== undefined && n > f.times) return undefined;
  return f;
}

/**
 * One API request under fault `f` (none when undefined). The faults that replace the answer are sent without
 * calling `answer` (nothing is counted); the others change the API's answer on its way out.
 */
export function sendApi(res: http.ServerResponse, f: FaultMode | undefined, rel: string, search: string, answer: () => Payload, ctx: FaultContext) {
  if (f === 'hang-headers') return; // the socket stays open until the client gives up or close()
  if (f === 'status-500') return sendText(res, 500, {}, JSON.stringify(errorBody('internal_error', 'Injected fault: internal error.')));
  if (f === 'status-502') return sendText(res, 502, {}, '<html><body><h1>502 Bad Gateway</h1></body></html>\n', 'text/html; charset=utf-8');
  if (f === 'status-503') return sendText(res, 503, {}, 'Service Unavailable\n', 'text/plain; charset=utf-8');
  if (f && typeof f === 'object') {
    if ('redirectTo' in f) {
      const location = f.exact ? f.redirectTo : f.redirectTo.replace(/\/+$/, '') + rel + search;
      return sendText(res, f.status ?? 302, { Location: location }, '');
    }
    const headers: Record<string, string> = f.retryAfter !== undefined ? { 'Retry-After': String(f.retryAfter) } : {};
    return sendText(res, f.status, headers, f.body ?? JSON.stringify(errorBody('injected_fault', `Injected fault: HTTP ${f.status}.`)));
  }

  const p = answer();
  if (f === 'no-ratelimit-headers') {
    for (const h of Object.keys(p.headers)) if (h.toLowerCase().startsWith('x-ratelimit-')) delete p.headers[h];
  }
  if (f === 'huge-body' && p.status === 200) {
    void hugeBody(res, p.headers, rel.split('/').pop() ?? '', ctx.hugeBytes);
    return;
  }
  const body = JSON.stringify(f === 'wrong-shape' && p.status === 200 ? wrongShape(p.body) : p.body);
  if (f === 'invalid-json') return sendText(res, p.status, p.headers, body.slice(0, Math.floor(body.length / 2)));
  if (f === 'trickle') return trickle(res, p.status, p.headers, body, ctx);
  if (f === 'reset-mid-body') return resetMidBody(res, p.status, p.headers, body, ctx);
  sendText(res, p.status, p.headers, body);
}
