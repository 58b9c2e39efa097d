// php/ (the ground floor of measure/, beside machine/): the PHP sources WP Bench writes into a throwaway site, as text:
// the probe, the fallback baseline theme, the safe embedding of paths (this file), the endpoints the probe's requests
// ask for and the installer (endpointsPhp.ts), and the must-use plugin and endpoint of `measure --site` (sitePhp.ts). The profiler's own must-use plugin is
// profile/php.ts. Imports nothing: every other folder may read these strings.
//
// The PHP files WP Bench writes into a throwaway site: a probe and a fallback baseline theme (the endpoints it
// requests and the installer: endpointsPhp.ts). Paths are embedded with phpString() so no path can break out of a PHP literal.

/**
 * WP Bench's own must-use plugins, in every mu-plugins folder of the site. Named to load first (WordPress loads
 * must-use plugins in file-name order), before a measured must-use plugin.
 */
export const OWN_MU_PLUGINS = { side: '0-wpbench-side.php', http: '0-wpbench-http.php' } as const;

/**
 * A must-use plugin is measured as WordPress loads it, from wp-content/mu-plugins (WPMU_PLUGIN_DIR's default), on
 * requests of the side "measured". WordPress has no switch for a must-use plugin, so every other request (the clean
 * site, the installer) reads another folder holding only WP Bench's own must-use plugins, and the `--baseline-ref`
 * copy's requests a third one (wp-config.php defines WPMU_PLUGIN_DIR by the X-WPBench-Side header).
 */
export const MU_BASELINE_DIR = 'wpbench-mu-baseline';
/** as long as `mu-plugins`, the measured copy's: the paths a must-use plugin keeps cost the same at both */
export const MU_REF_DIR = 'wpb-mu-ref';

/** What names and passwords of WP Bench's side databases look like (wp-config.php accepts nothing else). */
export const SIDE_NAME_PATTERN = '[a-z0-9_]{1,40}';
export const SIDE_PASSWORD_PATTERN = '[A-Za-z0-9_-]{16,80}';

/** A PHP single-quoted string literal of s. */
export function phpString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * Prepended to every request (auto_prepend_file, or required first by the endpoints): registers, last of all
 * shutdown functions, the write of peak memory, queries, status, redirect and fatal error to PROBE_DIR/<id>.json.
 */
export function probePhp(probeDir: string): string {
  return `<?php
// WP Bench probe (throwaway site): records what this request cost once everything else has run.
if (!defined('WPBENCH_PROBE')) {
define('WPBENCH_PROBE', 1);
// The process's CPU time so far (php -S serves every request in one process): the request's own is the difference.
$GLOBALS['wpbench_ru0'] = function_exists('getrusage') ? getrusage() : null;
register_shutdown_function(function () {
  // Registered again from inside shutdown: runs after WordPress's own shutdown hook.
  register_shutdown_function(function () {
    $id = isset($_SERVER['HTTP_X_WPBENCH_REQ']) ? preg_replace('/[^a-z0-9-]/', '', (string) $_SERVER['HTTP_X_WPBENCH_REQ']) : '';
    if ($id === '') return;
    $err = error_get_last();
    $fatal = $err && in_array($err['type'], array(E_ERROR, E_PARSE, E_CORE_ERROR, E_COMPILE_ERROR, E_USER_ERROR, E_RECOVERABLE_ERROR), true);
    $location = null;
    foreach (headers_list() as $h) {
      if (stripos($h, 'Location:') === 0) $location = trim(substr($h, 9));
    }
    $wpdb = isset($GLOBALS['wpdb']) && is_object($GLOBALS['wpdb']) ? $GLOBALS['wpdb'] : null;
    $data = array(
      'memory' => memory_get_peak_usage(),
      'queries' => $wpdb ? (int) $wpdb->num_queries : null,
      'status' => http_response_code(),
      'location' => $location,
      'error' => $fatal ? $err['message'] . ' in ' . $err['file'] . ':' . $err['line'] : null,
      'wp_loaded' => function_exists('did_action') && did_action('wp_loaded') > 0,
      // Server-side CPU time (user + system) of the request, in ms.
      'cpu_ms' => ($ru0 = $GLOBALS['wpbench_ru0'] ?? null) && ($ru1 = getrusage()) ? (($ru1['ru_utime.tv_sec'] - $ru0['ru_utime.tv_sec'] + $ru1['ru_stime.tv_sec'] - $ru0['ru_stime.tv_sec']) * 1000 + ($ru1['ru_utime.tv_usec'] - $ru0['ru_utime.tv_usec'] + $ru1['ru_stime.tv_usec'] - $ru0['ru_stime.tv_usec']) / 1000) : null,
      // Every database error of the request (wpdb::print_error() records each one here, shown or not).
      'db_errors' => isset($GLOBALS['EZSQL_ERROR']) && is_array($GLOBALS['EZSQL_ERROR']) ? count($GLOBALS['EZSQL_ERROR']) : 0,
      'db_error' => isset($GLOBALS['EZSQL_ERROR'][0]['error_str']) ? substr((string) $GLOBALS['EZSQL_ERROR'][0]['error_str'], 0, 300) : null,
    );
    @file_put_contents(${phpString(probeDir)} . '/' . $id . '.json', json_encode($data));
  });
});
}
`;
}

