<?php
/**
 * Lists plugins, mu-plugins and themes of a wp-content folder with WordPress core's own code:
 * get_plugins(), get_mu_plugins(), search_theme_directories() + WP_Theme, get_file_data().
 *
 *   php wp-list.php <wp-content-dir> [--only=plugins|mu-plugins|themes] [--repeat=N]
 *
 * Env WP_CORE_DIR: WordPress core folder (default /usr/share/wordpress, Debian's package).
 * Prints JSON: {wpVersion, plugins:[{file,slug,name,version}], muPlugins:[...],
 *               themes:[{stylesheet,slug,name,version,template,error}], timingsMs:{...}}.
 * Nothing of WordPress is bootstrapped: no database, no wp-config. Only the listing functions run,
 * with minimal stubs for caches, transients and translation.
 */

error_reporting(E_ALL & ~E_DEPRECATED & ~E_USER_NOTICE);
ini_set('display_errors', 'stderr');

$args = array_slice($argv, 1);
$only = null;
$repeat = 1;
$content = null;
foreach ($args as $a) {
	if (strpos($a, '--only=') === 0) { $only = substr($a, 7); }
	elseif (strpos($a, '--repeat=') === 0) { $repeat = max(1, (int) substr($a, 9)); }
	else { $content = $a; }
}
if ($content === null) {
	fwrite(STDERR, "usage: php wp-list.php <wp-content-dir> [--only=plugins|mu-plugins|themes] [--repeat=N]\n");
	exit(2);
}
$content = rtrim($content, '/');
$core = rtrim(getenv('WP_CORE_DIR') ?: '/usr/share/wordpress', '/');
if (!is_file("$core/wp-admin/includes/plugin.php")) {
	fwrite(STDERR, "WordPress core not found in $core (set WP_CORE_DIR)\n");
	exit(3);
}

define('ABSPATH', "$core/");
define('WPINC', 'wp-includes');
define('WP_CONTENT_DIR', $content);
define('WP_PLUGIN_DIR', "$content/plugins");
define('WPMU_PLUGIN_DIR', "$content/mu-plugins");
define('KB_IN_BYTES', 1024);
define('MINUTE_IN_SECONDS', 60);
define('HOUR_IN_SECONDS', 3600);

// ---- stubs: no object cache, no transients, no translations ----
function wp_cache_get($key, $group = '', $force = false, &$found = null) { $found = false; return false; }
function wp_cache_set($key, $data, $group = '', $expire = 0) { return true; }
function wp_cache_add($key, $data, $group = '', $expire = 0) { return true; }
function wp_cache_delete($key, $group = '') { return true; }
function wp_cache_add_non_persistent_groups($groups) {}
function wp_cache_add_global_groups($groups) {}
function get_site_transient($t) { return false; }
function set_site_transient($t, $v, $e = 0) { return true; }
function __($s, $d = 'default') { return $s; }
function esc_html($s) { return htmlspecialchars((string) $s, ENT_QUOTES); }
function _deprecated_argument($f, $v, $m = '') {}
function is_multisite() { return false; }
final class WPBench_No_Paused { public function get($x) { return false; } }
function wp_paused_themes() { return new WPBench_No_Paused(); }

/** Loads named functions verbatim from a core file (files like functions.php pull in the database layer). */
function wpbench_load_functions($file, array $names) {
	$tokens = token_get_all(file_get_contents($file));
	$want = array_flip($names);
	$n = count($tokens);
	for ($i = 0; $i < $n; $i++) {
		if (!is_array($tokens[$i]) || $tokens[$i][0] !== T_FUNCTION) { continue; }
		$j = $i + 1;
		while ($j < $n && is_array($tokens[$j]) && $tokens[$j][0] === T_WHITESPACE) { $j++; }
		if (!is_array($tokens[$j]) || $tokens[$j][0] !== T_STRING || !isset($want[$tokens[$j][1]])) { continue; }
		$src = '';
		$depth = 0;
		$opened = false;
		for ($k = $i; $k < $n; $k++) {
			$t = $tokens[$k];
			$text = is_array($t) ? $t[1] : $t;
			$src .= $text;
			if ($text === '{' || (is_array($t) && in_array($t[0], [T_CURLY_OPEN, T_DOLLAR_OPEN_CURLY_BRACES], true))) { $depth++; $opened = true; }
			elseif ($text === '}') { $depth--; if ($opened && $depth === 0) { break; } }
		}
		if (!function_exists($tokens[$j][1])) { eval($src); }
		unset($want[$tokens[$j][1]]);
	}
	if ($want) { fwrite(STDERR, 'missing core functions: ' . implode(', ', array_keys($want)) . "\n"); exit(4); }
}

