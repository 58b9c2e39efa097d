import assert from 'node:assert/strict';
import { BenchClient, normaliseApiUrl, type ClientOptions } from '../../../src/core/api/client';
import { ApiError } from '../../../src/core/api/errors';
import { createUndiciTransport } from '../../../src/core/api/undiciTransport';
import type { QuotaSnapshot } from '../../../src/core/model';
import { json, startTestServer, type TestServer } from '../helpers/testServer';
import { sampleBody } from '../helpers/samples';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { childEnv } from '../../../src/core/report/git';
import { cli, tmpDir } from '../helpers/cliRun';

const KEY = 'wpb_canary_key_5f1d2e';
const RESET = Math.floor(Date.UTC(2026, 11, 1) / 1000);
const RL = { 'x-ratelimit-limit': '50000', 'x-ratelimit-remaining': '48766', 'x-ratelimit-reset': String(RESET) };

function record(slug: string) {
  return sampleBody({ slug, name: slug });
}

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ApiError, `expected ApiError, got ${String(err)}`);
    assert.ok(!err.message.includes(KEY), 'the key must never appear in an error');
    return err;
  }
  assert.fail('expected a rejection');
}

describe('API client', () => {
  let server: TestServer;
  let client: BenchClient;
  const make = (o: Partial<ClientOptions> = {}) =>
    (client = new BenchClient({ apiUrl: server.url, getKey: () => KEY, transport: createUndiciTransport, sleep: async () => undefined, timeoutMs: 2000, ...o }));

  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    await client?.dispose();
    await server.close();
  });

  it('gets a benchmarked record with the bearer key and publishes the quota from the headers', async () => {
    server.handle((req, res) => json(res, 200, record('akismet'), RL));
    make();
    const seen: QuotaSnapshot[] = [];
    client.onQuota((q) => seen.push(q));
    const r = await client.lookup('plugin', 'akismet');
    assert.equal(r.state, 'benchmarked');
    assert.deepEqual(server.requests, [{ path: '/api/v1/plugins/akismet', authorization: `Bearer ${KEY}` }]);
    assert.equal(seen.length, 1);
    assert.equal(seen[0].used, 1234);
    assert.equal(seen[0].resetAt, RESET * 1000);
  });

  it('uses /v1/themes for themes and maps 404 to not-in-dataset', async () => {
    server.handle((req, res) => (req.url!.endsWith('/me') ? json(res, 200, { tier: 'pro', quota: 500000, used: 3 }) : json(res, 404, { error: 'nope' })));
    make();
    assert.deepEqual(await client.lookup('theme', 'no-such-theme'), { state: 'not-in-dataset', kind: 'theme', slug: 'no-such-theme' });
    assert.equal(server.requests[0].path, '/api/v1/themes/no-such-theme');
  });

  it('the first 404 before any good answer checks the address once with /me; later 404s do not', async () => {
    server.handle((req, res) => (req.url!.endsWith('/me') ? json(res, 200, { tier: 'pro', quota: 500000, used: 3 }) : json(res, 404, { error: 'nope' })));
    make();
    const answers = await Promise.all(['a', 'b', 'c'].map((s) => client.lookup('plugin', s)));
    assert.deepEqual(answers.map((a) => a.state), ['not-in-dataset', 'not-in-dataset', 'not-in-dataset']);
    await client.lookup('plugin', 'd');
    assert.deepEqual([client.sent.lookups, client.sent.me], [4, 1]);
  });

  it('after a good answer a 404 needs no /me', async () => {
    server.handle((req, res) => (req.url!.endsWith('/akismet') ? json(res, 200, record('akismet'), RL) : json(res, 404, { error: 'nope' })));
    make();
    assert.equal((await client.lookup('plugin', 'akismet')).state, 'benchmarked');
    assert.equal((await client.lookup('plugin', 'nope')).state, 'not-in-dataset');
    assert.deepEqual([client.sent.lookups, client.sent.me], [2, 0]);
  });

  it('an address that answers 404 to everything is a wrong address, not an empty dataset; nothing more is sent', async () => {
    server.handle((req, res) => json(res, 404, { error: 'nope' }));
    make();
    const errs = await Promise.all(['a', 'b'].map((s) => rejection(client.lookup('plugin', s))));
    for (const e of errs) {
      assert.equal(e.kind, 'wrong-address');
      assert.match(e.message, /not a WP Bench API/);
    }
    const later = await rejection(client.lookup('theme', 'c'));
    assert.equal(later.kind, 'wrong-address');
    assert.deepEqual([client.sent.lookups, client.sent.me], [2, 1], 'the third lookup is not sent');
  });

  it('a wrong address costs at most the lookups already in flight: queued lookups wait for /me, which goes first', async () => {
    server.handle((req, res) => setTimeout(() => json(res, 404, {}), 5));
    make({ concurrency: 4 });
    const slugs = Array.from({ length: 40 }, (_, i) => `p${i}`);
    const errs = await Promise.all(slugs.map((s) => rejection(client.lookup('plugin', s))));
    assert.ok(errs.every((e) => e.kind === 'wrong-address'));
    assert.equal(client.sent.me, 1);
    assert.ok(client.sent.lookups <= 4, `lookups sent: ${client.sent.lookups} (at most the 4 in flight)`);
    assert.ok(server.requests.findIndex((r) => r.path.endsWith('/me')) <= 4, '/me is not queued behind the other 36');
  });

  it('a working API whose first answers are 404s: the queue waits once for /me, then every lookup is sent', async () => {
    server.handle((req, res) => setTimeout(() => (req.url!.endsWith('/me') ? json(res, 200, { tier: 'pro', quota: 500000, used: 3 }) : json(res, 404, {})), 5));
    make({ concurrency: 4 });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => client.lookup('plugin', `p${i}`)));
    assert.ok(answers.every((a) => a.state === 'not-in-dataset'));
    assert.deepEqual([client.sent.lookups, client.sent.me], [20, 1]);
  });

  it('a /me that answers something other than an account marks the address wrong; a /me that times out does not', async () => {
    server.handle((req, res) => (req.url!.endsWith('/me') ? (res.writeHead(200, { 'content-type': 'text/html' }), res.end('<html>hello</html>')) : json(res, 404, {})));
    make();
    assert.equal((await rejection(client.lookup('plugin', 'a'))).kind, 'wrong-address');
    await client.dispose();
    server.handle((req, res) => (req.url!.endsWith('/me') ? json(res, 503, {}) : json(res, 404, {})));
    make();
    assert.equal((await client.lookup('plugin', 'a')).state, 'not-in-dataset', 'a failing /me is not proof of a wrong address');
  });

  it('refuses hostile slugs before any request', async () => {
    make();
    for (const slug of ['../me', 'a%2Fb', 'a?b', 'a#b', 'аkismet', 'x'.repeat(10_000), '', 'Akismet']) {
      const err = await rejection(client.lookup('plugin', slug));
      assert.equal(err.kind, 'invalid-slug');
    }
    assert.equal(server.requests.length, 0);
  });

  it('de-duplicates concurrent lookups of one slug', async () => {
    server.handle((req, res) => setTimeout(() => json(res, 200, record('jetpack'), RL), 50));
    make();
    const [a, b] = await Promise.all([client.lookup('plugin', 'jetpack'), client.lookup('plugin', 'jetpack')]);
    assert.deepEqual(a, b);
    assert.equal(server.requests.length, 1);
  });

  it('never has more requests in flight than the concurrency setting', async () => {
    server.handle((req, res) => setTimeout(() => json(res, 200, record(req.url!.split('/').pop()!), RL), 20));
    make({ concurrency: 3 });
    await Promise.all(Array.from({ length: 15 }, (_, i) => client.lookup('plugin', `p-${i}`)));
    assert.equal(server.requests.length, 15);
    assert.equal(server.maxInFlight, 3);
  });

  it('401: invalid key, and the same key is not sent again', async () => {
    server.handle((req, res) => json(res, 401, { error: 'invalid' }));
    make();
    assert.equal((await rejection(client.lookup('plugin', 'a'))).kind, 'invalid-key');
    assert.equal((await rejection(client.lookup('plugin', 'b'))).kind, 'invalid-key');
    assert.equal(server.requests.length, 1);
  });

  it('403: revoked or suspended; a new key is tried again', async () => {
    let key = KEY;
    server.handle((req, res) => (req.headers.authorization === `Bearer ${KEY}` ? json(res, 403, {}) : json(res, 200, record('a'), RL)));
    make({ getKey: () => key });
    const err = await rejection(client.lookup('plugin', 'a'));
    assert.equal(err.kind, 'forbidden');
    assert.match(err.message, /revoked or suspended/);
    key = 'another-key';
    assert.equal((await client.lookup('plugin', 'a')).state, 'benchmarked');
  });

  it('missing key: no request', async () => {
    make({ getKey: () => undefined });
    assert.equal((await rejection(client.lookup('plugin', 'a'))).kind, 'missing-key');
    assert.equal(server.requests.length, 0);
  });

  it('429: stops plugin/theme requests until the reset; /me still works', async () => {
    const now = Date.UTC(2026, 10, 22);
    server.handle((req, res) =>
      req.url!.endsWith('/me')
        ? json(res, 200, { tier: 'starter', quota: 50000, used: 50000 })
        : json(res, 429, { error: 'quota' }, { 'x-ratelimit-limit': '50000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(RESET) }),
    );
    let t = now;
    make({ now: () => t });
    const err = await rejection(client.lookup('plugin', 'a'));
    assert.equal(err.kind, 'quota-exceeded');
    assert.equal(err.details.resetAt, RESET * 1000);
    assert.match(err.message, /2026-12-01 00:00:00 UTC/);
    await rejection(client.lookup('plugin', 'b'));
    await rejection(client.lookup('theme', 'c'));
    assert.equal(server.requests.length, 1);
    assert.equal((await client.me()).tier, 'starter');
    assert.equal(server.requests.length, 2);
    t = RESET * 1000 + 1;
    await rejection(client.lookup('plugin', 'd'));
    assert.equal(server.requests.length, 3, 'after the reset lookups are sent again');
  });

  it('429 without a reset time blocks until the start of next month', async () => {
    server.handle((req, res) => json(res, 429, {}));
    const now = Date.UTC(2026, 10, 22, 5);
    make({ now: () => now });
    const err = await rejection(client.lookup('plugin', 'a'));
    assert.equal(err.details.resetAt, Date.UTC(2026, 11, 1));
    assert.equal(client.blockedUntil, Date.UTC(2026, 11, 1));
  });

  it('retries 5xx at most twice, then succeeds', async () => {
    server.handle((req, res, n) => (n <= 2 ? json(res, n === 1 ? 502 : 503, {}) : json(res, 200, record('a'), RL)));
    make();
    assert.equal((await client.lookup('plugin', 'a')).state, 'benchmarked');
    assert.equal(server.requests.length, 3);
  });

  it('gives up after two retries of a persistent 503, with backoff between tries', async () => {
    server.handle((req, res) => json(res, 503, {}));
    const delays: number[] = [];
    make({ sleep: async (ms) => void delays.push(ms), random: () => 0.5 });
    const err = await rejection(client.lookup('plugin', 'a'));
    assert.equal(err.kind, 'server');
    assert.equal(server.requests.length, 3);
    assert.deepEqual(delays, [375, 750]);
  });

  it('does not retry 4xx or unreadable answers', async () => {
    server.handle((req, res) => {
      res.writeHead(200, RL);
      res.end('{not json');
    });
    make();
    assert.equal((await rejection(client.lookup('plugin', 'a'))).kind, 'unreadable');
    assert.equal(server.requests.length, 1);
  });

  it('wrong shapes are unreadable with the reason', async () => {
    server.handle((req, res) => json(res, 200, sampleBody({ slug: 'a', contexts: [] }), RL));
    make();
    const err = await rejection(client.lookup('plugin', 'a'));
    assert.equal(err.kind, 'unreadable');
    assert.match(err.message, /contexts/);
  });

  it('times out when headers never arrive, and retries within bounds', async () => {
    server.handle(() => undefined);
    make({ timeoutMs: 300, maxRetries: 0 });
    const started = Date.now();
    assert.equal((await rejection(client.lookup('plugin', 'a'))).kind, 'timeout');
    assert.ok(Date.now() - started < 1500);
  });

  it('times out a body that trickles', async () => {
    server.handle((req, res) => {
      res.writeHead(200, RL);
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    });
    make({ timeoutMs: 400, maxRetries: 0 });
    const started = Date.now();
    assert.equal((await rejection(client.lookup('plugin', 'a'))).kind, 'timeout');
    assert.ok(Date.now() - started < 1500);
  });

  it('cuts a huge body at the cap', async () => {
    server.handle((req, res) => {
      res.writeHead(200, RL);
      const chunk = Buffer.alloc(64 * 1024, 32);
      let sent = 0;
      const pump = () => {
        while (sent < 20 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => (sent = Infinity));
      pump();
    });
    make({ maxRetries: 0 });
    const err = await rejection(client.lookup('plugin', 'a'));
    assert.equal(err.kind, 'unreadable');
    assert.match(err.message, /larger than 1024 KiB/);
  });

  it('reports a connection reset mid-body as a network error (retried)', async () => {
    server.handle((req, res) => {
      res.writeHead(200, { ...RL, 'content-length': '1000' });
      res.write('{"slug":');
      setTimeout(() => req.socket.destroy(), 10);
    });
    make();
    assert.equal((await rejection(client.lookup('plugin', 'a'))).kind, 'network');
    assert.equal(server.requests.length, 3);
  });

  it('reports a refused connection as a network error', async () => {
    const origin = server.origin;
    await server.close();
    client = new BenchClient({ apiUrl: `${origin}/api`, getKey: () => KEY, transport: createUndiciTransport, sleep: async () => undefined });
    const err = await rejection(client.lookup('plugin', 'a'));
    assert.equal(err.kind, 'network');
    assert.match(err.message, /ECONNREFUSED/);
    server = await startTestServer();
  });

  it('never sends the key to another origin on a redirect', async () => {
    const other = await startTestServer();
    try {
      other.handle((req, res) => json(res, 200, record('a'), RL));
      server.handle((req, res) => {
        res.writeHead(302, { location: `${other.origin}/api/v1/plugins/a` });
        res.end();
      });
      make();
      assert.equal((await rejection(client.lookup('plugin', 'a'))).kind, 'redirect');
      assert.equal(other.requests.length, 0);
    } finally {
      await other.close();
    }
  });

  it('follows a same-origin redirect', async () => {
    server.handle((req, res) => {
      if (req.url === '/api/v1/plugins/a') {
        res.writeHead(301, { location: '/api2/v1/plugins/a' });
        res.end();
      } else json(res, 200, record('a'), RL);
    });
    make();
    assert.equal((await client.lookup('plugin', 'a')).state, 'benchmarked');
    assert.equal(server.requests[1].authorization, `Bearer ${KEY}`);
  });

  it('reads /me with unknown extra fields and keeps the raw body', async () => {
    server.handle((req, res) => json(res, 200, { plan: 'Pro', limit: 500000, usage: 12, next_reset: 'x', fancy: [1] }));
    make();
    const me = await client.me();
    assert.deepEqual([me.tier, me.limit, me.used, me.remaining], ['Pro', 500000, 12, 499988]);
    assert.deepEqual((me.raw as { fancy: number[] }).fancy, [1]);
    assert.equal(client.sent.me, 1);
  });

  it('8. a redirect loop says so; a key with a line break or a non-Latin character is never sent; git and tar never see the key; an unwritable cache is said', async () => {
    server.handle((_req, res) => {
      res.writeHead(302, { location: '/api/v1/plugins/akismet' });
      res.end();
    });
    const client = (key: string) => new BenchClient({ apiUrl: server.url, getKey: () => key, transport: createUndiciTransport, timeoutMs: 2000 });
    const c = client('k');
    await assert.rejects(c.lookup('plugin', 'akismet'), /keeps redirecting/);
    await c.dispose();
    const before = server.requests.length;
    for (const bad of ['abc\r\nX-Evil: 1', 'clé-ключ', 'abc\u200bdef']) {
      const k = client(bad);
      await assert.rejects(k.lookup('plugin', 'akismet'), /contains characters that cannot be sent/);
      await k.dispose();
    }
    assert.equal(server.requests.length, before, 'nothing was sent, not even once');
    assert.equal(childEnv({ WPBENCH_API_KEY: 'secret', PATH: '/bin' }).WPBENCH_API_KEY, undefined);
    assert.equal(childEnv({ WPBENCH_API_KEY: 'secret', PATH: '/bin' }).PATH, '/bin');
    // An unwritable cache folder (a file where the folder should be: unwritable even for root): one stderr line.
    const blocker = path.join(await tmpDir('wpb-h2-'), 'cache');
    await fs.writeFile(blocker, '');
    server.handle((_req, res) => json(res, 200, sampleBody()));
    const r = await cli(['lookup', 'plugin', 'akismet'], { WPBENCH_API_URL: server.url, WPBENCH_API_KEY: 'k', WPBENCH_CACHE_DIR: blocker });
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /cache folder cannot be written/);
  });
});

describe('API address', () => {
  it('accepts https anywhere and http on loopback only', () => {
    assert.equal(normaliseApiUrl('https://api.example.com/api/').toString(), 'https://api.example.com/api');
    assert.equal(normaliseApiUrl('https://api.example.com/api/v1').pathname, '/api');
    for (const ok of ['http://127.0.0.1:8787/api', 'http://localhost:1/x', 'http://[::1]:9/api', 'http://127.5.6.7/']) normaliseApiUrl(ok);
    for (const bad of ['http://example.com/api', 'http://10.0.0.1/api', 'ftp://x/', 'https://user:pw@x/api', 'not a url', '']) {
      assert.throws(() => normaliseApiUrl(bad), (e: unknown) => e instanceof ApiError && (e.kind === 'insecure-url' || e.kind === 'missing-url'));
    }
  });
});
