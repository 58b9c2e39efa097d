// Integration (issue 45): components measured as WordPress finds them, with the native php runtime on a throwaway
// MariaDB. A calibration site written here, modelled on real plugins:
// - `cal-facet`: a folder plugin whose only top-level PHP file is `index.php` (FacetWP's shape), its code in a
//   sub-folder it includes: a 200 KiB string and one query on init. Given by its main file, by its folder, and in
//   `--site`, it reads that cost (measured as a single file it read ±0: its include failed silently);
// - `cal-shop-addon`: an add-on with `Requires Plugins: woocommerce` that does nothing without WooCommerce, and
//   `cal-theme-addon`, one with no header that only shows an admin notice ("requires the Calibration theme"), as Astra
//   Pro does without Astra: measured alone, "did nothing measurable here — it needs …", no grade (it read grade A).
// Memory and queries are exact here, so the figures are asserted tightly. Slow (a real WordPress per measurement).
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { measure } from '../../src/core/measure/run/engine';
import type { SiteRecord } from '../../src/core/measure/siteRun/siteRecord';
import { measureTable } from '../../src/core/report/measureText';
import { runCli } from '../../src/cli';
import { git, measureCli, nativeMeasureSuite } from './helpers';

const ROOT = path.resolve(__dirname, '..', '..');
const CONTEXTS = ['activation', 'homepage', 'admin'] as const;
/** the folder plugin's work: 200 KiB kept, one query */
const FACET_KB = 200;

async function writeSite(dir: string): Promise<void> {
  const put = async (rel: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), text);
  };
  await put('wp-content/plugins/cal-facet/index.php', "<?php\n/**\n * Plugin Name: Calibration facet (index.php, code in includes/)\n * Version: 1.0\n */\ndefined('ABSPATH') || exit;\ninclude __DIR__ . '/includes/class-init.php';\n");
  await put(
    'wp-content/plugins/cal-facet/includes/class-init.php',
    `<?php\n$GLOBALS['cal_facet'] = str_repeat('f', ${FACET_KB} * 1024);\nadd_action('init', function () { global $wpdb; $wpdb->get_var('SELECT 45'); });\n`,
  );
  await put('wp-content/plugins/cal-facet/assets/front.js', '/* the front end */\n');
  await put(
    'wp-content/plugins/cal-shop-addon/cal-shop-addon.php',
    "<?php\n/**\n * Plugin Name: Calibration shop add-on\n * Version: 1.0\n * Requires Plugins: woocommerce\n */\nadd_action('plugins_loaded', function () {\n  if (!class_exists('WooCommerce')) return;\n  $GLOBALS['cal_shop'] = str_repeat('s', 512 * 1024);\n});\n",
  );
  await put(
    'wp-content/plugins/cal-theme-addon/cal-theme-addon.php',
    "<?php\n/**\n * Plugin Name: Calibration Pro\n * Version: 1.0\n */\nif ('cal-parent' !== get_template()) {\n  add_action('admin_notices', function () { echo '<div class=\"notice notice-error\"><p><strong>Calibration Pro</strong> requires the Calibration theme to be active.</p></div>'; });\n  return;\n}\n$GLOBALS['cal_pro'] = str_repeat('p', 512 * 1024);\n",
  );
}

