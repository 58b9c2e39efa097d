import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fork } from 'node:child_process';
import { DiskCache } from '../../../src/core/cache/diskCache';
import { LookupService } from '../../../src/core/lookup/lookupService';
import { BenchClient } from '../../../src/core/api/client';
import { createUndiciTransport } from '../../../src/core/api/undiciTransport';
import { parseRecord } from '../../../src/core/api/record';
import type { LookupResult } from '../../../src/core/model';
import { sampleBody } from '../helpers/samples';
import { json, startTestServer } from '../helpers/testServer';
import { tmpDir } from '../helpers/cliRun';

const API = 'https://api.example.test/api';
const HOUR = 3_600_000;

function benchmarked(slug: string): LookupResult {
  return parseRecord(sampleBody({ slug }), 'plugin', slug);
}

async function tempDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'wpb-cache-'));
}

async function entryFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(d: string) {
    for (const e of await fs.readdir(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else out.push(p);
    }
  }
  await walk(dir).catch(() => undefined);
  return out;
}

describe('disk cache', () => {
  it('survives a restart (a new instance reads what the old one wrote)', async () => {
    const dir = await tempDir();
    await new DiskCache({ dir }).set(API, 'plugin', 'akismet', benchmarked('akismet'));
    const hit = await new DiskCache({ dir }).get(API, 'plugin', 'akismet');
    assert.ok(hit);
    assert.equal(hit.stale, false);
    assert.equal(hit.result.state, 'benchmarked');
  });

  it('keys by API, kind and slug', async () => {
    const dir = await tempDir();
    const cache = new DiskCache({ dir });
    await cache.set(API, 'plugin', 'astra', benchmarked('astra'));
    assert.equal(await new DiskCache({ dir }).get(API, 'theme', 'astra'), undefined);
    assert.equal(await new DiskCache({ dir }).get('https://other.test/api', 'plugin', 'astra'), undefined);
  });

  it('applies the lifetimes: 24 h records, 6 h not-benchmarked, 24 h not-in-dataset, and returns stale entries with their age', async () => {
    const dir = await tempDir();
    let t = 0;
    const cache = new DiskCache({ dir, now: () => t });
    const nb = parseRecord(sampleBody({ slug: 'nb', benchmarked: false }), 'plugin', 'nb');
    await cache.set(API, 'plugin', 'rec', benchmarked('rec'));
    await cache.set(API, 'plugin', 'nb', nb);
    await cache.set(API, 'plugin', 'gone', { state: 'not-in-dataset', kind: 'plugin', slug: 'gone' });
    t = 6 * HOUR + 1;
    assert.equal(cache.peek(API, 'plugin', 'nb')?.stale, true);
    assert.equal(cache.peek(API, 'plugin', 'rec')?.stale, false);
    assert.equal(cache.peek(API, 'plugin', 'gone')?.stale, false);
    t = 24 * HOUR + 1;
    const rec = await cache.get(API, 'plugin', 'rec');
    assert.equal(rec?.stale, true);
    assert.equal(rec?.ageMs, 24 * HOUR + 1);
    assert.equal(cache.peek(API, 'plugin', 'gone')?.stale, true);
  });

  it('honours a custom record lifetime', async () => {
    let t = 0;
    const cache = new DiskCache({ dir: await tempDir(), ttlHours: 1, now: () => t });
    await cache.set(API, 'plugin', 'a', benchmarked('a'));
    t = HOUR + 1;
    assert.equal(cache.peek(API, 'plugin', 'a')?.stale, true);
  });

  for (const [label, content] of [
    ['truncated mid-write', '{"v":1,"savedAt":1,"result":{"state":"bench'],
    ['garbage', '\u0000\u0001binary garbage'],
    ['valid JSON of the wrong shape', '{"v":1,"savedAt":1,"result":{"state":"benchmarked","record":{"slug":"other"}}}'],
  ]) {
    it(`discards a file ${label} and logs it, never throws`, async () => {
      const dir = await tempDir();
      await new DiskCache({ dir }).set(API, 'plugin', 'a', benchmarked('a'));
      const [file] = await entryFiles(dir);
      await fs.writeFile(file, content);
      const warnings: string[] = [];
      const cache = new DiskCache({ dir, logger: { debug() {}, info() {}, error() {}, warn: (m) => warnings.push(m) } });
      assert.equal(await cache.get(API, 'plugin', 'a'), undefined);
      assert.equal(warnings.length, 1);
      assert.deepEqual(await entryFiles(dir), [], 'the unreadable file is removed');
      await cache.set(API, 'plugin', 'a', benchmarked('a'));
      assert.equal((await new DiskCache({ dir }).get(API, 'plugin', 'a'))?.result.state, 'benchmarked');
    });
  }

  it('writes atomically: no temp files left, and two processes writing at once lose no completed write', async () => {
    const dir = await tempDir();
    const script = path.join(dir, 'writer.ts');
    await fs.writeFile(
      script,
      `import { DiskCache } from ${JSON.stringify(path.resolve('src/core/cache/diskCache'))};
       import { parseRecord } from ${JSON.stringify(path.resolve('src/core/api/record'))};
       import { sampleBody } from ${JSON.stringify(path.resolve('test/unit/helpers/samples'))};
       const [dir, prefix] = process.argv.slice(2);
       (async () => {
         const cache = new DiskCache({ dir });
         await Promise.all(Array.from({ length: 60 }, (_, i) => {
           const slug = i % 2 ? prefix + '-' + i : 'shared-' + i;
           return cache.set(${JSON.stringify(API)}, 'plugin', slug, parseRecord(sampleBody({ slug, name: prefix }), 'plugin', slug));
         }));
       })();`,
    );
    const run = (prefix: string) =>
      new Promise<number>((resolve) => fork(script, [dir, prefix], { execArgv: ['--import', 'tsx'] }).on('exit', (c) => resolve(c ?? 1)));
    assert.deepEqual(await Promise.all([run('one'), run('two')]), [0, 0]);
    const files = await entryFiles(dir);
    assert.equal(files.filter((f) => f.endsWith('.tmp')).length, 0);
    const cache = new DiskCache({ dir });
    for (let i = 0; i < 60; i++) {
      const slugs = i % 2 ? [`one-${i}`, `two-${i}`] : [`shared-${i}`];
      for (const slug of slugs) assert.equal((await cache.get(API, 'plugin', slug))?.result.state, 'benchmarked', slug);
    }
  });

  it('clear() removes everything', async () => {
    const dir = await tempDir();
    const cache = new DiskCache({ dir });
    await cache.set(API, 'plugin', 'a', benchmarked('a'));
    await cache.clear();
    assert.equal(await new DiskCache({ dir }).get(API, 'plugin', 'a'), undefined);
    assert.equal(cache.peek(API, 'plugin', 'a'), undefined);
  });
});

