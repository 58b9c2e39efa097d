// `wp-bench merge FILE…` reads files it did not write (CI artifacts): each is checked before anything is done with
// it. A shard number, a member or a state-dependent entry of the wrong shape is said in one line naming the file and
// the field (exit 2), never an out-of-memory abort, a 189 MB line or a stack trace.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { MergeError, mergeSiteRecords } from '../../../../src/core/measure/siteRun/shards';
import type { SiteRecord } from '../../../../src/core/measure/siteRun/siteRecord';
import { cli, removeTmpDirs, tmpDir } from '../../helpers/cliRun';
import { fig, siteRecord } from '../../helpers/siteRecord';

/** Shard K of N of the hand-written site record, with what a real one also has: spreads, hashes, rounds, a state-dependent entry. */
function shardOf(k: number, n: number): SiteRecord {
  const r = siteRecord();
  r.components[0] = { ...r.components[0], path: 'wp-content/plugins/lib-user-b/lib-user-b.php', hash: 'f00d' };
  r.site.contexts.homepage = { ...fig(12.5, 4200, 5), spread: { ttfb_ms: 1.2, memory_kb: 0, queries: 0 } };
  const state_dependent = [{ config: 'alone:plugin:lib-user-a', context: 'homepage' as const, queries: [8, 9] as [number, number], memory_kb: [3000, 3100] as [number, number] }];
  return { ...r, state_dependent, local: { ...r.local, warmup_rounds: 2, rounds_taken: { min: 4, median: 6, max: 10 }, shard: { k, n } } };
}

/** A JSON value written into the file as is (what JSON.stringify cannot write: 1e999, a `__proto__` key). */
const RAW = (json: string) => `@@RAW:${json}@@`;
const PROTO = '@@PROTO@@';
const toText = (v: unknown) => JSON.stringify(v).replace(/"@@RAW:(.*?)@@"/g, (_m, j: string) => JSON.parse(`"${j}"`)).replaceAll(`"${PROTO}"`, '"__proto__"');

type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const HOSTILE = '\u001b]52;c;aGk=\u0007\u202e' + 'x'.repeat(5000);

