import assert from 'node:assert/strict';
import { mergeSnapshots, parseAccount, parseRateLimitHeaders, parseResetValue } from '../../../src/core/api/quota';
import { cli, tmpDir } from '../helpers/cliRun';
import { json, startTestServer, type TestServer } from '../helpers/testServer';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('rate-limit headers', () => {
  const cases: [string, string, number][] = [
    ['epoch seconds', String(Date.UTC(2026, 11, 1) / 1000), Date.UTC(2026, 11, 1)],
    ['epoch milliseconds', String(Date.UTC(2026, 11, 1)), Date.UTC(2026, 11, 1)],
    ['seconds until reset', '3600', NOW + 3_600_000],
    ['ISO 8601', '2026-12-01T00:00:00Z', Date.UTC(2026, 11, 1)],
    ['ISO with offset', '2026-12-01T01:00:00+01:00', Date.UTC(2026, 11, 1)],
    ['MySQL datetime (UTC)', '2026-12-01 00:00:00', Date.UTC(2026, 11, 1)],
    ['date only', '2026-12-01', Date.UTC(2026, 11, 1)],
    ['HTTP date', 'Tue, 01 Dec 2026 00:00:00 GMT', Date.UTC(2026, 11, 1)],
  ];
  for (const [label, value, expected] of cases) {
    it(`reads X-RateLimit-Reset as ${label}`, () => {
      const s = parseRateLimitHeaders({ 'x-ratelimit-limit': '50000', 'x-ratelimit-remaining': '48766', 'x-ratelimit-reset': value }, NOW);
      assert.ok(s);
      assert.equal(s.resetAt, expected);
      assert.equal(s.limit, 50000);
      assert.equal(s.remaining, 48766);
      assert.equal(s.used, 1234);
    });
  }

  it('accepts thousands separators and array values', () => {
    const s = parseRateLimitHeaders({ 'x-ratelimit-limit': ['50,000'], 'x-ratelimit-remaining': '0' }, NOW);
    assert.equal(s?.limit, 50000);
    assert.equal(s?.used, 50000);
    assert.equal(s?.resetAt, null);
  });

  it('returns undefined without rate-limit headers and ignores garbage', () => {
    assert.equal(parseRateLimitHeaders({ 'content-type': 'application/json' }, NOW), undefined);
    assert.equal(parseRateLimitHeaders({ 'x-ratelimit-limit': 'lots', 'x-ratelimit-reset': 'soon' }, NOW), undefined);
    assert.equal(parseResetValue('-5', NOW), null);
    assert.equal(parseResetValue({}, NOW), null);
  });
});

describe('/me body', () => {
  it('reads the plausible field names', () => {
    const a = parseAccount({ tier: 'pro', quota: 500000, used: 1234, remaining: 498766, reset_at: '2026-12-01 00:00:00' }, NOW);
    assert.deepEqual([a.tier, a.limit, a.used, a.remaining, a.resetAt], ['pro', 500000, 1234, 498766, Date.UTC(2026, 11, 1)]);
  });

  it('reads alternative names and derives what is missing', () => {
    const a = parseAccount({ plan: 'Starter', limit: '50000', usage: 10, resets_at: '2026-12-01T00:00:00Z', extra: { x: 1 } }, NOW);
    assert.deepEqual([a.tier, a.limit, a.used, a.remaining, a.resetAt], ['Starter', 50000, 10, 49990, Date.UTC(2026, 11, 1)]);
    const b = parseAccount({ data: { plan: 'scale', quota: 5_000_000, remaining: 4_999_000, reset_date: '2026-12-01' } }, NOW);
    assert.deepEqual([b.tier, b.used], ['scale', 1000]);
  });

  it('never throws on unknown shapes and keeps the raw object', () => {
    for (const body of [null, 42, 'text', [], { tier: { nested: true } }, { quota: -3 }]) {
      const a = parseAccount(body, NOW);
      assert.deepEqual(a.raw, body);
      assert.equal(a.limit, null);
    }
  });

  it('merges header snapshots (no tier) into /me snapshots', () => {
    const merged = mergeSnapshots(
      { tier: 'pro', limit: 500000, used: 1, remaining: 499999, resetAt: 1, observedAt: 1 },
      { tier: null, limit: 500000, used: 2, remaining: 499998, resetAt: null, observedAt: 2 },
    );
    assert.deepEqual(merged, { tier: 'pro', limit: 500000, used: 2, remaining: 499998, resetAt: 1, observedAt: 2 });
  });
});

describe('reset times out of range', function () {
  this.timeout(30_000);
  let server: TestServer;
  beforeEach(async () => (server = await startTestServer()));
  afterEach(() => server.close());

  it('5. out-of-range reset times are unknown, never a crash: 429 exits 5, /me exits 0', async () => {
    const now = Date.now();
    assert.equal(parseRateLimitHeaders({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1e20' }, now)?.resetAt ?? null, null);
    assert.equal(parseAccount({ tier: 'pro', limit: 10, used: 1, reset_at: 1e20 }, now).resetAt, null);
    assert.equal(parseAccount({ tier: 'pro', limit: 10, used: 1, reset_at: '1999-01-01' }, now).resetAt, null);
    server.handle((req, res) => {
      if (req.url?.endsWith('/me')) json(res, 200, { tier: 'pro', limit: 10, used: 1, remaining: 9, reset_at: 1e20 });
      else json(res, 429, { error: 'quota' }, { 'x-ratelimit-reset': '1e20', 'retry-after': '99999999999999999999' });
    });
    const env = { WPBENCH_API_URL: server.url, WPBENCH_API_KEY: 'k', WPBENCH_CACHE_DIR: await tmpDir('wpb-h2-cache-') };
    const look = await cli(['lookup', 'plugin', 'akismet'], env);
    assert.equal(look.code, 5, look.err);
    assert.doesNotMatch(look.err, /Invalid time value/);
    const me = await cli(['me'], env);
    assert.equal(me.code, 0, me.err);
    assert.match(me.out, /Resets\s+unknown/);
  });
});