export interface ConfigOptions {
  /** SQLite: the folder of its database file */
  dbDir: string;
  /** MariaDB/MySQL: where WordPress connects (DB_HOST "localhost:/path/to.sock"); SQLite when absent */
  db?: { host: string; name: string; user: string; password: string };
  probeFile: string;
  kind: 'plugin' | 'theme';
  /** plugin basename (folder/file.php) or theme folder name */
  target: string;
  baseTheme: string;
  /** theme: the template (parent folder, or the theme's own folder) */
  template?: string;
  /** a second copy of the component (`--baseline-ref`), measured on the side "ref" */
  refTarget?: string;
  refTemplate?: string;
  /** secret of the activation endpoint */
  key: string;
  salts: string[];
  /** `measure --site`: the file of the configurations (SITE_MU_PLUGIN); the site's must-use plugins load only in the stack's */
  siteConfigs?: string;
  /** a must-use plugin: each side's requests read their own mu-plugins folder (MU_BASELINE_DIR, MU_REF_DIR) */
  mustUse?: boolean;
  /**
   * MariaDB/MySQL: each side (the clean site, the measured copy, the `--baseline-ref` copy) or each `--site`
   * configuration has a database and a user of its own (see database/sideDatabases.ts): a side's requests carry its
   * credentials in X-WPBench-Db, so what one writes (options, transients, triggers) no other can read or write
   */
  ownTables?: boolean;
}

