// Integration: the regression check `wp-bench measure PATH --baseline-ref REF` on a plugin in a temporary git
// repository, with the native php runtime (Debian's WordPress and php; nothing is skipped). A plugin made heavier
// is reported and exits 1; an unchanged plugin exits 0, and its noise stays under the default threshold in 10 runs.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { git, measureCli } from './helpers';
import { measureCompare } from '../../src/core/measure/run/engine';
import { DEFAULT_MAX_REGRESSION_PERCENT, MIN_PAIRS, NOISE_FLOOR, compareRecords, confirmWhenUndecided } from '../../src/core/measure/compare/regression';

const ROOT = path.resolve(__dirname, '..', '..');

const LIGHT = `<?php
/**
 * Plugin Name: Regression Sample
 * Version: 1.0.0
 */
add_action('init', function () { $GLOBALS['wpbench_sample'] = str_repeat('a', 64 * 1024); });
`;
/** 3 MB more and 4 more queries on every request. */
const HEAVY = `<?php
/**
 * Plugin Name: Regression Sample
 * Version: 1.1.0
 */
add_action('init', function () {
  $GLOBALS['wpbench_sample'] = str_repeat('a', 64 * 1024);
  $GLOBALS['wpbench_heavy'] = str_repeat('b', 3 * 1024 * 1024);
  global $wpdb;
  for ($i = 0; $i < 4; $i++) $wpdb->get_var('SELECT ' . $i);
});
`;

const run = measureCli;

