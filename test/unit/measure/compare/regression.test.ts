// The regression check's maths and reports: allowed increase (percent with a noise floor), ceilings, contexts that
// break, and the five report formats of `measure --baseline-ref` with hostile names.
import * as assert from 'node:assert/strict';
import { buildRecord, type ContextSamples, type LocalRecord, type Sample } from '../../../../src/core/measure/record/method';
import { NOISE_FLOOR, allowedIncrease, compareRecords, confirmWhenUndecided, isRegression, lowerBoundRank, pairedBound, pairedVerdict } from '../../../../src/core/measure/compare/regression';
import { measureTable, runMeasureCli } from '../../../../src/cli/measure';
import { PLAYGROUND_NOTE } from '../../../../src/core/measure/runtime/playgroundRuntime';
import { regressionHtml, regressionJson, regressionMarkdown, regressionSarif, regressionTable, type RegressionSubject } from '../../../../src/core/report/regressionFormats';

const s = (ttfbMs: number, memoryKb: number, queries: number): Sample => ({ ttfbMs, memoryBytes: memoryKb * 1024, queries });
const base = [s(40, 4000, 10), s(41, 4000, 10), s(39, 4000, 10)];

function record(name: string, ttfb: number, memKb: number, queries: number, admin: 'ok' | 'fatal' = 'ok'): LocalRecord {
  const m: ContextSamples = { baseline: base, measured: base.map((b) => s(b.ttfbMs + ttfb, b.memoryBytes / 1024 + memKb, b.queries + queries)) };
  return buildRecord(
    { slug: 'acme-plugin', kind: 'plugin', name, version: '1.0' },
    { activation: m, homepage: m, admin: admin === 'ok' ? m : { reason: 'PHP fatal error', status: 500, php_error: 'boom' } },
    { runtime: 'php', wordpress_version: '6.1.9', php_version: '8.2.7', rounds: 3, warmup_rounds: 1, baseline_theme: 'twentytwentythree', activation_hook: null, duration_s: 3 },
    new Date('2026-11-25T10:00:00Z'),
  );
}

describe('measure --baseline-ref: regression maths', () => {
  it('the allowed increase is the percentage of the baseline cost, never under the noise floor', () => {
    assert.equal(allowedIncrease(100, 'ttfbMs', 10), 10);
    assert.equal(allowedIncrease(1, 'ttfbMs', 10), NOISE_FLOOR.ttfbMs, 'a +0.3 ms on 1 ms is noise');
    assert.equal(allowedIncrease(-20, 'ttfbMs', 10), NOISE_FLOOR.ttfbMs, 'the magnitude of a negative cost');
    assert.equal(allowedIncrease(8, 'memoryMb', 10), 0.8);
    assert.equal(allowedIncrease(1, 'memoryMb', 10), NOISE_FLOOR.memoryMb);
    assert.equal(allowedIncrease(30, 'queries', 10), 3);
  });

  it('a regression is an increase above the allowed one; queries need one whole query more', () => {
    assert.equal(isRegression(1.3, 1, 'ttfbMs', 10), false);
    assert.equal(isRegression(110, 100, 'ttfbMs', 10), false, 'exactly at the limit passes');
    assert.equal(isRegression(110.1, 100, 'ttfbMs', 10), true);
    assert.equal(isRegression(1, 0, 'queries', 10), true, 'one query more than none');
    assert.equal(isRegression(33, 30, 'queries', 10), false);
    assert.equal(isRegression(34, 30, 'queries', 10), true);
    assert.equal(isRegression(10, 50, 'ttfbMs', 0), false, 'an improvement never fails');
    assert.equal(isRegression(1.2, 1, 'memoryMb', 10), false);
    assert.equal(isRegression(1.3, 1, 'memoryMb', 10), true);
    assert.equal(isRegression(108, 100, 'ttfbMs', 5, NOISE_FLOOR, 9), false, 'within the run\'s own noise (spread of its rounds)');
    assert.equal(isRegression(110, 100, 'ttfbMs', 5, NOISE_FLOOR, 9), true);
  });

  it('compareRecords: rows per context and metric, exceeded regressions and ceilings, broken contexts', () => {
    const before = record('Acme', 10, 1024, 2);
    const after = record('Acme', 30, 3072, 5, 'fatal');
    const r = compareRecords(after, before, { maxRegressionPercent: 10, ceilings: { homepage: { queries: 4 } } });
    assert.equal(r.rows.length, 9);
    const home = r.rows.filter((x) => x.context === 'homepage');
    assert.deepEqual(home.map((x) => [x.metric, x.baseline, x.current, x.difference, x.regression]), [
      ['ttfbMs', 10, 30, 20, true],
      ['memoryMb', 1, 3, 2, true],
      ['queries', 2, 5, 3, true],
    ]);
    assert.equal(home[0].percent, 200);
    assert.deepEqual(r.broken, [{ context: 'admin', reason: 'PHP fatal error' }]);
    assert.deepEqual(
      r.exceeded.map((e) => `${e.rule}:${e.context}:${e.metric ?? ''}`),
      ['regression:activation:ttfbMs', 'regression:activation:memoryMb', 'regression:activation:queries', 'regression:homepage:ttfbMs', 'regression:homepage:memoryMb', 'regression:homepage:queries', 'ceiling:homepage:queries', 'broken:admin:'],
    );
    const same = compareRecords(before, record('Acme', 10.4, 1100, 2), { maxRegressionPercent: 10, ceilings: {} });
    assert.deepEqual(same.exceeded, [], 'within noise');
    assert.equal(compareRecords(after, before, { maxRegressionPercent: 1000, ceilings: {} }).exceeded.length, 1, 'only the broken context');
  });
});

