// The relay a sandbox with a network of its own is reached through: a small PHP program (run with `php -n`: the
// core's streams only) that listens on one address per pair and pipes each connection to the pair's other address.
// The site's server (runtime/phpRuntime.ts: a Unix socket outside → php -S on the sandbox's 127.0.0.1) and Chromium's
// sandbox (browser/chromium.ts: the sandbox's 127.0.0.1:PORT → each side's gate on its Unix socket) both use it.

/** What the relay is told (its argv[1], as JSON). */
export interface RelayConfig {
  /** [listen, connect]: "unix:///path/site.sock" → "tcp://127.0.0.1:8080" */
  pairs: [string, string][];
  /** an address to wait for (at most 30 s) before listening: the server the relay forwards to */
  wait?: string;
  /** a file touched once every pair listens */
  ready?: string;
}

export const RELAY_PHP = `<?php
// WP Bench relay: a sandbox with a network of its own is reached through these pairs of addresses.
$conf = json_decode($argv[1], true);
if (!empty($conf['wait'])) {
  $deadline = microtime(true) + 30;
  for (;;) {
    $t = @stream_socket_client($conf['wait'], $en, $es, 1);
    if ($t) { fclose($t); break; }
    if (microtime(true) > $deadline) exit(1);
    usleep(10000);
  }
}
$map = array(); $srvs = array();
foreach ($conf['pairs'] as $p) {
  $s = @stream_socket_server((string) $p[0], $en, $es);
  if (!$s) { fwrite(STDERR, "wp-bench relay: cannot listen on " . $p[0] . ": $es\\n"); exit(1); }
  $srvs[(int) $s] = $s; $map[(int) $s] = (string) $p[1];
}
if (!empty($conf['ready'])) touch($conf['ready']);
$peer = array(); $all = array();
for (;;) {
  $r = array_merge(array_values($all), array_values($srvs)); $w = null; $x = null;
  if (@stream_select($r, $w, $x, null) === false) continue;
  foreach ($r as $s) {
    if (isset($srvs[(int) $s])) {
      $c = @stream_socket_accept($s, 0);
      if (!$c) continue;
      $t = @stream_socket_client($map[(int) $s], $en, $es, 10);
      if (!$t) { fclose($c); continue; }
      $peer[(int) $c] = $t; $peer[(int) $t] = $c; $all[(int) $c] = $c; $all[(int) $t] = $t;
      continue;
    }
    $id = (int) $s;
    if (!isset($peer[$id])) continue;
    $o = $peer[$id];
    $data = @fread($s, 65536);
    if ($data === false || ($data === '' && feof($s))) {
      unset($peer[$id], $peer[(int) $o], $all[$id], $all[(int) $o]);
      @fclose($s); @fclose($o);
      continue;
    }
    for ($off = 0, $n = strlen($data); $off < $n; ) {
      $k = @fwrite($o, substr($data, $off));
      if ($k === false || $k === 0) break;
      $off += $k;
    }
  }
}
`;
