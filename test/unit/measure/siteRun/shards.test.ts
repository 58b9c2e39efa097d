// `wp-bench merge`: the shards' records of `measure SITE --site --shard K/N` into one (issue 38), on recorded data.
import * as assert from 'node:assert/strict';
import { MergeError, mergeSiteRecords } from '../../../../src/core/measure/siteRun/shards';
import type { SiteRecord } from '../../../../src/core/measure/siteRun/siteRecord';

const f = (ttfb: number, kb: number, q: number) => ({ ttfb_delta_ms: ttfb, memory_delta_kb: kb, queries_delta: q, spread: { ttfb_ms: 1, memory_kb: 0, queries: 0 } });
const ctx = (x: ReturnType<typeof f> | null) => ({ activation: x, homepage: x, admin: x });

function shard(k: number, n: number, mine: string[], all: string[], extra: Partial<SiteRecord['local']> = {}): SiteRecord {
  return {
    source: 'local',
    site: { contexts: ctx(f(20 + k, 3000, 10)) },
    components: all.map((slug, i) =>
      mine.includes(slug)
        ? { kind: 'plugin' as const, slug, name: slug, alone: { contexts: ctx(f(i + 1, 100 * (i + 1), i + 1)) }, in_site: { contexts: ctx(f(i, 50, i)) }, left_out: null }
        : { kind: 'plugin' as const, slug, name: slug, alone: null, in_site: null, left_out: null, note: `measured in another shard of ${n}`, other_shard: true as const },
    ),
    sum_of_alone: { contexts: ctx(null) },
    drop_ins_left_out: [],
    local: { database: { engine: 'mariadb', version: '10.11.19', server: 'throwaway' }, theme: null, wordpress: '6.1.9', php: '8.2.36', runtime: 'php', rounds: 9, configurations: 4, duration_s: 10 + k, shard: { k, n }, ...extra },
  };
}

describe('merge: the shards of a site into one record', () => {
  const all = ['a', 'b', 'c'];
  it('each member from the shard that measured it, the stack from shard 1, the sum of the parts again', () => {
    const m = mergeSiteRecords([shard(2, 2, ['b'], all), shard(1, 2, ['a', 'c'], all)]);
    assert.deepEqual(m.components.map((c) => [c.slug, c.in_site?.contexts.homepage?.queries_delta ?? null]), [['a', 0], ['b', 1], ['c', 2]]);
    assert.ok(m.components.every((c) => !c.other_shard && !c.note));
    assert.equal(m.site.contexts.homepage!.ttfb_delta_ms, 21, 'shard 1\'s stack');
    assert.deepEqual({ ...m.sum_of_alone.contexts.homepage, spread: undefined }, { ttfb_delta_ms: 6, memory_delta_kb: 600, queries_delta: 6, spread: undefined });
    assert.equal(m.local.shards, 2);
    assert.equal(m.local.shard, undefined);
    assert.equal(m.local.configurations, 8);
  });
  it('refuses what is not all N shards of one run on one set-up, saying why', () => {
    assert.throws(() => mergeSiteRecords([shard(1, 3, ['a'], all), shard(3, 3, ['c'], all)]), (e: Error) => e instanceof MergeError && /shards of 3: missing 2/.test(e.message));
    assert.throws(() => mergeSiteRecords([shard(1, 2, ['a'], all), shard(1, 2, ['a'], all)]), /given twice 1/);
    assert.throws(() => mergeSiteRecords([shard(1, 2, ['a'], all), shard(2, 2, ['b'], all, { php: '8.3.0' })]), /different set-ups/);
    assert.throws(() => mergeSiteRecords([shard(1, 2, ['a'], all), shard(2, 2, ['b'], all, { rounds: 5 })]), /different set-ups/);
    assert.throws(() => mergeSiteRecords([shard(1, 2, ['a'], all), shard(2, 2, ['b'], ['a', 'b', 'd'])]), /different sites/);
    const whole = { ...shard(1, 1, all, all), local: { ...shard(1, 1, all, all).local, shard: undefined } };
    assert.throws(() => mergeSiteRecords([whole, whole]), /without --shard/);
    assert.throws(() => mergeSiteRecords([{ nope: 1 }]), /not a site record/);
    assert.throws(() => mergeSiteRecords([]), /nothing to merge/);
  });
});