describe('measure --baseline-ref: reports', () => {
  const hostile = 'Evil <img src=x onerror=alert(1)> | [x](javascript:1) @admin';
  const subject = (): RegressionSubject => {
    const current = record(hostile, 30, 3072, 5);
    const baseline = record(hostile, 10, 1024, 2);
    return { ref: 'main', commit: 'a'.repeat(40), current, baseline, report: compareRecords(current, baseline, { maxRegressionPercent: 10, ceilings: {} }), mainFile: 'wp-content/plugins/acme plugin/acme.php' };
  };

  it('JSON: {current, baseline, exceeded} with both records in the measure --json shape', () => {
    const j = JSON.parse(regressionJson(subject()));
    assert.deepEqual(Object.keys(j).filter((k) => ['current', 'baseline', 'exceeded'].includes(k)), ['current', 'baseline', 'exceeded']);
    for (const r of [j.current, j.baseline]) {
      assert.equal(r.source, 'local');
      assert.equal(r.benchmarked, true);
      assert.ok(r.contexts.homepage && 'ttfb_delta_ms' in r.contexts.homepage);
      assert.ok(r.local.php_version);
    }
    assert.equal(j.passed, false);
    assert.equal(j.exceeded.length, 9);
  });

  it('Markdown escapes every string: no HTML, link, table cell or mention', () => {
    const md = regressionMarkdown(subject());
    assert.ok(!/(?<!\\)<img/.test(md));
    assert.ok(!/(?<!\\)\]\(javascript/.test(md), 'no link to javascript:');
    assert.ok(!/[^\\]@admin/.test(md));
    assert.match(md, /❌ performance regression/);
    for (const line of md.split('\n').filter((l) => l.startsWith('| homepage'))) assert.equal(line.split(/(?<!\\)\|/).length, 9, line);
  });

  it('SARIF points at the main plugin file; HTML is self-contained and escaped; the table says FAILED', () => {
    const sarif = JSON.parse(regressionSarif(subject(), '0.1.0'));
    const res = sarif.runs[0].results;
    assert.equal(res.length, 9);
    assert.equal(res[0].locations[0].physicalLocation.artifactLocation.uri, 'wp-content/plugins/acme%20plugin/acme.php');
    assert.equal(res[0].ruleId, 'performance-regression');
    assert.equal(sarif.runs[0].properties.passed, false);
    const html = regressionHtml(subject());
    assert.ok(!html.includes('<img'));
    assert.ok(!/<script|https?:\/\/(?!json)/.test(html.replace(/<meta[^>]*>/g, '')));
    assert.match(regressionTable(subject()), /FAILED: 9 budgets exceeded/);
    const ok = subject();
    ok.report = compareRecords(ok.baseline, ok.baseline, { maxRegressionPercent: 10, ceilings: {} });
    assert.match(regressionTable(ok), /PASSED/);
    assert.match(regressionMarkdown(ok), /✅ no performance regression/);
  });
});

