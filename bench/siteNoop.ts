// Figure 13 of `npm run bench`: "in this site" time that holds (issue 45). The calibration site of
// test/measure/noopSite.ts (four plugins, two of which do nothing) measured with `--site` several times on a quiet
// machine and several times with both cores busy: of each no-op member's figures (in the site and alone, three
// contexts: 12 a run), how many read outside their noise (the target: none), and what the runs took. Full mode only;
// `WPB_NOOP_RUNS` sets the runs per load (default 5).
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { check, measureCli, type Status } from './common';
import { startLoad, stopLoad } from '../test/measure/loadSample';
import { noopOutside, writeNoopSite } from '../test/measure/noopSite';
import type { SiteRecord } from '../src/core/measure/siteRun/siteRecord';

type RowFn = (id: string, figure: string, value: string, target: string, status: Status) => void;

export async function figureSiteNoop(row: RowFn, details: Record<string, unknown>, quick: boolean, log: (s: string) => void): Promise<void> {
  const id = '13';
  if (quick) {
    row(id, 'measure --site: a member that does nothing, outside noise', 'not measured (full mode only: about 10 minutes with 5 runs a load)', '-', 'not measured');
    return;
  }
  const runs = Number(process.env.WPB_NOOP_RUNS ?? 5);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-bench-site-noop-'));
  const measure = measureCli({ ...process.env, WPBENCH_CACHE_DIR: path.join(dir, 'cache') });
  const out: Record<string, unknown> = {};
  details.siteNoop = out;
  try {
    await writeNoopSite(path.join(dir, 'site'));
    for (const load of ['quiet', 'both cores busy'] as const) {
      const busy = load === 'quiet' ? [] : startLoad(3600);
      let figures = 0;
      let runsOutside = 0;
      const outside: string[] = [];
      const seconds: number[] = [];
      try {
        for (let i = 0; i < runs; i++) {
          const r = await measure([path.join(dir, 'site'), '--site', '--json']);
          if (r.code !== 0) throw new Error(`measure --site exited ${r.code}: ${r.err.slice(-300)}`);
          const n = noopOutside(JSON.parse(r.out) as SiteRecord);
          figures += n.figures;
          runsOutside += n.outside.length ? 1 : 0;
          outside.push(...n.outside.map((x) => `run ${i + 1}: ${x}`));
          seconds.push(r.s);
          log(`site no-op (${load}) #${i + 1}: ${n.outside.length} of ${n.figures} outside noise, ${r.s.toFixed(1)} s`);
        }
      } finally {
        await stopLoad(busy);
      }
      out[load] = { runs, figures, outside, seconds };
      row(
        id,
        `measure --site, 2 no-op members of 4, ${load}, ${runs} runs: their figures read outside noise`,
        `${outside.length} of ${figures} (in ${runsOutside} of ${runs} runs); ${Math.min(...seconds).toFixed(0)}–${Math.max(...seconds).toFixed(0)} s a run`,
        '0',
        check(outside.length === 0),
      );
    }
  } catch (e) {
    row(id, 'measure --site: a member that does nothing, outside noise', `not measured (${(e as Error).message.split('\n')[0].slice(0, 160)})`, '-', 'not measured');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
