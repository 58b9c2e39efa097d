// Local emulator of the benchmark API (spec: shared/docs/api-spec.md) on node:http only.
// Serves synthetic data for tests, the demo and benchmarks, with quota, rate-limit headers and
// injectable faults. Behaviour the spec leaves open is decided in src/emulator/README.md.

import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ComponentKind } from '../core/model';
import { DEFAULT_SEED, formatMysqlUtc, recordFor, type WireRecord } from './dataset';
import { DEMO_KEYS, type DemoKey } from './keys';

export { DEMO_KEYS, DEMO, TIER_QUOTA } from './keys';
export type { DemoKey, Tier, KeyStatus } from './keys';
export {
  knownSlugs,
  unknownSlugs,
  recordFor,
  slugState,
  datasetSize,
  gradeFor,
  GRADES,
  REAL_SLUGS,
  SYNTHETIC_COUNT,
  DEFAULT_SEED,
} from './dataset';
export type { WireRecord, WireContext, SlugState, SlugFilter } from './dataset';

export type RateLimitFormat = 'epoch' | 'seconds' | 'iso' | 'mysql';

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

export interface EmulatorOptions {
  host?: string;
  port?: number;
  /** Prefix before `/v1` in every API path; default `/api`. `''` or `/` puts `/v1` at the root. */
  apiRoot?: string;
  latencyMs?: number;
  seed?: number;
  keys?: DemoKey[];
  faults?: FaultSetting;
  now?: () => number;
  /** Format of X-RateLimit-Reset: epoch seconds (default), seconds until reset, ISO 8601, or `YYYY-MM-DD HH:MM:SS` UTC. */
  rateLimitFormat?: RateLimitFormat;
  /** Delay between bytes of the `trickle` fault; default 1000 ms. */
  trickleIntervalMs?: number;
  /** Size of the `huge-body` fault; default 20 MiB. */
  hugeBodyBytes?: number;
}

export interface EmulatorStats {
  /** Every request received, API or not. */
  total: number;
  /** Requests per path (query string excluded). */
  byPath: Map<string, number>;
  /** Requests routed to /me. */
  me: number;
  /** Requests counted against a key's quota. */
  counted: number;
  /** Highest number of requests in flight at once. */
  concurrentMax: number;
  /** Authorization header values received, in order (requests without one add nothing); the first 100,000. */
  authHeaders: string[];
}

export interface Emulator {
  /** The apiUrl a client uses: everything before `/v1`, e.g. `http://127.0.0.1:PORT/api`. */
  url: string;
  /** `http://host:port`, where the profile pages live. */
  origin: string;
  port: number;
  close(): Promise<void>;
  stats: EmulatorStats;
  resetStats(): void;
  setFault(f: FaultSetting | undefined): void;
  setLatency(ms: number): void;
  setRateLimitFormat(f: RateLimitFormat): void;
  usage(key: string): number;
  setUsage(key: string, used: number): void;
}

type Payload = { status: number; headers: Record<string, string>; body: unknown };

/** Bound on stats.authHeaders so a long benchmark cannot grow it without limit. */
const AUTH_HEADERS_KEPT = 100_000;
const JSON_TYPE = 'application/json; charset=utf-8';
const SLUG_ROUTE = /^\/v1\/(plugins|themes)\/([^/]*)$/;
const PROFILE_ROUTE = /^\/profiles\/(plugins|themes)\/([^/]*)$/;

