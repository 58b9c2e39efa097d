// Local emulator of the benchmark API (spec: shared/docs/api-spec.md) on node:http only.
// Serves synthetic data for tests, the demo and benchmarks, with quota, rate-limit headers and
// injectable faults. Behaviour the spec leaves open is decided in src/emulator/README.md.

import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ComponentKind } from '../core/model';
import { DEFAULT_SEED, formatMysqlUtc, recordFor } from './dataset';
import { DEMO_KEYS, type DemoKey } from './keys';
import { resolveFault, sendApi, type FaultSetting } from './faults';
import { monthlyUsage, nextMonthUtc, rateLimitHeaders, type RateLimitFormat } from './quota';
import { errorBody, sendText, type Payload } from './respond';

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
export type { FaultMode, FaultSetting } from './faults';
export type { RateLimitFormat } from './quota';

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

/** Bound on stats.authHeaders so a long benchmark cannot grow it without limit. */
const AUTH_HEADERS_KEPT = 100_000;
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

function safeDecode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
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
  const usageEntry = monthlyUsage(keys, now);

  const stats: EmulatorStats = { total: 0, byPath: new Map(), me: 0, counted: 0, concurrentMax: 0, authHeaders: [] };
  let inFlight = 0;
  const timers = new Set<NodeJS.Timeout>();
  let origin = '';

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
        headers: rateLimitHeaders(key, u.used, now(), rlFormat),
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
        headers: { ...rateLimitHeaders(key, u.used, now(), rlFormat), 'Retry-After': String(Math.max(1, Math.ceil((reset - now()) / 1000))) },
        body: errorBody('quota_exceeded', `The monthly quota of ${key.quota} requests is used up; it resets at ${formatMysqlUtc(reset)} UTC.`),
      };
    }
    u.used++;
    stats.counted++;
    const kind: ComponentKind = m![1] === 'plugins' ? 'plugin' : 'theme';
    const slug = safeDecode(m![2]);
    const rec = slug === null ? undefined : recordFor(kind, slug, { seed, profileOrigin: origin });
    const headers = rateLimitHeaders(key, u.used, now(), rlFormat);
    if (!rec) return { status: 404, headers, body: errorBody('not_found', `No ${kind} with this slug is in the dataset.`) };
    return { status: 200, headers, body: rec };
  }

  function handleApi(req: http.IncomingMessage, res: http.ServerResponse, rel: string, search: string, path: string, n: number) {
    sendApi(res, resolveFault(fault, path, n), rel, search, () => answer(req, rel), { timers, trickleMs, hugeBytes });
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
