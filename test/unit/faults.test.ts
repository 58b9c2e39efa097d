// Fault suite: hostile servers, hostile workspaces, broken caches. Each case checks the error a person reads,
// that cached data is still there (marked stale), the time bound, the retry bound and that the key never leaks.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BenchClient } from '../../src/core/api/client';
import type { ApiErrorKind } from '../../src/core/api/errors';
import { createUndiciTransport } from '../../src/core/api/undiciTransport';
import { DiskCache } from '../../src/core/cache/diskCache';
import { LookupService } from '../../src/core/lookup/lookupService';
import { scanWorkspace } from '../../src/core/scan';
import { runCli } from '../../src/cli/index';
import { DEMO, knownSlugs, startEmulator, type Emulator, type FaultSetting, type RateLimitFormat } from '../../src/emulator/server';

const HOUR = 3_600_000;

async function tempDir(prefix = 'wpb-fault-'): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix));
}

describe('fault suite: server faults', function () {
  this.timeout(30_000);
  let emulator: Emulator;
  let cacheDir: string;
  const logs: string[] = [];
  const logger = { debug: (m: string) => logs.push(m), info: (m: string) => logs.push(m), warn: (m: string) => logs.push(m), error: (m: string) => logs.push(m) };

  before(async () => {
    emulator = await startEmulator({ trickleIntervalMs: 1000 });
  });
  after(async () => {
    await emulator.close();
  });
  beforeEach(async () => {
    cacheDir = await tempDir();
    emulator.setFault(undefined);
    emulator.resetStats();
  });

  /** A service whose cache holds a day-old answer for `slug`, so a failing refresh must fall back to it. */
  async function withStaleCache(slug: string, clock: { t: number }, timeoutMs = 1500) {
    const make = () => {
      const client = new BenchClient({ apiUrl: emulator.url, getKey: () => DEMO.pro, transport: createUndiciTransport, timeoutMs, logger, sleep: async () => undefined, now: () => clock.t });
      return { client, service: new LookupService(new DiskCache({ dir: cacheDir, now: () => clock.t, logger }), () => client, () => clock.t) };
    };
    const first = make();
    assert.equal((await first.service.get('plugin', slug, { network: true })).fromCache, false);
    await first.client.dispose();
    clock.t += 25 * HOUR;
    emulator.resetStats();
    return make();
  }

  const cases: [string, FaultSetting, ApiErrorKind, RegExp, number][] = [
    // A timeout is not retried: the request must end within its time limit.
    ['headers never arrive', 'hang-headers', 'timeout', /did not answer within 2 s/, 1],
    ['a body trickling 1 byte/s', 'trickle', 'timeout', /did not answer/, 1],
    ['a connection reset mid-body', 'reset-mid-body', 'network', /Could not reach/, 3],
    ['503 forever', 'status-503', 'server', /HTTP 503/, 3],
    ['500 forever', 'status-500', 'server', /HTTP 500/, 3],
    ['502 with an HTML body', 'status-502', 'server', /HTTP 502/, 3],
    ['invalid JSON', 'invalid-json', 'unreadable', /not valid JSON/, 1],
    ['valid JSON of the wrong shape', 'wrong-shape', 'unreadable', /cannot read/, 1],
    ['a 20 MB body', 'huge-body', 'unreadable', /larger than 1024 KiB/, 1],
  ];
  for (const [label, fault, kind, message, requests] of cases) {
    it(`${label}: "${kind}" error, cached data kept and marked stale, bounded time and retries`, async () => {
      const clock = { t: Date.UTC(2026, 10, 22) };
      const { client, service } = await withStaleCache('akismet', clock, 2000);
      emulator.setFault(fault);
      const started = Date.now();
      const outcome = await service.get('plugin', 'akismet', { network: true });
      const elapsed = Date.now() - started;
      await client.dispose();
      assert.equal(outcome.error?.kind, kind);
      assert.match(outcome.error!.message, message);
      assert.equal(outcome.result?.state, 'benchmarked', 'the older answer is still shown');
      assert.equal(outcome.stale, true, '…and marked stale');
      assert.equal(emulator.stats.byPath.get('/api/v1/plugins/akismet') ?? 0, requests, 'tries (1 + retries)');
      assert.ok(elapsed < requests * 2000 + 1500, `finished in ${elapsed} ms`);
      assert.ok(!outcome.error!.message.includes(DEMO.pro));
    });
  }

  it('a name that does not resolve (DNS failure): network error naming ENOTFOUND, 2 retries, no crash', async () => {
    let lookups = 0;
    const failingDns: import('node:net').LookupFunction = (hostname, _options, callback) => {
      lookups++;
      const err = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      process.nextTick(() => (callback as (e: Error) => void)(err));
    };
    const client = new BenchClient({
      apiUrl: 'https://api.wp-bench.invalid/api',
      getKey: () => DEMO.pro,
      transport: (o) => createUndiciTransport({ ...o, lookup: failingDns }),
      sleep: async () => undefined,
    });
    const err = await client.lookup('plugin', 'akismet').then(() => undefined, (e) => e);
    await client.dispose();
    assert.equal(err?.kind, 'network');
    assert.match(err.message, /ENOTFOUND/);
    assert.ok(!err.message.includes(DEMO.pro));
    assert.equal(lookups, 3, '1 try + 2 retries');
  });

  it('500/502/503 then success: retried (at most 2 retries) and answered', async () => {
    const clock = { t: Date.UTC(2026, 10, 22) };
    const { client, service } = await withStaleCache('jetpack', clock);
    const statuses = [500, 502];
    emulator.setFault(({ path: p, n }) => (p.endsWith('/jetpack') && n <= 2 ? { status: statuses[n - 1] } : undefined));
    const outcome = await service.get('plugin', 'jetpack', { network: true });
    await client.dispose();
    assert.equal(outcome.error, undefined);
    assert.equal(outcome.stale, false);
    assert.equal(emulator.stats.byPath.get('/api/v1/plugins/jetpack'), 3);
  });

  it('a response without rate-limit headers is fine and leaves the quota unknown', async () => {
    emulator.setFault('no-ratelimit-headers');
    const client = new BenchClient({ apiUrl: emulator.url, getKey: () => DEMO.pro, transport: createUndiciTransport });
    assert.equal((await client.lookup('plugin', 'akismet')).state, 'benchmarked');
    assert.equal(client.quota, undefined);
    await client.dispose();
  });

  for (const format of ['epoch', 'seconds', 'iso', 'mysql'] as RateLimitFormat[]) {
    it(`reads X-RateLimit-Reset sent as ${format}`, async () => {
      emulator.setRateLimitFormat(format);
      const client = new BenchClient({ apiUrl: emulator.url, getKey: () => DEMO.pro, transport: createUndiciTransport });
      try {
        await client.lookup('plugin', 'akismet');
        const reset = new Date(client.quota!.resetAt!);
        assert.equal(reset.getUTCDate(), 1, `reset ${reset.toISOString()} is the first of a month`);
        assert.ok(Math.abs(reset.getTime() - Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1)) < 5000);
        assert.equal(client.quota!.limit, 500_000);
      } finally {
        emulator.setRateLimitFormat('epoch');
        await client.dispose();
      }
    });
  }

  it('a redirect to another origin never receives the Authorization header', async () => {
    const other = await startEmulator();
    try {
      emulator.setFault({ redirectTo: other.url });
      const client = new BenchClient({ apiUrl: emulator.url, getKey: () => DEMO.pro, transport: createUndiciTransport });
      await assert.rejects(client.lookup('plugin', 'akismet'), (e: { kind: string }) => e.kind === 'redirect');
      await client.dispose();
      assert.equal(other.stats.total, 0);
      assert.deepEqual(other.stats.authHeaders, []);
    } finally {
      await other.close();
    }
  });

  for (const [label, status, kind] of [
    ['429', 429, 'quota-exceeded'],
    ['401', 401, 'invalid-key'],
    ['403', 403, 'forbidden'],
  ] as const) {
    it(`${label} in the middle of a 300-slug scan: no further plugin/theme requests, one error kind`, async () => {
      const slugs = knownSlugs('plugin', 300);
      let served = 0;
      emulator.setFault(({ path: p }) => (p.includes('/v1/plugins/') && ++served > 50 ? { status } : undefined));
      const client = new BenchClient({ apiUrl: emulator.url, getKey: () => DEMO.pro, transport: createUndiciTransport, concurrency: 4 });
      const service = new LookupService(new DiskCache({ dir: cacheDir }), () => client);
      const outcomes = await service.getMany(slugs.map((slug) => ({ kind: 'plugin' as const, slug })), { network: true });
      await client.dispose();
      const sent = [...emulator.stats.byPath.entries()].filter(([p]) => p.includes('/v1/plugins/')).reduce((n, [, c]) => n + c, 0);
      assert.ok(sent <= 50 + 4, `${sent} requests: at most the in-flight ones after the first ${status}`);
      const errors = new Set([...outcomes.values()].map((o) => o.error?.kind).filter(Boolean));
      assert.deepEqual([...errors], [kind]);
      assert.equal([...outcomes.values()].filter((o) => o.result).length, 50);
    });
  }
});