describe('wp-bench measure: components found as WordPress finds them (native php, a throwaway MariaDB)', function () {
  let dir: string;
  const { opts } = nativeMeasureSuite(ROOT);
  const rounds = { rounds: 3, warmup: 1 };
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-shapes-'));
    await writeSite(dir);
  });
  after(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });
  const plugin = (...rel: string[]) => path.join(dir, 'wp-content', 'plugins', ...rel);

  const assertFacet = (contexts: Record<string, { memory_delta_kb: number; queries_delta: number } | null>, what: string) => {
    for (const c of CONTEXTS) {
      const m = contexts[c];
      assert.ok(m, `${what}, ${c}: measured`);
      assert.equal(m.queries_delta, 1, `${what}, ${c}: its one query (${JSON.stringify(m)})`);
      assert.ok(Math.abs(m.memory_delta_kb - FACET_KB) <= 32, `${what}, ${c}: its ${FACET_KB} KiB (${JSON.stringify(m)})`);
    }
  };

  it('a folder plugin given by its index.php (its code in includes/): the whole folder is measured, its real cost', async () => {
    const r = await measure(opts(plugin('cal-facet', 'index.php'), rounds));
    assertFacet(r.contexts, 'by index.php');
    assert.equal(r.slug, 'cal-facet');
  });

  it('the same folder plugin given by its folder: the same cost', async () => {
    const r = await measure(opts(plugin('cal-facet'), rounds));
    assertFacet(r.contexts, 'by folder');
  });

  it('--site: the folder plugin is a member whole, alone and in the site', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const cache = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-shapes-cache-'));
    const code = await runCli(['measure', dir, '--site', '--json', '--runtime', 'php', '--rounds', '3', '--warmup', '1'], { out: (t) => out.push(t), err: (t) => err.push(t), env: { ...process.env, WPBENCH_CACHE_DIR: cache }, cwd: ROOT }).finally(() => fs.rm(cache, { recursive: true, force: true }));
    assert.equal(code, 0, err.join('\n').slice(-3000));
    const rec = JSON.parse(out.join('\n')) as SiteRecord;
    const facet = rec.components.find((c) => c.slug === 'cal-facet')!;
    assert.equal(facet.left_out ?? null, null, String(facet.left_out));
    assertFacet(facet.alone!.contexts, '--site, alone');
    assertFacet(facet.in_site!.contexts, '--site, in the site');
  });

  it('--baseline-ref HEAD, given by index.php: both copies are the whole folder (a change in includes/ is measured)', async () => {
    const repo = path.join(dir, 'repo');
    await fs.cp(plugin('cal-facet'), path.join(repo, 'cal-facet'), { recursive: true });
    git(repo, 'init', '-q');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'one query');
    await fs.writeFile(path.join(repo, 'cal-facet', 'includes', 'class-init.php'), `<?php\n$GLOBALS['cal_facet'] = str_repeat('f', ${FACET_KB} * 1024);\nadd_action('init', function () { global $wpdb; for ($i = 0; $i < 3; $i++) $wpdb->get_var('SELECT ' . $i); });\n`);
    const cache = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-shapes-cache-'));
    const r = await measureCli([path.join(repo, 'cal-facet', 'index.php'), '--baseline-ref', 'HEAD', '--json', '--runtime', 'php', '--rounds', '5', '--warmup', '1', '--no-cache'], { ...process.env, WPBENCH_CACHE_DIR: cache }).finally(() => fs.rm(cache, { recursive: true, force: true }));
    const j = JSON.parse(r.out) as { current: { contexts: Record<string, { queries_delta: number }> }; baseline: { contexts: Record<string, { queries_delta: number }> } };
    assert.ok(j.current && j.baseline, `${r.out.slice(0, 600)}\n${r.err.slice(-800)}`);
    for (const c of CONTEXTS) assert.deepEqual([j.current.contexts[c].queries_delta, j.baseline.contexts[c].queries_delta], [3, 1], `${c}: ${r.err.slice(-1500)}`);
  });

  it('an add-on with Requires Plugins: woocommerce, measured alone: "did nothing measurable here — it needs woocommerce", no grade', async () => {
    const r = await measure(opts(plugin('cal-shop-addon'), rounds));
    assert.equal(r.speed_score, null, JSON.stringify({ contexts: r.contexts, spread: r.local.spread, needs: r.local.needs }));
    assert.deepEqual(r.local.needs, { plugins: ['woocommerce'], did_nothing: true, note: 'did nothing measurable here — it needs woocommerce (its Requires Plugins header), which this site does not have' });
    assert.match(measureTable(r), /^Did nothing measurable here — it needs woocommerce .*: no grade\.$/m);
  });

  it('an add-on with no header that only shows an admin notice (Astra Pro without Astra): it needs what its notice says, no grade', async () => {
    const r = await measure(opts(plugin('cal-theme-addon'), rounds));
    assert.equal(r.speed_score, null, JSON.stringify({ contexts: r.contexts, spread: r.local.spread, needs: r.local.needs }));
    assert.equal(r.local.needs?.did_nothing, true, JSON.stringify(r.local.needs));
    assert.deepEqual(r.local.needs?.plugins, []);
    assert.equal(r.local.needs?.notice, 'Calibration Pro requires the Calibration theme to be active.');
    assert.match(measureTable(r), /^Did nothing measurable here — it needs what its own admin notice says: "Calibration Pro requires the Calibration theme to be active\.": no grade\.$/m);
  });
});
