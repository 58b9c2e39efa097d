// Integration: `measure --browser` with real PHP, MariaDB and Chromium on calibration plugins BUILT by the test
// (browserPlugins.ts): each figure moves where its plugin is built to move it, relative to the others and to the
// clean side (no time is asserted: the ±15 % calibrations are `npm run bench`'s browser figure), the plugin with no
// front end reads within noise everywhere, and a hostile page script reaches nothing but the site. Nothing is left
// behind: no Chromium, no gate, no folder.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { measure } from '../../src/core/measure/run/engine';
import { browserWithinNoise } from '../../src/core/measure/browser/figures';
import type { BrowserDelta, BrowserInfo, BrowserLoad } from '../../src/core/measure/browser/types';
import type { LocalRecord } from '../../src/core/measure/record/method';
import { afterLoadWork, footerWork, headWork, heroImage, hostilePage, lateBanner, noFrontEnd, writeCalibration, type Calibration } from './browserPlugins';
import { measureCli, nativeMeasureSuite } from './helpers';

const ROOT = path.resolve(__dirname, '..', '..');

describe('wp-bench measure --browser (native php, MariaDB, Chromium)', () => {
  const { opts } = nativeMeasureSuite(ROOT);
  let dir: string;
  const results = new Map<string, { record: LocalRecord; loads: BrowserLoad[]; lines: string[] }>();
  const delta = (slug: string): BrowserDelta => {
    const d = results.get(slug)?.record.contexts.homepage?.browser;
    assert.ok(d, `${slug}: no browser figures (${results.get(slug)?.lines.filter((l) => /browser|warning/i.test(l)).join(' | ')})`);
    return d;
  };

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-browser-'));
  });
  after(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  async function run(c: Calibration, browserRounds = 3): Promise<void> {
    const p = await writeCalibration(dir, c);
    const lines: string[] = [];
    let loads: BrowserLoad[] = [];
    const record = await measure(opts(p, { rounds: 1, warmup: 0, browser: true, browserRounds, progress: (l) => lines.push(l), onBrowserLoads: (l) => (loads = l) }));
    results.set(c.slug, { record, loads, lines });
  }

  it('a head script doing 500 ms of work before the first paint moves FCP and is render-blocking; the same in the footer blocks after the paint (TBT)', async () => {
    await run(headWork(500), 5);
    await run(footerWork(500), 5);
    const head = delta('calib-head');
    const foot = delta('calib-footer');
    assert.equal(head.render_blocking, 1);
    assert.equal(foot.render_blocking, 0);
    assert.equal(browserWithinNoise(head, 'fcp_ms'), false, `head FCP ${head.fcp_ms} ± ${head.spread.fcp_ms}`);
    assert.ok(head.fcp_ms > foot.fcp_ms, `head FCP +${head.fcp_ms}, footer FCP +${foot.fcp_ms}`);
    assert.ok(foot.tbt_ms > head.tbt_ms, `footer TBT +${foot.tbt_ms}, head TBT +${head.tbt_ms}`);
    // Its own script is named, with its handle and its main-thread time, largest of its files.
    const asset = head.assets.find((a) => a.url === '/wp-content/plugins/calib-head/head.js');
    assert.ok(asset, JSON.stringify(head.assets));
    assert.equal(asset.handle, 'calib-head');
    assert.equal(asset.render_blocking, true);
    assert.ok((asset.main_thread_ms ?? 0) > (head.assets.find((a) => a.type !== 'script')?.main_thread_ms ?? 0));
    // The record says how the figures were taken, and the clean side's own medians.
    const info = results.get('calib-head')!.record.local.browser as BrowserInfo;
    assert.equal(info.device, 'desktop');
    assert.equal(info.rounds, 5);
    assert.equal(info.profile.rtt_ms, 40);
    assert.match(info.chromium, /^\d+\./);
    // Where PHP had a sandbox with its own network, Chromium has one too.
    if (results.get('calib-head')!.record.local.network === 'isolated') assert.equal(info.sandbox, 'bubblewrap');
    assert.ok(results.get('calib-head')!.record.local.baseline.homepage?.browser?.fcp_ms);
  });

  it('work after the load event is blocking time, not a later first paint', async () => {
    await run(afterLoadWork(400));
    const late = delta('calib-late');
    assert.equal(browserWithinNoise(late, 'tbt_ms'), false, `TBT ${late.tbt_ms} ± ${late.spread.tbt_ms}`);
    assert.ok(late.fcp_ms < delta('calib-head').fcp_ms, `late FCP +${late.fcp_ms}`);
    assert.equal(late.render_blocking, 0);
  });

  it('a banner pushed in after load is layout shift, seen while the page settles', async () => {
    await run(lateBanner(200));
    const b = delta('calib-banner');
    assert.equal(browserWithinNoise(b, 'cls'), false, `CLS ${b.cls} ± ${b.spread.cls}`);
    assert.ok(b.cls > 0.05, `CLS ${b.cls}`);
  });

  it('a hero image: its bytes (±15 % of the file: bytes are no time) and a later largest paint', async () => {
    const hero = heroImage();
    await run(hero, 5);
    const h = delta('calib-hero');
    const kb = (hero.files['hero.png'] as Buffer).length / 1024;
    assert.ok(Math.abs(h.bytes_kb - kb) <= 0.15 * kb, `+${h.bytes_kb} KB for a ${kb.toFixed(1)} KB image`);
    assert.equal(h.requests, 1);
    // The largest paint of every load with the plugin is its image (how much later it comes than the clean side's is
    // the bench's ±15 % figure: a time, never asserted here).
    const loads = results.get('calib-hero')!.loads;
    for (const l of loads.filter((x) => x.side === 'measured')) assert.equal(l.lcp_url, '/wp-content/plugins/calib-hero/hero.png');
    for (const l of loads.filter((x) => x.side === 'baseline')) assert.notEqual(l.lcp_url, '/wp-content/plugins/calib-hero/hero.png');
    const asset = h.assets.find((a) => a.url === '/wp-content/plugins/calib-hero/hero.png');
    assert.equal(asset?.type, 'image');
  });

  it('a plugin with no front end reads within noise on every browser figure', async () => {
    await run(noFrontEnd(), 7);
    const n = delta('calib-none');
    for (const k of ['bytes_kb', 'fcp_ms', 'lcp_ms', 'tbt_ms', 'cls'] as const) assert.equal(browserWithinNoise(n, k), true, `${k}: ${n[k]} ± ${n.spread[k]}`);
    assert.equal(n.requests, 0);
    assert.equal(n.render_blocking, 0);
    assert.deepEqual(n.assets, []);
  });

  it('every request of a load went to its own side: the clean side never loads the component’s files', () => {
    for (const [slug, r] of results) {
      assert.ok(r.loads.length >= 6, slug);
      for (const l of r.loads.filter((x) => x.side === 'baseline')) assert.ok(!l.requests.some((q) => q.url.includes(`/plugins/${slug}/`)), `${slug}: the clean side loaded ${l.requests.map((q) => q.url).join(', ')}`);
      for (const l of r.loads.filter((x) => x.side === 'measured' && slug !== 'calib-none')) assert.ok(l.requests.some((q) => q.url.includes(`/plugins/${slug}/`)), `${slug}: the measured side never loaded its files`);
    }
  });

  it('a hostile page script reaches nothing but the site: no fetch, image, beacon, WebSocket or file: frame', async () => {
    const hits: string[] = [];
    const listen = (host: string) =>
      new Promise<net.Server>((resolve) => {
        const s = net.createServer((c) => {
          hits.push(`${host}:${(s.address() as net.AddressInfo).port}`);
          c.destroy();
        });
        s.listen(0, host, () => resolve(s));
      });
    const outside = await listen('127.0.0.2');
    const other = await listen('127.0.0.1');
    try {
      const port = (outside.address() as net.AddressInfo).port;
      await run(hostilePage('127.0.0.2', port, (other.address() as net.AddressInfo).port));
      assert.deepEqual(hits, []);
      const info = results.get('calib-hostile')!.record.local.browser as BrowserInfo;
      assert.ok(info.blocked?.includes(`127.0.0.2:${port}`), JSON.stringify(info.blocked));
      // The page's own X-WPBench-Side header chose nothing: the measured side's loads all carry the component.
      for (const l of results.get('calib-hostile')!.loads.filter((x) => x.side === 'measured')) assert.ok(l.requests.some((q) => q.url.startsWith('/wp-content/plugins/calib-hostile/')));
    } finally {
      outside.close();
      other.close();
    }
  });

  it('the CLI prints the browser block, and no Chromium outlives the run', async () => {
    const p = await writeCalibration(dir, headWork(100));
    const r = await measureCli([p, '--runtime', 'php', '--rounds', '1', '--warmup', '0', '--no-cache', '--browser', '--browser-rounds', '1'], { ...process.env, WPBENCH_CACHE_DIR: path.join(dir, 'cache') });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Browser — what the visitor pays on the homepage: Chromium \d+/);
    assert.match(r.out, /Render-blocking\s+\+1/);
    assert.match(r.out, /\/wp-content\/plugins\/calib-head\/head\.js \(script, handle calib-head\)/);
  });

  it('without Chromium: said with the command to install it, measured without (exit 0)', async () => {
    const p = await writeCalibration(dir, noFrontEnd());
    const r = await measureCli([p, '--runtime', 'php', '--rounds', '1', '--warmup', '0', '--no-cache', '--browser', '--json'], { ...process.env, WPBENCH_CHROMIUM: path.join(dir, 'no-such-chromium'), WPBENCH_CACHE_DIR: path.join(dir, 'cache') });
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /Chromium was not found: install Chromium \(Debian\/Ubuntu: sudo apt install chromium/);
    const rec = JSON.parse(r.out) as LocalRecord;
    assert.match((rec.local.browser as { unavailable: string }).unavailable, /sudo apt install chromium/);
    assert.equal(rec.contexts.homepage?.browser, undefined);
  });
});