/** Shard 2 of 2 made wrong; what is said about it after "shard-2.json: ". */
const CASES: Array<[string, (r: Rec) => void, string]> = [
  ['n = 1e9', (r) => (r.local.shard.n = 1e9), 'local.shard.n must be an integer from 1 to 1000 (got 1000000000)'],
  ['n = 2e7', (r) => (r.local.shard.n = 2e7), 'local.shard.n must be an integer from 1 to 1000 (got 20000000)'],
  ['k = 0', (r) => (r.local.shard.k = 0), 'local.shard.k must be an integer from 1 to 2 (got 0)'],
  ['k > n', (r) => (r.local.shard.k = 3), 'local.shard.k must be an integer from 1 to 2 (got 3)'],
  ['k = 1.5', (r) => (r.local.shard.k = 1.5), 'local.shard.k must be an integer from 1 to 2 (got 1.5)'],
  ['n = "3"', (r) => (r.local.shard.n = '3'), 'local.shard.n must be an integer from 1 to 1000 (got "3")'],
  ['n = 1e999 (Infinity)', (r) => (r.local.shard.n = RAW('1e999')), 'local.shard.n must be an integer from 1 to 1000 (got Infinity)'],
  ['no n', (r) => delete r.local.shard.n, 'local.shard.n must be an integer from 1 to 1000 (got nothing)'],
  ['shard a string', (r) => (r.local.shard = '2/2'), 'local.shard must be an object (got "2/2")'],
  ['a figure 1e999', (r) => (r.site.contexts.homepage.ttfb_delta_ms = RAW('1e999')), 'site.contexts.homepage.ttfb_delta_ms must be a finite number (got Infinity)'],
  ['a spread -1e999', (r) => (r.site.contexts.homepage.spread.queries = RAW('-1e999')), 'site.contexts.homepage.spread.queries must be a finite number (got -Infinity)'],
  ['duration -1e999', (r) => (r.local.duration_s = RAW('-1e999')), 'local.duration_s must be a finite number ≥ 0 (got -Infinity)'],
  ['configurations "4"', (r) => (r.local.configurations = '4'), 'local.configurations must be a finite number ≥ 0 (got "4")'],
  ['rounds taken as a string', (r) => (r.local.rounds_taken.median = '6'), 'local.rounds_taken.median must be a finite number ≥ 0 (got "6")'],
  ['members not an array', (r) => (r.components = { 0: r.components[0] }), 'components must be an array (got an object)'],
  ['a member a string', (r) => (r.components[1] = 'lib-user-a'), 'components[1] must be an object (got "lib-user-a")'],
  ['a member null', (r) => (r.components[1] = null), 'components[1] must be an object (got null)'],
  ['a member of another kind', (r) => (r.components[0].kind = 'widget'), 'components[0].kind must be "plugin" or "theme" (got "widget")'],
  ['a member without a slug', (r) => delete r.components[3].slug, 'components[3].slug must be a string of at most 300 characters (got nothing)'],
  ['a member missing a context', (r) => delete r.components[0].alone.contexts.activation, 'components[0].alone.contexts.activation must be an object or null (got nothing)'],
  ['a member with figures as strings', (r) => (r.components[0].in_site.contexts.homepage.queries_delta = '0'), 'components[0].in_site.contexts.homepage.queries_delta must be a finite number (got "0")'],
  ['must_use "yes"', (r) => (r.components[4].must_use = 'yes'), 'components[4].must_use must be true or absent (got "yes")'],
  ['a note a number', (r) => (r.components[4].note = 7), 'components[4].note must be a string of at most 2000 characters (got 7)'],
  ['state_dependent not an array', (r) => (r.state_dependent = 'stack'), 'state_dependent must be an array (got "stack")'],
  ['state_dependent entry a string', (r) => (r.state_dependent = ['stack homepage']), 'state_dependent[0] must be an object (got "stack homepage")'],
  ['state_dependent entry null', (r) => r.state_dependent.push(null), 'state_dependent[1] must be an object (got null)'],
  ['state_dependent entry missing fields', (r) => (r.state_dependent = [{ config: 'stack' }]), 'state_dependent[0].context must be one of activation, homepage, admin (got nothing)'],
  ['state_dependent numbers as strings', (r) => (r.state_dependent[0].queries = ['8', '9']), 'state_dependent[0].queries[0] must be a finite number (got "8")'],
  ['state_dependent range of one', (r) => (r.state_dependent[0].memory_kb = [3000]), 'state_dependent[0].memory_kb must be an array of 2 numbers (got an array of 1)'],
  ['state_dependent config a number', (r) => (r.state_dependent[0].config = 1), 'state_dependent[0].config must be a string of at most 400 characters (got 1)'],
  ['__proto__ at the top', (r) => (r[PROTO] = { polluted: true }), '__proto__ is not allowed (a prototype key)'],
  ['__proto__ in a member', (r) => (r.components[2][PROTO] = { kind: 'theme' }), 'components[2].__proto__ is not allowed (a prototype key)'],
  ['__proto__ in a state_dependent entry', (r) => (r.state_dependent[0][PROTO] = null), 'state_dependent[0].__proto__ is not allowed (a prototype key)'],
  ['__proto__ in the shard', (r) => (r.local.shard[PROTO] = { n: 1 }), 'local.shard.__proto__ is not allowed (a prototype key)'],
  [
    'a hostile string, shortened and escaped',
    (r) => (r.local.wordpress = HOSTILE),
    'local.wordpress must be a string of at most 100 characters (got "\\u001b]52;c;aGk=\\u0007\\u202exxxxxxxxxxxxxxxxxxxxxxxxxxx…" (5013 characters))',
  ],
  ['a hostile context', (r) => (r.state_dependent[0].context = '\u001b[2J\u009b31mhomepage'), 'state_dependent[0].context must be one of activation, homepage, admin (got "\\u001b[2J\\u009b31mhomepage")'],
  ['not an object', (r) => Object.keys(r).forEach((key) => delete r[key]), 'not a site record (measure SITE --site --json): source must be "local" (got nothing)'],
];

function shard2(edit: (r: Rec) => void): string {
  const r = JSON.parse(JSON.stringify(shardOf(2, 2))) as Rec;
  edit(r);
  return toText(r);
}

