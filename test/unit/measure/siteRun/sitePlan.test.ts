// measure --site: the configurations of a stack and the arithmetic over their medians.
import * as assert from 'node:assert/strict';
import type { Sample } from '../../../../src/core/measure/record/method';
import { configOrder, dropSettling, inNoise, siteArithmetic, siteConfigs, stateDependent, ttfbSettled, type SiteSamples } from '../../../../src/core/measure/siteRun/sitePlan';

const s = (ttfbMs: number, kb: number, queries: number): Sample => ({ ttfbMs, memoryBytes: kb * 1024, queries });
/** The three figures, without their spread (tested apart below). */
const figures = (f: { ttfb_delta_ms: number; memory_delta_kb: number; queries_delta: number } | null) => (f ? { ttfb_delta_ms: f.ttfb_delta_ms, memory_delta_kb: f.memory_delta_kb, queries_delta: f.queries_delta } : f);
const all = (ttfb: number, kb: number, q: number) => ({ activation: [s(ttfb, kb, q)], homepage: [s(ttfb, kb, q)], admin: [s(ttfb, kb, q)] });

describe('measure --site: configurations and arithmetic', () => {
  it('the clean site, the stack, and each member alone and without it (a theme: with the baseline theme instead)', () => {
    const c = siteConfigs([{ slug: 'a', target: 'a/a.php' }, { slug: 'b', target: 'b.php' }], { slug: 'child', stylesheet: 'child', template: 'parent' }, 'twentytwentythree', [{ slug: 'loader', only: 'wpbench-mu-only-0', without: 'wpbench-mu-without-0' }]);
    assert.deepEqual(
      c.map((x) => [x.id, x.plugins.join('+'), x.theme.join('/'), x.mu]),
      [
        ['clean', '', 'twentytwentythree/twentytwentythree', 'wpbench-mu-none'],
        ['stack', 'a/a.php+b.php', 'child/parent', 'mu-plugins'],
        ['alone:plugin:a', 'a/a.php', 'twentytwentythree/twentytwentythree', 'wpbench-mu-none'],
        ['without:plugin:a', 'b.php', 'child/parent', 'mu-plugins'],
        ['alone:plugin:b', 'b.php', 'twentytwentythree/twentytwentythree', 'wpbench-mu-none'],
        ['without:plugin:b', 'a/a.php', 'child/parent', 'mu-plugins'],
        // A must-use plugin: alone from a folder holding it only; the stack without it from one holding the others.
        ['alone:mu:loader', '', 'twentytwentythree/twentytwentythree', 'wpbench-mu-only-0'],
        ['without:mu:loader', 'a/a.php+b.php', 'child/parent', 'wpbench-mu-without-0'],
        ['alone:theme:child', '', 'child/parent', 'wpbench-mu-none'],
        ['without:theme:child', 'a/a.php+b.php', 'twentytwentythree/twentytwentythree', 'mu-plugins'],
      ],
    );
    assert.equal(siteConfigs([], null, 'base').length, 2, 'no member: the clean site and the stack (the same)');
  });

  it('rotates the order round by round, every configuration once per round', () => {
    const ids = ['a', 'b', 'c'];
    assert.deepEqual([0, 1, 2, 3].map((r) => configOrder(ids, r).join('')), ['abc', 'bca', 'cab', 'abc']);
    assert.deepEqual(configOrder([], 5), []);
  });

  it('two plugins sharing a library: each adds nothing in the site, costs the library alone; the sum of the parts counts it twice', () => {
    // clean 2,000 KB/20 q; the library 3,072 KB/3 q once; solo 1,024 KB/2 q.
    const samples: SiteSamples = {
      clean: all(20, 2000, 20),
      stack: all(30, 2000 + 3072 + 1024, 25),
      'alone:plugin:a': all(24, 2000 + 3072, 23),
      'alone:plugin:b': all(24, 2000 + 3072, 23),
      'alone:plugin:solo': all(22, 2000 + 1024, 22),
      'without:plugin:a': all(30, 2000 + 3072 + 1024, 25),
      'without:plugin:b': all(30, 2000 + 3072 + 1024, 25),
      'without:plugin:solo': all(27, 2000 + 3072, 23),
    };
    const r = siteArithmetic(samples, ['plugin:a', 'plugin:b', 'plugin:solo']);
    assert.deepEqual(figures(r.site.homepage), { ttfb_delta_ms: 10, memory_delta_kb: 4096, queries_delta: 5 });
    assert.deepEqual(figures(r.components['plugin:a'].in_site.homepage), { ttfb_delta_ms: 0, memory_delta_kb: 0, queries_delta: 0 });
    assert.deepEqual(figures(r.components['plugin:a'].alone.homepage), { ttfb_delta_ms: 4, memory_delta_kb: 3072, queries_delta: 3 });
    assert.deepEqual(figures(r.components['plugin:solo'].in_site.admin), { ttfb_delta_ms: 3, memory_delta_kb: 1024, queries_delta: 2 });
    assert.deepEqual(figures(r.sum_of_alone.homepage), { ttfb_delta_ms: 10, memory_delta_kb: 7168, queries_delta: 8 });
    assert.ok(Object.is(r.components['plugin:b'].in_site.admin!.memory_delta_kb, 0), 'never -0');
  });

  it('the sum of the parts adds the alones measured and names those it could not count', () => {
    const samples: SiteSamples = {
      clean: all(10, 100, 1),
      stack: all(20, 400, 4),
      'alone:plugin:a': all(15, 300, 3),
      'alone:mu:needs-a': { activation: [s(11, 110, 1)] },
      'without:plugin:a': all(12, 200, 2),
      'without:mu:needs-a': all(19, 390, 4),
    };
    const r = siteArithmetic(samples, ['plugin:a', 'mu:needs-a']);
    assert.deepEqual(figures(r.sum_of_alone.homepage), { ttfb_delta_ms: 5, memory_delta_kb: 200, queries_delta: 2 }, 'a alone only');
    assert.deepEqual(r.not_counted.homepage, ['mu:needs-a']);
    assert.deepEqual(figures(r.sum_of_alone.activation), { ttfb_delta_ms: 6, memory_delta_kb: 210, queries_delta: 2 });
    assert.deepEqual(r.not_counted.activation, []);
  });

  it('medians of the rounds; a context a configuration has no samples in is null, and so is the sum there', () => {
    const samples: SiteSamples = {
      clean: { homepage: [s(10, 100, 1), s(12, 100, 1), s(50, 100, 1)] },
      stack: { homepage: [s(20, 300, 3), s(21, 300, 3), s(22, 300, 3)] },
      'alone:plugin:a': { homepage: [s(15, 300, 3)] },
      'without:plugin:a': { homepage: [s(12, 100, 1)] },
    };
    const r = siteArithmetic(samples, ['plugin:a']);
    assert.deepEqual(figures(r.site.homepage), { ttfb_delta_ms: 9, memory_delta_kb: 200, queries_delta: 2 });
    assert.equal(r.site.admin, null);
    assert.equal(r.components['plugin:a'].alone.activation, null);
    assert.equal(r.sum_of_alone.admin, null);
    assert.deepEqual(siteArithmetic(samples, []).sum_of_alone.homepage, null, 'no member: nothing to sum');
  });
});

