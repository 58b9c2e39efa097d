// The PHP of `measure SITE --site` (see siteRun.ts): the must-use plugin choosing each request's configuration, the
// endpoint activating one plugin of the stack, and the configurations file they read.

/**
 * mu-plugin of `measure --site`: which plugins and theme a request loads (X-WPBench-Config; none: the clean site). All
 * the stack's plugins are activated once, each in a request of its own where no other plugin loads; a request sees
 * only its configuration's in active_plugins.
 */
export const SITE_MU_PLUGIN = `<?php
// WP Bench (measure --site): the plugins and theme of the configuration this request asks for. JSON, read each time
// (a PHP file would be served from opcache for a while after WP Bench rewrites it).
$wpbench_configs = json_decode((string) file_get_contents(WPBENCH_SITE_CONFIGS), true);
$wpbench_id = isset($_SERVER['HTTP_X_WPBENCH_CONFIG']) ? (string) $_SERVER['HTTP_X_WPBENCH_CONFIG'] : 'clean';
$wpbench_cfg = isset($wpbench_configs[$wpbench_id]) ? $wpbench_configs[$wpbench_id] : (isset($wpbench_configs['clean']) ? $wpbench_configs['clean'] : null);
if ($wpbench_cfg !== null) {
// While activating one plugin, none of the others loads (it activates on its own merits); the endpoint drops this
// filter before activate_plugin(), which then writes the option whole.
add_filter('option_active_plugins', function ($plugins) use ($wpbench_cfg) {
  return defined('WPBENCH_ACTIVATING') ? array() : array_values(array_intersect((array) $plugins, $wpbench_cfg['plugins']));
}, PHP_INT_MAX);
add_filter('pre_option_stylesheet', function () use ($wpbench_cfg) { return $wpbench_cfg['theme'][0]; }, PHP_INT_MAX);
add_filter('pre_option_template', function () use ($wpbench_cfg) { return $wpbench_cfg['theme'][1]; }, PHP_INT_MAX);
}
`;

/** Endpoint of `measure --site`: activates one plugin of the stack (in the stack, every earlier one active). */
export const SITE_ACTIVATE_ENDPOINT = `<?php
define('WPBENCH_ACTIVATING', true);
require __DIR__ . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/plugin.php';
header('Content-Type: application/json');
if (!isset($_GET['key']) || !hash_equals(WPBENCH_KEY, (string) $_GET['key'])) { http_response_code(403); exit; }
$wpbench_configs = json_decode((string) file_get_contents(WPBENCH_SITE_CONFIGS), true);
$wpbench_plugin = isset($_GET['plugin']) ? (string) $_GET['plugin'] : '';
if (!in_array($wpbench_plugin, $wpbench_configs['stack']['plugins'], true)) { http_response_code(400); echo json_encode(array('error' => 'not a plugin of the stack')); exit; }
wp_set_current_user(1);
remove_all_filters('option_active_plugins');
ob_start();
$r = activate_plugin($wpbench_plugin, '', false, false);
$out = ob_get_clean();
echo json_encode(array('error' => is_wp_error($r) ? $r->get_error_message() : null, 'output_bytes' => strlen($out)));
`;

/** The configurations as the JSON file wp-config.php and SITE_MU_PLUGIN read: { id: { plugins, theme, mu } }. */
export function siteConfigsJson(configs: readonly { id: string; plugins: string[]; theme: [string, string]; mu: string }[]): string {
  return JSON.stringify(Object.fromEntries(configs.map((c) => [c.id, { plugins: c.plugins, theme: c.theme, mu: c.mu }])));
}
