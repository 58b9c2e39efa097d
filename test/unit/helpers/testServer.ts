// A programmable HTTP server on 127.0.0.1 for client tests: each test installs its own handler.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, n: number) => void;

export interface TestServer {
  url: string;
  origin: string;
  requests: { path: string; authorization: string | undefined }[];
  maxInFlight: number;
  handle(h: Handler): void;
  close(): Promise<void>;
}

export async function startTestServer(): Promise<TestServer> {
  let handler: Handler = (_req, res) => {
    res.statusCode = 500;
    res.end();
  };
  let inFlight = 0;
  const sockets = new Set<import('node:net').Socket>();
  const state: TestServer = {
    url: '',
    origin: '',
    requests: [],
    maxInFlight: 0,
    handle(h) {
      handler = h;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  const server = http.createServer((req, res) => {
    state.requests.push({ path: req.url ?? '', authorization: req.headers.authorization });
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    handler(req, res, state.requests.length);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  state.origin = `http://127.0.0.1:${port}`;
  state.url = `${state.origin}/api`;
  return state;
}

export function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
