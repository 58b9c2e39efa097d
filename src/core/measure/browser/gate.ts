// The gate: the browser's one way out. Each side has its own gate, an HTTP proxy the browser context of that side is
// given (Target.createBrowserContext's proxyServer, loopback proxied too), so the document and every sub-resource of a
// load reach the same side. A request for the site's origin is forwarded to the site (its Unix socket or port) with
// the side's header (X-WPBench-Side, and the side's own database), every X-WPBench-* header the page set removed;
// anything else — another host, another port, CONNECT (https, WebSocket), an Upgrade — is refused and noted. Text
// answers are compressed with gzip (level 6) as a production server sends them, so the bytes are a visitor's bytes.
import type * as Http from 'node:http';
import type * as Net from 'node:net';
import { http, zlib } from '../../lazyNode';

export interface GateUpstream {
  /** the site's origin as the browser names it: "http://127.0.0.1:PORT" */
  origin: string;
  port: number;
  socketPath?: string;
  /** the side's own headers (X-WPBench-Side, X-WPBench-Db) */
  headers: Record<string, string>;
}

export interface Gate {
  /** where it listens: a TCP port on 127.0.0.1, or a Unix socket (Chromium in its sandbox reaches it through a relay) */
  port?: number;
  socketPath?: string;
  /** what was refused: "host:port" or the scheme, in order, each once */
  blocked: string[];
  /** requests forwarded to the site */
  served: number;
  close: () => Promise<void>;
}

const COMPRESSIBLE = /^(text\/|application\/(javascript|x-javascript|json|ld\+json|xml|rss\+xml|atom\+xml)|image\/svg\+xml)/i;
const HOP = new Set(['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'transfer-encoding']);

/** Starts a gate for one side; `listen` a Unix socket path, or nothing (an ephemeral port on 127.0.0.1). */
export async function startGate(up: GateUpstream, listen?: string): Promise<Gate> {
  const blocked: string[] = [];
  const block = (what: string) => {
    if (!blocked.includes(what)) blocked.push(what);
  };
  const sockets = new Set<Net.Socket>();
  const gate: Gate = { blocked, served: 0, close: async () => undefined };
  const server = http().createServer((req, res) => {
    let url: URL | undefined;
    try {
      url = new URL(req.url ?? '', up.origin);
    } catch {
      url = undefined;
    }
    // Absolute-form (through a proxy) must name the site's origin; origin-form is the site's by construction.
    if (!url || url.origin !== up.origin || !/^(GET|HEAD|POST)$/.test(req.method ?? '')) {
      block(url ? (url.protocol === 'http:' || url.protocol === 'https:' ? url.host : url.protocol) : String(req.url).slice(0, 80));
      res.writeHead(403, { 'content-type': 'text/plain', connection: 'close' }).end('refused by WP Bench: the page may reach its own site only\n');
      return;
    }
    forward(up, req, res, url, () => gate.served++);
  });
  // CONNECT (https and WebSocket through a proxy) and upgrades: never.
  server.on('connect', (req: Http.IncomingMessage, socket: Net.Socket) => {
    block(String(req.url ?? '').slice(0, 80));
    socket.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\n\r\n');
    socket.destroy();
  });
  server.on('upgrade', (req: Http.IncomingMessage, socket: Net.Socket) => {
    block(`${req.headers.upgrade ?? 'upgrade'} ${String(req.url ?? '').slice(0, 80)}`);
    socket.destroy();
  });
  server.on('connection', (s: Net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if (listen) server.listen(listen, () => resolve());
    else server.listen(0, '127.0.0.1', () => resolve());
  });
  const addr = server.address();
  if (addr && typeof addr === 'object') gate.port = addr.port;
  else gate.socketPath = listen;
  gate.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return gate;
}

function forward(up: GateUpstream, req: Http.IncomingMessage, res: Http.ServerResponse, url: URL, onServed: () => void): void {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    // The page cannot choose a side, a database or a probe id: every X-WPBench-* header it set is dropped.
    if (v === undefined || HOP.has(k) || /^x-wpbench-/i.test(k)) continue;
    headers[k] = v;
  }
  Object.assign(headers, up.headers, { host: url.host, connection: 'close' });
  const upstream = http().request({ ...(up.socketPath ? { socketPath: up.socketPath } : { host: '127.0.0.1', port: up.port }), method: req.method, path: `${url.pathname}${url.search}`, headers, agent: false }, (r) => {
    onServed();
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(r.headers)) if (v !== undefined && !HOP.has(k)) out[k] = v;
    const gzip = req.method !== 'HEAD' && r.statusCode !== 204 && r.statusCode !== 304 && !r.headers['content-encoding'] && COMPRESSIBLE.test(String(r.headers['content-type'] ?? '')) && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    if (gzip) {
      delete out['content-length'];
      out['content-encoding'] = 'gzip';
      out.vary = 'Accept-Encoding';
    }
    res.writeHead(r.statusCode ?? 502, out);
    if (gzip) r.pipe(zlib().createGzip({ level: 6 })).pipe(res);
    else r.pipe(res);
  });
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end();
  });
  req.pipe(upstream);
}

