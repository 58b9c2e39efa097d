import * as assert from 'node:assert/strict';
import { parseRecord } from '../../../../src/core/api/record';
import { CONTEXTS, apiTime, buildRecord, contextFigures, contextSpread, databaseErrors, estimateGrade, iqr, median, quantile, sideOrder, type ContextSamples, type Sample } from '../../../../src/core/measure/record/method';

const s = (ttfbMs: number, memoryBytes: number, queries: number): Sample => ({ ttfbMs, memoryBytes, queries });

describe('measure method: medians, deltas, spread', () => {
  it('median of odd and even counts, unsorted input left untouched', () => {
    const xs = [5, 1, 3];
    assert.equal(median(xs), 3);
    assert.deepEqual(xs, [5, 1, 3]);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.equal(median([7]), 7);
    assert.throws(() => median([]));
  });

  it('quantiles interpolate between ranks; IQR', () => {
    assert.equal(quantile([1, 2, 3, 4, 5], 0.25), 2);
    assert.equal(quantile([1, 2, 3, 4], 0.5), 2.5);
    assert.equal(iqr([1, 2, 3, 4, 5]), 2);
    assert.equal(iqr([9, 9, 9]), 0);
  });

  it('the figure is the delta of the medians, not the median of deltas, in the API units', () => {
    const samples: ContextSamples = {
      baseline: [s(20, 4_000_000, 10), s(22, 4_000_000, 10), s(100, 4_000_000, 10)],
      measured: [s(30, 4_000_000 + 2048 * 1024, 13), s(31, 4_000_000 + 2048 * 1024, 13), s(29, 4_000_000 + 2048 * 1024, 13)],
    };
    assert.deepEqual(contextFigures(samples), { ttfb_delta_ms: 8, memory_delta_kb: 2048, queries_delta: 3 });
  });

  it('an outlier request does not move the figure (medians)', () => {
    const base = [s(20, 1000, 5), s(20, 1000, 5), s(20, 1000, 5), s(20, 1000, 5), s(20, 1000, 5)];
    const meas = [s(25, 1000, 5), s(25, 1000, 5), s(2500, 1000, 5), s(25, 1000, 5), s(25, 1000, 5)];
    assert.equal(contextFigures({ baseline: base, measured: meas }).ttfb_delta_ms, 5);
  });

  it('negative deltas stay negative (a component can make a request cheaper)', () => {
    const f = contextFigures({ baseline: [s(30, 10 * 1024, 8)], measured: [s(28, 9 * 1024, 7)] });
    assert.deepEqual(f, { ttfb_delta_ms: -2, memory_delta_kb: -1, queries_delta: -1 });
  });

  it('spread is the IQR of paired per-round differences', () => {
    const sp = contextSpread({
      baseline: [s(10, 0, 1), s(10, 0, 1), s(10, 0, 1), s(10, 0, 1), s(10, 0, 1)],
      measured: [s(11, 1024, 1), s(12, 1024, 1), s(13, 1024, 1), s(14, 1024, 1), s(15, 1024, 1)],
    });
    assert.deepEqual(sp, { ttfb_ms: 2, memory_kb: 0, queries: 0 });
  });

  it('no samples is an error, never a zero', () => {
    assert.throws(() => contextFigures({ baseline: [], measured: [s(1, 1, 1)] }));
  });
});

