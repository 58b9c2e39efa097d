// The profiling must-use plugin: on a request marked X-WPBench-Profile: 1 (and carrying X-WPBench-Req), when the
// Excimer extension is loaded, samples the request's wall-clock stack every `period` seconds, records the call stack
// of every database query (WordPress's `query` filter) and, at shutdown, which hooks the component's callbacks are
// registered on; then writes <dir>/<request id>.profile.json (read by ./read.ts, attributed by ./attribute.ts).
// Paths are embedded with phpString(): no path can break out of a PHP literal.
import { phpString } from '../php/phpFiles';

/** File name of the must-use plugin (loads before any other must-use plugin, WP Bench's own '0-wpbench-*' included). */
export const PROFILE_MU_PLUGIN = '0-0-wpbench-profile.php';
/** The --baseline-ref copy's profiler (acts on X-WPBench-Profile: ref only). */
export const PROFILE_REF_MU_PLUGIN = '0-0-wpbench-profile-ref.php';
/** The request header that marks a request for profiling (value "1"). */
export const PROFILE_HEADER = 'X-WPBench-Profile';
/** The header naming the request (shared with the probe): the profile is written as <dir>/<id>.profile.json. */
export const REQUEST_HEADER = 'X-WPBench-Req';
/** Default sampling period: 1 ms. */
export const DEFAULT_PERIOD_S = 0.001;

export interface ProfilePhpOptions {
  /** Folder (as PHP sees it) where <id>.profile.json is written; must exist and be writable. */
  dir: string;
  /** The component's files and folders (as PHP sees them): a plugin's folder, a single-file plugin's file, a theme's
   *  folder (a child theme: the child's only), a must-use plugin's main file and the folders it loads. */
  roots: string[];
  /** Paths in the profile are relative to this folder (default: the first root if it is a folder, else its parent). */
  base?: string;
  /** Sampling period in seconds (default 0.001). */
  period?: number;
  /** Deepest stack kept per sample (default 0: unlimited). */
  maxDepth?: number;
  /** The header value this copy acts on (default "1"; "ref": the --baseline-ref copy's profiler, its own file). */
  marker?: '1' | 'ref';
}

/** The profile file name of a request id (the id is sanitized as the probe sanitizes it). */
export function profileFileName(id: string): string {
  return `${id.replace(/[^a-z0-9-]/g, '')}.profile.json`;
}

/**
 * PHP source of the profiling must-use plugin. Safe on every request: without the header, the id or Excimer it does
 * nothing. It may also be loaded before WordPress (auto_prepend_file): hooks are then pre-registered in $wp_filter,
 * which WordPress turns into WP_Hook objects when it loads plugin.php.
 */
