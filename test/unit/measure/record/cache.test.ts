// The local results cache and its template database carry a keyed checksum: an entry changed outside WP Bench is
// discarded (and said), never answered.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MeasureCache, componentHash, resultKey } from '../../../../src/core/measure/record/cache';
import type { LocalRecord } from '../../../../src/core/measure/record/method';

function record(slug: string, ttfb: number): LocalRecord {
  const ctx = { ttfb_delta_ms: ttfb, memory_delta_kb: 12, queries_delta: 1 };
  return {
    slug,
    type: 'plugin',
    name: slug,
    benchmarked: true,
    benchmarked_at: '2026-01-01 00:00:00',
    speed_score: null,
    contexts: { activation: ctx, homepage: ctx, admin: null },
    metadata: { active_installs: null, rating: null, version: null },
    links: { profile: null },
    source: 'local',
    local: { runtime: 'php', wordpress_version: '6.1.9', php_version: '8.2', rounds: 9, warmup_rounds: 2, baseline_theme: 't', spread: { activation: null, homepage: null, admin: null }, baseline: { activation: null, homepage: null, admin: null }, null_reasons: {}, activation_hook: null, grade_scale: '', units: '', duration_s: 1 },
  } as LocalRecord;
}

describe('MeasureCache: keyed checksums', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-mcache-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('answers what it stored, and the key file is private', async () => {
    const c = new MeasureCache(dir);
    await c.set('k1', record('acme', 3.5));
    const warns: string[] = [];
    const got = await new MeasureCache(dir).get('k1', 'acme', (l) => warns.push(l));
    assert.equal(got?.contexts.homepage?.ttfb_delta_ms, 3.5);
    assert.deepEqual(warns, []);
    const st = await fs.stat(path.join(dir, 'measure-v1', 'checksum.key'));
    assert.equal(st.mode & 0o077, 0, 'no group or other access');
    assert.equal(st.size, 32);
  });

  it('a forged figure is discarded, said, and removed', async () => {
    const c = new MeasureCache(dir);
    await c.set('k1', record('acme', 3.5));
    const file = path.join(dir, 'measure-v1', 'k1.json');
    const v = JSON.parse(await fs.readFile(file, 'utf8'));
    v.record.contexts.homepage.ttfb_delta_ms = -99;
    v.record.name = 'FORGED';
    await fs.writeFile(file, JSON.stringify(v));
    const warns: string[] = [];
    assert.equal(await new MeasureCache(dir).get('k1', 'acme', (l) => warns.push(l)), undefined);
    assert.equal(warns.length, 1);
    assert.match(warns[0], /acme failed its check/);
    await assert.rejects(fs.stat(file), 'the forged entry is removed');
  });

  it('an entry moved under another key, or written without a checksum, is not answered', async () => {
    const c = new MeasureCache(dir);
    await c.set('k1', record('acme', 3.5));
    await fs.copyFile(path.join(dir, 'measure-v1', 'k1.json'), path.join(dir, 'measure-v1', 'k2.json'));
    assert.equal(await c.get('k2', 'acme'), undefined, 'the checksum covers the key');
    await fs.writeFile(path.join(dir, 'measure-v1', 'k3.json'), JSON.stringify(record('acme', 1)));
    assert.equal(await c.get('k3', 'acme'), undefined, 'an unsigned (older) entry');
  });

  it('a replaced checksum key makes every entry fail, not pass', async () => {
    await new MeasureCache(dir).set('k1', record('acme', 3.5));
    await fs.writeFile(path.join(dir, 'measure-v1', 'checksum.key'), Buffer.alloc(32, 7));
    assert.equal(await new MeasureCache(dir).get('k1', 'acme'), undefined);
  });

  it('the template database is answered only while its bytes are those saved', async () => {
    const c = new MeasureCache(dir);
    const db = path.join(dir, 'site.sqlite');
    await fs.writeFile(db, Buffer.from('SQLite format 3\0 clean install'));
    const target = c.templateFile('t1');
    await c.saveTemplate(db, target);
    assert.equal((await c.readTemplate(target))?.toString('latin1'), 'SQLite format 3\0 clean install');
    await fs.writeFile(target, Buffer.from('SQLite format 3\0 theme=evil'));
    const warns: string[] = [];
    assert.equal(await c.readTemplate(target, (l) => warns.push(l)), undefined);
    assert.match(warns[0], /template database failed its check/);
    await assert.rejects(fs.stat(target), 'removed');
    assert.equal(await c.readTemplate(target), undefined, 'none now, silently');
  });
});

