// findings/ (below record/, beside profile/; imports php/, component/measuredText.ts and the model only): `measure
// --findings`, what a component does that costs every request, at its line.
// This file is the collector, a must-use plugin acting only on requests marked X-WPBench-Findings (and carrying
// X-WPBench-Req): the activation and the warm-up requests ("w": which options the component writes, from which of its
// lines), and the findings pass after the timed rounds ("p:CONTEXT:SCREEN": also which options are read, the queries
// by shape and line, HTTP requests, scripts and styles; the clean side's pass requests ("X-WPBench-Side: baseline")
// only for what WordPress prints without the component). It writes <dir>/<request id>.findings.json; ./aggregate.ts
// turns those files into findings. Paths are embedded with phpString(): no path can break out of a PHP literal.
import { phpString } from '../php/phpFiles';

/** File name of the collector (loads before every other must-use plugin, the measured one included). */
export const FINDINGS_MU_PLUGIN = '0-0-wpbench-findings.php';
/** The request header that marks a request for the collector. */
export const FINDINGS_HEADER = 'X-WPBench-Findings';

export interface FindingsPhpOptions {
  /** Folder (as PHP sees it) where <id>.findings.json is written; must exist and be writable. */
  dir: string;
  /** The component's files and folders (as PHP sees them), as for the profiler. */
  roots: string[];
  /** Paths are relative to this folder. */
  base: string;
  /** The side whose requests are collected ("measured"; the --baseline-ref copy's "ref"); the clean side's pass too. */
  side: 'measured' | 'ref';
}

/** The findings file name of a request id (sanitized as the probe sanitizes it). */
export function findingsFileName(id: string): string {
  return `${id.replace(/[^a-z0-9-]/g, '')}.findings.json`;
}

/**
 * PHP source of the collector. Without the header (every timed request) it does nothing but this one test; every
 * declaration is inside it, so none is made.
 */