describe('measure --baseline-ref --profile: every report says where a regression came from', () => {
  const prof = (ms: number, queries: number) => ({
    profiler: 'excimer 1.0.4',
    period_ms: 1,
    rounds: 9,
    contexts: {
      activation: { functions: [], sampled_ms: 40, component_ms: 0 },
      homepage: { functions: [{ function: 'Acme_Loader::boot', file: 'inc/loader.php', line: 42, ms, self_ms: ms, queries, hooks: ['init'] }, { function: 'acme_same', file: 'acme.php', line: 3, ms: 2, self_ms: 2, queries: 0, hooks: [] }], sampled_ms: 80, component_ms: ms },
      admin: null,
    },
  });
  it('table, JSON, Markdown, HTML and SARIF (at the function\'s line, beside the main file)', () => {
    const before = { ...record('Acme', 10, 1000, 2), profile: prof(12, 1) };
    const after = { ...record('Acme', 30, 1000, 2), profile: prof(30.2, 3) };
    const report = compareRecords(after, before, { maxRegressionPercent: 10, ceilings: {} });
    const subject: RegressionSubject = { ref: 'main', current: after, baseline: before, report, mainFile: 'wp-content/plugins/acme/acme.php' };
    const where = /\+18\.2 ms, \+2 queries in .?Acme_Loader::boot.? \(inc\/loader\.php:42, on init\)/;
    assert.match(regressionTable(subject), where);
    assert.match(regressionMarkdown(subject), /\*\*Where it came from\*\*/);
    assert.match(regressionMarkdown(subject), where);
    assert.match(regressionHtml(subject), /<h2>Where it came from<\/h2>/);
    const j = JSON.parse(regressionJson(subject));
    assert.equal(j.profile_diff.contexts.homepage[0].function, 'Acme_Loader::boot');
    assert.equal(j.profile_diff.contexts.homepage[0].ms_difference, 18.2);
    const sarif = JSON.parse(regressionSarif(subject));
    const src = sarif.runs[0].results.filter((r: { ruleId: string }) => r.ruleId === 'regression-source');
    assert.equal(src.length, 1);
    assert.deepEqual(src[0].locations[0].physicalLocation.artifactLocation.uri, 'wp-content/plugins/acme/inc/loader.php');
    assert.equal(src[0].locations[0].physicalLocation.region.startLine, 42);
    assert.equal(sarif.runs[0].properties.passed, false);
    // Without profiles: no such section anywhere, no profile_diff.
    const plain: RegressionSubject = { ref: 'main', current: record('Acme', 30, 1000, 2), baseline: record('Acme', 10, 1000, 2), report, mainFile: 'acme.php' };
    assert.doesNotMatch(regressionTable(plain) + regressionMarkdown(plain) + regressionHtml(plain), /Where it came from/);
    assert.equal(JSON.parse(regressionJson(plain)).profile_diff, undefined);
  });
});