describe('measure method: estimated grade', () => {
  const g = (memory_delta_kb: number, queries_delta: number) => estimateGrade({ ttfb_delta_ms: 0, memory_delta_kb, queries_delta })!;
  it('A is the API\'s fixed point: ≤ 8 MB and ≤ 4 queries', () => {
    assert.equal(g(0, 0).grade, 'A');
    assert.equal(g(8 * 1024, 4).grade, 'A');
    assert.equal(g(-500, -2).grade, 'A');
  });
  it('each doubling past A is one letter; the worse of memory and queries decides', () => {
    assert.equal(g(8 * 1024 + 1, 0).grade, 'B');
    assert.equal(g(16 * 1024, 0).grade, 'B');
    assert.equal(g(0, 5).grade, 'B');
    assert.equal(g(32 * 1024, 0).grade, 'C');
    assert.equal(g(0, 32).grade, 'D');
    assert.equal(g(100 * 1024, 0).grade, 'E');
    assert.equal(g(1024 * 1024, 1000).grade, 'F');
    assert.equal(g(1024, 17).grade, 'D');
  });
  it('numeric falls with cost, 90 or more for A, and is always labelled estimated', () => {
    assert.ok(g(0, 0).numeric >= 90 && g(8 * 1024, 4).numeric === 90);
    assert.ok(g(16 * 1024, 0).numeric < g(9 * 1024, 0).numeric);
    assert.ok(g(1e9, 0).numeric >= 0);
    assert.equal(g(0, 0).estimated, true);
  });
  it('no activation figures, no grade', () => {
    assert.equal(estimateGrade(null), null);
  });
});

describe('measure method: the record', () => {
  const samples: ContextSamples = { baseline: [s(20, 4 << 20, 10)], measured: [s(25, (4 << 20) + 1024 * 1024, 12)] };
  const local = { runtime: 'php', wordpress_version: '6.1.9', php_version: '8.2.36', rounds: 1, warmup_rounds: 2, baseline_theme: 'x', activation_hook: null, duration_s: 3 };
  const rec = buildRecord(
    { slug: 'my-plugin', kind: 'plugin', name: 'My Plugin', version: '1.2' },
    { activation: samples, homepage: samples, admin: { reason: 'PHP fatal error', status: 500, php_error: 'Uncaught Error: boom' } },
    local,
    new Date('2026-01-02T03:04:05Z'),
  );

  it('has the API\'s fields plus source "local" and the local object', () => {
    assert.equal(rec.benchmarked, true);
    assert.equal(rec.type, 'plugin');
    assert.equal(rec.benchmarked_at, '2026-01-02 03:04:05');
    assert.equal(rec.source, 'local');
    assert.deepEqual(rec.contexts.activation, { ttfb_delta_ms: 5, memory_delta_kb: 1024, queries_delta: 2 });
    assert.deepEqual(Object.keys(rec.contexts), [...CONTEXTS]);
    assert.equal(rec.local.rounds, 1);
    assert.deepEqual(rec.local.baseline.activation, { ttfb_ms: 20, memory_kb: 4096, queries: 10 });
    assert.match(rec.local.grade_scale, /estimated/);
  });

  it('a null context carries its reason and PHP error text; its spread is null too', () => {
    assert.equal(rec.contexts.admin, null);
    assert.deepEqual(rec.local.null_reasons.admin, { reason: 'PHP fatal error', status: 500, php_error: 'Uncaught Error: boom' });
    assert.equal(rec.local.spread.admin, null);
    assert.equal(rec.local.null_reasons.homepage, undefined);
  });

  it('reads back through the API record parser (the extension can show it like an API answer)', () => {
    const parsed = parseRecord(JSON.parse(JSON.stringify(rec)), 'plugin', 'my-plugin');
    assert.equal(parsed.state, 'benchmarked');
    assert.equal(parsed.record.contexts.admin, null);
    assert.equal(parsed.record.contexts.homepage?.memoryDeltaKb, 1024);
  });

  it('without an activation figure, speed_score is null: no grade is made up', () => {
    const r = buildRecord({ slug: 'a', kind: 'theme', name: 'A', version: null }, { activation: { reason: 'x' }, homepage: samples, admin: samples }, local, new Date());
    assert.equal(r.speed_score, null);
    assert.equal(r.type, 'theme');
  });

  it('apiTime is UTC YYYY-MM-DD HH:MM:SS', () => {
    assert.equal(apiTime(new Date('2026-11-25T10:00:09.999Z')), '2026-11-25 10:00:09');
  });
});

