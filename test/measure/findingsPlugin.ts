// The calibration plugin of `measure --findings` (issue 39): each kind of finding at a known line, each beside a
// look-alike that is fine and must not be reported. Written into a folder by the tests and the bench; the lines are
// found by their markers (a comment "@defect KIND" or "@fine KIND" on the line itself). Not a test file.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export const FINDINGS_SLUG = 'acme-findings';

const MAIN = `<?php
/**
 * Plugin Name: Acme findings calibration
 * Version: 1.0
 */
require __DIR__ . '/inc/options.php';
require __DIR__ . '/inc/front.php';
require __DIR__ . '/inc/admin.php';
require __DIR__ . '/inc/vendors.php';
register_activation_hook(__FILE__, 'acme_activate');
`;

const OPTIONS = `<?php
// Options: one autoloaded and never read on the front end, one autoloaded and read there, one not autoloaded.
function acme_activate() {
  $cache = str_repeat('c', 200 * 1024);
  add_option('acme_cache', $cache); // @defect autoloaded-option
  add_option('acme_settings', array('color' => 'blue'), '', 'yes'); // @fine autoloaded-option (read on init)
  add_option('acme_log', str_repeat('l', 200 * 1024), '', 'no'); // @fine autoloaded-option (not autoloaded)
}
add_action('init', function () {
  $s = get_option('acme_settings');
  if (!get_option('acme_counter_seeded')) update_option('acme_counter_seeded', 1, false); // @fine autoloaded-option (autoload off)
  return $s;
});
`;

const FRONT = `<?php
// The front end: a query in a loop, a remote call on every page, scripts in the head and the footer.
add_action('wp', function () {
  if (is_admin()) return;
  global $wpdb;
  for ($i = 0; $i < 6; $i++) {
    $wpdb->get_var($wpdb->prepare("SELECT option_value FROM {$wpdb->options} WHERE option_name = %s", 'acme_k' . $i)); // @defect repeated-query
  }
  for ($i = 0; $i < 4; $i++) {
    $wpdb->get_var($wpdb->prepare("SELECT option_id FROM {$wpdb->options} WHERE option_name = %s", 'acme_j' . $i)); // @fine repeated-query (4 times)
  }
  wp_remote_get('https://status.acme.example/v1/ping'); // @defect remote-request
  if (false === get_transient('acme_remote_cached')) {
    wp_remote_get('https://cached.acme.example/v1/data'); // @fine remote-request (first request only)
    set_transient('acme_remote_cached', 1, HOUR_IN_SECONDS);
  }
});
add_action('wp_enqueue_scripts', function () {
  wp_enqueue_script('acme-head', plugins_url('assets/head.js', dirname(__FILE__)), array(), '1.0'); // @defect render-blocking-script
  wp_enqueue_script('acme-foot', plugins_url('assets/foot.js', dirname(__FILE__)), array(), '1.0', true); // @fine render-blocking-script (footer)
  wp_enqueue_script('acme-deferred', plugins_url('assets/deferred.js', dirname(__FILE__)), array(), '1.0'); // @fine render-blocking-script (defer added)
  wp_enqueue_script('acme-big', plugins_url('assets/big.js', dirname(__FILE__)), array(), '1.0', true); // @defect large-asset
  wp_enqueue_script('acme-medium', plugins_url('assets/medium.js', dirname(__FILE__)), array(), '1.0', true); // @fine large-asset (290,000 bytes)
});
add_filter('script_loader_tag', function ($tag, $handle) {
  return $handle === 'acme-deferred' ? str_replace(' src=', ' defer src=', $tag) : $tag;
}, 10, 2);
`;

const ADMIN = `<?php
// Admin: one stylesheet on every screen, one script on the plugin's own screen only.
add_action('admin_menu', function () {
  add_options_page('Acme', 'Acme', 'manage_options', 'acme', function () { echo 'Acme'; });
});
add_action('admin_enqueue_scripts', function ($hook) {
  wp_enqueue_style('acme-admin', plugins_url('assets/admin.css', dirname(__FILE__)), array(), '1.0'); // @defect admin-asset-everywhere
  if ($hook === 'settings_page_acme') wp_enqueue_script('acme-settings', plugins_url('assets/settings.js', dirname(__FILE__)), array(), '1.0', true); // @fine admin-asset-everywhere (own screen)
});
`;

// Modelled on MonsterInsights's "monsterinsights-vue-vendors": the dashboard registers the handle early with its full
// bundle (WordPress keeps that registration), every screen enqueues the same handle with another file later (on the
// dashboard that src is refused: the first registration wins). And jQuery enqueued on every admin screen, which
// WordPress's admin already prints everywhere.
const VENDORS = `<?php
// Admin: one handle, two files; jQuery.
add_action('admin_enqueue_scripts', function ($hook) {
  if ($hook !== 'index.php') return;
  wp_register_script('acme-vendors', plugins_url('assets/vendors-full.js', dirname(__FILE__)), array(), '1.0', true); // @defect large-asset
  wp_enqueue_script('acme-vendors'); // @fine admin-asset-everywhere (the dashboard's own enqueue)
}, 5);
add_action('admin_enqueue_scripts', function () {
  wp_enqueue_script('acme-vendors', plugins_url('assets/vendors.js', dirname(__FILE__)), array(), '1.0', true); // @defect admin-asset-everywhere
  wp_enqueue_script('jquery'); // @fine admin-asset-everywhere (WordPress's admin prints jQuery on every screen)
}, 20);
`;

export const FINDINGS_FILES: Record<string, string> = { 'acme-findings.php': MAIN, 'inc/options.php': OPTIONS, 'inc/front.php': FRONT, 'inc/admin.php': ADMIN, 'inc/vendors.php': VENDORS };

/**
 * Bytes of each asset: big.js over Plugin Check's 300,000, medium.js under it; vendors-full.js (the dashboard's
 * registration) over it, vendors.js (every screen's, refused on the dashboard) under it; the rest small.
 */
export const ASSET_BYTES: Record<string, number> = { 'head.js': 2000, 'foot.js': 1500, 'deferred.js': 1200, 'big.js': 320_000, 'medium.js': 290_000, 'admin.css': 24_000, 'settings.js': 900, 'vendors-full.js': 640_000, 'vendors.js': 185_000 };

/** Writes the plugin into dir/acme-findings and returns its folder. */
export async function writeFindingsPlugin(dir: string): Promise<string> {
  const root = path.join(dir, FINDINGS_SLUG);
  for (const [rel, text] of Object.entries(FINDINGS_FILES)) {
    await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await fs.writeFile(path.join(root, rel), text);
  }
  await fs.mkdir(path.join(root, 'assets'), { recursive: true });
  for (const [name, bytes] of Object.entries(ASSET_BYTES)) {
    const comment = name.endsWith('.css') ? '/* acme */\n' : '// acme\n';
    await fs.writeFile(path.join(root, 'assets', name), comment + 'x'.repeat(bytes - comment.length));
  }
  return root;
}

/** Where each marker is: "@defect KIND" / "@fine KIND" → [{ file, line }]. */
export function markers(kind: 'defect' | 'fine'): { kind: string; file: string; line: number }[] {
  const out: { kind: string; file: string; line: number }[] = [];
  for (const [file, text] of Object.entries(FINDINGS_FILES)) {
    text.split('\n').forEach((l, i) => {
      const m = new RegExp(`@${kind} ([a-z-]+)`).exec(l);
      if (m) out.push({ kind: m[1], file, line: i + 1 });
    });
  }
  return out;
}
