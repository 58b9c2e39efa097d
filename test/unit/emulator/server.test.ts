import assert from 'node:assert/strict';
import * as http from 'node:http';
import { parseEmulatorArgs, isLoopback } from '../../../src/emulator/args';
import { DEMO, DEMO_KEYS, knownSlugs, startEmulator, type Emulator } from '../../../src/emulator/server';

/** fetch whose json() is loosely typed, for terse assertions on bodies. */
type LooseResponse = Omit<Response, 'json'> & { json(): Promise<any> };
const get = fetch as (input: string, init?: RequestInit) => Promise<LooseResponse>;

const auth = (key: string) => ({ headers: { Authorization: `Bearer ${key}` } });
const RECORD_KEYS = ['slug', 'type', 'name', 'synthetic', 'benchmarked', 'benchmarked_at', 'speed_score', 'contexts', 'metadata', 'links'].sort();

function rateLimit(res: LooseResponse) {
  return {
    limit: res.headers.get('x-ratelimit-limit'),
    remaining: res.headers.get('x-ratelimit-remaining'),
    reset: res.headers.get('x-ratelimit-reset'),
  };
}

/** Raw request that keeps the path exactly as written (fetch would normalise `..`). */
function rawGet(emu: Emulator, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const u = new URL(emu.origin);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path, method: 'GET', headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('emulator server', () => {
  let emu: Emulator;
  beforeEach(async () => {
    emu = await startEmulator();
  });
  afterEach(async () => {
    await emu.close();
  });

  describe('statuses', () => {
    it('200 with a benchmarked record of the published shape, plus rate-limit headers', async () => {
      const res = await get(`${emu.url}/v1/plugins/akismet`, auth(DEMO.starter));
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type')!, /^application\/json/);
      const rl = rateLimit(res);
      assert.equal(rl.limit, '50000');
      assert.equal(rl.remaining, '49999');
      assert.match(rl.reset!, /^\d{10}$/);
      const body = await res.json();
      assert.deepEqual(Object.keys(body).sort(), RECORD_KEYS);
      assert.equal(body.slug, 'akismet');
      assert.equal(body.type, 'plugin');
      assert.equal(body.synthetic, true);
      assert.equal(body.benchmarked, true);
      assert.match(body.benchmarked_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      assert.match(body.speed_score.grade, /^[A-F]\+?$/);
      assert.equal(typeof body.speed_score.numeric, 'number');
      assert.deepEqual(Object.keys(body.contexts), ['activation', 'homepage', 'admin']);
      assert.deepEqual(Object.keys(body.contexts.activation).sort(), ['memory_delta_kb', 'queries_delta', 'ttfb_delta_ms']);
      assert.equal(typeof body.metadata.active_installs, 'number');
      assert.equal(typeof body.metadata.rating, 'number');
      assert.equal(body.links.profile, `${emu.origin}/profiles/plugins/akismet`);
    });

    it('200 for a theme, same shape with type "theme"', async () => {
      const res = await get(`${emu.url}/v1/themes/twentytwentyfour`, auth(DEMO.pro));
      assert.equal(res.status, 200);
      const body = await res.json();
      assert.deepEqual(Object.keys(body).sort(), RECORD_KEYS);
      assert.equal(body.type, 'theme');
      assert.equal(rateLimit(res).limit, '500000');
    });

    it('200 with benchmarked=false for a known, not benchmarked slug', async () => {
      const res = await get(`${emu.url}/v1/plugins/http-authentication`, auth(DEMO.starter));
      assert.equal(res.status, 200);
      const body = await res.json();
      assert.equal(body.benchmarked, false);
      assert.equal(body.benchmarked_at, null);
      assert.equal(body.speed_score, null);
      assert.deepEqual(body.contexts, { activation: null, homepage: null, admin: null });
      assert.ok(rateLimit(res).limit);
    });

    it('404 with a JSON error for a slug not in the dataset; it counts and carries the headers', async () => {
      const res = await get(`${emu.url}/v1/plugins/no-such-plugin-here`, auth(DEMO.starter));
      assert.equal(res.status, 404);
      assert.deepEqual((await res.json()).error.code, 'not_found');
      assert.equal(rateLimit(res).remaining, '49999');
      assert.equal(emu.usage(DEMO.starter), 1);
      assert.equal(emu.stats.counted, 1);
    });

    it('401 for a missing, unknown or non-Bearer key, without counting', async () => {
      for (const headers of <Record<string, string>[]>[{}, { Authorization: 'Bearer wpb_demo_nope' }, { Authorization: `Basic ${DEMO.starter}` }, { Authorization: 'Bearer' }]) {
        const res = await get(`${emu.url}/v1/plugins/akismet`, { headers });
        assert.equal(res.status, 401, JSON.stringify(headers));
        const body = await res.json();
        assert.equal(body.error.code, 'invalid_key');
        assert.equal(typeof body.error.message, 'string');
        assert.equal(res.headers.get('x-ratelimit-limit'), null);
      }
      assert.equal((await get(`${emu.url}/v1/me`)).status, 401);
      assert.equal(emu.stats.counted, 0);
    });

    it('accepts the Bearer scheme case-insensitively', async () => {
      const res = await get(`${emu.url}/v1/plugins/akismet`, { headers: { Authorization: `bearer ${DEMO.starter}` } });
      assert.equal(res.status, 200);
    });

    it('403 key_revoked and key_suspended, on records and on /me', async () => {
      for (const [key, code] of [[DEMO.revoked, 'key_revoked'], [DEMO.suspended, 'key_suspended']] as const) {
        for (const path of ['/v1/plugins/akismet', '/v1/me']) {
          const res = await get(`${emu.url}${path}`, auth(key));
          assert.equal(res.status, 403);
          assert.equal((await res.json()).error.code, code);
        }
      }
      assert.equal(emu.stats.counted, 0);
    });

    it('429 once the almost-exhausted key has used its last 3 requests; /me still works and does not count', async () => {
      const key = DEMO.almostExhausted;
      const remaining: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await get(`${emu.url}/v1/plugins/akismet`, auth(key));
        assert.equal(res.status, 200);
        remaining.push(rateLimit(res).remaining!);
        await res.body?.cancel();
      }
      assert.deepEqual(remaining, ['2', '1', '0']);
      const res = await get(`${emu.url}/v1/themes/astra`, auth(key));
      assert.equal(res.status, 429);
      assert.equal((await res.json()).error.code, 'quota_exceeded');
      assert.equal(rateLimit(res).remaining, '0');
      assert.ok(Number(res.headers.get('retry-after')) >= 1);
      assert.equal(emu.usage(key), 50000);

      for (let i = 0; i < 3; i++) {
        const me = await get(`${emu.url}/v1/me`, auth(key));
        assert.equal(me.status, 200);
        const body = await me.json();
        assert.deepEqual(Object.keys(body), ['tier', 'quota', 'used', 'remaining', 'reset_at']);
        assert.equal(body.tier, 'starter');
        assert.equal(body.quota, 50000);
        assert.equal(body.used, 50000);
        assert.equal(body.remaining, 0);
        assert.match(body.reset_at, /^\d{4}-\d{2}-01 00:00:00$/);
      }
      assert.equal(emu.usage(key), 50000);
      assert.equal(emu.stats.me, 3);
    });

    it('/me does not count against the quota of a normal key', async () => {
      await get(`${emu.url}/v1/plugins/akismet`, auth(DEMO.scale));
      const body = await (await get(`${emu.url}/v1/me`, auth(DEMO.scale))).json();
      assert.equal(body.used, 1);
      assert.equal(body.remaining, 4999999);
      assert.equal((await (await get(`${emu.url}/v1/me`, auth(DEMO.scale))).json()).used, 1);
    });

    it('unknown paths give a JSON 404 and other methods 405', async () => {
      for (const p of ['/v1/plugins', '/v1/plugins/akismet/extra', '/v2/plugins/akismet', '/v1/mine', '/v1/']) {
        const res = await get(`${emu.url}${p}`, auth(DEMO.starter));
        assert.equal(res.status, 404, p);
        assert.equal((await res.json()).error.code, 'not_found');
      }
      assert.equal((await get(`${emu.origin}/elsewhere`)).status, 404);
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
        const res = await get(`${emu.url}/v1/plugins/akismet`, { method, ...auth(DEMO.starter) });
        assert.equal(res.status, 405, method);
        assert.equal(res.headers.get('allow'), 'GET');
        await res.body?.cancel();
      }
      assert.equal(emu.stats.counted, 0);
    });

    it('serves a profile page labelled as synthetic data', async () => {
      const rec = await (await get(`${emu.url}/v1/plugins/woocommerce`, auth(DEMO.starter))).json();
      const page = await get(rec.links.profile);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /synthetic data/);
      assert.equal((await get(`${emu.origin}/profiles/plugins/not-a-known-one`)).status, 404);
    });
  });

  describe('slugs as path parameters', () => {
    it('404s anything that is not a clean slug, traversal included', async () => {
      const bad = [
        '..%2F..%2Fetc%2Fpasswd', '%2e%2e', '..', '.', 'AKISMET', 'akismet%2F', 'akismet%00', 'akis%20met',
        '%E0%A4%A', 'a--b', '-akismet', 'akismet.php', '%2Fakismet', 'x'.repeat(201), '__proto__', 'constructor',
      ];
      for (const s of bad) {
        const r = await rawGet(emu, `/api/v1/plugins/${s}`, { Authorization: `Bearer ${DEMO.pro}` });
        assert.equal(r.status, 404, s);
        assert.equal(JSON.parse(r.body).error.code, 'not_found');
      }
      for (const p of ['/api/v1/plugins/../../../etc/passwd', '/api/v1/plugins/../me', '/api/../api/v1/plugins/akismet', '/api/v1/plugins//akismet']) {
        const r = await rawGet(emu, p, { Authorization: `Bearer ${DEMO.pro}` });
        assert.equal(r.status, 404, p);
      }
    });

    it('decodes percent-encoded clean slugs and ignores query strings', async () => {
      const r = await rawGet(emu, '/api/v1/plugins/%61kismet?x=1', { Authorization: `Bearer ${DEMO.pro}` });
      assert.equal(r.status, 200);
      assert.equal(JSON.parse(r.body).slug, 'akismet');
      assert.equal(emu.stats.byPath.get('/api/v1/plugins/%61kismet'), 1);
    });
  });

  describe('rate-limit reset header and the monthly reset', () => {
    const NOW = Date.UTC(2025, 1, 27, 12, 0, 0); // Feb 27th 2025, 12:00 UTC
    const RESET = Date.UTC(2025, 2, 1);

    it('formats X-RateLimit-Reset as epoch, seconds, iso or mysql', async () => {
      const expected = {
        epoch: String(RESET / 1000),
        seconds: String((RESET - NOW) / 1000),
        iso: '2025-03-01T00:00:00Z',
        mysql: '2025-03-01 00:00:00',
      };
      for (const [format, value] of Object.entries(expected)) {
        const e = await startEmulator({ now: () => NOW, rateLimitFormat: format as 'epoch' });
        try {
          const res = await get(`${e.url}/v1/plugins/akismet`, auth(DEMO.starter));
          assert.equal(res.headers.get('x-ratelimit-reset'), value, format);
          const me = await (await get(`${e.url}/v1/me`, auth(DEMO.starter))).json();
          assert.equal(me.reset_at, '2025-03-01 00:00:00');
        } finally {
          await e.close();
        }
      }
      emu.setRateLimitFormat('mysql');
      const res = await get(`${emu.url}/v1/me`, auth(DEMO.starter));
      assert.match(res.headers.get('x-ratelimit-reset')!, /^\d{4}-\d{2}-01 00:00:00$/);
    });

    it('forgets the usage on the first day of the next month (UTC)', async () => {
      let t = NOW;
      const e = await startEmulator({ now: () => t });
      try {
        assert.equal((await get(`${e.url}/v1/plugins/akismet`, auth(DEMO.almostExhausted))).status, 200);
        e.setUsage(DEMO.almostExhausted, 50000);
        assert.equal((await get(`${e.url}/v1/plugins/akismet`, auth(DEMO.almostExhausted))).status, 429);
        t = RESET - 1;
        assert.equal((await get(`${e.url}/v1/plugins/akismet`, auth(DEMO.almostExhausted))).status, 429);
        t = RESET;
        const res = await get(`${e.url}/v1/plugins/akismet`, auth(DEMO.almostExhausted));
        assert.equal(res.status, 200);
        assert.equal(rateLimit(res).remaining, '49999');
        assert.equal(e.usage(DEMO.almostExhausted), 1);
      } finally {
        await e.close();
      }
    });
  });

  describe('configuration', () => {
    it('gives the same bytes from two instances (profile origin aside)', async () => {
      const other = await startEmulator();
      try {
        for (const [kind, slug] of [['plugins', 'elementor'], ['plugins', 'synthetic-plugin-01234'], ['themes', 'synthetic-theme-00077'], ['plugins', 'synthetic-plugin-00034']]) {
          const a = await (await get(`${emu.url}/v1/${kind}/${slug}`, auth(DEMO.pro))).text();
          const b = await (await get(`${other.url}/v1/${kind}/${slug}`, auth(DEMO.pro))).text();
          assert.equal(a.replace(emu.origin, 'ORIGIN'), b.replace(other.origin, 'ORIGIN'));
        }
      } finally {
        await other.close();
      }
      const seeded = await startEmulator({ seed: 99 });
      try {
        const a = await (await get(`${emu.url}/v1/plugins/synthetic-plugin-01234`, auth(DEMO.pro))).json();
        const b = await (await get(`${seeded.url}/v1/plugins/synthetic-plugin-01234`, auth(DEMO.pro))).json();
        assert.notDeepEqual(a.contexts, b.contexts);
      } finally {
        await seeded.close();
      }
    });

    it('serves under a configurable api root, or at the root', async () => {
      const custom = await startEmulator({ apiRoot: 'wp-json/bench/' });
      const bare = await startEmulator({ apiRoot: '' });
      try {
        assert.equal(custom.url, `${custom.origin}/wp-json/bench`);
        assert.equal((await get(`${custom.url}/v1/plugins/akismet`, auth(DEMO.starter))).status, 200);
        assert.equal((await get(`${custom.origin}/api/v1/plugins/akismet`, auth(DEMO.starter))).status, 404);
        assert.equal(bare.url, bare.origin);
        assert.equal((await get(`${bare.url}/v1/me`, auth(DEMO.starter))).status, 200);
      } finally {
        await custom.close();
        await bare.close();
      }
    });

    it('accepts custom keys', async () => {
      const e = await startEmulator({ keys: [{ key: 'k1', tier: 'pro', quota: 2, status: 'active', label: 'x' }] });
      try {
        assert.equal((await get(`${e.url}/v1/plugins/akismet`, auth(DEMO.starter))).status, 401);
        const me = await (await get(`${e.url}/v1/me`, auth('k1'))).json();
        assert.equal(me.quota, 2);
      } finally {
        await e.close();
      }
    });

    it('injects latency', async () => {
      emu.setLatency(120);
      const t0 = performance.now();
      await (await get(`${emu.url}/v1/me`, auth(DEMO.starter))).text();
      assert.ok(performance.now() - t0 >= 110);
    });

    it('documents six demo keys with the three tiers', () => {
      assert.equal(DEMO_KEYS.length, 6);
      for (const k of DEMO_KEYS) assert.match(k.key, /^wpb_demo_[a-z]+(?:_[a-z]+)?_[0-9a-f]{16}$/);
      assert.deepEqual(DEMO_KEYS.filter((k) => k.status === 'active' && !k.initialUsed).map((k) => [k.tier, k.quota]), [
        ['starter', 50000], ['pro', 500000], ['scale', 5000000],
      ]);
    });
  });

  describe('stats and concurrency', () => {
    it('counts requests by path, /me calls, counted calls and Authorization headers', async () => {
      await get(`${emu.url}/v1/plugins/akismet`, auth(DEMO.starter));
      await get(`${emu.url}/v1/plugins/akismet`, auth(DEMO.starter));
      await get(`${emu.url}/v1/me`, auth(DEMO.pro));
      await get(`${emu.url}/v1/me`);
      assert.equal(emu.stats.total, 4);
      assert.equal(emu.stats.byPath.get('/api/v1/plugins/akismet'), 2);
      assert.equal(emu.stats.me, 2);
      assert.equal(emu.stats.counted, 2);
      assert.deepEqual(emu.stats.authHeaders, [`Bearer ${DEMO.starter}`, `Bearer ${DEMO.starter}`, `Bearer ${DEMO.pro}`]);
      const s = emu.stats;
      emu.resetStats();
      assert.equal(s, emu.stats, 'reset keeps the same object');
      assert.deepEqual([s.total, s.byPath.size, s.me, s.counted, s.authHeaders.length], [0, 0, 0, 0, 0]);
    });

    it('answers 300 concurrent requests for distinct slugs and tracks the in-flight maximum', async () => {
      emu.setLatency(50);
      const slugs = knownSlugs('plugin', 300);
      const results = await Promise.all(slugs.map(async (s) => {
        const res = await get(`${emu.url}/v1/plugins/${s}`, auth(DEMO.scale));
        return [res.status, (await res.json()).slug];
      }));
      for (let i = 0; i < slugs.length; i++) assert.deepEqual(results[i], [200, slugs[i]]);
      assert.ok(emu.stats.concurrentMax >= 50, `concurrentMax ${emu.stats.concurrentMax}`);
      assert.ok(emu.stats.concurrentMax <= 300);
      assert.equal(emu.usage(DEMO.scale), 300);
    });

    it('sees concurrency 1 for sequential requests', async () => {
      for (let i = 0; i < 5; i++) await (await get(`${emu.url}/v1/me`, auth(DEMO.starter))).text();
      assert.equal(emu.stats.concurrentMax, 1);
    });
  });

  describe('faults', () => {
    const url = () => `${emu.url}/v1/plugins/akismet`;

    it('hang-headers: never sends a status line', async () => {
      emu.setFault('hang-headers');
      await assert.rejects(get(url(), { ...auth(DEMO.starter), signal: AbortSignal.timeout(300) }), (e: Error) => e.name === 'TimeoutError');
      assert.equal(emu.stats.total, 1);
    });

    it('trickle: headers at once, then about one byte per second', async () => {
      emu.setFault('trickle');
      const ctl = new AbortController();
      const res = await get(url(), { ...auth(DEMO.starter), signal: ctl.signal });
      assert.equal(res.status, 200);
      assert.ok(Number(res.headers.get('content-length')) > 100);
      const reader = res.body!.getReader();
      let bytes = 0;
      const t0 = Date.now();
      while (Date.now() - t0 < 2300) {
        const r = await Promise.race([reader.read(), new Promise<null>((ok) => setTimeout(() => ok(null), 2300 - (Date.now() - t0)))]);
        if (!r || r.done) break;
        bytes += r.value.length;
      }
      ctl.abort();
      assert.ok(bytes >= 1 && bytes <= 3, `${bytes} bytes in 2.3 s`);
    });

    it('reset-mid-body: the body breaks off', async () => {
      emu.setFault('reset-mid-body');
      const res = await get(url(), auth(DEMO.starter));
      assert.equal(res.status, 200);
      await assert.rejects(res.text());
    });

    it('status-500, status-502 (HTML), status-503 (text), without counting', async () => {
      for (const [f, status, type] of [['status-500', 500, /json/], ['status-502', 502, /html/], ['status-503', 503, /text\/plain/]] as const) {
        emu.setFault(f);
        const res = await get(url(), auth(DEMO.starter));
        assert.equal(res.status, status);
        assert.match(res.headers.get('content-type')!, type);
        assert.equal(res.headers.get('x-ratelimit-limit'), null);
        await res.text();
      }
      assert.equal(emu.usage(DEMO.starter), 0);
    });

    it('invalid-json: a 200 whose body does not parse', async () => {
      emu.setFault('invalid-json');
      const res = await get(url(), auth(DEMO.starter));
      assert.equal(res.status, 200);
      await assert.rejects(res.json(), SyntaxError);
    });

    it('wrong-shape: grade missing, contexts an array, numbers as strings', async () => {
      emu.setFault('wrong-shape');
      const body = await (await get(url(), auth(DEMO.starter))).json();
      assert.equal(body.speed_score.grade, undefined);
      assert.equal(typeof body.speed_score.numeric, 'string');
      assert.ok(Array.isArray(body.contexts));
      assert.equal(typeof body.metadata.active_installs, 'string');
      const me = await (await get(`${emu.url}/v1/me`, auth(DEMO.starter))).json();
      assert.equal(typeof me.quota, 'string');
    });

    it('huge-body: streams 20 MiB without Content-Length', async () => {
      emu.setFault('huge-body');
      const res = await get(url(), auth(DEMO.starter));
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-length'), null);
      let bytes = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
      assert.equal(bytes, 20 * 1024 * 1024);
    });

    it('huge-body: stops streaming when the client goes away', async () => {
      emu.setFault('huge-body');
      const ctl = new AbortController();
      const res = await get(url(), { ...auth(DEMO.starter), signal: ctl.signal });
      const reader = res.body!.getReader();
      await reader.read();
      ctl.abort();
      emu.setFault(undefined);
      assert.equal((await get(url(), auth(DEMO.starter))).status, 200);
    });

    it('no-ratelimit-headers: a normal 200 without X-RateLimit-*', async () => {
      emu.setFault('no-ratelimit-headers');
      const res = await get(url(), auth(DEMO.starter));
      assert.equal(res.status, 200);
      assert.deepEqual(rateLimit(res), { limit: null, remaining: null, reset: null });
      assert.equal((await res.json()).slug, 'akismet');
    });

    it('redirectTo: 302 to another origin, which is another emulator', async () => {
      const target = await startEmulator();
      try {
        emu.setFault({ redirectTo: target.url });
        const res = await get(`${url()}?q=1`, { ...auth(DEMO.starter), redirect: 'manual' });
        assert.equal(res.status, 302);
        assert.equal(res.headers.get('location'), `${target.url}/v1/plugins/akismet?q=1`);
        assert.equal(target.stats.total, 0);
        emu.setFault({ redirectTo: 'http://example.invalid/x', exact: true, status: 307 });
        const exact = await get(url(), { ...auth(DEMO.starter), redirect: 'manual' });
        assert.equal(exact.status, 307);
        assert.equal(exact.headers.get('location'), 'http://example.invalid/x');
        assert.equal(emu.usage(DEMO.starter), 0);
      } finally {
        await target.close();
      }
    });

    it('"N failures then success" through the function form (per-path count n)', async () => {
      emu.setFault(({ n }) => (n <= 2 ? { status: 503, retryAfter: 0 } : undefined));
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await get(url(), auth(DEMO.starter))).status);
      assert.deepEqual(statuses, [503, 503, 200]);
      assert.equal((await get(`${emu.url}/v1/themes/astra`, auth(DEMO.starter))).status, 503, 'counted per path');
      emu.setFault(({ path }) => (path.endsWith('/me') ? 'status-500' : undefined));
      assert.equal((await get(`${emu.url}/v1/me`, auth(DEMO.starter))).status, 500);
      assert.equal((await get(url(), auth(DEMO.starter))).status, 200);
    });

    it('{ status, times } on its own fails the first `times` requests of each path', async () => {
      const e = await startEmulator({ faults: { status: 500, times: 1 } });
      try {
        assert.equal((await get(`${e.url}/v1/plugins/akismet`, auth(DEMO.starter))).status, 500);
        assert.equal((await get(`${e.url}/v1/plugins/akismet`, auth(DEMO.starter))).status, 200);
      } finally {
        await e.close();
      }
    });

    it('close() ends hanging and trickling requests', async () => {
      const e = await startEmulator({ faults: 'hang-headers' });
      const pending = get(`${e.url}/v1/me`, auth(DEMO.starter)).then(() => 'answered', () => 'failed');
      await new Promise((r) => setTimeout(r, 50));
      await e.close();
      assert.equal(await pending, 'failed');
    });
  });

  describe('command line', () => {
    it('parses the flags, defaulting to loopback 127.0.0.1:8787 /api', () => {
      assert.deepEqual(parseEmulatorArgs([]), {
        host: '127.0.0.1', hostExplicit: false, port: 8787, apiRoot: '/api', latencyMs: 0, rateLimitFormat: 'epoch', help: false,
      });
      const a = parseEmulatorArgs(['--port', '0', '--host=0.0.0.0', '--api-root', '/x', '--latency', '50', '--rate-limit-format', 'iso', '--seed', '3']);
      assert.deepEqual([a.port, a.host, a.hostExplicit, a.apiRoot, a.latencyMs, a.rateLimitFormat, a.seed], [0, '0.0.0.0', true, '/x', 50, 'iso', 3]);
      assert.throws(() => parseEmulatorArgs(['--port', '70000']));
      assert.throws(() => parseEmulatorArgs(['--rate-limit-format', 'weeks']));
      assert.throws(() => parseEmulatorArgs(['--bogus']));
      assert.ok(isLoopback('127.0.0.1') && isLoopback('::1') && isLoopback('localhost'));
      assert.ok(!isLoopback('0.0.0.0') && !isLoopback('192.168.1.2'));
    });
  });
});
