// Integration: `measure --profile --instructions` with real PHP, MariaDB, Valgrind and the profiling extension
// compiled on this machine, on a calibration plugin BUILT by the test: two functions of known work on every request —
// a loop, and a loop of calls to a small function in another file (the extension's own cost per call taken out) —
// each found at its line with the instructions of the same work counted alone (within ±5 %), the same counts on a
// repeat, and the tree of the component's functions for the flame graph. No time is asserted.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LocalRecord } from '../../src/core/measure/record/method';
import { measureCli } from './helpers';

const LOOP = 'function wpbench_loop_work($n) { $s = 0; for ($i = 0; $i < $n; $i++) { $s += $i % 7; } return $s; }';
const CALLS = 'function wpbench_call_work($n) { $s = 0; for ($i = 0; $i < $n; $i++) { $s = wpbench_tiny($s); } return $s; }';
const TINY = '<?php function wpbench_tiny($x) { return $x + 1; }\n';
const N_LOOP = 100_000;
const N_CALLS = 10_000;

const PLUGIN = `<?php
/**
 * Plugin Name: Two works
 * Version: 1.0
 */
require __DIR__ . '/tiny.php';
${LOOP}
${CALLS}
add_action('init', function () { $GLOBALS['two_works'] = wpbench_loop_work(${N_LOOP}) + wpbench_call_work(${N_CALLS}); });
`;
const lineOf = (fn: string) => PLUGIN.split('\n').findIndex((l) => l.startsWith(`function ${fn}(`)) + 1;

/** The instructions of `call` alone: a PHP file under callgrind (opcache on, as the server's), less the same with 0. */
function alone(dir: string, defs: string, call: (n: number) => string, n: number): number {
  writeFileSync(path.join(dir, 'tiny.php'), TINY);
  const count = (k: number) => {
    const file = path.join(dir, `alone-${k}.php`);
    writeFileSync(file, `<?php require __DIR__ . '/tiny.php'; ${defs} ${call(k)};`);
    const out = path.join(dir, `alone-${k}.out`);
    execFileSync('valgrind', ['--tool=callgrind', '-q', `--callgrind-out-file=${out}`, 'php', '-d', 'opcache.enable_cli=1', '-d', 'opcache.file_update_protection=0', file], { stdio: 'ignore' });
    return Number(/^summary:\s+(\d+)/m.exec(readFileSync(out, 'utf8'))?.[1] ?? NaN);
  };
  return count(n) - count(0);
}

describe('wp-bench measure --profile --instructions (native php, MariaDB, callgrind, the profiling extension)', function () {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const args = () => [path.join(dir, 'two-works'), '--json', '--runtime', 'php', '--rounds', '3', '--warmup', '1', '--no-cache', '--profile', '--instructions'];

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-iprofile-'));
    env = { ...process.env, WPBENCH_CACHE_DIR: path.join(dir, 'cache') };
    await fs.mkdir(path.join(dir, 'two-works'), { recursive: true });
    await fs.writeFile(path.join(dir, 'two-works', 'two-works.php'), PLUGIN);
    await fs.writeFile(path.join(dir, 'two-works', 'tiny.php'), TINY);
  });
  after(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('each function of known work at its line, within ±5 % of the same work counted alone; the same counts on a repeat', async () => {
    const first = await measureCli(args(), env);
    assert.equal(first.code, 0, first.err);
    const rec = JSON.parse(first.out) as LocalRecord;
    const p = rec.profile!;
    assert.equal(p.unit, 'instructions', `the profile is by ${p.unit ?? 'ms'}: ${first.err.split('\n').filter((l) => /warning/.test(l)).join(' | ')}`);
    const loopAlone = alone(dir, LOOP, (k) => `wpbench_loop_work(${k})`, N_LOOP);
    const callsAlone = alone(dir, CALLS, (k) => `wpbench_call_work(${k})`, N_CALLS);
    const figures = (r: LocalRecord) =>
      Object.fromEntries(
        (['activation', 'homepage', 'admin'] as const).map((ctx) => {
          const fns = r.profile!.contexts[ctx]!.functions;
          const at = (fn: string) => fns.find((f) => f.function === fn && f.file === 'two-works.php' && f.line === lineOf(fn));
          return [ctx, { loop: at('wpbench_loop_work'), calls: at('wpbench_call_work') }];
        }),
      );
    const got = figures(rec);
    for (const [ctx, f] of Object.entries(got)) {
      assert.ok(f.loop && f.calls, `${ctx}: ${JSON.stringify(rec.profile!.contexts[ctx as 'homepage']!.functions.slice(0, 5))}`);
      assert.ok(Math.abs(f.loop.ms - loopAlone) <= 0.05 * loopAlone, `${ctx}: the loop ${f.loop.ms} instructions in WordPress, ${loopAlone} alone`);
      assert.ok(Math.abs(f.calls.ms - callsAlone) <= 0.05 * callsAlone, `${ctx}: the calls ${f.calls.ms} instructions in WordPress, ${callsAlone} alone`);
      // The tree of the component's functions: the closure on init, the two works under it.
      const tree = rec.profile!.contexts[ctx as 'homepage']!.flame!;
      const closure = tree.k?.find((n) => n.n === '{closure}' && n.c === 1);
      assert.ok(closure?.k?.some((n) => n.n === 'wpbench_loop_work' && n.l === lineOf('wpbench_loop_work')), `${ctx}: ${JSON.stringify(tree).slice(0, 400)}`);
    }
    const again = await measureCli(args(), env);
    assert.equal(again.code, 0, again.err);
    const repeat = figures(JSON.parse(again.out) as LocalRecord);
    for (const ctx of Object.keys(got)) {
      assert.deepEqual([repeat[ctx]!.loop!.ms, repeat[ctx]!.loop!.self_ms, repeat[ctx]!.calls!.ms, repeat[ctx]!.calls!.self_ms], [got[ctx]!.loop!.ms, got[ctx]!.loop!.self_ms, got[ctx]!.calls!.ms, got[ctx]!.calls!.self_ms], `${ctx}: the counts moved on a repeat`);
    }
  });
});
