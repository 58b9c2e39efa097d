// Behind a proxy: requests go through an HTTP CONNECT proxy (VS Code's http.proxy, or HTTPS_PROXY / HTTP_PROXY for
// the CLI), NO_PROXY is honoured, the proxy sees only the CONNECT (never the key), and a self-signed HTTPS API works
// with NODE_EXTRA_CA_CERTS. Everything on 127.0.0.1.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { BenchClient } from '../../src/core/api/client';
import { createUndiciTransport } from '../../src/core/api/undiciTransport';
import { sampleBody } from './helpers/samples';

interface Proxy {
  url: string;
  connects: { target: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** A minimal CONNECT proxy: records each tunnel request, then pipes bytes. */
async function startProxy(): Promise<Proxy> {
  const connects: Proxy['connects'] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_req, res) => {
    res.statusCode = 405;
    res.end('CONNECT only');
  });
  server.on('connect', (req, client: net.Socket, head) => {
    connects.push({ target: req.url ?? '', headers: req.headers });
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connects,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

function api(server: http.Server | https.Server): Promise<number> {
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9', 'x-ratelimit-reset': '3600' });
    res.end(JSON.stringify(sampleBody({ slug: (req.url ?? '').split('/').pop() })));
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r((server.address() as net.AddressInfo).port)));
}

describe('behind a proxy', function () {
  this.timeout(30_000);
  let proxy: Proxy;
  let server: http.Server;
  let apiUrl: string;
  beforeEach(async () => {
    proxy = await startProxy();
    server = http.createServer();
    apiUrl = `http://127.0.0.1:${await api(server)}/api`;
  });
  afterEach(async () => {
    await proxy.close();
    await new Promise((r) => server.close(r));
  });

  it("VS Code's http.proxy: the request goes through CONNECT; the proxy never sees the key; Proxy-Authorization is sent", async () => {
    const client = new BenchClient({ apiUrl, getKey: () => 'wpb_secret_key', transport: createUndiciTransport, proxy: { proxy: proxy.url, authorization: 'Basic dXNlcjpwYXNz' } });
    const r = await client.lookup('plugin', 'akismet');
    await client.dispose();
    assert.equal(r.state, 'benchmarked');
    assert.equal(proxy.connects.length, 1, 'one tunnel');
    assert.equal(proxy.connects[0].target, new URL(apiUrl).host);
    assert.equal(proxy.connects[0].headers['proxy-authorization'], 'Basic dXNlcjpwYXNz');
    assert.equal(proxy.connects[0].headers.authorization, undefined, 'the key is not a header the proxy can read');
    assert.ok(!JSON.stringify(proxy.connects).includes('wpb_secret_key'));
  });

  it('http.noProxy (NO_PROXY) excludes the API host', async () => {
    const client = new BenchClient({ apiUrl, getKey: () => 'k', transport: createUndiciTransport, proxy: { proxy: proxy.url, noProxy: '127.0.0.1' } });
    assert.equal((await client.lookup('plugin', 'akismet')).state, 'benchmarked');
    await client.dispose();
    assert.equal(proxy.connects.length, 0);
  });

  it('the CLI honours HTTPS_PROXY / HTTP_PROXY from the environment', async () => {
    const cli = path.join(__dirname, '..', '..', 'dist', 'cli.js');
    assert.ok(fs.existsSync(cli), 'run npm run build first');
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-proxy-cache-'));
    const env = { ...process.env, WPBENCH_API_URL: apiUrl, WPBENCH_API_KEY: 'k', WPBENCH_CACHE_DIR: cache, HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: '' };
    const code = await new Promise<number | null>((resolve) => spawn(process.execPath, [cli, 'lookup', 'plugin', 'jetpack', '--json'], { env, stdio: 'ignore' }).on('close', resolve));
    assert.equal(code, 0);
    assert.equal(proxy.connects.length, 1);
  });

  it('a self-signed HTTPS API through the proxy works with NODE_EXTRA_CA_CERTS (and is refused without it)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-tls-'));
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    const tls = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) });
    const port = await api(tls);
    try {
      const cli = path.join(__dirname, '..', '..', 'dist', 'cli.js');
      const run = (extra: Record<string, string>) =>
        new Promise<number | null>((resolve) =>
          spawn(process.execPath, [cli, 'lookup', 'plugin', 'akismet', '--json', '--no-cache'], {
            env: { ...process.env, WPBENCH_API_URL: `https://127.0.0.1:${port}/api`, WPBENCH_API_KEY: 'wpb_secret_key', WPBENCH_CACHE_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-tls-cache-')), HTTPS_PROXY: proxy.url, NO_PROXY: '', ...extra },
            stdio: 'ignore',
          }).on('close', resolve),
        );
      assert.equal(await run({}), 6, 'an unknown certificate is refused');
      assert.equal(await run({ NODE_EXTRA_CA_CERTS: cert }), 0, 'trusted with the extra CA');
      assert.ok(proxy.connects.length >= 2 && proxy.connects.every((c) => c.target === `127.0.0.1:${port}` && c.headers.authorization === undefined));
    } finally {
      await new Promise((r) => tls.close(r));
    }
  });
});
