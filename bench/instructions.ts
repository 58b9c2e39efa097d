// Figure 12 of `npm run bench`: `measure --instructions` and the regression check judged on them, with both cores
// busy the whole time: an identical copy against HEAD (how often it fails: never, the target), a change adding 0.5 %
// of the homepage's instructions (how often it is caught: always) and one adding 0.1 % (said as a difference outside
// the spread, not failed), a calibration plugin's loop against the same loop counted alone (within ±2 %), and what
// `--instructions` adds to a run. The changes are sized from a first measurement (the loop's cost per iteration and
// the homepage's count), so the figure holds on another machine or PHP. Full mode only; `WPB_INSTR_RUNS` sets the
// runs per case (default 20).
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { check, measureCli, type Status } from './common';
import { git, startLoad, stopLoad } from '../test/measure/loadSample';
import { countedAlone, countedWorkPlugin } from '../test/measure/countedWork';

type RowFn = (id: string, figure: string, value: string, target: string, status: Status) => void;

export async function figureInstructions(row: RowFn, details: Record<string, unknown>, quick: boolean, log: (s: string) => void): Promise<void> {
  const id = '12';
  if (quick) {
    row(id, 'instructions: regression check on a busy machine', 'not measured (full mode only: about 40 minutes with 20 runs a case)', '-', 'not measured');
    return;
  }
  const runs = Number(process.env.WPB_INSTR_RUNS ?? 20);
  // `WPB_INSTR_ROUNDS=N`: the regression runs' timed rounds (the counts, which decide, do not depend on them; fewer
  // rounds make a case of 20 runs shorter). `WPB_INSTR_CASES=identical,half,tenth`: which cases (default all three).
  const timed = process.env.WPB_INSTR_ROUNDS ? ['--rounds', process.env.WPB_INSTR_ROUNDS, '--warmup', '1'] : [];
  const cases = new Set((process.env.WPB_INSTR_CASES ?? 'identical,half,tenth').split(','));
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-bench-instructions-'));
  const env = { ...process.env, WPBENCH_CACHE_DIR: path.join(dir, 'cache') };
  const measure = measureCli(env);
  const repo = path.join(dir, 'repo');
  const file = path.join(repo, 'counted', 'counted.php');
  const base = 20_000;
  const out: Record<string, unknown> = {};
  details.instructions = out;
  const load = startLoad(7200);
  try {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, countedWorkPlugin(base, '1.0'));
    git(repo, 'init', '-q');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'base');
    const json = async (n: number) => {
      await fs.writeFile(file, countedWorkPlugin(n, 'x'));
      const r = await measure([path.dirname(file), '--json', '--no-cache', '--instructions'], repo);
      if (r.code !== 0) throw new Error(`measure --instructions exited ${r.code}: ${r.err.slice(-300)}`);
      return { rec: JSON.parse(r.out) as { contexts: Record<string, { instructions_delta?: number }>; local: { baseline: Record<string, { instructions?: number }> } }, s: r.s };
    };
    // Calibration: the loop's cost per iteration and the homepage's count, from two runs.
    const a = await json(base);
    const b = await json(base + 100_000);
    const perIteration = (b.rec.contexts.homepage.instructions_delta! - a.rec.contexts.homepage.instructions_delta!) / 100_000;
    const homepage = a.rec.local.baseline.homepage.instructions! + a.rec.contexts.homepage.instructions_delta!;
    const counted = b.rec.contexts.homepage.instructions_delta! - a.rec.contexts.homepage.instructions_delta!;
    const expect = countedAlone(100_000, dir);
    out.calibration = { perIteration, homepage, counted, alone: expect };
    row(id, 'instructions: 100,000 iterations of a loop in WordPress vs the same loop counted alone', `${counted.toLocaleString('en-US')} vs ${expect.toLocaleString('en-US')} (${((100 * (counted - expect)) / expect).toFixed(2)} %)`, '±2 %', check(Math.abs(counted - expect) <= 0.02 * expect));
    const plain = await measure([path.dirname(file), '--no-cache'], repo);
    row(id, 'instructions: time --instructions adds to a plugin\'s run (both cores busy)', `${a.s.toFixed(1)} s with, ${plain.s.toFixed(1)} s without (+${(a.s - plain.s).toFixed(1)} s)`, '≤ +60 s', check(a.s - plain.s <= 60));
    await fs.writeFile(file, countedWorkPlugin(base, '1.0'));

    const series = async (name: string, extra: number): Promise<number[]> => {
      await fs.writeFile(file, countedWorkPlugin(base + extra, '1.1'));
      const codes: number[] = [];
      const diffs: string[] = [];
      for (let i = 0; i < runs; i++) {
        const r = await measure([path.dirname(file), '--baseline-ref', 'HEAD', '--instructions', '--json', ...timed], repo);
        codes.push(r.code);
        try {
          const j = JSON.parse(r.out) as { comparison?: Array<{ context: string; metric: string; difference: number | null }> };
          diffs.push(String(j.comparison?.find((m) => m.context === 'homepage' && m.metric === 'instructions')?.difference ?? '?'));
        } catch {
          diffs.push('?');
        }
        log(`instructions: ${name} #${i + 1}: exit ${r.code} in ${r.s.toFixed(1)} s (homepage ${diffs[diffs.length - 1]} instr)`);
      }
      (out[name] = { codes, homepageDifferences: diffs });
      git(repo, 'checkout', '-q', '--', '.');
      return codes;
    };
    if (cases.has('identical')) {
    const same = await series('identical copy', 0);
    row(id, `instructions: identical copy, --baseline-ref HEAD --instructions, both cores busy, ${runs} runs`, `${same.filter((c) => c === 0).length}/${runs} exit 0 (exits ${same.join(' ')})`, `${runs} of ${runs} exit 0`, check(same.every((c) => c === 0)));
    }
    const half = Math.round((0.005 * homepage) / perIteration);
    if (cases.has('half')) {
    const five = await series('+0.5 % of the homepage', half);
    row(id, `instructions: +0.5 % of the homepage (${half.toLocaleString('en-US')} iterations), both cores busy, ${runs} runs`, `${five.filter((c) => c === 1).length}/${runs} exit 1 (exits ${five.join(' ')})`, `${runs} of ${runs} exit 1`, check(five.every((c) => c === 1)));
    }
    const tenth = Math.round((0.001 * homepage) / perIteration);
    if (cases.has('tenth')) {
    const one = await series('+0.1 % of the homepage', tenth);
    row(id, `instructions: +0.1 % of the homepage (${tenth.toLocaleString('en-US')} iterations), both cores busy, ${runs} runs`, `${one.filter((c) => c === 0).length}/${runs} exit 0, shown as a difference (homepage ${(out['+0.1 % of the homepage'] as { homepageDifferences: string[] }).homepageDifferences.slice(0, 5).join(', ')} …)`, 'a difference outside the spread, not a failure', check(one.every((c) => c === 0)));
    }
  } catch (e) {
    row(id, 'instructions: regression check on a busy machine', `not measured (${(e as Error).message.split('\n')[0].slice(0, 160)})`, '-', 'not measured');
  } finally {
    await stopLoad(load);
    await fs.rm(dir, { recursive: true, force: true });
  }
}