describe('stateDependent: a configuration whose exact figures move between rounds is named (issue 38)', () => {
  const s = (queries: number, kb: number): Sample => ({ ttfbMs: 5 + queries / 10, memoryBytes: kb * 1024, queries });
  it('names a configuration whose queries differ between rounds, or whose memory moves more than 64 KB; TTFB alone never counts', () => {
    const samples: SiteSamples = {
      clean: { homepage: [s(20, 2500), s(20, 2500), s(20, 2500)] },
      stack: { homepage: [s(70, 6000), s(70, 6010), s(70, 6000)], admin: [s(90, 7000), s(90, 7000), s(90, 7200)] },
      'without:plugin:akismet': { homepage: [s(69, 5900), s(113, 5900), s(69, 5900)] },
    };
    assert.deepEqual(stateDependent(samples), [
      { config: 'stack', context: 'admin', queries: [90, 90], memory_kb: [7000, 7200] },
      { config: 'without:plugin:akismet', context: 'homepage', queries: [69, 113], memory_kb: [5900, 5900] },
    ]);
  });
  it('what clean WordPress varies by itself (a core transient expiring) is everyone\'s: only variation beyond it names a configuration', () => {
    const samples: SiteSamples = {
      clean: { homepage: [s(20, 2500), s(35, 2500), s(20, 2500)] },
      stack: { homepage: [s(70, 6000), s(85, 6000), s(70, 6000)] },
      'without:plugin:a': { homepage: [s(60, 5000), s(75, 5000), s(99, 5000)] },
    };
    assert.deepEqual(stateDependent(samples).map((d) => d.config), ['clean', 'without:plugin:a']);
  });
  it('the stack without a member is judged against the stack: its plugins\' periodic work (a transient every minute) names the stack once, not each of them', () => {
    const samples: SiteSamples = {
      clean: { admin: [s(40, 2500), s(40, 2500), s(40, 2500)] },
      stack: { admin: [s(364, 16000), s(368, 16000), s(364, 16000)] },
      'without:plugin:a': { admin: [s(360, 15000), s(360, 15000), s(364, 15000)] },
      'without:plugin:b': { admin: [s(350, 15000), s(362, 15000), s(350, 15000)] },
      'alone:plugin:a': { admin: [s(44, 3000), s(48, 3000), s(44, 3000)] },
    };
    assert.deepEqual(stateDependent(samples).map((d) => d.config), ['stack', 'without:plugin:b', 'alone:plugin:a']);
  });
  it('a single sample per context says nothing either way', () => {
    assert.deepEqual(stateDependent({ stack: { homepage: [s(70, 6000)] } }), []);
  });
});