describe('wp-bench measure --baseline-ref (regression check, native php)', function () {
  let repo: string;
  let cache: string;
  let env: NodeJS.ProcessEnv;
  const fast = ['--runtime', 'php', '--rounds', '5', '--warmup', '1'];

  before(async () => {
    repo = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-regression-'));
    cache = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-regression-cache-'));
    env = { ...process.env, WPBENCH_CACHE_DIR: cache, WPBENCH_API_KEY: 'must-not-reach-git-or-php' };
    await fs.mkdir(path.join(repo, 'sample'));
    git(repo, 'init', '-q');
    await fs.writeFile(path.join(repo, 'sample', 'sample.php'), LIGHT);
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'light');
    await fs.writeFile(path.join(repo, 'sample', 'sample.php'), HEAVY);
    git(repo, 'commit', '-q', '-am', 'heavy');
  });
  after(async () => {
    await fs.rm(repo, { recursive: true, force: true });
    await fs.rm(cache, { recursive: true, force: true });
  });

  it('a plugin made heavier: --baseline-ref HEAD~1 reports memory and queries in every context and exits 1', async () => {
    const t0 = Date.now();
    const r = await run([path.join(repo, 'sample'), '--baseline-ref', 'HEAD~1', '--json', ...fast], env);
    const seconds = (Date.now() - t0) / 1000;
    assert.equal(r.code, 1, r.err);
    const j = JSON.parse(r.out);
    assert.equal(j.current.source, 'local');
    assert.equal(j.baseline.source, 'local');
    assert.equal(j.current.slug, 'sample');
    assert.equal(j.baseline.slug, 'sample');
    assert.equal(j.current.metadata.version, '1.1.0');
    assert.equal(j.baseline.metadata.version, '1.0.0');
    for (const ctx of ['activation', 'homepage', 'admin']) {
      const q = j.exceeded.find((e: any) => e.context === ctx && e.metric === 'queries');
      assert.ok(q, `${ctx} queries exceeded`);
      assert.equal(q.difference, 4);
      const m = j.exceeded.find((e: any) => e.context === ctx && e.metric === 'memoryMb');
      assert.ok(m && Math.abs(m.difference - 3) < 0.3, `${ctx} memory +3 MB: ${JSON.stringify(m)}`);
      assert.equal(j.current.contexts[ctx].queries_delta - j.baseline.contexts[ctx].queries_delta, 4);
    }
    console.log(`      regression run: ${seconds.toFixed(1)} s`);
  });

  it('the Markdown summary names the regression; the table is the default', async () => {
    const md = await run([path.join(repo, 'sample', 'sample.php'), '--baseline-ref', 'HEAD~1', '--format', 'markdown', ...fast], env);
    assert.equal(md.code, 1, md.err);
    assert.match(md.out, /❌ performance regression/);
    assert.match(md.out, /\| homepage \| queries \|/);
  });

  it('an unchanged plugin never fails in 5 runs (exit 0, or 3 when the noise cannot decide TTFB); memory and queries stay within the floor', async function () {
    // A run the noise cannot decide takes a confirmation pass (twice the rounds): up to ~60 s each on 2 busy cores.
    this.timeout(600_000);
    const worst = { ttfbMs: 0, memoryMb: 0, queries: 0 };
    let inconclusiveRuns = 0;
    const times: number[] = [];
    let allowedTtfb = 0;
    for (let i = 0; i < 5; i++) {
      const t0 = Date.now();
      const r = await run([path.join(repo, 'sample'), '--baseline-ref', 'HEAD', '--json', ...fast], env);
      times.push((Date.now() - t0) / 1000);
      // What the rule guarantees: never a false failure (exit 1); TTFB the run's noise cannot decide is inconclusive (3).
      assert.ok(r.code === 0 || r.code === 3, `run ${i + 1}: exit ${r.code}: ${r.out.slice(0, 2000)} ${r.err}`);
      if (r.code === 3) inconclusiveRuns++;
      const j = JSON.parse(r.out);
      assert.deepEqual(j.exceeded, []);
      for (const row of j.comparison) {
        worst[row.metric as keyof typeof worst] = Math.max(worst[row.metric as keyof typeof worst], Math.abs(row.difference));
        if (row.metric === 'ttfbMs') {
          // What the rule guarantees for TTFB: judged on the paired differences, never a failure on noise.
          assert.ok(row.paired && row.paired.n >= 5, `run ${i + 1}: ${row.context} TTFB judged on pairs`);
          assert.equal(row.regression, false);
          allowedTtfb = Math.max(allowedTtfb, row.allowed);
        } else {
          // Either direction: a slower "baseline" would be a regression of the same size the other way round.
          assert.ok(Math.abs(row.difference) <= row.allowed, `run ${i + 1}: ${row.context} ${row.metric} ${row.difference} beyond the allowed ${row.allowed}`);
        }
      }
    }
    assert.equal(worst.queries, 0);
    assert.ok(worst.memoryMb <= NOISE_FLOOR.memoryMb, `memory noise ${worst.memoryMb} MB`);
    console.log(`      5 unchanged runs (threshold ${DEFAULT_MAX_REGRESSION_PERCENT} %), ${inconclusiveRuns} inconclusive: worst |difference| TTFB ${worst.ttfbMs} ms (largest allowed ${allowedTtfb} ms), memory ${(worst.memoryMb * 1024).toFixed(0)} KB, queries ${worst.queries}; ${times.map((t) => t.toFixed(1)).join(' ')} s`);
  });

  it('.wp-bench.json at the repository root: a ceiling fails an unchanged plugin; --fail-on-regression overrides the percentage', async () => {
    await fs.writeFile(path.join(repo, '.wp-bench.json'), JSON.stringify({ measure: { maxRegressionPercent: 10, ceilings: { homepage: { queries: 2 } } } }));
    try {
      const r = await run([path.join(repo, 'sample'), '--baseline-ref', 'HEAD', '--json', ...fast], env);
      assert.equal(r.code, 1, r.err);
      const j = JSON.parse(r.out);
      assert.deepEqual(j.exceeded.map((e: any) => `${e.rule}:${e.context}:${e.metric}`), ['ceiling:homepage:queries']);
    } finally {
      await fs.rm(path.join(repo, '.wp-bench.json'));
    }
    const lenient = await run([path.join(repo, 'sample'), '--baseline-ref', 'HEAD~1', '--json', '--fail-on-regression', '100000', ...fast], env);
    assert.equal(lenient.code, 2, 'above 10000 %: a usage error');
    const lax = await run([path.join(repo, 'sample'), '--baseline-ref', 'HEAD~1', '--json', '--fail-on-regression', '10000', ...fast], env);
    const j = JSON.parse(lax.out);
    assert.equal(j.maxRegressionPercent, 10000);
    assert.ok(j.exceeded.every((e: any) => e.metric !== 'memoryMb' || e.baseline < 0.04), 'memory from 64 KB to 3 MB is within 10000 %');
  });

  it('a theme compared with a copy of itself: both sides switch themes per request, nothing exceeded', async () => {
    // Judged as --baseline-ref judges a plugin: at least MIN_PAIRS rounds (a 95 % bound on the paired differences),
    // the confirmation pass when TTFB is undecided, then the server's CPU time of the same requests.
    const theme = path.join(ROOT, 'test', 'fixtures', 'measure', 'theme-simple');
    const policy = { maxRegressionPercent: 10, ceilings: {} };
    const { current, baseline, paired, pairedCpu } = await measureCompare({ path: theme, runtime: 'php', env, cwd: ROOT, cacheDir: cache, rounds: MIN_PAIRS, warmup: 1, confirm: confirmWhenUndecided(policy) }, theme);
    for (const r of [current, baseline]) {
      assert.equal(r.type, 'theme');
      assert.equal(r.slug, 'theme-simple');
      assert.ok(Math.abs(r.contexts.homepage!.memory_delta_kb - 1024) < 256 + 52, `homepage memory ${r.contexts.homepage!.memory_delta_kb}`);
    }
    const report = compareRecords(current, baseline, policy, paired, pairedCpu);
    assert.deepEqual(report.exceeded, []);
    for (const row of report.rows.filter((x) => x.metric === 'ttfbMs')) assert.ok(row.paired && row.paired.n >= MIN_PAIRS, `${row.context} TTFB judged on pairs`);
    for (const row of report.rows.filter((x) => x.metric !== 'ttfbMs')) assert.ok(Math.abs(row.difference!) <= row.allowed!, `${row.context} ${row.metric} ${row.difference}`);
  });

  it('a ref that does not exist is a usage error (exit 2), before anything is measured', async () => {
    const r = await run([path.join(repo, 'sample'), '--baseline-ref', 'no-such-branch', ...fast], env);
    assert.equal(r.code, 2);
    assert.match(r.err, /no-such-branch/);
  });
});