describe('lookup service (cache in front of the client)', () => {
  it('one request per unique slug per lifetime; stale answers kept when a refresh fails', async () => {
    const server = await startTestServer();
    let fail = false;
    server.handle((req, res) => (fail ? json(res, 503, {}) : json(res, 200, sampleBody({ slug: req.url!.split('/').pop() }))));
    let t = Date.UTC(2026, 10, 22);
    const client = new BenchClient({ apiUrl: server.url, getKey: () => 'k', transport: createUndiciTransport, sleep: async () => undefined, now: () => t });
    const service = new LookupService(new DiskCache({ dir: await tempDir(), now: () => t }), () => client, () => t);
    try {
      const items = ['a', 'b', 'a', 'c', 'b'].map((slug) => ({ kind: 'plugin' as const, slug }));
      assert.equal((await service.needsRequest(items)).length, 3);
      const first = await service.getMany(items, { network: true });
      assert.equal(first.size, 3);
      assert.equal(server.requests.length, 3);
      await service.getMany(items, { network: true });
      assert.equal(server.requests.length, 3, 'fresh entries cost nothing');
      assert.equal(service.peek('plugin', 'a')?.stale, false);
      t += 25 * HOUR;
      fail = true;
      const stale = await service.get('plugin', 'a', { network: true });
      assert.equal(stale.stale, true);
      assert.equal(stale.result?.state, 'benchmarked');
      assert.equal(stale.error?.kind, 'server');
      const offline = await service.get('plugin', 'zzz', { network: false });
      assert.equal(offline.result, undefined);
      assert.equal(server.requests.length, 3 + 3, 'one failed refresh: 1 try + 2 retries');
    } finally {
      await client.dispose();
      await server.close();
    }
  });
});