describe('the spread of every site figure, and what reads "within noise" (issue 38)', () => {
  it('a difference carries the IQR of its round-by-round differences; the sum of the parts, the root of the squares', () => {
    const samples: SiteSamples = {
      clean: { homepage: [s(10, 2000, 20), s(12, 2000, 20), s(11, 2000, 20), s(30, 2000, 20)] },
      stack: { homepage: [s(15, 3000, 22), s(16, 3000, 22), s(17, 3000, 22), s(31, 3000, 22)] },
      'alone:plugin:a': { homepage: [s(13, 2500, 21), s(13, 2500, 21), s(14, 2500, 21), s(30, 2500, 21)] },
      'without:plugin:a': { homepage: [s(12, 2500, 21), s(15, 2500, 21), s(16, 2500, 21), s(31, 2500, 21)] },
    };
    const r = siteArithmetic(samples, ['plugin:a']);
    // stack − clean per round: 5, 4, 6, 1 → quartiles 3.25 and 5.25 (linear interpolation) → 2 ms
    // and the median's 95 % interval (issue 45): n = 4, the smallest and the largest difference
    assert.deepEqual(r.site.homepage!.spread, { ttfb_ms: 2, memory_kb: 0, queries: 0, ttfb_interval_ms: [1, 6] });
    // stack − without: 3, 1, 1, 0 → quartiles 0.75 and 1.5 → 0.8 ms
    assert.equal(r.components["plugin:a"].in_site.homepage!.spread!.ttfb_ms, 0.8);
    assert.equal(r.sum_of_alone.homepage!.spread!.ttfb_ms, r.components['plugin:a'].alone.homepage!.spread!.ttfb_ms);
  });
  it('configurations asked in different rounds (a settled TTFB stops early; the stack asked twice a round) pair by round: the first ask of each round both were asked in', () => {
    const r = (round: number, ttfbMs: number) => ({ ttfbMs, memoryBytes: 3000 * 1024, queries: 22, round });
    const samples: SiteSamples = {
      clean: { homepage: [r(1, 10), r(2, 10), r(3, 10), r(4, 10)] },
      // drift: the stack and the member move together from round to round; the stack's second ask in a round is ignored
      stack: { homepage: [r(1, 20), r(1, 90), r(2, 30), r(3, 40), r(3, 95), r(4, 50)] },
      'without:plugin:a': { homepage: [r(1, 15), r(2, 25), r(3, 35)] },
      'alone:plugin:a': { homepage: [r(1, 11), r(2, 11), r(3, 11)] },
    };
    const a = siteArithmetic(samples, ['plugin:a']);
    // rounds 1–3 paired: 20−15, 30−25, 40−35 → every difference 5 → no spread (unpaired: the two IQRs, tens of ms)
    assert.equal(a.components['plugin:a'].in_site.homepage!.spread!.ttfb_ms, 0);
  });
  it('inNoise: inside the spread or the floor (1 ms, 16 KB); queries only when they vary at all; no spread, never', () => {
    assert.deepEqual(inNoise({ ttfb_delta_ms: 1.5, memory_delta_kb: 12, queries_delta: 0, spread: { ttfb_ms: 1.8, memory_kb: 0, queries: 0 } }), { ttfb: true, memory: true, queries: false });
    assert.deepEqual(inNoise({ ttfb_delta_ms: -2.5, memory_delta_kb: 400, queries_delta: 3, spread: { ttfb_ms: 1.8, memory_kb: 100, queries: 4 } }), { ttfb: false, memory: false, queries: true });
    assert.deepEqual(inNoise({ ttfb_delta_ms: 0.1, memory_delta_kb: 1, queries_delta: 0 }), { ttfb: false, memory: false, queries: false });
  });
});