function normaliseApiRoot(root: string | undefined): string {
  let r = root ?? '/api';
  if (!r.startsWith('/')) r = `/${r}`;
  return r.replace(/\/+$/, '');
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

function nextMonthUtc(nowMs: number): number {
  const d = new Date(nowMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

function monthKey(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 7);
}

function errorBody(code: string, message: string) {
  return { error: { code, message } };
}

function safeDecode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
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

export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const host = opts.host ?? '127.0.0.1';
  const apiRoot = normaliseApiRoot(opts.apiRoot);
  const seed = opts.seed ?? DEFAULT_SEED;
  const now = opts.now ?? Date.now;
  const trickleMs = opts.trickleIntervalMs ?? 1000;
  const hugeBytes = opts.hugeBodyBytes ?? 20 * 1024 * 1024;
  let latency = opts.latencyMs ?? 0;
  let fault: FaultSetting | undefined = opts.faults;
  let rlFormat: RateLimitFormat = opts.rateLimitFormat ?? 'epoch';

  const keys = new Map<string, DemoKey>();
  for (const k of opts.keys ?? DEMO_KEYS) keys.set(k.key, k);
  const usageByKey = new Map<string, { month: string; used: number }>();

  const stats: EmulatorStats = { total: 0, byPath: new Map(), me: 0, counted: 0, concurrentMax: 0, authHeaders: [] };
  let inFlight = 0;
  const timers = new Set<NodeJS.Timeout>();
  let origin = '';

  function usageEntry(key: string): { month: string; used: number } {
    const month = monthKey(now());
    let e = usageByKey.get(key);
    if (!e) {
      e = { month, used: keys.get(key)?.initialUsed ?? 0 };
      usageByKey.set(key, e);
    } else if (e.month !== month) {
      e.month = month;
      e.used = 0;
    }
    return e;
  }

  function rateLimitHeaders(k: DemoKey, used: number): Record<string, string> {
    const t = now();
    const reset = nextMonthUtc(t);
    let value: string;
    switch (rlFormat) {
      case 'seconds':
        value = String(Math.max(0, Math.ceil((reset - t) / 1000)));
        break;
      case 'iso':
        value = new Date(reset).toISOString().replace(/\.\d{3}Z$/, 'Z');
        break;
      case 'mysql':
        value = formatMysqlUtc(reset);
        break;
      default:
        value = String(Math.floor(reset / 1000));
    }
    return {
      'X-RateLimit-Limit': String(k.quota),
      'X-RateLimit-Remaining': String(Math.max(0, k.quota - used)),
      'X-RateLimit-Reset': value,
    };
  }

  /** The API's own answer, before body faults. */
  function answer(req: http.IncomingMessage, rel: string): Payload {
    const isMe = rel === '/v1/me';
    const m = isMe ? null : SLUG_ROUTE.exec(rel);
    if (!isMe && !m) return { status: 404, headers: {}, body: errorBody('not_found', 'No such endpoint.') };
    if (isMe) stats.me++;

    const auth = req.headers.authorization;
    const bearer = auth ? /^Bearer +(\S+) *$/i.exec(auth) : null;
    const key = bearer ? keys.get(bearer[1]) : undefined;
    if (!key) {
      return {
        status: 401,
        headers: { 'WWW-Authenticate': 'Bearer realm="wp-bench"' },
        body: errorBody('invalid_key', auth ? 'The API key is not valid.' : 'An API key is required: send "Authorization: Bearer <key>".'),
      };
    }
    if (key.status === 'revoked') return { status: 403, headers: {}, body: errorBody('key_revoked', 'This API key has been revoked.') };
    if (key.status === 'suspended') return { status: 403, headers: {}, body: errorBody('key_suspended', 'This API key is suspended.') };

    const u = usageEntry(key.key);
    if (isMe) {
      return {
        status: 200,
        headers: rateLimitHeaders(key, u.used),
        body: {
          tier: key.tier,
          quota: key.quota,
          used: u.used,
          remaining: Math.max(0, key.quota - u.used),
          reset_at: formatMysqlUtc(nextMonthUtc(now())),
        },
      };
    }
    if (u.used >= key.quota) {
      const reset = nextMonthUtc(now());
      return {
        status: 429,
        headers: { ...rateLimitHeaders(key, u.used), 'Retry-After': String(Math.max(1, Math.ceil((reset - now()) / 1000))) },
        body: errorBody('quota_exceeded', `The monthly quota of ${key.quota} requests is used up; it resets at ${formatMysqlUtc(reset)} UTC.`),
      };
    }
    u.used++;
    stats.counted++;
    const kind: ComponentKind = m![1] === 'plugins' ? 'plugin' : 'theme';
    const slug = safeDecode(m![2]);
    const rec = slug === null ? undefined : recordFor(kind, slug, { seed, profileOrigin: origin });
    const headers = rateLimitHeaders(key, u.used);
    if (!rec) return { status: 404, headers, body: errorBody('not_found', `No ${kind} with this slug is in the dataset.`) };
    return { status: 200, headers, body: rec };
  }

  function sendText(res: http.ServerResponse, status: number, headers: Record<string, string>, body: string, type = JSON_TYPE) {
    res.writeHead(status, { ...headers, 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)) });
    res.end(body);
  }

  function trickle(res: http.ServerResponse, status: number, headers: Record<string, string>, body: string) {
    const buf = Buffer.from(body);
    res.writeHead(status, { ...headers, 'Content-Type': JSON_TYPE, 'Content-Length': String(buf.length) });
    res.flushHeaders();
    let i = 0;
    const timer = setInterval(() => {
      if (i >= buf.length) {
        clearInterval(timer);
        timers.delete(timer);
        res.end();
        return;
      }
      res.write(buf.subarray(i, i + 1));
      i++;
    }, trickleMs);
    timers.add(timer);
    res.on('close', () => {
      clearInterval(timer);
      timers.delete(timer);
    });
  }

  function resetMidBody(res: http.ServerResponse, status: number, headers: Record<string, string>, body: string) {
    const buf = Buffer.from(body);
    res.writeHead(status, { ...headers, 'Content-Type': JSON_TYPE, 'Content-Length': String(buf.length) });
    res.write(buf.subarray(0, Math.floor(buf.length / 2)), () => {
      // Give the half body a moment on the wire, then drop the connection without a FIN-clean end.
      const t = setTimeout(() => {
        timers.delete(t);
        res.socket?.resetAndDestroy?.() ?? res.socket?.destroy();
      }, 20);
      timers.add(t);
    });
  }

  async function hugeBody(res: http.ServerResponse, headers: Record<string, string>, slug: string) {
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

  function resolveFault(path: string, n: number): FaultMode | undefined {
    const f = typeof fault === 'function' ? fault({ path, n }) : fault;
    if (f && typeof f === 'object' && 'status' in f && !('redirectTo' in f) && f.times !== undefined && n > f.times) return undefined;
    return f;
  }

  function handleApi(req: http.IncomingMessage, res: http.ServerResponse, rel: string, search: string, path: string, n: number) {
    const f = resolveFault(path, n);
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

    const p = answer(req, rel);
    if (f === 'no-ratelimit-headers') {
      for (const h of Object.keys(p.headers)) if (h.toLowerCase().startsWith('x-ratelimit-')) delete p.headers[h];
    }
    if (f === 'huge-body' && p.status === 200) {
      void hugeBody(res, p.headers, rel.split('/').pop() ?? '');
      return;
    }
    const body = JSON.stringify(f === 'wrong-shape' && p.status === 200 ? wrongShape(p.body) : p.body);
    if (f === 'invalid-json') return sendText(res, p.status, p.headers, body.slice(0, Math.floor(body.length / 2)));
    if (f === 'trickle') return trickle(res, p.status, p.headers, body);
    if (f === 'reset-mid-body') return resetMidBody(res, p.status, p.headers, body);
    sendText(res, p.status, p.headers, body);
  }

  function handleProfile(res: http.ServerResponse, kindSeg: string, rawSlug: string) {
    const kind: ComponentKind = kindSeg === 'plugins' ? 'plugin' : 'theme';
    const slug = safeDecode(rawSlug);
    const rec = slug === null ? undefined : recordFor(kind, slug, { seed, profileOrigin: origin });
    const html = (title: string, body: string) =>
      `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>\n`;
    if (!rec) return sendText(res, 404, {}, html('Not found', '<p>Not in the synthetic dataset.</p>'), 'text/html; charset=utf-8');
    const grade = rec.speed_score ? `${rec.speed_score.grade} (${rec.speed_score.numeric})` : 'not benchmarked yet';
    sendText(
      res,
      200,
      {},
      html(
        `${rec.name} — synthetic data`,
        `<p><strong>WP Bench emulator — synthetic data.</strong> These numbers are invented and say nothing about the real ${kind}.</p>` +
          `<h1>${rec.name}</h1><p>${kind} <code>${rec.slug}</code>: grade ${grade}</p>`,
      ),
      'text/html; charset=utf-8',
    );
  }

  function handle(req: http.IncomingMessage, res: http.ServerResponse, path: string, search: string, n: number) {
    if (req.method !== 'GET') {
      return sendText(res, 405, { Allow: 'GET' }, JSON.stringify(errorBody('method_not_allowed', 'Only GET is supported.')));
    }
    let rel: string | null = null;
    if (apiRoot === '') rel = path;
    else if (path === apiRoot || path.startsWith(`${apiRoot}/`)) rel = path.slice(apiRoot.length);
    if (rel !== null && rel.startsWith('/v1/')) return handleApi(req, res, rel, search, path, n);
    const pm = PROFILE_ROUTE.exec(path);
    if (pm) return handleProfile(res, pm[1], pm[2]);
    sendText(res, 404, {}, JSON.stringify(errorBody('not_found', 'No such endpoint.')));
  }

  const server = http.createServer((req, res) => {
    inFlight++;
    if (inFlight > stats.concurrentMax) stats.concurrentMax = inFlight;
    res.once('close', () => inFlight--);
    res.setHeader('X-Synthetic-Data', 'true');
    stats.total++;

    let target = req.url ?? '/';
    if (!target.startsWith('/')) {
      try {
        const u = new URL(target);
        target = u.pathname + u.search;
      } catch {
        target = '/';
      }
    }
    const q = target.indexOf('?');
    const path = q >= 0 ? target.slice(0, q) : target;
    const search = q >= 0 ? target.slice(q) : '';
    const n = (stats.byPath.get(path) ?? 0) + 1;
    stats.byPath.set(path, n);
    const auth = req.headers.authorization;
    if (auth !== undefined && stats.authHeaders.length < AUTH_HEADERS_KEPT) stats.authHeaders.push(auth);

    const run = () => {
      try {
        handle(req, res, path, search, n);
      } catch (err) {
        if (!res.headersSent) sendText(res, 500, {}, JSON.stringify(errorBody('internal_error', String(err))));
        else res.destroy();
      }
    };
    if (latency > 0) {
      const t = setTimeout(() => {
        timers.delete(t);
        run();
      }, latency);
      timers.add(t);
    } else run();
  });
  server.keepAliveTimeout = 10_000;
  server.headersTimeout = 15_000;
  server.maxConnections = 10_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  origin = `http://${hostForUrl(host)}:${port}`;

  return {
    url: origin + apiRoot,
    origin,
    port,
    stats,
    close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    resetStats() {
      stats.total = 0;
      stats.byPath.clear();
      stats.me = 0;
      stats.counted = 0;
      stats.concurrentMax = inFlight;
      stats.authHeaders.length = 0;
    },
    setFault(f) {
      fault = f;
    },
    setLatency(ms) {
      latency = ms;
    },
    setRateLimitFormat(f) {
      rlFormat = f;
    },
    usage(key) {
      return keys.has(key) ? usageEntry(key).used : 0;
    },
    setUsage(key, used) {
      usageEntry(key).used = used;
    },
  };
}