describe('sideOrder: a balanced order of the sides', () => {
  it('three sides: over six rounds each comes first twice and directly follows each other side twice', () => {
    const sides = ['baseline', 'measured', 'ref'] as const;
    const first = new Map<string, number>();
    const follows = new Map<string, number>();
    for (let r = 0; r < 6; r++) {
      const o = sideOrder(sides, r);
      assert.deepEqual([...o].sort(), [...sides].sort(), `round ${r} holds every side once`);
      first.set(o[0], (first.get(o[0]) ?? 0) + 1);
      for (let i = 1; i < o.length; i++) follows.set(`${o[i - 1]}>${o[i]}`, (follows.get(`${o[i - 1]}>${o[i]}`) ?? 0) + 1);
    }
    assert.deepEqual([...first.values()], [2, 2, 2]);
    assert.equal(follows.size, 6, 'every ordered pair occurs');
    for (const [pair, n] of follows) assert.equal(n, 2, pair);
  });

  it('the old rotation fails that test (the check can fail): measured always followed baseline', () => {
    const rotation = (sides: readonly string[], r: number) => sides.map((_, i) => sides[(i + r) % sides.length]);
    const pairs = new Set<string>();
    for (let r = 0; r < 6; r++) {
      const o = rotation(['baseline', 'measured', 'ref'], r);
      for (let i = 1; i < o.length; i++) pairs.add(`${o[i - 1]}>${o[i]}`);
    }
    assert.equal(pairs.has('measured>baseline'), false);
    assert.equal(pairs.size, 3);
  });

  it('two sides alternate who goes first; rounds past the cycle repeat it; the warm-up offset is harmless', () => {
    assert.deepEqual(sideOrder(['b', 'm'], 0), ['b', 'm']);
    assert.deepEqual(sideOrder(['b', 'm'], 1), ['m', 'b']);
    assert.deepEqual(sideOrder(['a', 'b', 'c'], 7), sideOrder(['a', 'b', 'c'], 1));
    assert.notDeepEqual(sideOrder(['a', 'b', 'c'], 0)[0], sideOrder(['a', 'b', 'c'], 1)[0]);
  });
});

describe('databaseErrors: errors the clean site has not', () => {
  const e = (dbErrors: number, dbError: string | null = null): Sample => ({ ttfbMs: 1, memoryBytes: 1, queries: 1, dbErrors, dbError });
  it('marks a context whose measured side fails queries the baseline does not, with an example', () => {
    const r = databaseErrors({ baseline: [e(0), e(0), e(0)], measured: [e(12, "Table 'wp_yoast_indexable' doesn't exist"), e(12), e(12)] });
    assert.deepEqual(r, { per_request: 12, baseline_per_request: 0, example: "Table 'wp_yoast_indexable' doesn't exist" });
  });
  it('errors both sides share (WordPress itself) are no mark; none at all is none', () => {
    assert.equal(databaseErrors({ baseline: [e(1), e(1)], measured: [e(1), e(1)] }), null);
    assert.equal(databaseErrors({ baseline: [s(1, 1, 1)], measured: [s(1, 1, 1)] }), null);
  });
  it('buildRecord: a marked context takes the grade away and is listed in local.database_errors', () => {
    const ok = { baseline: [e(0)], measured: [e(0)] };
    const bad = { baseline: [e(0)], measured: [e(3, 'no such table')] };
    const local = { runtime: 'php', wordpress_version: '6.1.9', php_version: '8.2', rounds: 1, warmup_rounds: 0, baseline_theme: 't', activation_hook: null, duration_s: 1 };
    const r = buildRecord({ slug: 'x', kind: 'plugin', name: 'X', version: null }, { activation: ok, homepage: bad, admin: ok }, local, new Date(0));
    assert.deepEqual(Object.keys(r.local.database_errors ?? {}), ['homepage']);
    assert.equal(r.speed_score, null);
    const clean = buildRecord({ slug: 'x', kind: 'plugin', name: 'X', version: null }, { activation: ok, homepage: ok, admin: ok }, local, new Date(0));
    assert.equal(clean.speed_score?.grade, 'A');
  });
});