/** Our own wp-config.php: MariaDB/MySQL or SQLite, no outbound HTTP, no cron, no update checks, PHP's own fatal errors. */
export function wpConfigPhp(o: ConfigOptions): string {
  const saltNames = ['AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT'];
  return `<?php
// Throwaway site written by WP Bench (wp-bench measure); removed when the run ends.
require_once ${phpString(o.probeFile)};
${
    o.db
      ? `// This side's database (the measured copy's, or the --site stack's); another side's reaches only that side's own
// requests, in their header: its password is in no file PHP can read.
$wpbench_db = array(${phpString(o.db.name)}, ${phpString(o.db.user)}, ${phpString(o.db.password)});
${o.ownTables ? `if (isset($_SERVER['HTTP_X_WPBENCH_DB']) && preg_match('/^(${SIDE_NAME_PATTERN}) (${SIDE_NAME_PATTERN}) (${SIDE_PASSWORD_PATTERN})$/', (string) $_SERVER['HTTP_X_WPBENCH_DB'], $wpbench_m)) $wpbench_db = array($wpbench_m[1], $wpbench_m[2], $wpbench_m[3]);
` : ''}define('DB_NAME', $wpbench_db[0]);
define('DB_USER', $wpbench_db[1]);
define('DB_PASSWORD', $wpbench_db[2]);
unset($wpbench_db, $wpbench_m);
define('DB_HOST', ${phpString(o.db.host)});
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
`
      : `define('DB_NAME', 'wordpress');
define('DB_USER', '');
define('DB_PASSWORD', '');
define('DB_HOST', '');
define('DB_CHARSET', 'utf8');
define('DB_COLLATE', '');
define('DB_DIR', ${phpString(o.dbDir)});
define('DB_FILE', 'site.sqlite');
`
  }${saltNames.map((n, i) => `define('${n}', ${phpString(o.salts[i] ?? n)});`).join('\n')}
// PHP 8.1+ makes mysqli throw on every error; WordPress before 5.9 or so did not turn that off itself (5.6 failed to
// install: "Table 'wordpress.wp_options' doesn't exist" thrown from its own check). Off, as newer WordPress does.
if (function_exists('mysqli_report')) mysqli_report(MYSQLI_REPORT_OFF);
$table_prefix = 'wp_';
$wpbench_host = isset($_SERVER['HTTP_HOST']) && preg_match('/^127\\.0\\.0\\.1(:[0-9]+)?$|^localhost(:[0-9]+)?$/', $_SERVER['HTTP_HOST']) ? $_SERVER['HTTP_HOST'] : '127.0.0.1';
define('WP_HOME', 'http://' . $wpbench_host);
define('WP_SITEURL', 'http://' . $wpbench_host);
${o.mustUse ? muPluginDirPhp(o.refTarget !== undefined) : ''}${o.siteConfigs ? siteConfigPhp(o.siteConfigs) : ''}define('COOKIEHASH', 'wpbench');
// The site's code is read-only to the measured PHP: WordPress would then pick its FTP filesystem, which dies on PHP 8
// (ftp_fput() given null) when a plugin calls WP_Filesystem(). Direct: a write to a read-only place just fails.
define('FS_METHOD', 'direct');
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
// Debian's packaged cores before 6.1 (bullseye's 5.7) read this constant of their own /etc/wordpress config in
// get_core_updates(): undefined, every admin screen died on PHP 8. Off: a throwaway site never looks for updates.
if (!defined('WP_CORE_UPDATE')) define('WP_CORE_UPDATE', false);
define('WP_AUTO_UPDATE_CORE', false);
define('WP_DISABLE_FATAL_ERROR_HANDLER', true);
define('WP_DEBUG', false);
define('WP_DEFAULT_THEME', ${phpString(o.baseTheme)});
define('WPBENCH_KIND', ${phpString(o.kind)});
define('WPBENCH_TARGET', ${phpString(o.target)});
define('WPBENCH_BASE_THEME', ${phpString(o.baseTheme)});
define('WPBENCH_TEMPLATE', ${phpString(o.template ?? o.target)});
define('WPBENCH_REF_TARGET', ${phpString(o.refTarget ?? '')});
define('WPBENCH_REF_TEMPLATE', ${phpString(o.refTemplate ?? o.refTarget ?? '')});
define('WPBENCH_KEY', ${phpString(o.key)});
define('WPBENCH_MU', ${o.mustUse ? 'true' : 'false'});
if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
`;
}

/**
 * wp-config.php lines of a must-use plugin's run: "measured" requests load wp-content/mu-plugins (the plugin as in its
 * repository, beside WP Bench's own); "ref" requests the --baseline-ref copy's folder; every other request (the clean
 * site, the installer: the template database never sees the plugin) a folder holding only WP Bench's own.
 */
function muPluginDirPhp(ref: boolean): string {
  return `// A must-use plugin cannot be switched off: each side reads its own mu-plugins folder (WP Bench's own plugins are in each).
$wpbench_mu_side = isset($_SERVER['HTTP_X_WPBENCH_SIDE']) ? (string) $_SERVER['HTTP_X_WPBENCH_SIDE'] : '';
if ($wpbench_mu_side !== 'measured') {
  $wpbench_mu_dir = ${ref ? `$wpbench_mu_side === 'ref' ? ${phpString(MU_REF_DIR)} : ` : ''}${phpString(MU_BASELINE_DIR)};
  define('WPMU_PLUGIN_DIR', __DIR__ . '/wp-content/' . $wpbench_mu_dir);
  define('WPMU_PLUGIN_URL', WP_SITEURL . '/wp-content/' . $wpbench_mu_dir);
}
`;
}

