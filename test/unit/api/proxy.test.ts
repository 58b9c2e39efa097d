// Behind a proxy: requests go through an HTTP CONNECT proxy (VS Code's http.proxy, or HTTPS_PROXY / HTTP_PROXY for
// the CLI), NO_PROXY is honoured, the proxy sees only the CONNECT (never the key), a self-signed HTTPS API works
// with NODE_EXTRA_CA_CERTS, and a loopback API never goes through the proxy. Everything on 127.0.0.1: the proxy
// resolves the test host api.wpbench.test to 127.0.0.1, as a company proxy resolves the real API's name.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { BenchClient } from '../../../src/core/api/client';
import type { ProxySettings } from '../../../src/core/api/transport';
import { createUndiciTransport } from '../../../src/core/api/undiciTransport';
import { sampleBody } from '../helpers/samples';

const ROOT = path.join(__dirname, '..', '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const KEY = 'wpb_secret_key';
const API_HOST = 'api.wpbench.test';

interface Proxy {
  url: string;
  connects: { target: string; headers: http.IncomingHttpHeaders }[];
  /** Plain (non-CONNECT) requests. */
  requests: { url: string; headers: http.IncomingHttpHeaders }[];
  /** Every byte clients sent through the proxy's tunnels. */
  received: () => string;
  close(): Promise<void>;
}

/** A minimal CONNECT proxy (over TLS when given a certificate): records what it receives, then pipes bytes. */
async function startProxy(tls?: { key: Buffer; cert: Buffer }): Promise<Proxy> {
  const connects: Proxy['connects'] = [];
  const requests: Proxy['requests'] = [];
  const chunks: Buffer[] = [];
  const sockets = new Set<net.Socket>();
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    res.statusCode = 405;
    res.end('CONNECT only');
  };
  const server = tls ? https.createServer(tls, onRequest) : http.createServer(onRequest);
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    connects.push({ target: req.url ?? '', headers: req.headers });
    chunks.push(head);
    client.on('data', (d: Buffer) => chunks.push(d));
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host === API_HOST ? '127.0.0.1' : host, () => {
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
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    connects,
    requests,
    received: () => Buffer.concat(chunks).toString('latin1'),
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** An API answering every lookup; records the Authorization header of each request. */
function api(server: http.Server | https.Server, seen: (string | undefined)[]): Promise<number> {
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    seen.push(req.headers.authorization);
    res.writeHead(200, { 'content-type': 'application/json', 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9', 'x-ratelimit-reset': '3600' });
    res.end(JSON.stringify(sampleBody({ slug: (req.url ?? '').split('/').pop() })));
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r((server.address() as net.AddressInfo).port)));
}

/** Every name resolves to 127.0.0.1: no DNS query leaves the machine. */
const lookup: net.LookupFunction = (_host, options, cb) => {
  const callback = cb as (e: Error | null, a: string | { address: string; family: number }[], f?: number) => void;
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};

/** A self-signed certificate for api.wpbench.test and 127.0.0.1. */
function selfSigned(dir: string, name: string): { key: string; cert: string } {
  const key = path.join(dir, `${name}-key.pem`);
  const cert = path.join(dir, `${name}-cert.pem`);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', `/CN=${API_HOST}`, '-addext', `subjectAltName=DNS:${API_HOST},IP:127.0.0.1`], { stdio: 'ignore' });
  return { key, cert };
}

function exitOf(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** The editor's path (BenchClient with VS Code's proxy settings) in a child that trusts `ca`. */
async function editorLookup(apiUrl: string, proxy: ProxySettings, ca: string): Promise<{ state?: string; error?: string }> {
  const r = await exitOf(['-r', 'tsx/cjs', path.join(__dirname, '..', 'helpers', 'proxyChild.ts'), JSON.stringify({ apiUrl, key: KEY, proxy })], { ...process.env, NODE_EXTRA_CA_CERTS: ca, NO_PROXY: '', HTTP_PROXY: '', HTTPS_PROXY: '' });
  return JSON.parse(r.out);
}

describe('behind a proxy', function () {
  this.timeout(30_000);
  let dir: string;
  let apiCert: { key: string; cert: string };
  let proxy: Proxy;
  let plain: http.Server;
  let tls: https.Server;
  let plainUrl: string;
  let tlsPort: number;
  let seen: (string | undefined)[];
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-tls-'));
    apiCert = selfSigned(dir, 'api');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  beforeEach(async () => {
    seen = [];
    proxy = await startProxy();
    plain = http.createServer();
    plainUrl = `http://127.0.0.1:${await api(plain, seen)}/api`;
    tls = https.createServer({ key: fs.readFileSync(apiCert.key), cert: fs.readFileSync(apiCert.cert) });
    tlsPort = await api(tls, seen);
  });
  afterEach(async () => {
    await proxy.close();
    await new Promise((r) => plain.close(r));
    await new Promise((r) => tls.close(r));
  });
  const cliEnv = (apiUrl: string, extra: Record<string, string>) => ({
    ...process.env,
    WPBENCH_API_URL: apiUrl,
    WPBENCH_API_KEY: KEY,
    WPBENCH_CACHE_DIR: fs.mkdtempSync(path.join(dir, 'cache-')),
    NO_PROXY: '',
    ...extra,
  });

  it("VS Code's http.proxy: the request goes through CONNECT; the proxy never sees the key; Proxy-Authorization is sent", async () => {
    const r = await editorLookup(`https://${API_HOST}:${tlsPort}/api`, { proxy: proxy.url, authorization: 'Basic dXNlcjpwYXNz' }, apiCert.cert);
    assert.equal(r.state, 'benchmarked', r.error);
    assert.equal(proxy.connects.length, 1, 'one tunnel');
    assert.equal(proxy.connects[0].target, `${API_HOST}:${tlsPort}`);
    assert.equal(proxy.connects[0].headers['proxy-authorization'], 'Basic dXNlcjpwYXNz');
    assert.equal(proxy.connects[0].headers.authorization, undefined, 'the key is not a header the proxy can read');
    assert.ok(!JSON.stringify(proxy.connects).includes(KEY) && !proxy.received().includes(KEY), 'the key only inside TLS');
    assert.deepEqual(seen, [`Bearer ${KEY}`]);
  });

  it('http.noProxy (NO_PROXY) excludes the API host', async () => {
    const r = await editorLookup(`https://${API_HOST}:${tlsPort}/api`, { proxy: proxy.url, noProxy: API_HOST }, apiCert.cert);
    assert.equal(r.state, 'benchmarked', r.error);
    assert.equal(proxy.connects.length, 0);
  });

  it('the CLI honours HTTPS_PROXY; a self-signed HTTPS API through it works with NODE_EXTRA_CA_CERTS (and is refused without it)', async () => {
    const apiUrl = `https://${API_HOST}:${tlsPort}/api`;
    const args = [CLI, 'lookup', 'plugin', 'akismet', '--json', '--no-cache'];
    assert.equal((await exitOf(args, cliEnv(apiUrl, { HTTPS_PROXY: proxy.url }))).code, 6, 'an unknown certificate is refused');
    assert.equal((await exitOf(args, cliEnv(apiUrl, { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: apiCert.cert }))).code, 0, 'trusted with the extra CA');
    assert.ok(proxy.connects.length >= 2, 'both runs went through the proxy (the refused one with its retries)');
    assert.ok(proxy.connects.every((c) => c.target === `${API_HOST}:${tlsPort}` && c.headers.authorization === undefined));
    assert.ok(!proxy.received().includes(KEY));
  });

  describe('a loopback API never goes through a proxy; the key never travels readable off this machine (issue 18, finding 4)', () => {
    it('CLI: with HTTP_PROXY and HTTPS_PROXY set, http://127.0.0.1 is asked directly; the proxy receives nothing', async () => {
      const r = await exitOf([CLI, 'lookup', 'plugin', 'jetpack', '--json'], cliEnv(plainUrl, { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, http_proxy: proxy.url }));
      assert.equal(r.code, 0);
      assert.deepEqual(seen, [`Bearer ${KEY}`], 'the API got the request');
      assert.deepEqual([proxy.connects, proxy.requests, proxy.received()], [[], [], ''], 'the proxy got nothing');
    });

    it("editor: with http.proxy set, http://127.0.0.1 and http://localhost are asked directly; the proxy receives nothing", async () => {
      for (const apiUrl of [plainUrl, plainUrl.replace('127.0.0.1', 'localhost')]) {
        const client = new BenchClient({ apiUrl, getKey: () => KEY, transport: createUndiciTransport, proxy: { proxy: proxy.url, authorization: 'Basic dXNlcjpwYXNz' } });
        const r = await client.lookup('plugin', 'akismet').catch((e: Error) => e);
        await client.dispose();
        // localhost may resolve to ::1 first, where nothing listens: what matters is that the proxy saw nothing.
        if (apiUrl.includes('127.0.0.1')) assert.equal((r as { state?: string }).state, 'benchmarked');
      }
      assert.ok(seen.length >= 1);
      assert.deepEqual([proxy.connects, proxy.requests, proxy.received()], [[], [], '']);
    });

    it('the transport itself never sends plain http:// to a non-loopback host, proxy or not (the client refuses it first)', async () => {
      for (const settings of [{ proxy: proxy.url }, undefined]) {
        const transport = createUndiciTransport({ connections: 1, timeoutMs: 5000, proxy: settings, lookup });
        const sent = transport.request({ url: `http://${API_HOST}:${tlsPort}/api/v1/plugins/akismet`, headers: { authorization: `Bearer ${KEY}` }, timeoutMs: 5000, maxBytes: 1024 });
        await assert.rejects(sent, /plain http:\/\/ is only allowed for loopback addresses/);
        await transport.close();
      }
      assert.deepEqual([proxy.connects, proxy.requests, proxy.received(), seen], [[], [], '', []]);
    });

    it('http.proxyStrictSSL: false relaxes only the proxy: a self-signed API is still refused, through a proxy or not', async () => {
      for (const settings of [{ proxy: proxy.url, strictSSL: false }, { strictSSL: false }] as ProxySettings[]) {
        const client = new BenchClient({ apiUrl: `https://${API_HOST}:${tlsPort}/api`, getKey: () => KEY, transport: (o) => createUndiciTransport({ ...o, lookup }), proxy: settings, sleep: async () => undefined });
        const err = await client.lookup('plugin', 'akismet').then(() => undefined, (e: Error & { kind?: string }) => e);
        await client.dispose();
        assert.equal(err?.kind, 'network', `refused (${JSON.stringify(settings)})`);
        assert.match(err!.message, /SELF_SIGNED|CERT|certificate/i);
      }
      assert.deepEqual(seen, [], 'the untrusted API never got a request (nor the key)');
      assert.ok(proxy.connects.length >= 1, 'the first client did go through the proxy');
    });

    it('http.proxyStrictSSL: false does accept a proxy with a self-signed certificate (and true refuses it)', async () => {
      const proxyCert = selfSigned(dir, 'proxy');
      const tlsProxy = await startProxy({ key: fs.readFileSync(proxyCert.key), cert: fs.readFileSync(proxyCert.cert) });
      try {
        const apiUrl = `https://${API_HOST}:${tlsPort}/api`;
        assert.equal((await editorLookup(apiUrl, { proxy: tlsProxy.url, strictSSL: false }, apiCert.cert)).state, 'benchmarked');
        assert.match((await editorLookup(apiUrl, { proxy: tlsProxy.url }, apiCert.cert)).error ?? '', /SELF_SIGNED|CERT|certificate|reach/i);
        assert.equal(tlsProxy.connects.length, 1, 'only the relaxed client got through the TLS proxy');
      } finally {
        await tlsProxy.close();
      }
    });
  });
});