describe('measure --baseline-ref: usage', () => {
  const cli = async (args: string[]) => {
    const err: string[] = [];
    const code = await runMeasureCli(args, { out: () => undefined, err: (t) => err.push(t), env: {}, cwd: process.cwd(), cacheDir: '/nonexistent-wpbench-cache' });
    return { code, err: err.join('\n') };
  };
  it('--format and --fail-on-regression need --baseline-ref; bad values are usage errors (exit 2) before anything runs', async () => {
    assert.match((await cli(['x', '--format', 'markdown'])).err, /need --baseline-ref/);
    assert.equal((await cli(['x', '--fail-on-regression', '5'])).code, 2);
    assert.match((await cli(['x', '--baseline-ref', 'HEAD', '--format', 'pdf'])).err, /--format must be one of/);
    assert.match((await cli(['x', '--baseline-ref', 'HEAD', '--fail-on-regression', '-1'])).err, /percentage/);
    assert.match((await cli(['x', '--baseline-ref', 'HEAD', '--json', '--format', 'sarif'])).err, /exclude each other/);
    const missing = await cli(['/nonexistent-wpbench-plugin', '--baseline-ref', 'HEAD']);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /does not exist/);
  });
});

describe('measure: the table says what it measured, in words that are true', () => {
  it('"1 query" for a one-query activation hook; the Playground note does not call memory comparable', () => {
    const r = record('Acme', 1, 10, 0);
    r.local.activation_hook = { time_ms: 1, memory_kb: 162, queries: 1, output_bytes: 0, error: null };
    r.local.runtime_note = PLAYGROUND_NOTE;
    const table = measureTable(r);
    assert.match(table, /Activation \(activate_plugin\(\), once; not in the figures above\): 1\.0 ms, 162 KB at its peak, 1 query\./);
    assert.doesNotMatch(table, /\b1 queries/);
    assert.match(table, /TTFB is less precise/);
    assert.match(table, /memory can read several hundred KB to a few MB higher/);
    assert.doesNotMatch(table, /memory and queries are comparable/);
    r.local.activation_hook = { ...r.local.activation_hook, queries: 2 };
    assert.match(measureTable(r), /, 2 queries\./);
  });
});