export function profileMuPluginPhp(o: ProfilePhpOptions): string {
  const roots = o.roots.map((r) => r.replace(/\/+$/, ''));
  const base = (o.base ?? (roots[0] && /\.php$/i.test(roots[0]) ? roots[0].replace(/\/[^/]*$/, '') : roots[0] ?? '')).replace(/\/+$/, '');
  const period = o.period && o.period > 0 ? o.period : DEFAULT_PERIOD_S;
  // l10n-ignore: PHP source, not UI text
  return `<?php
// WP Bench profiler (throwaway site): samples a request marked ${PROFILE_HEADER}: 1 with Excimer and writes where the
// measured component's functions spent the time and issued the queries.
if (!defined('WPBENCH_PROFILE') && isset($_SERVER['HTTP_X_WPBENCH_PROFILE']) && $_SERVER['HTTP_X_WPBENCH_PROFILE'] === ${phpString(o.marker ?? '1')}
  && isset($_SERVER['HTTP_X_WPBENCH_REQ']) && class_exists('ExcimerProfiler')) {
define('WPBENCH_PROFILE', 1);
$GLOBALS['wpbench_prof'] = array(
  'id' => preg_replace('/[^a-z0-9-]/', '', (string) $_SERVER['HTTP_X_WPBENCH_REQ']),
  'dir' => ${phpString(o.dir)},
  'roots' => array(${roots.map(phpString).join(', ')}),
  'base' => ${phpString(base)},
  'period' => ${String(period)},
  'queries' => array(),
  't0' => microtime(true),
);
$wpbench_prof_p = new ExcimerProfiler();
$wpbench_prof_p->setEventType(EXCIMER_REAL);
$wpbench_prof_p->setPeriod(${String(period)});
${o.maxDepth ? `$wpbench_prof_p->setMaxDepth(${Math.floor(o.maxDepth)});\n` : ''}$GLOBALS['wpbench_prof']['profiler'] = $wpbench_prof_p;
unset($wpbench_prof_p);

/** The component's root a real path is in (its path relative to the base), or null. */
function wpbench_prof_rel($file) {
  static $cache = array(), $roots = null;
  if (!is_string($file) || $file === '') return null;
  if (array_key_exists($file, $cache)) return $cache[$file];
  $P = $GLOBALS['wpbench_prof'];
  if ($roots === null) {
    $roots = array();
    $bases = array($P['base']);
    $rb = @realpath($P['base']);
    if ($rb !== false && $rb !== $P['base']) $bases[] = $rb;
    foreach ($P['roots'] as $r) {
      $roots[] = $r;
      $rr = @realpath($r);
      if ($rr !== false && $rr !== $r) $roots[] = $rr;
    }
    $GLOBALS['wpbench_prof']['bases'] = $bases;
  }
  $rel = null;
  foreach ($roots as $r) {
    if ($file === $r || strpos($file, $r . '/') === 0) {
      foreach ($GLOBALS['wpbench_prof']['bases'] as $b) {
        if (strpos($file, $b . '/') === 0) { $rel = substr($file, strlen($b) + 1); break; }
      }
      if ($rel === null) $rel = basename($file);
      break;
    }
  }
  return $cache[$file] = $rel;
}

/** Line ranges of the closures and arrow functions of a file: [[start, end], ...]. */
function wpbench_prof_closures($file) {
  static $cache = array();
  if (isset($cache[$file])) return $cache[$file];
  $src = @file_get_contents($file);
  if (!is_string($src) || !function_exists('token_get_all')) return $cache[$file] = array();
  $t = @token_get_all($src);
  $n = count($t);
  $skip = array(T_WHITESPACE, T_COMMENT, T_DOC_COMMENT);
  $ranges = array();
  $open = array();
  $pending = null;
  $depth = 0;
  $line = 1;
  for ($i = 0; $i < $n; $i++) {
    $k = $t[$i];
    if (is_array($k)) {
      $line = $k[2];
      if ($k[0] === T_FUNCTION || (defined('T_FN') && $k[0] === T_FN)) {
        $j = $i + 1;
        while ($j < $n && is_array($t[$j]) && in_array($t[$j][0], $skip, true)) $j++;
        if ($j < $n && $t[$j] === '&') { $j++; while ($j < $n && is_array($t[$j]) && in_array($t[$j][0], $skip, true)) $j++; }
        if ($j < $n && $t[$j] === '(') {
          if ($k[0] === T_FUNCTION) {
            $pending = $line;
          } else {
            // fn (...) => expr: ends at the first , ; ) ] } outside brackets after the arrow.
            $end = $line; $l2 = $line; $nest = 0; $arrow = false;
            for ($m = $j; $m < $n; $m++) {
              $x = $t[$m];
              if (is_array($x)) { $l2 = $x[2] + substr_count($x[1], "\\n"); if ($x[0] === T_DOUBLE_ARROW && $nest === 0) $arrow = true; if ($x[0] === T_CURLY_OPEN || $x[0] === T_DOLLAR_OPEN_CURLY_BRACES) $nest++; continue; }
              if ($x === '(' || $x === '[' || $x === '{') { $nest++; continue; }
              if ($arrow && $nest === 0 && ($x === ',' || $x === ';' || $x === ')' || $x === ']' || $x === '}')) { $end = $l2; break; }
              if ($x === ')' || $x === ']' || $x === '}') $nest--;
            }
            $ranges[] = array($line, $end);
          }
        }
      } elseif ($k[0] === T_CURLY_OPEN || $k[0] === T_DOLLAR_OPEN_CURLY_BRACES) {
        $depth++;
      }
      $line += substr_count($k[1], "\\n");
    } elseif ($k === '{') {
      $depth++;
      if ($pending !== null) { $open[] = array($pending, $depth); $pending = null; }
    } elseif ($k === '}') {
      if ($open && $open[count($open) - 1][1] === $depth) { $o = array_pop($open); $ranges[] = array($o[0], $line); }
      $depth--;
    }
  }
  return $cache[$file] = $ranges;
}

/** The line where the function a frame executes is defined (a closure: its first line), or null. */
function wpbench_prof_def($file, $function, $class, $line, $closure_line) {
  if ($closure_line) return (int) $closure_line;
  if (!is_string($function) || $function === '') return null;
  if (strpos($function, '{closure') !== false) {
    $best = null;
    foreach (wpbench_prof_closures($file) as $r) {
      if ($r[0] <= $line && $line <= $r[1] && ($best === null || $r[0] > $best)) $best = $r[0];
    }
    return $best;
  }
  try {
    $r = $class ? new ReflectionMethod($class, $function) : new ReflectionFunction($function);
    return $r->getStartLine() ?: null;
  } catch (Throwable $e) {
    return null;
  }
}

/** Reflection of a registered callback, or null. */
function wpbench_prof_reflect($cb) {
  try {
    if ($cb instanceof Closure) return new ReflectionFunction($cb);
    if (is_string($cb)) return strpos($cb, '::') !== false ? new ReflectionMethod($cb) : new ReflectionFunction($cb);
    if (is_array($cb) && count($cb) === 2 && is_string($cb[1])) {
      $m = $cb[1];
      if (strpos($m, 'parent::') === 0) { $m = substr($m, 8); $c = get_parent_class($cb[0]); return $c ? new ReflectionMethod($c, $m) : null; }
      return new ReflectionMethod($cb[0], $m);
    }
    if (is_object($cb) && method_exists($cb, '__invoke')) return new ReflectionMethod($cb, '__invoke');
  } catch (Throwable $e) {
  }
  return null;
}

/** Each query's call stack (the query filter runs in wpdb::query before the query does). */
function wpbench_prof_query($query) {
  $bt = debug_backtrace(DEBUG_BACKTRACE_IGNORE_ARGS);
  // Frame k+1 (function, class) executes at frame k's file and line: outermost first, as Excimer's.
  $s = array();
  for ($k = count($bt) - 1; $k >= 0; $k--) {
    $at = $bt[$k];
    if (!isset($at['file'])) continue;
    $fn = isset($bt[$k + 1]) ? $bt[$k + 1] : null;
    $f = array('file' => $at['file'], 'line' => isset($at['line']) ? $at['line'] : 0);
    // include/require frames are a file's own code, as in Excimer's frames.
    if ($fn && !in_array($fn['function'], array('include', 'include_once', 'require', 'require_once'), true)) {
      if (isset($fn['class'])) $f['class'] = $fn['class'];
      $f['function'] = $fn['function'];
    }
    $s[] = $f;
  }
  $key = serialize($s);
  if (isset($GLOBALS['wpbench_prof']['queries'][$key])) $GLOBALS['wpbench_prof']['queries'][$key][1]++;
  else $GLOBALS['wpbench_prof']['queries'][$key] = array($s, 1);
  return $query;
}

function wpbench_prof_write() {
  $P = &$GLOBALS['wpbench_prof'];
  if (empty($P['profiler'])) return;
  $P['profiler']->stop();
  $wall = (microtime(true) - $P['t0']) * 1000;
  $log = $P['profiler']->getLog();
  // Kept alive, not destroyed here: a timer event already in flight on Excimer's timer thread would find its mutex
  // gone ("pthread_mutex_lock(): Invalid argument", the process aborted); it goes with the request's globals.
  $GLOBALS['wpbench_prof_stopped'] = $P['profiler'];
  unset($P['profiler']);
  $frames = array();
  $index = array();
  $intern = function ($f) use (&$frames, &$index) {
    $file = isset($f['file']) ? (string) $f['file'] : '';
    $fn = isset($f['function']) ? (string) $f['function'] : '';
    $class = isset($f['class']) ? (string) $f['class'] : '';
    $cl = isset($f['closure_line']) ? (int) $f['closure_line'] : 0;
    $rel = wpbench_prof_rel($file);
    // The executing line is kept for the component's frames only (the core's would multiply the frames).
    $line = $rel !== null && isset($f['line']) ? (int) $f['line'] : 0;
    $key = $file . '|' . $line . '|' . $class . '|' . $fn . '|' . $cl;
    if (isset($index[$key])) return $index[$key];
    $o = array('file' => $file);
    if ($line) $o['line'] = $line;
    if ($fn !== '') $o['function'] = $fn;
    if ($class !== '') $o['class'] = $class;
    if ($cl) $o['closure_line'] = $cl;
    if ($rel !== null) {
      $o['comp'] = 1;
      $o['rel'] = $rel;
      $o['def'] = wpbench_prof_def($file, $fn, $class, isset($f['line']) ? (int) $f['line'] : 0, $cl);
    } elseif (defined('ABSPATH') && strpos($file, ABSPATH) === 0) {
      $o['rel'] = substr($file, strlen(ABSPATH));
    }
    $frames[] = $o;
    return $index[$key] = count($frames) - 1;
  };
  $samples = array();
  $n = 0;
  foreach ($log as $entry) {
    $trace = $entry->getTrace();
    $s = array();
    for ($i = count($trace) - 1; $i >= 0; $i--) $s[] = $intern($trace[$i]);
    $c = method_exists($entry, 'getEventCount') ? (int) $entry->getEventCount() : 1;
    $k = implode(',', $s);
    if (isset($samples[$k])) $samples[$k]['n'] += $c;
    else $samples[$k] = array('s' => $s, 'n' => $c);
    $n += $c;
  }
  $queries = array();
  foreach ($P['queries'] as $q) {
    $s = array();
    foreach ($q[0] as $f) $s[] = $intern($f);
    $queries[] = array('s' => $s, 'n' => $q[1]);
  }
  $hooks = array();
  if (isset($GLOBALS['wp_filter']) && is_array($GLOBALS['wp_filter']) && function_exists('did_action')) {
    foreach ($GLOBALS['wp_filter'] as $hook => $h) {
      $cbs = $h instanceof WP_Hook ? $h->callbacks : (is_array($h) ? $h : array());
      // Hooks that never ran on this request are left out (did_filter: WordPress 6.1+).
      $ran = did_action($hook) > 0 || (function_exists('did_filter') ? did_filter($hook) > 0 : true);
      if (!$ran) continue;
      foreach ($cbs as $byPrio) {
        if (!is_array($byPrio)) continue;
        foreach ($byPrio as $cb) {
          if (!isset($cb['function'])) continue;
          $r = wpbench_prof_reflect($cb['function']);
          if (!$r) continue;
          $file = $r->getFileName();
          $rel = $file ? wpbench_prof_rel($file) : null;
          if ($rel === null) continue;
          $key = $rel . ':' . $r->getStartLine();
          if (!isset($hooks[$key])) $hooks[$key] = array('file' => $file, 'rel' => $rel, 'line' => $r->getStartLine(), 'hooks' => array());
          if (!in_array((string) $hook, $hooks[$key]['hooks'], true)) $hooks[$key]['hooks'][] = (string) $hook;
        }
      }
    }
  }
  $out = array(
    'v' => 1,
    'id' => $P['id'],
    'period' => $P['period'],
    'roots' => $P['roots'],
    'base' => $P['base'],
    'uri' => isset($_SERVER['REQUEST_URI']) ? substr((string) $_SERVER['REQUEST_URI'], 0, 300) : null,
    'wall_ms' => $wall,
    'events' => $n,
    'frames' => $frames,
    'samples' => array_values($samples),
    'queries' => $queries,
    'hooks' => array_values($hooks),
  );
  @file_put_contents($P['dir'] . '/' . $P['id'] . '.profile.json', json_encode($out, JSON_UNESCAPED_SLASHES | JSON_PARTIAL_OUTPUT_ON_ERROR));
}

if ($GLOBALS['wpbench_prof']['id'] !== '') {
  if (function_exists('add_filter')) {
    add_filter('query', 'wpbench_prof_query', PHP_INT_MAX);
  } else {
    // Loaded before WordPress: pre-registered, WordPress builds the WP_Hook when it loads plugin.php.
    $GLOBALS['wp_filter']['query'][PHP_INT_MAX][] = array('function' => 'wpbench_prof_query', 'accepted_args' => 1);
  }
  // Registered again from inside shutdown: runs after WordPress's own shutdown hook.
  register_shutdown_function(function () { register_shutdown_function('wpbench_prof_write'); });
  $GLOBALS['wpbench_prof']['profiler']->start();
}
}
`;
}
