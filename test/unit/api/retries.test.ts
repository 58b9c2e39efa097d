// Issue 21, item 9: only what can succeed on a retry is retried (a connection reset, a 500/502/503/504 on the GET);
// never a too-large or malformed answer or a 4xx — each try counts against the user's quota. Counted by the server,
// with the transport from the sources and the one that ships (dist/http.js, bundled apart from the client).
import assert from 'node:assert/strict';
import type * as http from 'node:http';
import * as path from 'node:path';
import { BenchClient } from '../../../src/core/api/client';
import type { TransportFactory } from '../../../src/core/api/transport';
import { createUndiciTransport } from '../../../src/core/api/undiciTransport';
import { json, startTestServer, type TestServer } from '../helpers/testServer';
import { sampleBody } from '../helpers/samples';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const big = Buffer.alloc(2 * 1024 * 1024, 'a');
const good: Handler = (_req, res) => json(res, 200, sampleBody({ slug: 'akismet' }));

/** [what the server does, tries it should receive, error kind] */
const CASES: [string, Handler, number, string][] = [
  ['a body over the 1 MiB cap (chunked)', (_q, r) => { r.writeHead(200, { 'content-type': 'application/json' }); r.end(big); }, 1, 'unreadable'],
  ['a body over the cap with Content-Length', (_q, r) => { r.writeHead(200, { 'content-length': String(big.length) }); r.end(big); }, 1, 'unreadable'],
  ['a 503 whose body is over the cap', (_q, r) => { r.writeHead(503); r.end(big); }, 1, 'unreadable'],
  ['headers over the limit', (_q, r) => { r.writeHead(200, { 'x-filler': 'a'.repeat(100 * 1024) }); r.end('{}'); }, 1, 'unreadable'],
  ['an answer that is not HTTP', (_q, r) => void r.socket?.end('hello\r\n\r\n'), 1, 'unreadable'],
  ['an invalid status line', (_q, r) => void r.socket?.end('HTTP/1.1 2000 OK\r\n\r\n{}'), 1, 'unreadable'],
  ['invalid JSON', (_q, r) => { r.writeHead(200, { 'content-type': 'application/json' }); r.end('{"grade":'); }, 1, 'unreadable'],
  ['JSON of the wrong shape', (_q, r) => json(r, 200, sampleBody({ slug: 'akismet', speed_score: 'A' })), 1, 'unreadable'],
  ['400', (_q, r) => json(r, 400, { error: 'bad_request' }), 1, 'unreadable'],
  ['401', (_q, r) => json(r, 401, { error: 'invalid_key' }), 1, 'invalid-key'],
  ['410', (_q, r) => json(r, 410, { error: 'gone' }), 1, 'unreadable'],
  ['422', (_q, r) => json(r, 422, { error: 'unprocessable' }), 1, 'unreadable'],
  ['429', (_q, r) => json(r, 429, { error: 'quota' }), 1, 'quota-exceeded'],
  ['501 Not Implemented', (_q, r) => json(r, 501, { error: 'not_implemented' }), 1, 'server'],
  ['505 HTTP Version Not Supported', (_q, r) => json(r, 505, { error: 'version' }), 1, 'server'],
  // What a retry can cure: 1 try + 2 retries.
  ['503 forever', (_q, r) => json(r, 503, { error: 'unavailable' }), 3, 'server'],
  ['502 forever', (_q, r) => { r.writeHead(502, { 'content-type': 'text/html' }); r.end('<html>Bad gateway</html>'); }, 3, 'server'],
  ['a connection reset mid-body', (_q, r) => { r.writeHead(200, { 'content-type': 'application/json' }); r.write('{"slug":'); setImmediate(() => r.socket?.resetAndDestroy()); }, 3, 'network'],
];

const TRANSPORTS: [string, () => TransportFactory][] = [
  ['sources', () => createUndiciTransport],
  // The build the extension and the CLI run: undici in its own bundle, loaded on the first request.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  ['dist/http.js', () => (require(path.join(__dirname, '..', '..', '..', 'dist', 'http.js')) as typeof import('../../../src/core/api/undiciTransport')).createUndiciTransport],
];

describe('issue 21: retries only what a retry can cure (requests counted by the server)', function () {
  this.timeout(20_000);
  let server: TestServer;
  beforeEach(async () => (server = await startTestServer()));
  afterEach(() => server.close());

  for (const [transportName, transport] of TRANSPORTS) {
    for (const [label, handler, tries, kind] of CASES) {
      it(`${transportName}: ${label} → ${tries === 1 ? 'not retried' : `${tries} tries`} ("${kind}")`, async () => {
        server.handle((req, res) => (req.url?.endsWith('/me') ? json(res, 200, { tier: 'pro' }) : handler(req, res)));
        const client = new BenchClient({ apiUrl: server.url, getKey: () => 'k', transport: transport(), sleep: async () => undefined });
        const err = await client.lookup('plugin', 'akismet').then(() => undefined, (e) => e);
        await client.dispose();
        assert.equal(err?.kind, kind, String(err?.message));
        assert.equal(server.requests.filter((r) => r.path.endsWith('/plugins/akismet')).length, tries);
      });
    }

    it(`${transportName}: a timeout is not retried, and a good answer after a 503 is used`, async () => {
      server.handle((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const t = setInterval(() => res.write(' '), 100);
        res.on('close', () => clearInterval(t));
      });
      const slow = new BenchClient({ apiUrl: server.url, getKey: () => 'k', transport: transport(), timeoutMs: 500, sleep: async () => undefined });
      const err = await slow.lookup('plugin', 'akismet').then(() => undefined, (e) => e);
      await slow.dispose();
      assert.equal(err?.kind, 'timeout', String(err?.message));
      assert.equal(server.requests.length, 1);
      server.requests.length = 0;
      server.handle((req, res, n) => (n === 1 ? json(res, 503, {}) : good(req, res)));
      const client = new BenchClient({ apiUrl: server.url, getKey: () => 'k', transport: transport(), sleep: async () => undefined });
      const result = await client.lookup('plugin', 'akismet');
      await client.dispose();
      assert.equal(result.state, 'benchmarked');
      assert.equal(server.requests.length, 2);
    });
  }
});