/** Folder of WP Bench's own must-use plugins alone: a `--site` configuration without the site's must-use plugins. */
export const MU_NONE_DIR = 'wpbench-mu-none';

/**
 * wp-config.php lines of `measure --site`: the configuration a request asks for (X-WPBench-Config; the clean site by
 * default) and the must-use folder it loads (the configurations file says which: the site's own, WP Bench's own
 * alone, or one holding a single must-use plugin or all but one).
 */
function siteConfigPhp(file: string): string {
  return `define('WPBENCH_SITE_CONFIGS', ${phpString(file)});
$wpbench_config = isset($_SERVER['HTTP_X_WPBENCH_CONFIG']) ? (string) $_SERVER['HTTP_X_WPBENCH_CONFIG'] : 'clean';
$wpbench_configs = json_decode((string) file_get_contents(WPBENCH_SITE_CONFIGS), true);
$wpbench_mu = isset($wpbench_configs[$wpbench_config]['mu']) ? (string) $wpbench_configs[$wpbench_config]['mu'] : '${MU_NONE_DIR}';
if (!preg_match('/^[a-z0-9-]+$/', $wpbench_mu)) $wpbench_mu = '${MU_NONE_DIR}';
if ($wpbench_mu !== 'mu-plugins') {
  define('WPMU_PLUGIN_DIR', __DIR__ . '/wp-content/' . $wpbench_mu);
  define('WPMU_PLUGIN_URL', WP_SITEURL . '/wp-content/' . $wpbench_mu);
}
unset($wpbench_configs);
`;
}

/**
 * mu-plugin: a request marked "baseline" runs without the measured component (same server). Each side loads an exact
 * list, never "all but the target": the clean side no plugin at all, the measured side at most the component (what
 * its tables hold of it: an activation that failed leaves it out), whatever else the tables name.
 */
export const SIDE_MU_PLUGIN = `<?php
// WP Bench: baseline requests (X-WPBench-Side: baseline) run without the measured component; each side an exact list.
$wpbench_clean = isset($_SERVER['HTTP_X_WPBENCH_SIDE']) && $_SERVER['HTTP_X_WPBENCH_SIDE'] === 'baseline';
$wpbench_only = $wpbench_clean || WPBENCH_KIND !== 'plugin' || WPBENCH_MU ? array() : array(WPBENCH_TARGET);
add_filter('option_active_plugins', function ($plugins) use ($wpbench_only) {
  return array_values(array_intersect((array) $plugins, $wpbench_only));
}, PHP_INT_MAX);
if ($wpbench_clean) {
  if (WPBENCH_KIND !== 'plugin') {
    $wpbench_base = function () { return WPBENCH_BASE_THEME; };
    add_filter('pre_option_stylesheet', $wpbench_base, PHP_INT_MAX);
    add_filter('pre_option_template', $wpbench_base, PHP_INT_MAX);
  }
}
`;

/**
 * mu-plugin of a comparison (`--baseline-ref`): which copy of the component a request loads, by its X-WPBench-Side header: "baseline" none,
 * "measured" the working tree's copy, "ref" the copy of `--baseline-ref` (same database, same server). While
 * activating, a theme request runs on the baseline theme (the activation endpoint switches it).
 */
