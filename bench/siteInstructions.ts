// Figure 14 of `npm run bench`: `measure SITE --site --instructions` on a 10-plugin calibration site with both cores
// busy: how long the run takes (the target: 3 minutes), each loop plugin's count in the site against the same loop
// counted alone (±2 %, plus the 0.1 M floor: WordPress's own cost of loading a plugin file), and whether the two
// plugins that do nothing read "within noise" in every context, alone and in the site. Full mode only;
// `WPB_SITE_INSTR_RUNS` sets the runs (default 2).
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { check, measureCli, type Status } from './common';
import { startLoad, stopLoad } from '../test/measure/loadSample';
import { countedAlone, countedWorkPlugin } from '../test/measure/countedWork';
import { countInNoise, INSTRUCTIONS_FLOOR } from '../src/core/measure/siteRun/sitePlan';
import type { SiteRecord } from '../src/core/measure/siteRun/siteRecord';

type RowFn = (id: string, figure: string, value: string, target: string, status: Status) => void;

/** The loops of the eight working plugins (iterations); two more plugins do nothing. */
const LOOPS = [5_000, 10_000, 20_000, 30_000, 40_000, 60_000, 80_000, 100_000];

export async function figureSiteInstructions(row: RowFn, details: Record<string, unknown>, quick: boolean, log: (s: string) => void): Promise<void> {
  const id = '14';
  if (quick) {
    row(id, 'site instructions: a 10-plugin --site --instructions, both cores busy', 'not measured (full mode only: about 8 minutes)', '-', 'not measured');
    return;
  }
  const runs = Number(process.env.WPB_SITE_INSTR_RUNS ?? 2);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-bench-site-instr-'));
  const measure = measureCli({ ...process.env, WPBENCH_CACHE_DIR: path.join(dir, 'cache') });
  const site = path.join(dir, 'site');
  const out: Record<string, unknown> = {};
  details.siteInstructions = out;
  const load = startLoad(3600);
  try {
    const put = async (rel: string, text: string) => {
      await fs.mkdir(path.dirname(path.join(site, rel)), { recursive: true });
      await fs.writeFile(path.join(site, rel), text);
    };
    // Each loop plugin its own function name (they load together).
    for (const [i, n] of LOOPS.entries()) await put(`wp-content/plugins/work-${i}/work-${i}.php`, countedWorkPlugin(n).replace(/counted_work/g, `counted_work_${i}`).replace('Counted work', `Counted work ${i}`));
    for (const s of ['noop-a', 'noop-b']) await put(`wp-content/plugins/${s}/${s}.php`, `<?php\n/**\n * Plugin Name: Does nothing ${s}\n * Version: 1.0\n */\nadd_action('init', function () {});\n`);
    const alone = LOOPS.map((n) => countedAlone(n, dir));
    const times: number[] = [];
    let worst = 0;
    const noisy: string[] = [];
    for (let r = 0; r < runs; r++) {
      const res = await measure([site, '--site', '--instructions', '--no-cache', '--json']);
      if (res.code !== 0) throw new Error(`--site --instructions exited ${res.code}: ${res.err.slice(-300)}`);
      times.push(res.s);
      const rec = JSON.parse(res.out) as SiteRecord;
      for (const [i] of LOOPS.entries()) {
        const c = rec.components.find((x) => x.slug === `work-${i}`);
        for (const ctx of ['activation', 'homepage', 'admin'] as const) {
          const n = c?.in_site?.contexts[ctx]?.instructions_delta;
          if (n === undefined) throw new Error(`work-${i} has no count in the site (${ctx})`);
          worst = Math.max(worst, (Math.abs(n - alone[i]) - INSTRUCTIONS_FLOOR) / alone[i]);
        }
      }
      for (const s of ['noop-a', 'noop-b']) {
        const c = rec.components.find((x) => x.slug === s);
        for (const ctx of ['activation', 'homepage', 'admin'] as const) for (const [how, f] of [['in the site', c?.in_site?.contexts[ctx]], ['alone', c?.alone?.contexts[ctx]]] as const) if (!f || !countInNoise(f)) noisy.push(`${s} ${how} ${ctx}: ${f?.instructions_delta ?? 'none'}`);
      }
      log(`site instructions #${r + 1}: ${res.s.toFixed(1)} s`);
    }
    Object.assign(out, { times, worstShareOverFloor: worst, noisy, alone });
    row(id, `site instructions: a 10-plugin --site --instructions, both cores busy, ${runs} runs`, times.map((t) => `${t.toFixed(0)} s`).join(', '), '≤ 180 s', check(times.every((t) => t <= 180)));
    row(id, 'site instructions: 8 loop plugins in the site vs the same loops counted alone (worst, beyond the 0.1 M floor)', `${(100 * Math.max(0, worst)).toFixed(2)} %`, '±2 %', check(worst <= 0.02));
    row(id, 'site instructions: two plugins that do nothing, alone and in the site, every context', noisy.length ? `outside noise: ${noisy.slice(0, 4).join('; ')}` : `within noise in all ${runs * 12}`, 'within noise', check(!noisy.length));
  } catch (e) {
    row(id, 'site instructions: a 10-plugin --site --instructions, both cores busy', `not measured (${(e as Error).message.split('\n')[0].slice(0, 160)})`, '-', 'not measured');
  } finally {
    await stopLoad(load);
    await fs.rm(dir, { recursive: true, force: true });
  }
}
