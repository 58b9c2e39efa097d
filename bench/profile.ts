// Figure 9 of `npm run bench`: `measure --profile` on the calibration plugin (test/fixtures/profile/hotspots): each
// hot spot's time at its file and line within ±25 % + 3 ms, its queries exact, nothing from outside the plugin; a
// method made 18 ms slower found by --baseline-ref --profile; a cold --profile run's time. Full mode only.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LocalRecord } from '../src/core/measure/record/method';
import { git } from '../test/measure/loadSample';
import { measureCli } from './common';

type Status = 'PASS' | 'FAIL' | 'info' | 'not measured' | 'ERROR';
type RowFn = (id: string, figure: string, value: string, target: string, status: Status) => void;

const ROOT = path.resolve(__dirname, '..');
const HOTSPOTS = path.join(ROOT, 'test', 'fixtures', 'profile', 'hotspots');
const near = (ms: number, truth: number) => Math.abs(ms - truth) <= truth * 0.25 + 3;

export async function figureProfile(row: RowFn, details: Record<string, unknown>, quick: boolean, log: (s: string) => void): Promise<void> {
  const id = '9';
  if (quick) {
    row(id, 'measure --profile: calibration hot spots', 'not measured (full mode only: about 1 minute)', '-', 'not measured');
    return;
  }
  const cache = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-bench-profile-cache-'));
  const repo = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-bench-profile-'));
  const env = { ...process.env, WPBENCH_CACHE_DIR: cache };
  const cli = measureCli(env);
  try {
    log('profile: the calibration plugin, cold');
    const r = await cli([HOTSPOTS, '--profile', '--json', '--no-cache']);
    if (r.code === 8) {
      row(id, 'measure --profile', `not measured (${(JSON.parse(r.out).error?.message ?? r.err).split('. To ')[0].slice(0, 200)})`, '-', 'not measured');
      return;
    }
    if (r.code !== 0) throw new Error(`measure --profile exited ${r.code}: ${r.err.slice(-300)}`);
    const rec = JSON.parse(r.out) as LocalRecord;
    details.profile = rec.profile;
    const fn = (ctx: 'activation' | 'homepage' | 'admin', name: string) => rec.profile!.contexts[ctx]?.functions.find((f) => f.function === name);
    const spots = [
      { what: '20 ms + 3 queries on init (homepage)', f: fn('homepage', 'hotspots_init_work'), truth: 20, at: 'hotspots.php:12', queries: 3 },
      { what: '15 ms + 2 queries, a method on the homepage', f: fn('homepage', 'Hotspots_Front::render'), truth: 15, at: 'inc/front.php:8', queries: 2 },
      { what: '10 ms in admin through a closure', f: fn('admin', '{closure}'), truth: 10, at: 'hotspots.php:24', queries: 0 },
      { what: '10 ms in admin, recursion 5 deep counted once', f: fn('admin', 'hotspots_recurse'), truth: 10, at: 'inc/busy.php:13', queries: 0 },
      { what: '20 ms + 3 queries on init (activation)', f: fn('activation', 'hotspots_init_work'), truth: 20, at: 'hotspots.php:12', queries: 3 },
      { what: '20 ms + 3 queries on init (admin)', f: fn('admin', 'hotspots_init_work'), truth: 20, at: 'hotspots.php:12', queries: 3 },
    ];
    for (const s of spots) {
      const ok = !!s.f && near(s.f.ms, s.truth) && `${s.f.file}:${s.f.line}` === s.at && s.f.queries === s.queries;
      row(id, `measure --profile: hot spot, ${s.what}`, s.f ? `${s.f.ms} ms at ${s.f.file}:${s.f.line}, ${s.f.queries} queries` : 'not found', `${s.truth} ms ±25 % + 3 ms at ${s.at}, ${s.queries} queries`, ok ? 'PASS' : 'FAIL');
    }
    const own = new Set(['hotspots.php', 'inc/busy.php', 'inc/front.php']);
    const outside = Object.values(rec.profile!.contexts).flatMap((c) => c?.functions ?? []).filter((f) => !own.has(f.file));
    row(id, 'measure --profile: nothing from outside the plugin listed', `${outside.length} listed`, '0', outside.length === 0 ? 'PASS' : 'FAIL');
    row(id, 'measure --profile: one plugin, three contexts, default rounds, cold', `${r.s.toFixed(1)} s`, '≤ 60 s', r.s <= 60 ? 'PASS' : 'FAIL');

    log('profile: --baseline-ref with a method made 18 ms slower');
    await fs.cp(HOTSPOTS, path.join(repo, 'hotspots'), { recursive: true });
    git(repo, 'init', '-q');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'hotspots');
    const front = path.join(repo, 'hotspots', 'inc', 'front.php');
    await fs.writeFile(front, (await fs.readFile(front, 'utf8')).replace('hotspots_busy( 15 )', 'hotspots_busy( 33 )'));
    const d = await cli([path.join(repo, 'hotspots'), '--baseline-ref', 'HEAD', '--profile', '--json'], repo);
    const j = JSON.parse(d.out);
    const home = (j.profile_diff?.contexts?.homepage ?? []) as { function: string; ms_difference: number }[];
    const render = home.find((c) => c.function === 'Hotspots_Front::render');
    const rank = render ? [...home].sort((a, b) => b.ms_difference - a.ms_difference).indexOf(render) : -1;
    const ok = d.code === 1 && !!render && near(render.ms_difference, 18) && rank >= 0 && rank <= 1;
    row(id, 'measure --baseline-ref --profile: a method 18 ms slower', render ? `exit ${d.code}; ${render.ms_difference > 0 ? '+' : ''}${render.ms_difference} ms in Hotspots_Front::render (rank ${rank + 1} by growth; ${d.s.toFixed(1)} s)` : `exit ${d.code}; not found`, 'exit 1; +18 ms ±25 % + 3 ms, among the largest', ok ? 'PASS' : 'FAIL');
  } finally {
    await fs.rm(cache, { recursive: true, force: true });
    await fs.rm(repo, { recursive: true, force: true });
  }
}