require ABSPATH . WPINC . '/version.php';
require ABSPATH . WPINC . '/plugin.php'; // real hooks API: apply_filters(), plugin_basename()
wpbench_load_functions(ABSPATH . WPINC . '/functions.php', ['get_file_data', '_cleanup_header_comment', 'wp_normalize_path', 'wp_is_stream']);
wpbench_load_functions(ABSPATH . WPINC . '/load.php', ['is_wp_error']);
require ABSPATH . WPINC . '/class-wp-error.php';
require ABSPATH . 'wp-admin/includes/plugin.php';
require ABSPATH . WPINC . '/theme.php';
require ABSPATH . WPINC . '/class-wp-theme.php';

function wpbench_plugin_slug($plugin_file) {
	if (class_exists('WP_Plugin_Dependencies') && method_exists('WP_Plugin_Dependencies', 'convert_to_slug')) {
		$m = new ReflectionMethod('WP_Plugin_Dependencies', 'convert_to_slug');
		$m->setAccessible(true);
		return $m->invoke(null, $plugin_file);
	}
	// WP_Plugin_Dependencies::convert_to_slug() (6.5+), for older cores.
	if ('hello.php' === $plugin_file) { return 'hello-dolly'; }
	return false !== strpos($plugin_file, '/') ? dirname($plugin_file) : str_replace('.php', '', $plugin_file);
}

$GLOBALS['wp_plugin_paths'] = [];
$out = ['wpVersion' => $wp_version, 'plugins' => [], 'muPlugins' => [], 'themes' => [], 'timingsMs' => []];

if ($only === null || $only === 'plugins') {
	$t = microtime(true);
	for ($r = 0; $r < $repeat; $r++) { $plugins = get_plugins(); }
	$out['timingsMs']['getPlugins'] = (microtime(true) - $t) * 1000 / $repeat;
	foreach ($plugins as $file => $data) {
		$out['plugins'][] = ['file' => $file, 'slug' => wpbench_plugin_slug($file), 'name' => $data['Name'], 'version' => $data['Version'], 'updateUri' => $data['UpdateURI'] ?? ''];
	}
}

if ($only === null || $only === 'mu-plugins') {
	$t = microtime(true);
	for ($r = 0; $r < $repeat; $r++) { $mu = get_mu_plugins(); }
	$out['timingsMs']['getMuPlugins'] = (microtime(true) - $t) * 1000 / $repeat;
	foreach ($mu as $file => $data) {
		$out['muPlugins'][] = ['file' => $file, 'slug' => wpbench_plugin_slug($file), 'name' => $data['Name'], 'version' => $data['Version']];
	}
	// What Bedrock's autoloader adds when it is there (WordPress alone loads no sub-folder): get_plugins() on the
	// mu-plugins folder, its sub-folders only (the top-level files are get_mu_plugins()' own).
	// get_plugins() reaches mu-plugins through plugins/..: without a plugins folder (Bedrock repositories ignore it)
	// that path does not resolve, and what a loader adds is unknown (null).
	$autoloader = is_file(WPMU_PLUGIN_DIR . '/bedrock-autoloader.php');
	$loaded = $autoloader && is_dir(WP_PLUGIN_DIR) ? get_plugins('/../' . basename(WPMU_PLUGIN_DIR)) : [];
	$out['muLoaded'] = $autoloader && !is_dir(WP_PLUGIN_DIR) ? null : [];
	foreach ($loaded as $file => $data) {
		if (false === strpos($file, '/')) { continue; }
		$out['muLoaded'][] = ['file' => $file, 'slug' => wpbench_plugin_slug($file), 'name' => $data['Name'], 'version' => $data['Version']];
	}
}

if ($only === null || $only === 'themes') {
	$GLOBALS['wp_theme_directories'] = [WP_CONTENT_DIR . '/themes'];
	$t = microtime(true);
	for ($r = 0; $r < $repeat; $r++) { $found = search_theme_directories(true); }
	$out['timingsMs']['searchThemeDirectories'] = (microtime(true) - $t) * 1000 / $repeat;
	$headers = new ReflectionProperty('WP_Theme', 'headers');
	$headers->setAccessible(true);
	foreach (($found ?: []) as $stylesheet => $info) {
		$theme = new WP_Theme($stylesheet, $info['theme_root']);
		$h = $headers->getValue($theme);
		$errors = $theme->errors();
		$out['themes'][] = [
			'stylesheet' => (string) $stylesheet,
			'slug' => basename((string) $stylesheet),
			'name' => is_wp_error($errors) && $errors->get_error_code() === 'theme_no_stylesheet' ? '' : (string) ($h['Name'] ?? ''),
			'version' => (string) ($h['Version'] ?? ''),
			'template' => (string) ($h['Template'] ?? ''),
			'error' => is_wp_error($errors) ? $errors->get_error_code() : null,
		];
	}
}

echo json_encode($out, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE), "\n";
