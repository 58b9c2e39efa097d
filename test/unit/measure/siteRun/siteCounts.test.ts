// `measure SITE --site --instructions` (issue 44), on recorded counts: each member's figures as differences of the
// configurations' counts, the sum of the parts, when two counts agree, and how the reports say it.
import * as assert from 'node:assert/strict';
import { memberCounted, settled, siteCounted, sumCounted, type SiteCounts } from '../../../../src/core/measure/siteRun/siteCounts';
import { countInNoise, INSTRUCTIONS_FLOOR, type ContextFigures } from '../../../../src/core/measure/siteRun/sitePlan';
import { figuresCell, figuresDifference, siteTable } from '../../../../src/core/report/siteText';
import { siteHtml, siteMarkdown } from '../../../../src/core/report/siteFormats';
import { figuresText } from '../../../../src/core/present/siteLocal';
import { mergeSiteRecords } from '../../../../src/core/measure/siteRun/shards';
import type { SiteRecord } from '../../../../src/core/measure/siteRun/siteRecord';

const f = (ttfb: number, kb: number, q: number) => ({ ttfb_delta_ms: ttfb, memory_delta_kb: kb, queries_delta: q, spread: { ttfb_ms: 2, memory_kb: 0, queries: 0 } });
const all = (x: ReturnType<typeof f> | null): ContextFigures => ({ activation: x, homepage: x, admin: x });
const each = (xs: number[]) => ({ activation: xs, homepage: xs, admin: xs });

// Recorded from a real run's shape: the clean site ~40 M, a no-op plugin's include ~20 K, a loop of 2.86 M.
const counts: SiteCounts = {
  clean: each([40_000_000, 40_003_900]),
  stack: each([45_000_000, 45_001_000]),
  'without:plugin:noop': each([44_980_000, 44_982_100]),
  'without:plugin:work': each([42_140_000, 42_140_500]),
  'alone:plugin:noop': each([40_031_000, 40_031_200]),
  'alone:plugin:work': each([42_880_000, 42_880_100]),
};

describe('--site --instructions: the arithmetic of counts', () => {
  it('in the site: the stack minus the stack without the member; alone: its configuration minus the clean site; the larger range', () => {
    const noop = memberCounted('plugin:noop', { alone: all(f(3, 0, 0)), in_site: all(f(-2, 0, 0)) }, counts);
    // medians: stack 45,000,500; without 44,981,050 → 19,450; alone 40,031,100 − clean 40,001,950 → 29,150
    assert.equal(noop.in_site.homepage!.instructions_delta, 19_450);
    assert.equal(noop.in_site.homepage!.spread!.instructions, 2_100);
    assert.equal(noop.alone.admin!.instructions_delta, 29_150);
    assert.equal(noop.alone.admin!.spread!.instructions, 3_900);
    // The time and memory figures are kept as they were.
    assert.equal(noop.in_site.homepage!.ttfb_delta_ms, -2);
    const work = memberCounted('plugin:work', { alone: all(f(1, 0, 0)), in_site: all(f(1, 0, 0)) }, counts);
    assert.equal(work.in_site.activation!.instructions_delta, 2_860_250);
  });
  it('a context without figures, or a configuration not counted there, stays without a count', () => {
    const partial: SiteCounts = { ...counts, 'without:plugin:noop': { homepage: [44_980_000, 44_980_100] } };
    const noop = memberCounted('plugin:noop', { alone: { ...all(f(1, 0, 0)), admin: null }, in_site: all(f(1, 0, 0)) }, partial);
    assert.equal(noop.in_site.activation!.instructions_delta, undefined);
    assert.equal(typeof noop.in_site.homepage!.instructions_delta, 'number');
    assert.equal(noop.alone.admin, null);
    assert.equal(siteCounted(all(f(5, 100, 1)), {}).homepage!.instructions_delta, undefined);
    assert.equal(siteCounted(all(f(5, 100, 1)), counts).homepage!.instructions_delta, 45_000_500 - 40_001_950);
  });
  it('the sum of the parts adds the counts where every part has one (spread: root of the squares)', () => {
    const parts = ['noop', 'work'].map((s) => memberCounted(`plugin:${s}`, { alone: all(f(1, 0, 0)), in_site: all(f(1, 0, 0)) }, counts).alone);
    const sum = sumCounted(all(f(2, 0, 0)), parts);
    assert.equal(sum.homepage!.instructions_delta, 29_150 + 2_878_100);
    assert.equal(sum.homepage!.spread!.instructions, Math.round(Math.hypot(3_900, 3_900)));
    const noCount = sumCounted(all(f(2, 0, 0)), [...parts, all(f(1, 0, 0))]);
    assert.equal(noCount.homepage!.instructions_delta, undefined, 'one part without a count: no sum of counts');
  });
  it('two counts agree within 0.05 % of the request; a configuration doing time-based work does not', () => {
    assert.equal(settled([45_000_000, 45_004_000]), true);
    assert.equal(settled([45_000_000, 45_100_000]), false);
    assert.equal(settled([]), false);
  });
  it('within noise: inside the larger range or under the floor (a plugin that does nothing); a loop is not', () => {
    const noop = memberCounted('plugin:noop', { alone: all(f(3, 0, 0)), in_site: all(f(-2, 0, 0)) }, counts);
    assert.equal(countInNoise(noop.in_site.homepage!), true);
    assert.equal(countInNoise({ ...f(0, 0, 0), instructions_delta: INSTRUCTIONS_FLOOR + 1 }), false);
    assert.equal(countInNoise({ ...f(0, 0, 0), instructions_delta: -150_000, spread: { ttfb_ms: 1, memory_kb: 0, queries: 0, instructions: 200_000 } }), true);
    assert.equal(countInNoise(f(0, 0, 0)), undefined);
  });
});

