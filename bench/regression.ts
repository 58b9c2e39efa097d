// Figure 8 of `npm run bench`: the regression check (`measure --baseline-ref`) on a plugin of 300 files, quiet and
// while both cores are busy: how often an unchanged plugin fails (false alarms), how often a heavier one is caught
// (detection), and what load does to a comparison's time. Full mode only (about 15 minutes here).
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../src/cli/index';
import { git, loadSampleMain, startLoad, stopLoad, writeLoadSampleRepo, type Heavier } from '../test/measure/loadSample';

type Status = 'PASS' | 'FAIL' | 'info' | 'not measured' | 'ERROR';
type RowFn = (id: string, figure: string, value: string, target: string, status: Status) => void;

const ROOT = path.resolve(__dirname, '..');
const QUIET_RUNS = 10;
const LOADED_RUNS = 8;
const DETECT_RUNS = 3;

interface Outcome {
  code: number;
  seconds: number;
  exceeded: string[];
  error?: string;
}

const med = (a: number[]) => [...a].sort((p, q) => p - q)[Math.floor(a.length / 2)] ?? NaN;
const span = (o: Outcome[]) => `${Math.min(...o.map((x) => x.seconds)).toFixed(1)}–${Math.max(...o.map((x) => x.seconds)).toFixed(1)} s`;
const codes = (o: Outcome[]) => o.map((x) => x.code).join(' ');