describe('merge: files it did not write, checked before anything is done with them', () => {
  afterEach(() => removeTmpDirs());

  it('the fixture: its two shards merge (the check refuses nothing a real record has)', async () => {
    const dir = await tmpDir('wpb-merge-');
    await fs.writeFile(path.join(dir, 'shard-1.json'), toText(shardOf(1, 2)));
    await fs.writeFile(path.join(dir, 'shard-2.json'), shard2(() => undefined));
    const r = await cli(['merge', 'shard-1.json', 'shard-2.json', '--json'], {}, dir);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out), JSON.parse(JSON.stringify(mergeSiteRecords([shardOf(2, 2), shardOf(1, 2)]))));
    const table = await cli(['merge', 'shard-1.json', 'shard-2.json'], {}, dir);
    assert.equal(table.code, 0, table.err);
    assert.match(table.out, /alone:plugin:lib-user-a, homepage: 8–9 queries/);
  });

  for (const [what, edit, want] of CASES) {
    it(`${what}: the function says the file and the field`, () => {
      const records = [JSON.parse(toText(shardOf(1, 2))), JSON.parse(shard2(edit))];
      assert.throws(() => mergeSiteRecords(records, ['shard-1.json', 'shard-2.json']), (e: Error) => {
        assert.ok(e instanceof MergeError, e.stack);
        assert.equal(e.message, `shard-2.json: ${want}`);
        return true;
      });
    });
    it(`${what}: the CLI exits 2 with one short line`, async () => {
      const dir = await tmpDir('wpb-merge-');
      await fs.writeFile(path.join(dir, 'shard-1.json'), toText(shardOf(1, 2)));
      await fs.writeFile(path.join(dir, 'shard-2.json'), shard2(edit));
      const r = await cli(['merge', 'shard-1.json', 'shard-2.json'], {}, dir);
      assert.equal(r.code, 2, r.out.slice(0, 200));
      assert.equal(r.out, '');
      assert.equal(r.err, `wp-bench merge: shard-2.json: ${want}`);
      assert.ok(r.err.length < 250, `${r.err.length} characters`);
      assert.doesNotMatch(r.err, /[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/); // eslint-disable-line no-control-regex
    });
  }

  for (const n of [1e9, 2e7]) {
    it(`two files both claiming n = ${n} (3 KB each): one line about the first, from the function and the CLI`, async () => {
      const claim = (k: number) => toText({ ...shardOf(k, 2), local: { ...shardOf(k, 2).local, shard: { k, n } } });
      const want = `shard-1.json: local.shard.n must be an integer from 1 to 1000 (got ${n})`;
      assert.throws(() => mergeSiteRecords([JSON.parse(claim(1)), JSON.parse(claim(2))], ['shard-1.json', 'shard-2.json']), (e: Error) => e instanceof MergeError && e.message === want);
      const dir = await tmpDir('wpb-merge-');
      for (const k of [1, 2]) await fs.writeFile(path.join(dir, `shard-${k}.json`), claim(k));
      const r = await cli(['merge', 'shard-1.json', 'shard-2.json', '--json'], {}, dir);
      assert.deepEqual([r.code, r.out.length, r.err], [2, 0, `wp-bench merge: ${want}`]);
    });
  }

  it('a file whose name holds a control character is named escaped', async () => {
    const dir = await tmpDir('wpb-merge-');
    const bad = 'shard-\u001b[2J2.json';
    await fs.writeFile(path.join(dir, 'shard-1.json'), toText(shardOf(1, 2)));
    await fs.writeFile(path.join(dir, bad), shard2((r) => (r.local.shard.n = 1e9)));
    const r = await cli(['merge', 'shard-1.json', bad], {}, dir);
    assert.equal(r.code, 2);
    assert.equal(r.err, 'wp-bench merge: shard-\\u001b[2J2.json: local.shard.n must be an integer from 1 to 1000 (got 1000000000)');
  });

  it('a record of the right shape, but one of 1,000 shards given alone: one short line', async () => {
    const dir = await tmpDir('wpb-merge-');
    await fs.writeFile(path.join(dir, 'shard-1.json'), toText(shardOf(1, 1000)));
    const r = await cli(['merge', 'shard-1.json'], {}, dir);
    assert.equal(r.code, 2);
    assert.match(r.err, /^wp-bench merge: shards of 1000: missing 2, 3, 4, .*…, 1000 \(999 of them\)$/);
    assert.ok(r.err.length < 250, `${r.err.length} characters`);
  });

  it('more files than shards can be: said before any is read', async () => {
    const r = await cli(['merge', ...Array.from({ length: 1001 }, (_, i) => `no-such-${i}.json`)]);
    assert.deepEqual([r.code, r.err], [2, 'wp-bench merge: merge takes at most 1000 files (one per shard)']);
  });

  it('shard numbers from 1 to 1000 are taken; a record without --shard still reads as a site record', () => {
    assert.throws(() => mergeSiteRecords([shardOf(1, 1000), shardOf(1000, 1000)]), /shards of 1000: missing 2, /);
    const single = { ...siteRecord() };
    // Alone it is shown again (issue 45); beside another, it is not a shard.
    assert.deepEqual(mergeSiteRecords([single], ['site.json']), single);
    assert.throws(() => mergeSiteRecords([single, single], ['site.json', 'again.json']), (e: Error) => e instanceof MergeError && e.message === "site.json is not a shard's (it was measured without --shard)");
  });
});
