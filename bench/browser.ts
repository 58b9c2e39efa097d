// Figure 15 of `npm run bench`: `measure --browser` on the calibration plugins of known front-end cost
// (test/measure/browserPlugins.ts), each figure against what the plugin is built to cost (±15 %): a head script's
// 300 ms of work moves FCP by the work and the round trip that fetches it; the same work in the footer is 250 ms of
// TBT (300 − 50); 250 ms after load is 200 ms of TBT; a 200 px banner pushed into a stage covering the viewport is a
// shift of 200 / 1350 (desktop); a hero image's bytes are its file and its LCP the time to send it at 10,240 kb/s plus
// a round trip; a plugin without a front end is within noise on every figure. And what --browser adds to a run.
// Full mode only (about 5 minutes, the machine quiet).
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { check, measureCli, type Status } from './common';
import { afterLoadWork, footerWork, headWork, heroImage, lateBanner, noFrontEnd, writeCalibration, type Calibration } from '../test/measure/browserPlugins';
import { browserWithinNoise } from '../src/core/measure/browser/figures';
import { DESKTOP, type BrowserDelta } from '../src/core/measure/browser/types';

type RowFn = (id: string, figure: string, value: string, target: string, status: Status) => void;

const within = (x: number, expected: number, pct = 15) => Math.abs(x - expected) <= (pct / 100) * expected;

export async function figureBrowser(row: RowFn, details: Record<string, unknown>, quick: boolean, log: (s: string) => void): Promise<void> {
  const id = '15';
  if (quick) {
    row(id, 'browser: calibration plugins of known front-end cost', 'not measured (full mode only: about 5 minutes)', '-', 'not measured');
    return;
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-bench-browser-'));
  const env = { ...process.env, WPBENCH_CACHE_DIR: path.join(dir, 'cache') };
  const measure = measureCli(env);
  const out: Record<string, unknown> = {};
  details.browser = out;
  const rtt = DESKTOP.rtt_ms;
  try {
    const run = async (c: Calibration): Promise<{ d: BrowserDelta; s: number }> => {
      const p = await writeCalibration(dir, c);
      const r = await measure([p, '--json', '--no-cache', '--browser']);
      if (r.code !== 0) throw new Error(`measure --browser exited ${r.code}: ${r.err.slice(-300)}`);
      const d = (JSON.parse(r.out) as { contexts: { homepage: { browser?: BrowserDelta } } }).contexts.homepage.browser;
      if (!d) throw new Error(`${c.slug}: no browser figures: ${r.err.slice(-300)}`);
      log(`browser: ${c.slug}: ${JSON.stringify({ ...d, assets: undefined })} in ${r.s.toFixed(1)} s`);
      out[c.slug] = { ...d, seconds: r.s };
      return { d, s: r.s };
    };
    const head = (await run(headWork(300))).d;
    row(id, 'browser: head script, 300 ms of work before the first paint: FCP', `+${head.fcp_ms} ms (spread ${head.spread.fcp_ms}), TBT +${head.tbt_ms} ms`, `300 + ${rtt} ms RTT ±15 %`, check(within(head.fcp_ms, 300 + rtt)));
    const foot = (await run(footerWork(300))).d;
    row(id, 'browser: the same work in the footer: TBT', `+${foot.tbt_ms} ms (spread ${foot.spread.tbt_ms}), FCP +${foot.fcp_ms} ms`, '250 ms ±15 %', check(within(foot.tbt_ms, 250)));
    const late = (await run(afterLoadWork(250))).d;
    row(id, 'browser: 250 ms of work after load: TBT', `+${late.tbt_ms} ms (spread ${late.spread.tbt_ms})`, '200 ms ±15 %', check(within(late.tbt_ms, 200)));
    const banner = (await run(lateBanner(200))).d;
    const cls = 200 / Math.max(DESKTOP.width, DESKTOP.height);
    row(id, 'browser: a 200 px banner pushed in after load: CLS', `+${banner.cls} (spread ${banner.spread.cls})`, `${cls.toFixed(3)} ±15 %`, check(within(banner.cls, cls)));
    const heroCal = heroImage();
    const bytes = (heroCal.files['hero.png'] as Buffer).length;
    const hero = (await run(heroCal)).d;
    const sendMs = (bytes * 8 * 1000) / (DESKTOP.throughput_kbps * 1024) + rtt;
    row(id, 'browser: hero image: bytes', `+${hero.bytes_kb} KB`, `${(bytes / 1024).toFixed(1)} KB ±15 %`, check(within(hero.bytes_kb, bytes / 1024)));
    row(id, 'browser: hero image: LCP', `+${hero.lcp_ms} ms (spread ${hero.spread.lcp_ms})`, `${sendMs.toFixed(0)} ms ±15 % (its bytes at 10,240 kb/s + RTT)`, check(within(hero.lcp_ms, sendMs)));
    const none = await run(noFrontEnd());
    const quiet = (['bytes_kb', 'fcp_ms', 'lcp_ms', 'tbt_ms', 'cls'] as const).filter((k) => !browserWithinNoise(none.d, k));
    row(id, 'browser: a plugin with no front end', quiet.length ? `outside noise: ${quiet.join(', ')}` : 'every figure within noise', 'every figure within noise', check(quiet.length === 0 && none.d.requests === 0));
    const plain = await measure([path.join(dir, 'calib-none'), '--no-cache']);
    row(id, 'browser: time --browser adds to a plugin\'s run (quiet)', `${none.s.toFixed(1)} s with, ${plain.s.toFixed(1)} s without (+${(none.s - plain.s).toFixed(1)} s)`, '≤ +30 s', check(none.s - plain.s <= 30));
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