describe('fault suite: hostile input', function () {
  this.timeout(60_000);

  it('hostile slugs in composer.json are reported once each and never become components', async () => {
    const dir = await tempDir();
    const hostile = ['../../v1/me', 'a%2Fb', 'a?b=1', 'x#y', 'аkismet', 'x'.repeat(10_000), 'UPPER', 'a/../b'];
    const require: Record<string, string> = { 'wpackagist-plugin/akismet': '*' };
    for (const h of hostile) require[`wpackagist-plugin/${h}`] = '*';
    await fs.writeFile(path.join(dir, 'composer.json'), JSON.stringify({ require }, null, 2));
    const r = await scanWorkspace(dir);
    // "UPPER" is a valid name once lower-cased, as Composer does; every other one is reported.
    assert.deepEqual(r.components.map((c) => c.slug), ['akismet', 'upper']);
    assert.ok(r.problems.length >= hostile.length - 1, JSON.stringify(r.problems.map((p) => p.message)));
    for (const p of r.problems) assert.ok(p.message.length < 400, 'a 10,000-character slug is not echoed whole');
  });

  it('a 50 MB composer.json, 200,000-level nesting, a binary *.php and a 1 GB PHP file: bounded, reported, the scan goes on', async () => {
    const dir = await tempDir();
    await fs.mkdir(path.join(dir, 'big'));
    await fs.writeFile(path.join(dir, 'big/composer.json'), '{"description":"' + 'x'.repeat(50 * 1024 * 1024) + '"}');
    await fs.mkdir(path.join(dir, 'deep'));
    await fs.writeFile(path.join(dir, 'deep/composer.json'), '['.repeat(200_000) + ']'.repeat(200_000));
    const plugins = path.join(dir, 'wp-content/plugins');
    await fs.mkdir(path.join(plugins, 'huge'), { recursive: true });
    const huge = path.join(plugins, 'huge/huge.php');
    await fs.writeFile(huge, '<?php\n/* Plugin Name: Huge */\n');
    await fs.truncate(huge, 1024 * 1024 * 1024);
    await fs.mkdir(path.join(plugins, 'binary'));
    await fs.writeFile(path.join(plugins, 'binary/binary.php'), Buffer.from(Array.from({ length: 20_000 }, (_, i) => (i * 7919) % 256)));
    await fs.mkdir(path.join(plugins, 'fine'));
    await fs.writeFile(path.join(plugins, 'fine/fine.php'), '<?php\n/* Plugin Name: Fine */\n');
    const heapBefore = process.memoryUsage().heapUsed;
    const started = Date.now();
    const r = await scanWorkspace(dir);
    assert.ok(Date.now() - started < 5000, `${Date.now() - started} ms`);
    assert.ok(process.memoryUsage().heapUsed - heapBefore < 64 * 1024 * 1024, 'the 50 MB file is not loaded');
    assert.deepEqual(r.components.map((c) => c.slug), ['fine', 'huge']);
    assert.ok(r.problems.some((p) => p.file === 'big/composer.json' && /read limit/.test(p.message)));
    assert.ok(r.problems.some((p) => p.file === 'deep/composer.json' && /nested deeper/.test(p.message)));
    assert.ok(r.stats.bytesRead < 3 * 8192 + 400_000 + 10, `read ${r.stats.bytesRead} bytes`);
  });

  it('symlink loops and a 100,000-entry tree finish in bounded time', async function () {
    // Writing 100,000 files takes 30-60 s on a slow disk; only the scan is timed (below).
    this.timeout(180_000);
    const dir = await tempDir();
    const plugins = path.join(dir, 'wp-content/plugins');
    await fs.mkdir(path.join(plugins, 'loop'), { recursive: true });
    await fs.writeFile(path.join(plugins, 'loop/loop.php'), '<?php\n/* Plugin Name: Loop */\n');
    await fs.symlink(dir, path.join(plugins, 'loop/back'));
    await fs.symlink(path.join(dir, 'wp-content'), path.join(dir, 'wp-content/again'));
    const junk = path.join(dir, 'assets');
    for (let d = 0; d < 100; d++) {
      const sub = path.join(junk, `d${d}`);
      await fs.mkdir(sub, { recursive: true });
      await Promise.all(Array.from({ length: 1000 }, (_, i) => fs.writeFile(path.join(sub, `f${i}.txt`), '')));
    }
    const started = Date.now();
    const r = await scanWorkspace(dir);
    assert.ok(Date.now() - started < 20_000, `${Date.now() - started} ms`);
    assert.deepEqual(r.components.map((c) => c.slug), ['loop']);
  });
});