describe('ttfbSettled: a configuration asked again only while its TTFB median is unsettled', () => {
  it('never before the minimum of rounds, however alike the times', () => {
    assert.equal(ttfbSettled([50, 50]), false);
    assert.equal(ttfbSettled([50, 50, 50], 4), false);
    assert.equal(ttfbSettled([50, 50, 50, 50], 4), true);
  });
  it('settled when the median\'s 95 % interval is within 3 % of it: 100 ms ± 1 ms over three rounds', () => {
    // MAD 1 → half-width 1.96 × 1.2533 × 1.4826 × 1 / √3 ≈ 2.1 ms ≤ 3 ms
    assert.equal(ttfbSettled([99, 100, 101]), true);
  });
  it('not settled when the spread is wide for the median: 100 ms ± 5 ms over three, settled with more rounds that agree', () => {
    assert.equal(ttfbSettled([95, 100, 105]), false);
    assert.equal(ttfbSettled([95, 100, 105, 100, 100, 101, 99, 100, 100]), true);
  });
  it('a small median is settled within the 1 ms noise floor, not 3 % of it', () => {
    // 10 ms ± 0.4: half-width ≈ 0.84 ms, over 3 % (0.3 ms) but under the floor
    assert.equal(ttfbSettled([9.6, 10, 10.4]), true);
    assert.equal(ttfbSettled([8, 10, 12]), false);
  });
});

describe('dropSettling: a first measured round of one-time work counts as warm-up', () => {
  const s = (queries: number, kb: number): Sample => ({ ttfbMs: 10, memoryBytes: kb * 1024, queries });
  it('takes out the first round when it differs and the later rounds agree', () => {
    const samples: SiteSamples = { 'without:plugin:a': { admin: [s(142, 8939), s(110, 5992), s(110, 5992), s(110, 6000)] } };
    assert.deepEqual(dropSettling(samples), ['without:plugin:a admin']);
    assert.deepEqual(samples['without:plugin:a'].admin!.map((x) => x.queries), [110, 110, 110]);
  });
  it('keeps every round when the later ones disagree too (state-dependent, named by stateDependent), when the first agrees, or with fewer than three', () => {
    const samples: SiteSamples = {
      moving: { admin: [s(142, 8939), s(110, 5992), s(120, 5992)] },
      steady: { admin: [s(110, 5992), s(110, 5992), s(110, 5992)] },
      short: { admin: [s(142, 8939), s(110, 5992)] },
    };
    assert.deepEqual(dropSettling(samples), []);
    assert.equal(samples.moving.admin!.length, 3);
    assert.equal(samples.short.admin!.length, 2);
  });
});