function record(): SiteRecord {
  const noop = memberCounted('plugin:noop', { alone: all(f(3, 0, 0)), in_site: all(f(-2, 0, 0)) }, counts);
  const work = memberCounted('plugin:work', { alone: all(f(1, 0, 0)), in_site: all(f(1, 0, 0)) }, counts);
  return {
    source: 'local',
    site: { contexts: siteCounted(all(f(9, 0, 0)), counts) },
    components: [
      { kind: 'plugin', slug: 'work', name: 'Work', alone: { contexts: work.alone }, in_site: { contexts: work.in_site }, left_out: null },
      { kind: 'plugin', slug: 'noop', name: 'No-op', alone: { contexts: noop.alone }, in_site: { contexts: noop.in_site }, left_out: null },
    ],
    sum_of_alone: { contexts: sumCounted(all(f(4, 0, 0)), [noop.alone, work.alone]) },
    drop_ins_left_out: [],
    instructions_varying: [{ config: 'alone:plugin:work', context: 'homepage', counts: [42_880_000, 43_100_000] }],
    local: { database: null, theme: null, wordpress: '6.1.9', php: '8.2.36', runtime: 'php', rounds: 5, configurations: 6, duration_s: 60, instructions: { counter: 'callgrind', opcache: 'warm', clock: 'set', rounds: 2 } },
  };
}

describe('--site --instructions: how the reports say it', () => {
  it('the table: a loop in M instr, a plugin that does nothing within noise, the varying configuration named, the footnote', () => {
    const t = siteTable(record());
    assert.match(t, /\+2\.86 M instr/);
    assert.match(t, /±19\.4 K instr \(within noise\)/);
    assert.doesNotMatch(t, /\+19\.4 K instr/);
    assert.match(t, /alone:plugin:work, homepage: 42\.9 M instr – 43\.1 M instr/);
    assert.match(t, /instr: CPU instructions PHP executes per request/);
    // The stack as it runs minus the sum of the parts, in counts too (5.00 M − 2.91 M); its spread the two figures'
    // as independent errors (2 ms and 2 ms: 2.8 ms), so 5 ms is outside it and 0 KB within.
    assert.match(t, /\+5\.0 ms · 0 KB \(within noise\) · 0 q · \+2\.09 M instr/);
  });
  it('markdown and the editor say it too; a record without counts says nothing of them', () => {
    assert.match(siteMarkdown(record()), /\+2\.86 M instr/);
    assert.match(figuresText(record().components[1].in_site!.contexts.admin), /±19\.4 K instr \(within noise\)/);
    const plain = { ...record(), instructions_varying: undefined, local: { ...record().local, instructions: undefined } };
    assert.doesNotMatch(siteTable({ ...plain, components: [], site: { contexts: all(f(1, 0, 0)) }, sum_of_alone: { contexts: all(null) } }), /instr/);
  });
  it('the stack minus the sum of the parts is said within noise when inside the two figures\' spreads (a real site read "+64.4 ms" of noise)', () => {
    const spread = { ttfb_ms: 30, memory_kb: 0, queries: 0 };
    const d = figuresDifference({ ttfb_delta_ms: 30, memory_delta_kb: 3000, queries_delta: 3, spread }, { ttfb_delta_ms: 5, memory_delta_kb: 6000, queries_delta: 6, spread });
    assert.equal(figuresCell(d), '±25.0 ms (within noise) · -3,000 KB · -3 q');
    assert.equal(figuresDifference(f(1, 0, 0), { ttfb_delta_ms: 1, memory_delta_kb: 0, queries_delta: 0 })!.spread, undefined, 'no spread without both');
  });
  it('Markdown and HTML mark what the table marks: the varying and the state-dependent configurations', () => {
    const r = { ...record(), state_dependent: [{ config: 'alone:plugin:noop', context: 'homepage' as const, queries: [42, 47] as [number, number], memory_kb: [100, 100] as [number, number] }] };
    for (const text of [siteMarkdown(r), siteHtml(r)]) {
      assert.match(text, /alone:plugin:noop, homepage: 42–47 queries/);
      assert.match(text, /alone:plugin:work, homepage: 42\.9 M instr – 43\.1 M instr/);
      assert.match(text, /State-dependent/);
    }
  });
  it('merge: the shards\' sum of the parts keeps the counts and the varying configurations', () => {
    const r = record();
    const s1: SiteRecord = { ...r, components: [r.components[0], { ...r.components[1], alone: null, in_site: null, note: 'measured in another shard of 2', other_shard: true }], local: { ...r.local, shard: { k: 1, n: 2 } } };
    const s2: SiteRecord = { ...r, instructions_varying: undefined, components: [{ ...r.components[0], alone: null, in_site: null, note: 'measured in another shard of 2', other_shard: true }, r.components[1]], local: { ...r.local, shard: { k: 2, n: 2 } } };
    const m = mergeSiteRecords([s1, s2]);
    assert.equal(m.sum_of_alone.contexts.homepage!.instructions_delta, 29_150 + 2_878_100);
    assert.equal(m.instructions_varying?.length, 1);
    assert.equal(m.local.instructions?.rounds, 2);
  });
});