describe('disk cache lifetime setting', () => {
  it('applies a changed record lifetime to what is already cached', async () => {
    let t = 0;
    const cache = new DiskCache({ dir: await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-ttl-')), now: () => t });
    await cache.set('https://api.example.test/api', 'plugin', 'a', parseRecord(sampleBody({ slug: 'a' }), 'plugin', 'a'));
    t = 2 * 3_600_000;
    assert.equal(cache.peek('https://api.example.test/api', 'plugin', 'a')?.stale, false);
    cache.setTtlHours(1);
    assert.equal(cache.peek('https://api.example.test/api', 'plugin', 'a')?.stale, true);
  });
});

describe('disk cache: entries are validated on read', function () {
  this.timeout(30_000);

  it('6. cache entries are validated on read: a bad grade is discarded, a future date is stale', async () => {
    const dir = await tmpDir('wpb-h2-cache-');
    const apiId = 'http://127.0.0.1:9/api';
    const c1 = new DiskCache({ dir });
    const record = { slug: 'akismet', kind: 'plugin', name: 'Akismet', benchmarked: true, benchmarkedAt: null, grade: 'A', score: 90, contexts: { activation: null, homepage: null, admin: null }, activeInstalls: null, rating: null, profileUrl: null };
    await c1.set(apiId, 'plugin', 'akismet', { state: 'benchmarked', record } as never);
    await c1.set(apiId, 'plugin', 'jetpack', { state: 'benchmarked', record: { ...record, slug: 'jetpack' } } as never);
    const files = await fs.readdir(path.join(dir, 'lookups-v1'), { recursive: true });
    const fileOf = async (slug: string) => path.join(dir, 'lookups-v1', files.find((f) => String(f).endsWith(`plugin-${slug}.json`))! as string);
    // Hand-edited entries: a numeric grade, and a date far in the future.
    const ak = JSON.parse(await fs.readFile(await fileOf('akismet'), 'utf8'));
    ak.result.record.grade = 5;
    await fs.writeFile(await fileOf('akismet'), JSON.stringify(ak));
    const jp = JSON.parse(await fs.readFile(await fileOf('jetpack'), 'utf8'));
    jp.savedAt = Date.now() + 365 * 24 * 3600 * 1000;
    jp.result.record.profileUrl = 'javascript:alert(1)';
    await fs.writeFile(await fileOf('jetpack'), JSON.stringify(jp));
    const c2 = new DiskCache({ dir });
    assert.equal(await c2.get(apiId, 'plugin', 'akismet'), undefined, 'a grade that is not a grade: discarded');
    await assert.rejects(fs.access(await fileOf('akismet')), 'and removed');
    assert.equal(await c2.get(apiId, 'plugin', 'jetpack'), undefined, 'a profile link that is not http(s): discarded');
  });

  it('6b. an entry dated in the future is stale, not fresh until that date', async () => {
    const dir = await tmpDir('wpb-h2-cache-');
    const apiId = 'http://127.0.0.1:9/api';
    let now = Date.now() + 30 * 24 * 3600 * 1000; // written by a clock a month ahead
    const ahead = new DiskCache({ dir, now: () => now });
    const record = { slug: 'akismet', kind: 'plugin', name: 'Akismet', benchmarked: true, benchmarkedAt: null, grade: 'A', score: 90, contexts: { activation: null, homepage: null, admin: null }, activeInstalls: null, rating: null, profileUrl: null };
    await ahead.set(apiId, 'plugin', 'akismet', { state: 'benchmarked', record } as never);
    now = Date.now();
    const hit = await new DiskCache({ dir, now: () => now }).get(apiId, 'plugin', 'akismet');
    assert.equal(hit?.stale, true);
  });
});
