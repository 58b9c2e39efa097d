// Integration: the regression check `wp-bench measure PATH --baseline-ref REF` on a plugin in a temporary git
// repository, with the native php runtime (Debian's WordPress and php; nothing is skipped). A plugin made heavier
// is reported and exits 1; an unchanged plugin exits 0, and its noise stays under the default threshold in 10 runs.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../src/cli';
import { DEFAULT_MAX_REGRESSION_PERCENT, NOISE_FLOOR } from '../../src/core/measure/regression';

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

function git(cwd: string, ...args: string[]) {
  execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], { cwd, stdio: 'pipe' });
}

async function run(args: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['measure', ...args], { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd: ROOT });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

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

  it('an unchanged plugin exits 0, and its noise stays under the default threshold in 10 runs', async () => {
    const worst = { ttfbMs: 0, memoryMb: 0, queries: 0 };
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t0 = Date.now();
      const r = await run([path.join(repo, 'sample'), '--baseline-ref', 'HEAD', '--json', ...fast], env);
      times.push((Date.now() - t0) / 1000);
      assert.equal(r.code, 0, `run ${i + 1}: ${r.out.slice(0, 2000)} ${r.err}`);
      const j = JSON.parse(r.out);
      assert.deepEqual(j.exceeded, []);
      for (const row of j.comparison) worst[row.metric as keyof typeof worst] = Math.max(worst[row.metric as keyof typeof worst], Math.abs(row.difference));
    }
    assert.equal(worst.queries, 0);
    assert.ok(worst.memoryMb <= NOISE_FLOOR.memoryMb, `memory noise ${worst.memoryMb} MB`);
    assert.ok(worst.ttfbMs <= NOISE_FLOOR.ttfbMs, `TTFB noise ${worst.ttfbMs} ms`);
    console.log(`      10 unchanged runs (threshold ${DEFAULT_MAX_REGRESSION_PERCENT} %): worst |difference| TTFB ${worst.ttfbMs} ms, memory ${(worst.memoryMb * 1024).toFixed(0)} KB, queries ${worst.queries}; ${times.map((t) => t.toFixed(1)).join(' ')} s`);
  });

  it('a ref that does not exist is a usage error (exit 2), before anything is measured', async () => {
    const r = await run([path.join(repo, 'sample'), '--baseline-ref', 'no-such-branch', ...fast], env);
    assert.equal(r.code, 2);
    assert.match(r.err, /no-such-branch/);
  });
});
