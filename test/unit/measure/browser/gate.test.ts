// The gate, the browser's one way out, driven as Chromium drives a proxy (absolute-form requests, CONNECT) against a
// stand-in site on 127.0.0.1: the site's origin forwarded with the side's headers and none of the page's own
// X-WPBench-* headers, text compressed, anything else refused and noted.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import * as zlib from 'node:zlib';
import { startGate, type Gate } from '../../../../src/core/measure/browser/gate';

interface Seen {
  url: string;
  headers: http.IncomingHttpHeaders;
}

function through(gate: Gate, absUrl: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: gate.port, path: absUrl, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('browser gate', () => {
  let site: http.Server;
  let origin: string;
  let port: number;
  const seen: Seen[] = [];
  let gate: Gate;
  before(async () => {
    site = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      if (req.url?.endsWith('.png')) res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(2048, 7));
      else res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' }).end(`<p>${'hello '.repeat(500)}</p>`);
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
    port = (site.address() as net.AddressInfo).port;
    origin = `http://127.0.0.1:${port}`;
    gate = await startGate({ origin, port, headers: { 'X-WPBench-Side': 'baseline', 'X-WPBench-Db': 's1 s1 secret' } });
  });
  after(async () => {
    await gate.close();
    site.close();
  });

  it('forwards the site’s origin with the side’s headers, never the page’s own X-WPBench-* headers', async () => {
    const res = await through(gate, `${origin}/?p=1`, { 'X-WPBench-Side': 'measured', 'x-wpbench-req': 'forged', 'Accept-Encoding': 'gzip' });
    assert.equal(res.status, 200);
    const s = seen.at(-1)!;
    assert.equal(s.url, '/?p=1');
    assert.equal(s.headers['x-wpbench-side'], 'baseline');
    assert.equal(s.headers['x-wpbench-db'], 's1 s1 secret');
    assert.equal(s.headers['x-wpbench-req'], undefined);
    assert.equal(s.headers.host, `127.0.0.1:${port}`);
    // Text goes out compressed, as a production server sends it.
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.match(zlib.gunzipSync(res.body).toString(), /hello hello/);
    assert.ok(res.body.length < 500);
    assert.equal(gate.served, 1);
  });

  it('sends images as they are', async () => {
    const res = await through(gate, `${origin}/wp-content/uploads/hero.png`, { 'Accept-Encoding': 'gzip' });
    assert.equal(res.headers['content-encoding'], undefined);
    assert.equal(res.body.length, 2048);
  });

  it('refuses another host, another port and CONNECT, and notes each; the site sees none of them', async () => {
    const before = seen.length;
    assert.equal((await through(gate, 'http://example.com/beacon')).status, 403);
    assert.equal((await through(gate, `http://127.0.0.2:${port}/`)).status, 403);
    assert.equal((await through(gate, `http://127.0.0.1:${port + 1}/`)).status, 403);
    const connect = await new Promise<string>((resolve) => {
      const s = net.connect(gate.port!, '127.0.0.1', () => s.write('CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n'));
      let got = '';
      s.on('data', (c) => (got += c.toString()));
      s.on('close', () => resolve(got));
      s.on('error', () => resolve(got));
    });
    assert.match(connect, /^HTTP\/1\.1 403/);
    assert.equal(seen.length, before);
    assert.deepEqual(gate.blocked, ['example.com', `127.0.0.2:${port}`, `127.0.0.1:${port + 1}`, 'evil.example:443']);
  });
});
