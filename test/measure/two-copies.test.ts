// Integration (issue 38): two copies of one plugin never see each other. Modelled on the Jetpack Autoloader (shipped by
// WooCommerce, Jetpack and many others): on every request and at activation, the plugin reads the active plugins and
// the plugin paths it cached in a transient, and loads the autoloader of each copy it finds — two copies declare the
// same class, so a copy that sees the other dies with "Cannot declare class". The working tree's copy and the
// `--baseline-ref` copy are measured on one throwaway site: each side (the clean site too) has tables of its own, so
// neither copy's activation, active_plugins or transient reaches the other. And a plugin that autoloads 320 KB of
// options pays them on its own side only: its memory is its cost, not the clean site's.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { measure, measureCompare, type MeasureOptions } from '../../src/core/measure/run/engine';

const ROOT = path.resolve(__dirname, '..', '..');
const CONTEXTS = ['activation', 'homepage', 'admin'] as const;

const LOADER = `<?php
// Each copy's own file, declaring one fixed class name (as a versioned autoloader does).
class Cal_Autoloader_Fixed { public static $from = __FILE__; }
`;

const MAIN = `<?php
/**
 * Plugin Name: Calibration autoloader user
 * Version: 1.0
 */
function cal_autoloader_paths() {
  $paths = (array) get_transient('cal_autoloader_paths');
  foreach ((array) get_option('active_plugins') as $p) $paths[] = WP_PLUGIN_DIR . '/' . dirname($p);
  $paths[] = __DIR__;
  return array_values(array_unique(array_filter($paths, 'is_string')));
}
// Like the Jetpack Autoloader: every copy found is loaded (a real one picks the newest; any two copies collide).
foreach (cal_autoloader_paths() as $dir) if (is_file($dir . '/vendor/cal-autoloader.php')) require_once $dir . '/vendor/cal-autoloader.php';
add_action('shutdown', function () { set_transient('cal_autoloader_paths', cal_autoloader_paths()); });
add_action('init', function () { global $wpdb; $wpdb->get_var('SELECT 1'); });
`;

describe('two copies of one plugin never see each other; a plugin\'s options are its own side\'s (issue 38)', function () {
  let work: string;
  const opts = (p: string, extra: Partial<MeasureOptions> = {}): MeasureOptions => ({
    path: p,
    runtime: 'php',
    rounds: 3,
    warmup: 1,
    env: { ...process.env, WPBENCH_CACHE_DIR: path.join(work, 'cache') },
    cwd: ROOT,
    noCache: true,
    ...extra,
  });

  before(async () => {
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-two-copies-'));
    for (const copy of ['tree', 'ref']) {
      const dir = path.join(work, copy, 'cal-autoload');
      await fs.mkdir(path.join(dir, 'vendor'), { recursive: true });
      await fs.writeFile(path.join(dir, 'cal-autoload.php'), MAIN);
      await fs.writeFile(path.join(dir, 'vendor', 'cal-autoloader.php'), LOADER);
    }
  });
  after(async () => {
    await fs.rm(work, { recursive: true, force: true });
  });

  it('a plugin whose autoloader loads every active copy compares with an identical copy of itself: both measured, 1 query each, in every context', async () => {
    const out = await measureCompare(opts(path.join(work, 'tree', 'cal-autoload')), path.join(work, 'ref', 'cal-autoload'));
    for (const rec of [out.current, out.baseline]) {
      for (const c of CONTEXTS) {
        assert.ok(rec.contexts[c], `${c} measured: ${JSON.stringify(rec.local.null_reasons)}`);
        assert.equal(rec.contexts[c]!.queries_delta, 1, `${c} queries`);
      }
    }
  });

  it('320 KB of autoloaded options are the plugin\'s cost on the homepage (its side only), not the clean site\'s', async () => {
    const dir = path.join(work, 'autoload', 'cal-options');
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(
      path.join(dir, 'cal-options.php'),
      "<?php\n/**\n * Plugin Name: Calibration autoloaded options\n * Version: 1.0\n */\nregister_activation_hook(__FILE__, function () { for ($i = 0; $i < 4; $i++) add_option('cal_cache_' . $i, str_repeat(chr(97 + $i), 80 * 1024), '', 'yes'); });\n",
    );
    const r = await measure(opts(dir));
    // Loaded with every other autoloaded option on every request: at least the 320 KB of their values.
    for (const c of ['homepage', 'admin'] as const) assert.ok(r.contexts[c]!.memory_delta_kb >= 300, `${c}: ${r.contexts[c]!.memory_delta_kb} KB`);
  });
});