describe('MeasureCache: keyed by what it holds, never by a folder name (issue 45)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-mcache-copies-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  // One plugin, two identical copies in folders of different names (a download and a renamed checkout).
  async function copyAt(folder: string): Promise<string> {
    const root = path.join(dir, 'src', folder);
    await fs.mkdir(path.join(root, 'includes'), { recursive: true });
    await fs.writeFile(path.join(root, 'link-checker.php'), "<?php\n/**\n * Plugin Name: Link Checker\n * Version: 1.2\n */\nrequire __DIR__ . '/includes/logger.php';\n");
    await fs.writeFile(path.join(root, 'includes', 'logger.php'), "<?php\nadd_option('lc_log', str_repeat('x', 8192));\n");
    return root;
  }

  it('two identical copies under different folder names share one valid entry: no warning of tampering, nothing deleted', async () => {
    const a = await copyAt('link-checker');
    const b = await copyAt('link-checker-copy');
    const hashA = await componentHash({ kind: 'plugin', source: a, singleFile: false });
    const hashB = await componentHash({ kind: 'plugin', source: b, singleFile: false });
    assert.equal(hashA, hashB, 'the content hash does not see the folder name');
    const key = (h: string) => MeasureCache.key({ component: h, wordpress: '6.1.9', php: '8.2', runtime: 'php', rounds: 9, warmup: 2, core: '/usr/share/wordpress' });
    const c = new MeasureCache(dir);
    await c.set(key(hashA), record('link-checker', 3.5));
    const warns: string[] = [];
    const got = await new MeasureCache(dir).get(key(hashB), 'link-checker-copy', (l) => warns.push(l));
    assert.equal(warns.join('\n'), '', 'no tampering happened');
    assert.equal(got?.contexts.homepage?.ttfb_delta_ms, 3.5, 'the copy is answered from the entry');
    assert.equal(got?.slug, 'link-checker-copy', 'under the name it was asked for');
    // The first copy's entry is still there and still valid.
    assert.equal((await c.get(key(hashA), 'link-checker', (l) => warns.push(l)))?.slug, 'link-checker');
    assert.equal(warns.join('\n'), '');
  });

  it('an entry whose checksum holds but whose shape is not a record (another version) is measured again without a word of tampering', async () => {
    const c = new MeasureCache(dir);
    await c.set('k1', { ...record('acme', 1), contexts: { homepage: 'old shape' } } as unknown as LocalRecord);
    const warns: string[] = [];
    assert.equal(await c.get('k1', 'acme', (l) => warns.push(l)), undefined);
    assert.ok(!warns.some((w) => /tamper/.test(w)), warns.join('\n'));
    await assert.rejects(fs.stat(path.join(dir, 'measure-v1', 'k1.json')), 'removed, to be written anew');
  });
});

describe('MeasureCache: a damaged checksum key', () => {
  it('a key file replaced by other bytes or a folder is made anew: old entries fail their check, nothing throws', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-mcache-key-'));
    try {
      await new MeasureCache(dir).set('k1', record('acme', 3.5));
      const key = path.join(dir, 'measure-v1', 'checksum.key');
      await fs.writeFile(key, 'short');
      const warns: string[] = [];
      assert.equal(await new MeasureCache(dir).get('k1', 'acme', (l) => warns.push(l)), undefined);
      assert.equal(warns.length, 1);
      assert.equal((await fs.stat(key)).size, 32);
      await fs.rm(key);
      await fs.mkdir(key);
      const c = new MeasureCache(dir);
      await c.set('k2', record('acme', 1));
      assert.equal((await c.get('k2', 'acme'))?.contexts.homepage?.ttfb_delta_ms, 1);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('resultKey: what a result is keyed by', () => {
  const base = { component: 'a'.repeat(64), wordpress: '6.1.9', php: '8.2', runtime: 'php', core: '/usr/share/wordpress', rounds: 9, warmup: 2, database: 'mariadb 10.11', sandbox: 'bubblewrap' };
  it('the same content and set-up give one key; each set-up that changes what a record says gives another', () => {
    assert.equal(resultKey(base), resultKey({ ...base }));
    const others = [{ component: 'b'.repeat(64) }, { parent: 'c'.repeat(64) }, { wordpress: '6.2' }, { php: '8.3' }, { runtime: 'playground' }, { rounds: 5 }, { warmup: 1 }, { database: undefined }, { sandbox: 'none' }, { findings: true }, { instructions: true }];
    const keys = new Set([resultKey(base), ...others.map((o) => resultKey({ ...base, ...o }))]);
    assert.equal(keys.size, others.length + 1, 'every part changes the key');
  });
});