export const SIDE_MU_PLUGIN_COMPARE = `<?php
// WP Bench: each request loads one copy of the measured component, or none (X-WPBench-Side).
$wpbench_side = isset($_SERVER['HTTP_X_WPBENCH_SIDE']) ? (string) $_SERVER['HTTP_X_WPBENCH_SIDE'] : 'measured';
if (WPBENCH_KIND === 'plugin') {
  // An exact list per side, never "all but the target": none, the working tree's copy, or REF's copy (each only if
  // its own activation left it active).
  $wpbench_only = $wpbench_side === 'baseline' || WPBENCH_MU ? array() : ($wpbench_side === 'ref' ? array(WPBENCH_REF_TARGET) : array(WPBENCH_TARGET));
  add_filter('option_active_plugins', function ($plugins) use ($wpbench_only) {
    return array_values(array_intersect((array) $plugins, $wpbench_only));
  }, PHP_INT_MAX);
} else {
  // No plugin at all on any side of a theme's run.
  add_filter('option_active_plugins', function () { return array(); }, PHP_INT_MAX);
  $wpbench_theme = null;
  if ($wpbench_side === 'baseline' || defined('WPBENCH_ACTIVATING')) $wpbench_theme = array(WPBENCH_BASE_THEME, WPBENCH_BASE_THEME);
  else $wpbench_theme = $wpbench_side === 'ref' ? array(WPBENCH_REF_TARGET, WPBENCH_REF_TEMPLATE) : array(WPBENCH_TARGET, WPBENCH_TEMPLATE);
  if ($wpbench_theme) {
    add_filter('pre_option_stylesheet', function () use ($wpbench_theme) { return $wpbench_theme[0]; }, PHP_INT_MAX);
    add_filter('pre_option_template', function () use ($wpbench_theme) { return $wpbench_theme[1]; }, PHP_INT_MAX);
  }
}
`;

/**
 * mu-plugin: WordPress's HTTP API reaches nothing. Not another host, not another port on this machine, and not the site
 * itself: php -S answers one request at a time, so a loopback request (a background job's runner, a cache warmer)
 * waited out its timeout, 5 s in each configuration's first request on a real 30-plugin site, and failed anyway; it
 * fails at once now, as it did then. Runs last on pre_http_request, so a request
 * another filter answered (a mock) is left alone, and one that would go out is refused with a WP_Error. Registered
 * again on plugins_loaded and init in case a plugin removed it. Raw sockets are not WordPress's HTTP API: see the
 * sandbox (src/core/measure/sandbox.ts) for what else holds them.
 */
export const HTTP_GUARD_MU_PLUGIN = `<?php
// WP Bench: outbound HTTP from the throwaway site goes to the site itself only.
function wpbench_http_guard($preempt, $args, $url) {
  if ($preempt !== false) return $preempt;
  $p = @parse_url((string) $url);
  $host = is_array($p) && isset($p['host']) ? strtolower(trim($p['host'], '[]')) : '';
  $scheme = is_array($p) && isset($p['scheme']) ? strtolower($p['scheme']) : 'http';
  $port = is_array($p) && isset($p['port']) ? (int) $p['port'] : ($scheme === 'https' ? 443 : 80);
  $own = isset($_SERVER['SERVER_PORT']) ? (int) $_SERVER['SERVER_PORT'] : -1;
  if (($host === '127.0.0.1' || $host === 'localhost') && $port === $own && $scheme === 'http') {
    return new WP_Error('http_request_failed', 'WP Bench: a request to the site itself is not made (the server answers one request at a time: it could only time out)');
  }
  return new WP_Error('http_request_not_executed', 'WP Bench: outbound HTTP is blocked in the throwaway site (only the site itself is reachable): ' . substr((string) $url, 0, 200));
}
function wpbench_http_guard_add() {
  remove_filter('pre_http_request', 'wpbench_http_guard', PHP_INT_MAX);
  add_filter('pre_http_request', 'wpbench_http_guard', PHP_INT_MAX, 3);
}
wpbench_http_guard_add();
add_action('plugins_loaded', 'wpbench_http_guard_add', PHP_INT_MAX);
add_action('init', 'wpbench_http_guard_add', PHP_INT_MAX);
`;

/** A minimal classic theme for the baseline when the core copy bundles none (Debian's package has none). */
export const BASELINE_THEME_STYLE = `/*
Theme Name: WP Bench Baseline
Description: Minimal classic theme used as the baseline when the WordPress core copy bundles no default theme.
Version: 1.0
*/
`;

export const BASELINE_THEME_INDEX = `<!DOCTYPE html>
<html <?php language_attributes(); ?>><head><meta charset="<?php bloginfo('charset'); ?>"><?php wp_head(); ?></head>
<body <?php body_class(); ?>><?php wp_body_open(); ?>
<?php if (have_posts()) : while (have_posts()) : the_post(); ?><article><h2><?php the_title(); ?></h2><?php the_content(); ?></article><?php endwhile; endif; ?>
<?php wp_footer(); ?></body></html>
`;
