// The endpoints WP Bench writes into a throwaway site and requests: the activation context's boot, the component's
// activation measured apart, and the installer (see phpFiles.ts for the php/ folder).
import { phpString } from './phpFiles';

/** The activation context's endpoint: boots WordPress with everything active and renders nothing. */
export const BOOT_ENDPOINT = `<?php
define('WP_USE_THEMES', false);
require __DIR__ . '/wp-load.php';
`;

/** Activates the component once, measuring its activation apart (time, memory, queries, output, error). */
export const ACTIVATE_ENDPOINT = `<?php
define('WPBENCH_ACTIVATING', true);
require __DIR__ . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/plugin.php';
require_once ABSPATH . 'wp-admin/includes/theme.php';
header('Content-Type: application/json');
if (!isset($_GET['key']) || !hash_equals(WPBENCH_KEY, (string) $_GET['key'])) { http_response_code(403); exit; }
wp_set_current_user(1);
// The copy to activate ("ref": the --baseline-ref copy); the side filters are dropped so the option is written whole.
$wpbench_ref = isset($_SERVER['HTTP_X_WPBENCH_SIDE']) && $_SERVER['HTTP_X_WPBENCH_SIDE'] === 'ref' && WPBENCH_REF_TARGET !== '';
// The clean side of a theme's run (its own tables): the baseline theme switched to as the theme is on its side, so both
// sides have been through switch_theme() alike (theme mods, theme_switched). A plugin's clean side has nothing to do.
$wpbench_base = isset($_SERVER['HTTP_X_WPBENCH_SIDE']) && $_SERVER['HTTP_X_WPBENCH_SIDE'] === 'baseline';
if ($wpbench_base && WPBENCH_KIND !== 'theme') { echo json_encode(array('error' => null, 'note' => 'nothing to switch')); exit; }
$wpbench_target = $wpbench_base ? WPBENCH_BASE_THEME : ($wpbench_ref ? WPBENCH_REF_TARGET : WPBENCH_TARGET);
// Every side's list filter goes (each side loads an exact list): activate_plugin() reads and writes the option whole.
remove_all_filters('option_active_plugins');
remove_all_filters('pre_option_stylesheet');
remove_all_filters('pre_option_template');
// A must-use plugin has no activation (WordPress loads it on every request): never activate_plugin().
if (WPBENCH_KIND === 'plugin' && WPBENCH_MU) {
  echo json_encode(array('time_ms' => 0, 'memory_kb' => 0, 'queries' => 0, 'output_bytes' => 0, 'error' => null, 'note' => 'must-use plugins have no activation'));
  exit;
}
global $wpdb;
// The hook's own peak: the request's earlier peak (WordPress loading) is forgotten first, else every small component
// read the same constant (162 KB here: that earlier peak less the memory in use now). PHP 8.2+; older PHP has only
// the request's peak, so there the figure is what is still held after the hook.
gc_collect_cycles();
$wpbench_peak = function_exists('memory_reset_peak_usage');
if ($wpbench_peak) memory_reset_peak_usage();
$m0 = memory_get_usage();
$q0 = $wpdb->num_queries;
$t0 = microtime(true);
ob_start();
$error = null;
if (WPBENCH_KIND === 'plugin') {
  $r = activate_plugin($wpbench_target, '', false, false);
  // WordPress 6.5+ refuses a plugin whose Requires Plugins are not active (plugin_missing_dependencies).
  if (is_wp_error($r)) { $error = $r->get_error_message(); $error_code = $r->get_error_code(); }
} else {
  $theme = wp_get_theme($wpbench_target);
  // As the Themes screen does before switching (WordPress 5.5+): a theme that needs a newer WordPress or PHP is
  // refused with WordPress's own words, as activate_plugin() refuses such a plugin.
  $needs = function_exists('validate_theme_requirements') ? validate_theme_requirements($wpbench_target) : true;
  if (!$theme->exists() || $theme->errors()) {
    $error = $theme->errors() ? $theme->errors()->get_error_message() : 'theme not found';
  } elseif (is_wp_error($needs)) {
    $error = $needs->get_error_message();
  } else {
    switch_theme($wpbench_target);
  }
}
$out = ob_get_clean();
echo json_encode(array(
  'time_ms' => (microtime(true) - $t0) * 1000,
  'memory_kb' => max(0, ($wpbench_peak ? memory_get_peak_usage() : memory_get_usage()) - $m0) / 1024,
  'memory' => $wpbench_peak ? 'peak' : 'held',
  'queries' => $wpdb->num_queries - $q0,
  'output_bytes' => strlen($out),
  'error' => $error,
  'error_code' => isset($error_code) ? $error_code : null,
));
`;

/** Endpoint requested once: installs WordPress, answers versions and an administrator's auth cookies as JSON. */
export function installEndpoint(key: string): string {
  return `<?php
if (!isset($_GET['key']) || !hash_equals(${phpString(key)}, (string) $_GET['key'])) { http_response_code(403); exit; }
define('WP_INSTALLING', true);
// No e-mail is sent for the new site.
function wp_new_blog_notification() {}
require __DIR__ . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
// A database copied from an earlier run's fresh install (same core, integration and theme) is already installed.
$fresh = !is_blog_installed();
if ($fresh) {
  // wp_install() tests pretty permalinks with two requests to the site itself, which the one-request-at-a-time
  // server cannot answer while it runs this one: each waited out its 5 s timeout. Permalinks stay plain, as before.
  add_filter('pre_http_request', function () { return new WP_Error('wpbench_install', 'no HTTP request during the install'); }, 1);
  ob_start();
  wp_install('WP Bench', 'admin', 'admin@example.invalid', false, '', wp_generate_password(24, false));
  ob_end_clean();
}
$exp = time() + 2 * DAY_IN_SECONDS;
header('Content-Type: application/json');
echo json_encode(array(
  'wp_version' => $GLOBALS['wp_version'],
  'installed_now' => $fresh,
  'php_version' => PHP_VERSION,
  // What WordPress says of its database: "10.11.19-MariaDB-0+deb12u1", "8.0.36", or the SQLite integration's answer.
  'db_server_info' => method_exists($GLOBALS['wpdb'], 'db_server_info') ? (string) $GLOBALS['wpdb']->db_server_info() : '',
  // Whether opcache is on for these requests (the record's local.opcache).
  'opcache' => function_exists('opcache_get_status') && is_array($s = @opcache_get_status(false)) && !empty($s['opcache_enabled']),
  'cookies' => array(
    AUTH_COOKIE => wp_generate_auth_cookie(1, $exp, 'auth'),
    LOGGED_IN_COOKIE => wp_generate_auth_cookie(1, $exp, 'logged_in'),
  ),
));
`;
}