export async function figureRegression(row: RowFn, details: Record<string, unknown>, quick: boolean, log: (s: string) => void): Promise<void> {
  const id = '8';
  if (quick) {
    row(id, 'regression check: false alarms and detection', 'not measured (full mode only: about 15 minutes)', '-', 'not measured');
    return;
  }
  const repo = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-bench-regression-'));
  const cache = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-bench-regression-cache-'));
  const env = { ...process.env, WPBENCH_CACHE_DIR: cache };
  const runs: Record<string, Outcome[]> = {};
  details.regression = runs;
  try {
    const plugin = await writeLoadSampleRepo(repo);
    const compare = async (name: string, ref: string): Promise<Outcome> => {
      const out: string[] = [];
      const err: string[] = [];
      const t0 = Date.now();
      const code = await runCli(['measure', plugin, '--baseline-ref', ref, '--runtime', 'php', '--json', ...(process.env.PHP_BIN ? ['--php', process.env.PHP_BIN] : [])], { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd: repo });
      const seconds = (Date.now() - t0) / 1000;
      let exceeded: string[] = [];
      let error: string | undefined;
      try {
        const j = JSON.parse(out.join('\n'));
        exceeded = (j.exceeded ?? []).map((e: { context: string; metric: string }) => `${e.context}:${e.metric}`);
        error = j.error?.message;
      } catch {
        error = err.join('\n').slice(-300);
      }
      if (code === 8) throw new Error(`not measured: ${error ?? 'the php runtime cannot run'}`);
      const o = { code, seconds, exceeded, ...(error ? { error } : {}) };
      (runs[name] ??= []).push(o);
      log(`regression: ${name} #${runs[name].length}: exit ${code} in ${seconds.toFixed(1)} s${exceeded.length ? ` (${exceeded.join(', ')})` : ''}`);
      return o;
    };
    const series = async (name: string, n: number, ref: string, loaded: boolean): Promise<Outcome[]> => {
      const out: Outcome[] = [];
      for (let i = 0; i < n; i++) {
        const load = loaded ? startLoad(600) : [];
        try {
          out.push(await compare(name, ref));
        } finally {
          await stopLoad(load);
        }
      }
      return out;
    };
    const heavier = async (name: string, h: Heavier, n: number, loaded: boolean): Promise<Outcome[]> => {
      await fs.writeFile(path.join(plugin, 'load-sample.php'), loadSampleMain('1.1.0', h));
      try {
        return await series(name, n, 'HEAD', loaded);
      } finally {
        git(repo, 'checkout', '--', '.');
      }
    };

    const quiet = await series('unchanged, quiet', QUIET_RUNS, 'HEAD~1', false);
    const q0 = quiet.filter((o) => o.code === 0).length;
    row(id, `regression check: unchanged plugin (300 files), quiet, ${QUIET_RUNS} runs`, `${q0}/${QUIET_RUNS} exit 0; false failures ${quiet.filter((o) => o.code === 1).length}, inconclusive ${quiet.filter((o) => o.code === 3).length} (exits ${codes(quiet)}; ${span(quiet)})`, `${QUIET_RUNS} of ${QUIET_RUNS} exit 0`, q0 === QUIET_RUNS ? 'PASS' : 'FAIL');
    const loaded = await series('unchanged, both cores busy', LOADED_RUNS, 'HEAD~1', true);
    const l0 = loaded.filter((o) => o.code === 0).length;
    row(id, `regression check: unchanged plugin, both cores busy, ${LOADED_RUNS} runs`, `${l0}/${LOADED_RUNS} exit 0; false failures ${loaded.filter((o) => o.code === 1).length}, inconclusive ${loaded.filter((o) => o.code === 3).length} (exits ${codes(loaded)}; ${span(loaded)})`, `${LOADED_RUNS} of ${LOADED_RUNS} exit 0`, l0 === LOADED_RUNS ? 'PASS' : 'FAIL');
    const ratio = med(loaded.map((o) => o.seconds)) / med(quiet.map((o) => o.seconds));
    row(id, 'regression check: time under load / quiet (medians)', `${med(loaded.map((o) => o.seconds)).toFixed(1)} s / ${med(quiet.map((o) => o.seconds)).toFixed(1)} s (×${ratio.toFixed(2)})`, '≤ ×2', ratio <= 2 ? 'PASS' : 'FAIL');

    const caught = (o: Outcome[]) => o.filter((x) => x.code === 1 && x.exceeded.includes('homepage:ttfbMs')).length;
    const big: Heavier = { mib: 4, queries: 5, busyMs: 25 };
    for (const [label, isLoaded] of [['quiet', false], ['both cores busy', true]] as const) {
      const h = await heavier(`4 MiB + 5 queries + 25 ms, ${label}`, big, DETECT_RUNS, isLoaded);
      const c = caught(h);
      row(id, `regression check: 4 MiB + 5 queries + 25 ms heavier, ${label}`, `${h.filter((x) => x.code === 1).length}/${DETECT_RUNS} exit 1, homepage TTFB named in ${c}/${DETECT_RUNS} (exits ${codes(h)}; ${span(h)})`, `${DETECT_RUNS} of ${DETECT_RUNS} exit 1 naming homepage TTFB`, c === DETECT_RUNS ? 'PASS' : 'FAIL');
    }
    // +5 ms on every request sits at the 5 ms floor: caught when TTFB fails in some context (which one varies).
    const small = await heavier('+5 ms of work, quiet', { mib: 0, queries: 0, busyMs: 5 }, DETECT_RUNS, false);
    const sc = small.filter((x) => x.code === 1 && x.exceeded.some((e) => e.endsWith(':ttfbMs'))).length;
    const where = small.map((x) => x.exceeded.filter((e) => e.endsWith(':ttfbMs')).map((e) => e.split(':')[0]).join('+') || '-').join(', ');
    row(id, 'regression check: +5 ms of real work on every request, quiet', `TTFB caught in ${sc}/${DETECT_RUNS} (contexts ${where}; exits ${codes(small)}; ${span(small)})`, `${DETECT_RUNS} of ${DETECT_RUNS} caught`, sc === DETECT_RUNS ? 'PASS' : 'FAIL');
  } catch (e) {
    const m = /^not measured: (.*)/s.exec((e as Error).message);
    if (!m) throw e;
    row(id, 'regression check: false alarms and detection', `not measured (${m[1].split('\n')[0].slice(0, 160)})`, '-', 'not measured');
  } finally {
    await fs.rm(repo, { recursive: true, force: true });
    await fs.rm(cache, { recursive: true, force: true });
  }
}