describe('measure --baseline-ref: TTFB on paired differences', () => {
  it('lowerBoundRank: the sign test order statistic (9 pairs: the 2nd smallest; 5: the smallest; never below 1)', () => {
    assert.equal(lowerBoundRank(9), 2);
    assert.equal(lowerBoundRank(5), 1);
    assert.equal(lowerBoundRank(3), 1);
    // 18 pairs (a confirmation pass): P(Bin(18, ½) ≤ 5) ≈ 4.8 % ≤ 5 %, P(≤ 6) ≈ 11.9 %: the 6th smallest
    assert.equal(lowerBoundRank(18), 6);
  });

  it('an unchanged plugin on a noisy machine: median within the allowance, no failure', () => {
    const noisy = [-14, 9, -3, 12, -8, 2, 15, -11, 4];
    assert.equal(pairedVerdict(noisy, 5).verdict, 'ok');
  });

  it('a clear +25 ms: the lower bound is over the allowance, a regression', () => {
    const v = pairedVerdict([31, 22, 27, 19, 40, 24, 26, 12, 29], 5);
    assert.equal(v.verdict, 'regression');
    assert.equal(v.bound.lower, 19);
  });

  it('over the allowance in the median but not in its bound: inconclusive, never a failure', () => {
    const v = pairedVerdict([-20, 3, 8, 9, 7, 30, -12, 6, 11], 5);
    assert.equal(v.verdict, 'inconclusive');
    assert.deepEqual(pairedBound([3, 1, 2]), { n: 3, median: 2, lower: 1, upper: 3 });
  });

  it('compareRecords with pairs: a fixed order bias of +12 ms in the medians does not fail when the pairs say noise', () => {
    // The records' medians differ by 12 ms (what a biased order produced); the paired differences are centred on 0.
    const before = record('Acme', 10, 1000, 2);
    const after = record('Acme', 22, 1000, 2);
    const without = compareRecords(after, before, { maxRegressionPercent: 10, ceilings: {} });
    assert.ok(without.exceeded.some((e) => e.metric === 'ttfbMs'), 'the median rule alone fails it');
    const paired = { activation: [1, -2, 0.5, 0, 1], homepage: [2, -1, 0, 0, -2], admin: [-1, 1, 0, 0, 1] };
    const r = compareRecords(after, before, { maxRegressionPercent: 10, ceilings: {} }, paired);
    assert.deepEqual(r.exceeded, []);
    assert.deepEqual(r.inconclusive, []);
    const row = r.rows.find((x) => x.context === 'homepage' && x.metric === 'ttfbMs')!;
    assert.deepEqual(row.paired, { n: 5, median: 0, lower: -2 });
    assert.equal(row.allowed, 5, 'the allowance is the percentage or the floor, not widened by the noise');
  });

  it('a difference of medians over the allowance that the pairs call noise says "within noise" in every format (not a bare "ok")', () => {
    const before = record('Acme', 10, 1000, 2);
    const after = record('Acme', 22, 1000, 2);
    const paired = { activation: [1, -2, 0.5, 0, 1], homepage: [2, -1, 0, 0, -2], admin: [-1, 1, 0, 0, 1] };
    const report = compareRecords(after, before, { maxRegressionPercent: 10, ceilings: {} }, paired);
    const subject: RegressionSubject = { ref: 'main', current: after, baseline: before, report };
    const table = regressionTable(subject);
    assert.match(table, /^homepage +TTFB +10\.0 ms +22\.0 ms +\+12\.0 ms \(\+120 %\) +\+5\.0 ms +ok \(within noise: request by request ±0\.0 ms, median of 5 paired rounds\)$/m);
    assert.match(regressionMarkdown(subject), /✅ ok \(within noise/);
    assert.match(regressionHtml(subject), /<td class="ok">ok \(within noise/);
    assert.match(table, /^homepage +memory +1000 KB +1000 KB +±0 KB \(0 %\) +\+256 KB +ok$/m, 'a difference inside the allowance stays a plain ok');
  });

  it('no percentage of a baseline inside the noise floor (identical code read "-2.5 -> 0.9 ms (+136 %)")', () => {
    const before = record('Acme', -2.5, 0, 0);
    const after = record('Acme', 0.9, 0, 0);
    const r = compareRecords(after, before, { maxRegressionPercent: 10, ceilings: {} });
    for (const row of r.rows) assert.equal(row.percent, null, `${row.context} ${row.metric}`);
    assert.doesNotMatch(regressionTable({ ref: 'main', current: after, baseline: before, report: r }), /%\)/);
    const big = compareRecords(record('Acme', 22, 4096, 12), record('Acme', 20, 4096, 10), { maxRegressionPercent: 10, ceilings: {} });
    assert.equal(big.rows.find((x) => x.context === 'homepage' && x.metric === 'ttfbMs')!.percent, 10);
    assert.equal(big.rows.find((x) => x.context === 'homepage' && x.metric === 'queries')!.percent, 20);
  });

  it('inconclusive rows: exit 3 material in every format, PASSED never said', () => {
    const before = record('Acme', 10, 1000, 2);
    const after = record('Acme', 16, 1000, 2);
    const paired = { activation: [-30, 20, 8, 9, 7], homepage: [0, 0, 0, 0, 0], admin: [0, 0, 0, 0, 0] };
    const report = compareRecords(after, before, { maxRegressionPercent: 10, ceilings: {} }, paired);
    assert.equal(report.inconclusive.length, 1);
    assert.equal(report.exceeded.length, 0);
    const subject: RegressionSubject = { ref: 'main', commit: 'a'.repeat(40), current: after, baseline: before, report };
    assert.match(regressionTable(subject), /INCONCLUSIVE: 1 TTFB difference too close to the threshold/);
    assert.match(regressionTable(subject), /Inconclusive: activation TTFB: request by request \+8\.0 ms/);
    // Fewer than 5 pairs: no paired verdict (the smallest of 3 is no 95 % bound); the pairs are said, n = 3.
    const three = compareRecords(after, before, { maxRegressionPercent: 10, ceilings: {} }, { activation: [-30, 20, 8], homepage: [0, 0, 0], admin: [0, 0, 0] });
    assert.deepEqual(three.rows.find((x) => x.context === 'activation' && x.metric === 'ttfbMs')!.paired, { n: 3, median: 8, lower: -30 });
    assert.doesNotMatch(regressionTable(subject), /PASSED/);
    const j = JSON.parse(regressionJson(subject));
    assert.equal(j.passed, false);
    assert.deepEqual(j.inconclusive[0].paired, { n: 5, median: 8, lower: -30 });
    assert.match(regressionMarkdown(subject), /⚠️ inconclusive/);
  });
});

describe('regression check: fewer pairs than a 95 % bound needs', () => {
  // A theme compared with a copy of itself on 3 rounds of a busy machine: the medians read +6.5 ms (3.9 → 10.4 ms)
  // over a 5.8 ms allowance; the 3 paired differences cannot bound that noise.
  const before = record('Acme', 3.9, 1000, 2);
  const after = record('Acme', 10.4, 1000, 2);
  const three = { activation: [0.4, -0.2, 0.1], homepage: [1, -2, 0.5], admin: [12.1, -4.6, 6.2] };

  it('TTFB over the allowance on fewer than 5 pairs is inconclusive, never a failure; memory and queries still judged', () => {
    const r = compareRecords(after, before, { maxRegressionPercent: 10, ceilings: {} }, three);
    assert.deepEqual(r.exceeded, []);
    assert.deepEqual(r.inconclusive.map((m) => `${m.context} ${m.metric}`), ['activation ttfbMs', 'homepage ttfbMs', 'admin ttfbMs']);
    assert.deepEqual(r.inconclusive[2].paired, { n: 3, median: 6.2, lower: -4.6 });
    assert.match(regressionTable({ ref: 'main', current: after, baseline: before, report: r }), /Inconclusive: admin TTFB: \+6\.5 ms over the baseline, more than the 5\.0 ms allowed, on 3 paired rounds: too few for a 95 % bound \(5 needed\)/);
    const heavier = compareRecords(record('Acme', 10.4, 5000, 6), before, { maxRegressionPercent: 10, ceilings: {} }, three);
    assert.deepEqual(heavier.exceeded.map((e) => `${e.context} ${e.metric}`).sort(), ['activation memoryMb', 'activation queries', 'admin memoryMb', 'admin queries', 'homepage memoryMb', 'homepage queries']);
  });

  it('without pairs (an older caller) the medians-and-spread rule still judges TTFB', () => {
    const r = compareRecords(after, before, { maxRegressionPercent: 10, ceilings: {} });
    assert.ok(r.exceeded.some((e) => e.metric === 'ttfbMs'));
    assert.deepEqual(r.inconclusive, []);
  });

  it('the confirmation question is the CLI\'s for every caller: undecided TTFB asks for one more pass', () => {
    const ask = confirmWhenUndecided({ maxRegressionPercent: 10, ceilings: {} });
    assert.equal(ask(after, before, three), true);
    assert.equal(ask(after, before, { activation: [0, 0, 0, 0, 0], homepage: [0, 0, 0, 0, 0], admin: [0, 1, -1, 0, 0] }), false);
    assert.equal(ask(after, before, { activation: [0, 0, 0, 0, 0], homepage: [0, 0, 0, 0, 0], admin: [-20, 7, 8, 9, 30] }), true);
  });
});

describe('measure table: figures people can read', () => {
  it('differences inside the spread read "within noise"; clear ones keep their sign; the clean site\'s own figures are shown', () => {
    const r = record('Acme', 0.6, -1, 0);
    const table = measureTable(r);
    assert.match(table, /±0\.6 ms \(within noise\)/);
    assert.match(table, /±1 KB \(within noise\)/);
    assert.doesNotMatch(table, /−1 KB/);
    assert.match(table, /CLEAN SITE/);
    assert.match(table, /40 ms · 4,000 KB · 10 q/);
    const heavy = measureTable(record('Acme', 30, 4096, 5));
    assert.match(heavy, /\+30\.0 ms/);
    assert.match(heavy, /\+4096 KB/);
    assert.doesNotMatch(heavy, /within noise\) +\+/);
  });

  it('a must-use plugin says so: loaded on every request, never activated', () => {
    const r = record('Acme MU', 1, 10, 1);
    assert.doesNotMatch(measureTable(r), /Must-use plugin/);
    r.local.must_use = true;
    assert.match(measureTable(r), /^Must-use plugin: measured from mu-plugins\/, where WordPress loads it on every request; never activated/m);
  });

  it('--json prints a JSON error object on stdout when it fails', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runMeasureCli(['/nonexistent/wpbench-nothing-here', '--json'], { out: (t: string) => out.push(t), err: (t: string) => err.push(t), env: { PATH: process.env.PATH }, cwd: process.cwd(), cacheDir: '/nonexistent-wpbench-cache' } as never);
    assert.equal(code, 2);
    const j = JSON.parse(out.join('\n'));
    assert.equal(j.error.exit_code, 2);
    assert.match(j.error.message, /does not exist/);
    const usage: string[] = [];
    assert.equal(await runMeasureCli(['a', 'b', '--json'], { out: (t: string) => usage.push(t), err: () => undefined, env: {}, cwd: process.cwd(), cacheDir: '/x' } as never), 2);
    assert.equal(JSON.parse(usage.join('')).error.exit_code, 2);
  });
});