describe('fault suite: the key never leaks', function () {
  this.timeout(30_000);

  it('a canary key appears in no CLI output, error, log line or cache file, failures included', async () => {
    const canary = 'wpb_canary_7d3e1f0a9b8c';
    const emulator = await startEmulator({ keys: [{ key: canary, tier: 'pro', quota: 2, status: 'active', label: 'canary' }] });
    const cacheDir = await tempDir();
    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t), env: { WPBENCH_API_URL: emulator.url, WPBENCH_API_KEY: canary, WPBENCH_CACHE_DIR: cacheDir }, cwd: process.cwd() };
    try {
      const codes: number[] = [];
      for (const args of [
        ['lookup', 'plugin', 'akismet', '--verbose'],
        ['lookup', 'plugin', 'jetpack', '--json', '--verbose'],
        ['me', '--json', '--verbose'],
        ['lookup', 'plugin', '../../etc', '--verbose'],
      ]) {
        codes.push(await runCli(args, io));
      }
      emulator.setFault('status-503');
      codes.push(await runCli(['lookup', 'plugin', 'elementor', '--verbose'], io));
      emulator.setFault({ redirectTo: 'http://127.0.0.1:9/api' });
      codes.push(await runCli(['lookup', 'plugin', 'wordfence', '--verbose'], io));
      emulator.setFault(undefined);
      // The quota (2) is used up: a 429, then the block is remembered in the cache folder: the next run sends nothing.
      const before = emulator.stats.total;
      codes.push(await runCli(['lookup', 'plugin', 'woocommerce', '--verbose'], io));
      codes.push(await runCli(['lookup', 'plugin', 'classic-editor', '--verbose'], io));
      assert.equal(emulator.stats.total - before, 1, 'one 429, then nothing until the reset');
      assert.deepEqual(codes, [0, 0, 0, 2, 6, 6, 5, 5]);
      const everything = out.join('\n');
      assert.ok(everything.length > 200);
      assert.ok(!everything.includes(canary), 'not in the CLI output or its logs');
      const files = await fs.readdir(cacheDir, { recursive: true });
      for (const f of files) {
        const p = path.join(cacheDir, f);
        if ((await fs.stat(p)).isFile()) assert.ok(!(await fs.readFile(p, 'utf8')).includes(canary), `not in ${f}`);
      }
      assert.ok(files.length > 0);
    } finally {
      await emulator.close();
    }
  });
});