export function findingsMuPluginPhp(o: FindingsPhpOptions): string {
  const roots = o.roots.map((r) => r.replace(/\/+$/, ''));
  // l10n-ignore: PHP source, not UI text
  return `<?php
// WP Bench findings collector (throwaway site): on requests marked ${FINDINGS_HEADER}, notes what the measured
// component does from its own lines (options written and read, queries, HTTP requests, scripts and styles).
if (!defined('WPBENCH_FINDINGS') && isset($_SERVER['HTTP_X_WPBENCH_FINDINGS'], $_SERVER['HTTP_X_WPBENCH_REQ'])
  && preg_match('/^(w|p:(activation|homepage|admin):[a-z0-9.-]{1,40})$/', (string) $_SERVER['HTTP_X_WPBENCH_FINDINGS'])
  && in_array(isset($_SERVER['HTTP_X_WPBENCH_SIDE']) ? (string) $_SERVER['HTTP_X_WPBENCH_SIDE'] : 'measured',
    $_SERVER['HTTP_X_WPBENCH_FINDINGS'] === 'w' ? array(${phpString(o.side)}) : array(${phpString(o.side)}, 'baseline'), true)) {
define('WPBENCH_FINDINGS', 1);
$GLOBALS['wpbench_fd'] = array(
  'id' => preg_replace('/[^a-z0-9-]/', '', (string) $_SERVER['HTTP_X_WPBENCH_REQ']),
  'phase' => (string) $_SERVER['HTTP_X_WPBENCH_FINDINGS'],
  'dir' => ${phpString(o.dir)},
  'roots' => array(${roots.map(phpString).join(', ')}),
  'base' => ${phpString(o.base.replace(/\/+$/, ''))},
  'side' => isset($_SERVER['HTTP_X_WPBENCH_SIDE']) && $_SERVER['HTTP_X_WPBENCH_SIDE'] === 'baseline' ? 'baseline' : ${phpString(o.side)},
  'writes' => array(), 'reads' => array(), 'queries' => array(), 'http' => array(), 'assets' => array(), 'head' => null, 'tags' => array(), 'srcs' => array('script' => array(), 'style' => array()),
);
$GLOBALS['wpbench_fd']['pass'] = $GLOBALS['wpbench_fd']['phase'] !== 'w';

/** A file's path relative to the component's base when it is one of the component's files, else null. */
function wpbench_fd_rel($file) {
  static $cache = array(), $roots = null, $bases = null;
  if (!is_string($file) || $file === '') return null;
  if (array_key_exists($file, $cache)) return $cache[$file];
  $P = $GLOBALS['wpbench_fd'];
  if ($roots === null) {
    $roots = array(); $bases = array($P['base']);
    $rb = @realpath($P['base']);
    if ($rb !== false && $rb !== $P['base']) $bases[] = $rb;
    foreach ($P['roots'] as $r) { $roots[] = $r; $rr = @realpath($r); if ($rr !== false && $rr !== $r) $roots[] = $rr; }
  }
  $rel = null;
  foreach ($roots as $r) {
    if ($file === $r || strpos($file, $r . '/') === 0) {
      foreach ($bases as $b) { if (strpos($file, $b . '/') === 0) { $rel = substr($file, strlen($b) + 1); break; } }
      if ($rel === null) $rel = basename($file);
      break;
    }
  }
  return $cache[$file] = $rel;
}

/** The innermost frame in the component's files: its file and line, the function running there, the one it called. */
function wpbench_fd_where($bt) {
  $n = count($bt);
  for ($k = 0; $k < $n; $k++) {
    if (!isset($bt[$k]['file'])) continue;
    $rel = wpbench_fd_rel($bt[$k]['file']);
    if ($rel === null) continue;
    $fn = null;
    if (isset($bt[$k + 1]) && !in_array($bt[$k + 1]['function'], array('include', 'include_once', 'require', 'require_once'), true)) {
      $fn = (isset($bt[$k + 1]['class']) ? $bt[$k + 1]['class'] . '::' : '') . $bt[$k + 1]['function'];
    }
    // The next of the component's frames out: the line that called this function (a helper called from five places
    // is no loop; the same call path five times is).
    $via = null;
    for ($j = $k + 1; $j < $n; $j++) {
      if (!isset($bt[$j]['file'])) continue;
      $vr = wpbench_fd_rel($bt[$j]['file']);
      if ($vr !== null) { $via = $vr . ':' . (isset($bt[$j]['line']) ? (int) $bt[$j]['line'] : 0); break; }
    }
    return array('file' => $rel, 'line' => isset($bt[$k]['line']) ? (int) $bt[$k]['line'] : 0, 'function' => $fn,
      'callee' => (isset($bt[$k]['class']) ? $bt[$k]['class'] . '::' : '') . $bt[$k]['function'], 'via' => $via);
  }
  return null;
}

/** added_option / updated_option: which of the component's lines wrote the option. */
function wpbench_fd_wrote($option) {
  $w = wpbench_fd_where(debug_backtrace(DEBUG_BACKTRACE_IGNORE_ARGS));
  if ($w === null) return;
  $w['option'] = (string) $option;
  $w['op'] = current_filter() === 'added_option' ? 'add' : 'update';
  $GLOBALS['wpbench_fd']['writes'][$w['option'] . '|' . $w['file'] . '|' . $w['line']] = $w;
}
add_action('added_option', 'wpbench_fd_wrote', 10, 1);
add_action('updated_option', 'wpbench_fd_wrote', 10, 1);

if ($GLOBALS['wpbench_fd']['pass']) {
  /** option_{name}: an autoloaded option read on this request. */
  function wpbench_fd_read($value, $option = null) {
    if (is_string($option)) $GLOBALS['wpbench_fd']['reads'][$option] = 1;
    return $value;
  }
  foreach (array_keys((array) wp_load_alloptions()) as $wpbench_fd_name) add_filter('option_' . $wpbench_fd_name, 'wpbench_fd_read', PHP_INT_MAX, 2);
  unset($wpbench_fd_name);

  /** A query's shape: its literals replaced, IN lists collapsed, white space made single. */
  function wpbench_fd_shape($q) {
    $q = preg_replace("/'(?:[^'\\\\\\\\]|\\\\\\\\.)*'/s", '?', (string) $q);
    $q = preg_replace('/"(?:[^"\\\\\\\\]|\\\\\\\\.)*"/s', '?', $q);
    $q = preg_replace('/(?<![A-Za-z_0-9$])-?[0-9]+(?:\\.[0-9]+)?(?![A-Za-z_0-9])/', '?', $q);
    $q = preg_replace('/\\(\\s*\\?(?:\\s*,\\s*\\?)+\\s*\\)/', '(?…)', $q);
    return substr(trim(preg_replace('/\\s+/', ' ', $q)), 0, 400);
  }
  function wpbench_fd_query($query) {
    $w = wpbench_fd_where(debug_backtrace(DEBUG_BACKTRACE_IGNORE_ARGS));
    if ($w === null) return $query;
    $shape = wpbench_fd_shape($query);
    $k = $shape . '|' . $w['file'] . '|' . $w['line'] . '|' . $w['via'];
    if (isset($GLOBALS['wpbench_fd']['queries'][$k])) $GLOBALS['wpbench_fd']['queries'][$k]['n']++;
    else { $w['shape'] = $shape; $w['n'] = 1; $GLOBALS['wpbench_fd']['queries'][$k] = $w; }
    return $query;
  }
  add_filter('query', 'wpbench_fd_query', PHP_INT_MAX);

  /** Just before WP Bench's guard refuses it: an HTTP request from the component's code. */
  function wpbench_fd_http($preempt, $args, $url) {
    if ($preempt !== false) return $preempt;
    $w = wpbench_fd_where(debug_backtrace(DEBUG_BACKTRACE_IGNORE_ARGS));
    if ($w === null) return $preempt;
    $p = @parse_url((string) $url);
    $w['host'] = is_array($p) && isset($p['host']) ? strtolower((string) $p['host']) : '';
    $w['method'] = is_array($args) && isset($args['method']) ? strtoupper((string) $args['method']) : 'GET';
    $k = $w['method'] . '|' . $w['host'] . '|' . $w['file'] . '|' . $w['line'];
    if (isset($GLOBALS['wpbench_fd']['http'][$k])) $GLOBALS['wpbench_fd']['http'][$k]['n']++;
    else { $w['n'] = 1; $GLOBALS['wpbench_fd']['http'][$k] = $w; }
    return $preempt;
  }
  add_filter('pre_http_request', 'wpbench_fd_http', PHP_INT_MAX - 1, 3);

  /**
   * A script or style registered (with a source) or enqueued from the component's code. Only a registration WordPress
   * took is noted ("add" is called after it, with its answer): wp_register_script() or wp_enqueue_script() with a
   * source on a handle already registered changes nothing, the first registration's file is the one printed.
   * A handle removed (wp_deregister_script) forgets the component's registration of it.
   */
  function wpbench_fd_asset($type, $op, $handle, $src) {
    $handle = (string) $handle;
    $k = $type . '|' . $handle;
    if ($op === 'remove') { if (isset($GLOBALS['wpbench_fd']['assets'][$k])) unset($GLOBALS['wpbench_fd']['assets'][$k]['reg']); return; }
    $w = wpbench_fd_where(debug_backtrace(DEBUG_BACKTRACE_IGNORE_ARGS));
    if ($w === null) return;
    if (!isset($GLOBALS['wpbench_fd']['assets'][$k])) $GLOBALS['wpbench_fd']['assets'][$k] = array('type' => $type, 'handle' => $handle, 'enqs' => array());
    if ($op === 'add' && is_string($src) && $src !== '') $GLOBALS['wpbench_fd']['assets'][$k]['reg'] = $w;
    if ($op === 'enqueue') {
      if (!isset($GLOBALS['wpbench_fd']['assets'][$k]['enq'])) $GLOBALS['wpbench_fd']['assets'][$k]['enq'] = $w;
      $GLOBALS['wpbench_fd']['assets'][$k]['enqs'][$w['file'] . '|' . $w['line'] . '|' . $w['via']] = $w;
    }
  }
  if (class_exists('WP_Scripts') && !class_exists('WPBench_FD_Scripts')) {
    class WPBench_FD_Scripts extends WP_Scripts {
      public function add($handle, $src, $deps = array(), $ver = false, $args = null) { $r = parent::add($handle, $src, $deps, $ver, $args); if ($r) wpbench_fd_asset('script', 'add', $handle, $src); return $r; }
      public function remove($handles) { foreach ((array) $handles as $h) wpbench_fd_asset('script', 'remove', $h, null); return parent::remove($handles); }
      public function enqueue($handles) { foreach ((array) $handles as $h) wpbench_fd_asset('script', 'enqueue', explode('?', (string) $h)[0], null); return parent::enqueue($handles); }
    }
  }
  if (class_exists('WP_Styles') && !class_exists('WPBench_FD_Styles')) {
    class WPBench_FD_Styles extends WP_Styles {
      public function add($handle, $src, $deps = array(), $ver = false, $args = null) { $r = parent::add($handle, $src, $deps, $ver, $args); if ($r) wpbench_fd_asset('style', 'add', $handle, $src); return $r; }
      public function remove($handles) { foreach ((array) $handles as $h) wpbench_fd_asset('style', 'remove', $h, null); return parent::remove($handles); }
      public function enqueue($handles) { foreach ((array) $handles as $h) wpbench_fd_asset('style', 'enqueue', explode('?', (string) $h)[0], null); return parent::enqueue($handles); }
    }
  }
  /** Ours in place of WordPress's (made now, or made earlier and copied over: nothing registered is lost). */
  function wpbench_fd_swap($global, $class) {
    if (!class_exists($class)) return;
    $old = isset($GLOBALS[$global]) ? $GLOBALS[$global] : null;
    if ($old instanceof $class) return;
    $new = new $class();
    if (is_object($old)) foreach (get_object_vars($old) as $k => $v) $new->$k = $v;
    $GLOBALS[$global] = $new;
  }
  wpbench_fd_swap('wp_scripts', 'WPBench_FD_Scripts');
  wpbench_fd_swap('wp_styles', 'WPBench_FD_Styles');
  add_action('muplugins_loaded', function () { wpbench_fd_swap('wp_scripts', 'WPBench_FD_Scripts'); wpbench_fd_swap('wp_styles', 'WPBench_FD_Styles'); }, PHP_INT_MAX);

  /** What was printed in the page's head (the front end's wp_head, the admin's admin_head). */
  function wpbench_fd_head() {
    $GLOBALS['wpbench_fd']['head'] = array(
      'script' => isset($GLOBALS['wp_scripts']) && is_object($GLOBALS['wp_scripts']) ? array_values((array) $GLOBALS['wp_scripts']->done) : array(),
      'style' => isset($GLOBALS['wp_styles']) && is_object($GLOBALS['wp_styles']) ? array_values((array) $GLOBALS['wp_styles']->done) : array(),
    );
  }
  add_action('wp_head', 'wpbench_fd_head', PHP_INT_MAX);
  add_action('admin_head', 'wpbench_fd_head', PHP_INT_MAX);
  /** The file WordPress prints for a handle, as it prints it (after every other filter). */
  add_filter('script_loader_src', function ($src, $handle = '') { if (is_string($handle)) $GLOBALS['wpbench_fd']['srcs']['script'][$handle] = $src; return $src; }, PHP_INT_MAX, 2);
  add_filter('style_loader_src', function ($src, $handle = '') { if (is_string($handle)) $GLOBALS['wpbench_fd']['srcs']['style'][$handle] = $src; return $src; }, PHP_INT_MAX, 2);
  /** Whether the tag WordPress prints for a script defers it (defer, async or a module). */
  add_filter('script_loader_tag', function ($tag, $handle = '') {
    if (is_string($tag) && is_string($handle)) $GLOBALS['wpbench_fd']['tags'][$handle] = (bool) preg_match('/<script[^>]*\\s(defer|async)(\\s|=|>)|<script[^>]*type=["\\']module["\\']/i', $tag);
    return $tag;
  }, PHP_INT_MAX, 2);
}

/** The local file of an asset's URL when it is one of the component's files: its size in bytes, else null. */
function wpbench_fd_bytes($src) {
  if (!is_string($src) || $src === '' || !defined('WP_CONTENT_DIR') || !function_exists('content_url')) return null;
  $src = preg_replace('/[?#].*$/', '', $src);
  $cu = content_url();
  $cp = (string) @parse_url($cu, PHP_URL_PATH);
  if (strpos($src, $cu . '/') === 0) $file = WP_CONTENT_DIR . substr($src, strlen($cu));
  elseif (strpos($src, '//') === 0 && strpos('http:' . $src, $cu . '/') === 0) $file = WP_CONTENT_DIR . substr('http:' . $src, strlen($cu));
  elseif ($cp !== '' && strpos($src, $cp . '/') === 0) $file = WP_CONTENT_DIR . substr($src, strlen($cp));
  else return null;
  $real = @realpath($file);
  if ($real === false || wpbench_fd_rel($real) === null || !is_file($real)) return null;
  $s = @filesize($real);
  return $s === false ? null : (int) $s;
}

function wpbench_fd_write() {
  $P = $GLOBALS['wpbench_fd'];
  $out = array('v' => 1, 'id' => $P['id'], 'phase' => $P['phase'], 'side' => $P['side'], 'writes' => array_values($P['writes']));
  if ($P['pass']) {
    $out['reads'] = array_keys($P['reads']);
    $out['queries'] = array_values($P['queries']);
    $out['http'] = array_values($P['http']);
    $assets = array();
    $out['done'] = array('script' => array(), 'style' => array());
    foreach (array('script' => 'wp_scripts', 'style' => 'wp_styles') as $t => $g) {
      if (isset($GLOBALS[$g]) && is_object($GLOBALS[$g])) $out['done'][$t] = array_values(array_filter((array) $GLOBALS[$g]->done, 'is_string'));
    }
    foreach ($P['assets'] as $a) {
      $deps = $a['type'] === 'script' ? (isset($GLOBALS['wp_scripts']) ? $GLOBALS['wp_scripts'] : null) : (isset($GLOBALS['wp_styles']) ? $GLOBALS['wp_styles'] : null);
      $a['printed'] = in_array($a['handle'], $out['done'][$a['type']], true);
      $a['in_head'] = is_array($P['head']) && in_array($a['handle'], $P['head'][$a['type']], true);
      $a['deferred'] = $a['type'] === 'script' && !empty($P['tags'][$a['handle']]);
      $a['enqs'] = array_values($a['enqs']);
      // The file printed: as WordPress printed it, else the registration that took effect.
      $src = isset($P['srcs'][$a['type']][$a['handle']]) ? $P['srcs'][$a['type']][$a['handle']] : (is_object($deps) && isset($deps->registered[$a['handle']]) ? $deps->registered[$a['handle']]->src : null);
      if (is_string($src) && $src !== '') $a['src'] = $src;
      $a['bytes'] = wpbench_fd_bytes($src);
      $assets[] = $a;
    }
    $out['assets'] = $assets;
    // The autoloaded options as they are now: name, autoload value, bytes.
    global $wpdb;
    $out['autoload'] = array();
    if (isset($wpdb) && is_object($wpdb)) {
      $rows = $wpdb->get_results("SELECT option_name, autoload, LENGTH(option_value) AS b FROM {$wpdb->options} WHERE autoload NOT IN ('no', 'off', 'auto-off')", ARRAY_N);
      foreach ((array) $rows as $r) $out['autoload'][] = array((string) $r[0], (string) $r[1], (int) $r[2]);
    }
  }
  @file_put_contents($P['dir'] . '/' . $P['id'] . '.findings.json', json_encode($out, JSON_UNESCAPED_SLASHES | JSON_PARTIAL_OUTPUT_ON_ERROR | JSON_INVALID_UTF8_SUBSTITUTE));
}
// Registered again from inside shutdown: runs after WordPress's own shutdown hook (and the footer's scripts).
register_shutdown_function(function () { register_shutdown_function('wpbench_fd_write'); });
}
`;
}