describe('measure --baseline-ref: the server CPU time decides what the wall clock cannot', () => {
  const before = record('Acme', 10, 1000, 2);
  const after = record('Acme', 16, 1000, 2);
  const noisyWall = { activation: [-30, 20, 8, 40, -25, 9, 12, 7, 30], homepage: [0, 0, 0, 0, 0], admin: [0, 0, 0, 0, 0] };
  it('wall clock undecided, CPU time unchanged: ok, and said so', () => {
    const r = compareRecords(after, before, { maxRegressionPercent: 10, ceilings: {} }, noisyWall, { activation: [0.2, -0.4, 0.1, 0.3, -0.2, 0, 0.5, -0.1, 0.2] });
    assert.deepEqual(r.exceeded, []);
    assert.deepEqual(r.inconclusive, []);
    const row = r.rows.find((x) => x.context === 'activation' && x.metric === 'ttfbMs')!;
    assert.equal(row.cpu?.verdict, 'unchanged');
    const subject: RegressionSubject = { ref: 'main', current: after, baseline: before, report: r };
    assert.match(regressionTable(subject), /ok \(server CPU time unchanged; wall-clock noise\)/);
    assert.match(regressionMarkdown(subject), /✅ ok \(server CPU time unchanged/);
  });
  it('wall clock undecided, CPU time clearly up by 25 ms: a regression that says why', () => {
    const r = compareRecords(after, before, { maxRegressionPercent: 10, ceilings: {} }, noisyWall, { activation: [24, 26, 25, 27, 23, 25, 26, 24, 25] });
    const e = r.exceeded.find((x) => x.context === 'activation' && x.metric === 'ttfbMs');
    assert.ok(e);
    assert.match(e.message, /CPU time per request grew by at least \+24\.0 ms/);
  });
  it('CPU time undecided too: inconclusive stays', () => {
    const r = compareRecords(after, before, { maxRegressionPercent: 10, ceilings: {} }, noisyWall, { activation: [-9, 12, 3, 8, 14, -2, 6, 7, 1] });
    assert.equal(r.inconclusive.length, 1);
  });
});
