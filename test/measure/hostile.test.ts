// Integration: hostile plugins against the native runtime's sandbox (bubblewrap), its HTTP lock-down and the
// checksummed cache. Every plugin here is BUILT by the test in a temporary folder (nothing fetched). A sandboxed
// plugin cannot write anywhere the test can read, so each one reports what it found through what the measurement
// records: extra `$wpdb->get_var('SELECT 1')` calls on every request (queries are counted exactly, queries_delta).
// Each plugin adds 1 query when its probe ran at all (the positive control) and a larger, distinct number for each
// thing it should NOT have managed. Loopback addresses only; every process the test starts is ended by its pid.
// Slow (a real WordPress per measurement): run with `npm run test:measure`. Needs php-cli, php-sqlite3, wordpress,
// bubblewrap and @wp-playground/cli; a missing one fails the suite, it is never skipped.
import * as assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync, promises as fs } from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { measure, type MeasureOptions } from '../../src/core/measure/run/engine';
import type { LocalRecord } from '../../src/core/measure/record/method';
import { gone, listening, assertNothingLeft } from './helpers';

const FIX = path.resolve(__dirname, '..', 'fixtures', 'measure');
const ROOT = path.resolve(__dirname, '..', '..');
const CONTEXTS = ['activation', 'homepage', 'admin'] as const;

// ---------------------------------------------------------------------------------------------------------------
// Shared helpers

/** A PHP single-quoted string literal (no `$` interpolation, no way out of the literal). */
function php(s: string | number): string {
  return `'${String(s).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** PHP that runs `n` extra queries on every request where the plugin is loaded (from plugins_loaded on). */
function reportQueries(expr: string): string {
  return `add_action('plugins_loaded', function () use (${expr}) { global $wpdb; for ($i = 0; $i < ${expr}; $i++) $wpdb->get_var('SELECT 1'); });\n`;
}

const tempDirs: string[] = [];

/** A plugin folder `<tmp>/<slug>/<slug>.php` holding the given PHP (after the plugin header). */
async function makePlugin(slug: string, title: string, body: string): Promise<string> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-hostile-'));
  tempDirs.push(root);
  const dir = path.join(root, slug);
  await fs.mkdir(dir);
  await fs.writeFile(path.join(dir, `${slug}.php`), `<?php\n/**\n * Plugin Name: Hostile test: ${title}\n * Version: 1.0\n */\n${body}`);
  return dir;
}




/** Every process whose /proc/PID/cmdline can be read (zombies have an empty one and are left out): pid and argv. */
function procCmdlines(): Array<{ pid: number; argv: string[] }> {
  const out: Array<{ pid: number; argv: string[] }> = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    let raw: string;
    try {
      raw = readFileSync(`/proc/${e}/cmdline`, 'latin1');
    } catch {
      continue; // exited meanwhile
    }
    if (!raw) continue;
    out.push({ pid: Number(e), argv: raw.split('\0').filter(Boolean) });
  }
  return out;
}

/** Processes whose command line holds one of the markers as a word ("sleep 373712345", "sh -c 'sleep 373712345'"). */
function markerProcesses(markers: number[]): Array<{ pid: number; marker: number; cmd: string }> {
  const out: Array<{ pid: number; marker: number; cmd: string }> = [];
  for (const p of procCmdlines()) {
    if (p.pid === process.pid) continue;
    const words = p.argv.flatMap((a) => a.split(/\s+/));
    for (const m of markers) if (words.includes(String(m))) out.push({ pid: p.pid, marker: m, cmd: p.argv.join(' ') });
  }
  return out;
}

/** Kills (SIGKILL, by pid) whatever still runs with one of the markers; returns what it found. */
async function killMarkerProcesses(markers: number[]): Promise<Array<{ pid: number; marker: number; cmd: string }>> {
  const left = markerProcesses(markers);
  for (const p of left) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      /* gone meanwhile */
    }
  }
  for (const p of left) await gone(p.pid, 2000);
  return left;
}

/** Pids of the processes holding a socket listening on 127.0.0.1:port (read from /proc/net/tcp and /proc/PID/fd). */
function listenerPids(port: number): number[] {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'latin1');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // local_address is HEXIP:HEXPORT, st 0A is LISTEN, inode is the 10th field
      if (f.length > 9 && f[3] === '0A' && parseInt(f[1].split(':')[1] ?? '', 16) === port) inodes.add(f[9]);
    }
  }
  const out: number[] = [];
  if (inodes.size === 0) return out;
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${e}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let link = '';
      try {
        link = readlinkSync(`/proc/${e}/fd/${fd}`);
      } catch {
        continue;
      }
      const m = /^socket:\[(\d+)\]$/.exec(link);
      if (m && inodes.has(m[1])) {
        out.push(Number(e));
        break;
      }
    }
  }
  return out;
}

/** Every file under dir (recursive), absolute paths. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const e of await fs.readdir(d, { withFileTypes: true }).catch(() => [])) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else out.push(p);
    }
  };
  await walk(dir);
  return out;
}

async function isSqlite(file: string): Promise<boolean> {
  const fh = await fs.open(file, 'r').catch(() => undefined);
  if (!fh) return false;
  try {
    const b = Buffer.alloc(16);
    await fh.read(b, 0, 16, 0);
    return b.toString('latin1') === 'SQLite format 3\0';
  } finally {
    await fh.close();
  }
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function queriesOf(r: LocalRecord): Record<string, number | undefined> {
  return Object.fromEntries(CONTEXTS.map((c) => [c, r.contexts[c]?.queries_delta]));
}

/** An empty plugin's figures: |memory| ≤ 64 KB and 0 queries in every context. */
function assertClean(r: LocalRecord, what: string): void {
  for (const c of CONTEXTS) {
    const m = r.contexts[c];
    assert.ok(m, `${what}: ${c} measured (${JSON.stringify(r.local.null_reasons)})`);
    assert.ok(Math.abs(m.memory_delta_kb) <= 64, `${what}: ${c} memory ${m.memory_delta_kb} KB, expected ±64`);
    assert.equal(m.queries_delta, 0, `${what}: ${c} queries`);
  }
}

/** Each context's queries_delta equals `expected` (the plugin's report); `what` explains the code. */
function assertQueries(r: LocalRecord, expected: number, what: string): void {
  for (const c of CONTEXTS) {
    assert.ok(r.contexts[c], `${c} measured (${JSON.stringify(r.local.null_reasons)})`);
    assert.equal(r.contexts[c]!.queries_delta, expected, `${c}: queries ${JSON.stringify(queriesOf(r))}; ${what}`);
  }
}

const EMPTY_BODY = '// Does nothing.\n';

// ---------------------------------------------------------------------------------------------------------------

describe('wp-bench measure against hostile plugins (sandbox, HTTP lock-down, cache)', function () {
  let cacheDir: string;
  const made: Array<{ root?: string; pid?: number; port?: number }> = [];
  const opts = (p: string, extra: Partial<MeasureOptions> = {}): MeasureOptions => ({
    path: p,
    runtime: 'php',
    env: { ...process.env, WPBENCH_API_KEY: 'secret-must-not-reach-php' },
    cwd: ROOT,
    cacheDir,
    noCache: true,
    rounds: 3,
    onResource: (r) => made.push(r),
    ...extra,
  });
  const freshCache = async () => {
    const d = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-hostile-cache-'));
    tempDirs.push(d);
    return d;
  };

  before(async () => {
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-hostile-test-cache-'));
  });
  after(async () => {
    await fs.rm(cacheDir, { recursive: true, force: true });
    for (const d of tempDirs.splice(0)) await fs.rm(d, { recursive: true, force: true });
  });
  afterEach(async () => {
    await assertNothingLeft(made);
  });

  // -------------------------------------------------------------------------------------------------------------
  // 1. Secrets of other processes

  it('a plugin scanning every /proc/*/environ and /proc/*/cmdline for the API key finds nothing under the sandbox (and does find it without one)', async function () {
    this.timeout(600_000);
    const apiKey = `wpb-secret-${randomBytes(12).toString('hex')}`;
    const token = `ghp_${randomBytes(18).toString('hex')}`;
    // Code: 1 = the scan ran (it read /proc/self/environ and listed /proc); +10 a secret in some environ; +20 in
    // some cmdline.
    const plugin = await makePlugin(
      'hostile-proc-scan',
      'scans /proc for secrets',
      `$wpbench_scan = (function () {
  $needles = array(${php(apiKey)}, ${php(token)});
  $dirs = glob('/proc/[0-9]*', GLOB_ONLYDIR);
  $dirs = is_array($dirs) ? $dirs : array();
  $self = @file_get_contents('/proc/self/environ');
  $code = ($self !== false && count($dirs) > 0) ? 1 : 0;
  $env = false; $cmd = false;
  foreach ($dirs as $d) {
    $e = @file_get_contents($d . '/environ');
    $c = @file_get_contents($d . '/cmdline');
    foreach ($needles as $n) {
      if (is_string($e) && strpos($e, $n) !== false) $env = true;
      if (is_string($c) && strpos($c, $n) !== false) $cmd = true;
    }
  }
  return $code + ($env ? 10 : 0) + ($cmd ? 20 : 0);
})();
${reportQueries('$wpbench_scan')}`,
    );
    const saved = { WPBENCH_API_KEY: process.env.WPBENCH_API_KEY, GITHUB_TOKEN: process.env.GITHUB_TOKEN };
    process.env.WPBENCH_API_KEY = apiKey;
    process.env.GITHUB_TOKEN = token;
    // Node's own /proc/self/environ holds only its initial environment: a helper carries the secrets in its
    // environment (both) and its command line (the key, as argv[0]) for the whole test.
    let helper: ChildProcess | undefined;
    try {
      helper = spawn('sleep', ['600'], { env: { ...process.env }, argv0: `wpbench-helper-${apiKey}`, stdio: 'ignore' });
      assert.ok(helper.pid, 'helper started');
      // Until the child has exec'd, /proc/PID shows Node's own command line and initial environment: wait for the
      // exec (its command line naming argv0), asked at most 1000 times, 5 ms apart.
      const cmdline = () => {
        try {
          return readFileSync(`/proc/${helper!.pid}/cmdline`, 'latin1');
        } catch {
          return '';
        }
      };
      for (let i = 0; i < 1000 && !cmdline().startsWith('wpbench-helper-'); i++) await new Promise((r) => setTimeout(r, 5));
      assert.match(readFileSync(`/proc/${helper.pid}/environ`, 'latin1'), new RegExp(apiKey), 'the helper carries the key in its environment');
      assert.match(readFileSync(`/proc/${helper.pid}/cmdline`, 'latin1'), new RegExp(apiKey), 'the helper carries the key in its command line');
      const env = { ...process.env, WPBENCH_API_KEY: apiKey, GITHUB_TOKEN: token };

      // Positive control: without a sandbox, the same plugin does find the helper's secrets (the scan can see them).
      const open = await measure(opts(plugin, { env, sandbox: 'none' }));
      assert.equal(open.local.sandbox, 'none');
      assertQueries(open, 31, 'without a sandbox the scan should run (1) and find the secrets in the helper\'s environ (+10) and cmdline (+20)');

      const r = await measure(opts(plugin, { env, sandbox: 'auto' }));
      assert.equal(r.local.sandbox, 'bubblewrap');
      // The PHP sandbox has no /proc at all (not even its own processes': another side's requests passed through them).
      assertQueries(r, 0, '0 = no /proc to scan; 1 = scan ran and found nothing; +10 = a secret in some /proc/*/environ, +20 = in some /proc/*/cmdline');
    } finally {
      if (helper?.pid) {
        process.kill(helper.pid, 'SIGKILL');
        await gone(helper.pid, 2000);
      }
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  // -------------------------------------------------------------------------------------------------------------
  // 2. Processes left behind

  const detachedCase = (sandbox: 'auto' | 'none') =>
    async function (this: Mocha.Context) {
      this.timeout(600_000);
      const base = 3737_0000 + randomInt(0, 10_000);
      // m1 setsid via exec, m2 nohup sh -c via shell_exec, m3 setsid via proc_open (no shell), m4 with an emptied
      // environment (env -i): the last one escapes a marker-variable hunt by design, so without a sandbox it is
      // reported, not asserted.
      const m = [1, 2, 3, 4].map((k) => base * 10 + k);
      const plugin = await makePlugin(
        'hostile-detached',
        'starts detached processes',
        `$wpbench_spawned = (function () {
  $m = array(${m.join(', ')});
  @exec('setsid sleep ' . $m[0] . ' >/dev/null 2>&1 &');
  @shell_exec("nohup sh -c 'sleep " . $m[1] . "' >/dev/null 2>&1 &");
  $null = array(0 => array('file', '/dev/null', 'r'), 1 => array('file', '/dev/null', 'w'), 2 => array('file', '/dev/null', 'w'));
  $GLOBALS['wpbench_proc'] = @proc_open(array('setsid', 'sleep', (string) $m[2]), $null, $pipes);
  @exec('env -i setsid sleep ' . $m[3] . ' >/dev/null 2>&1 &');
  // Positive control: how many of the four kinds it can see running (from this or an earlier request).
  $seen = array();
  $deadline = microtime(true) + 0.5;
  do {
    foreach ((array) glob('/proc/[0-9]*', GLOB_ONLYDIR) as $d) {
      $c = @file_get_contents($d . '/cmdline');
      if (!is_string($c) || $c === '') continue;
      $words = preg_split('/[\\s\\x00]+/', $c);
      foreach ($m as $x) if (in_array((string) $x, $words, true)) $seen[$x] = true;
    }
    if (count($seen) === count($m)) break;
    usleep(20000);
  } while (microtime(true) < $deadline);
  return count($seen);
})();
${reportQueries('$wpbench_spawned')}`,
      );
      const during = new Set<number>();
      const said: string[] = [];
      const ports: number[] = [];
      let left: Array<{ pid: number; marker: number; cmd: string }> = [];
      let escaped: Array<{ pid: number; marker: number; cmd: string }> = [];
      try {
        const r = await measure(
          opts(plugin, {
            sandbox,
            onResource: (x) => {
              made.push(x);
              if (x.port) ports.push(x.port);
            },
            // While the run goes on, the test sees the plugin's processes (host view of /proc).
            progress: (l) => {
              said.push(l);
              if (/^round 1\//.test(l)) for (const p of markerProcesses(m)) during.add(p.marker);
            },
          }),
        );
        assert.equal(r.local.sandbox, sandbox === 'auto' ? 'bubblewrap' : 'none');
        if (sandbox === 'auto') {
          // In the sandbox every process outliving its request is ended before the next request (said once), and the
          // plugin has no /proc to look for them in.
          assertQueries(r, 0, 'no /proc in the sandbox: the plugin sees none of its processes');
          assert.equal(said.filter((l) => /left \d+ processes running after its request/.test(l)).length, 1, said.join('\n'));
        } else {
          assertQueries(r, 4, 'the plugin counts how many of its 4 kinds of detached process it sees running');
          assert.deepEqual([...during].sort(), [...m].sort(), 'all four kinds of process were seen running during the run');
        }

        // Once measure() has returned: none of them runs (the kill is synchronous; a bounded poll for the kernel).
        const mustGo = sandbox === 'auto' ? m : m.slice(0, 3);
        const deadline = Date.now() + 2000;
        for (;;) {
          left = markerProcesses(mustGo);
          if (left.length === 0 || Date.now() > deadline) break;
          await new Promise((res) => setTimeout(res, 25));
        }
        assert.deepEqual(left, [], `processes left running after measure() returned (sandbox ${sandbox})`);
        assert.ok(ports.length > 0, 'the site\'s port was reported');
        if (sandbox === 'none') {
          // Information: the env -i processes escape the marker hunt; the server's listening socket, inherited by
          // them, then keeps the site's port open. Asserted: nothing but those escaped processes holds it.
          escaped = markerProcesses([m[3]]);
          const holders = ports.flatMap((p) => listenerPids(p));
          const escapedPids = new Set(escaped.map((p) => p.pid));
          const info = escaped.length
            ? `\`env -i setsid sleep\` SURVIVED the unsandboxed run (${escaped.length} process(es)); ${holders.length ? `${holders.length} of them still held the site's listening socket` : 'the site\'s port was closed'}`
            : '`env -i setsid sleep` was killed too';
          this.test!.title += ` [information: ${info}]`;
          console.log(`      sandbox none: ${info}`);
          assert.deepEqual(
            holders.filter((pid) => !escapedPids.has(pid)),
            [],
            `processes other than the escaped env -i ones hold the site's listening socket: ${holders.map((pid) => `${pid} ${procCmdlines().find((x) => x.pid === pid)?.argv.join(' ') ?? '?'}`).join('; ')}`,
          );
          await killMarkerProcesses([m[3]]);
        }
        for (const p of ports) assert.equal(await listening(p), false, `port ${p} still listening (held by ${listenerPids(p).join(', ') || 'nobody'})`);
      } finally {
        // Whatever happened, the test leaves nothing: kill (by pid) what still runs with the markers.
        await killMarkerProcesses(m);
      }
    };

  it('a plugin starting detached processes (setsid, nohup, proc_open, env -i) on every request: none runs once measure returns (sandbox auto: bubblewrap)', detachedCase('auto'));
  it('a plugin starting detached processes (setsid, nohup, proc_open) on every request: none runs once measure returns (sandbox none)', detachedCase('none'));

  // -------------------------------------------------------------------------------------------------------------
  // 3. Poisoning the cache from inside

  it('a plugin rewriting everything it can reach in the cache folder changes nothing: later runs and cached answers are exact', async function () {
    this.timeout(600_000);
    const cache = await freshCache();
    const marker = `WPBENCH-POISON-${randomBytes(8).toString('hex')}`;
    const canary = `wpbench-hostile-canary-${randomBytes(6).toString('hex')}`;
    const home = os.homedir();
    // Outside the named cache folder the plugin only tries to CREATE a canary file (never touches what is there),
    // so a failing sandbox cannot harm the machine's real ~/.cache.
    const canaryDirs = [home, path.join(home, '.cache'), path.join(home, '.cache', 'wp-bench')];
    // Code: 1 = it ran and could write in its own site; +10 = it can see the cache folder; +20 = it changed or
    // created something in it; +40 = it created a canary in the home folder.
    const hostile = await makePlugin(
      'hostile-cache-poison',
      'rewrites the cache',
      `$wpbench_poison = (function () {
  $marker = ${php(marker)};
  $cache = ${php(cache)};
  $code = 0;
  if (@file_put_contents(WP_CONTENT_DIR . '/uploads/hostile-' . getmypid() . '.txt', $marker) !== false) $code += 1;
  if (@file_exists($cache)) $code += 10;
  $wrote = false;
  $walk = function ($dir) use (&$walk, &$wrote, $marker) {
    $items = @scandir($dir);
    if (!is_array($items)) return;
    foreach ($items as $f) {
      if ($f === '.' || $f === '..') continue;
      $p = $dir . '/' . $f;
      if (@is_dir($p) && !@is_link($p)) { $walk($p); continue; }
      $data = @file_get_contents($p);
      if ($data === false) continue;
      if (substr($data, 0, 16) === "SQLite format 3\\0") {
        try {
          $db = new PDO('sqlite:' . $p);
          $db->setAttribute(PDO::ATTR_ERRMODE, PDO::ERRMODE_EXCEPTION);
          $db->exec("INSERT INTO wp_options (option_name, option_value, autoload) VALUES ('wpbench_poison', '" . $marker . "', 'yes')");
          $db = null;
          $wrote = true;
        } catch (Throwable $e) {
          if (@file_put_contents($p, $marker, FILE_APPEND) !== false) $wrote = true;
        }
        continue;
      }
      $j = json_decode($data, true);
      if (is_array($j)) {
        array_walk_recursive($j, function (&$v, $k) {
          if ($k === 'queries_delta') $v = 7;
          if ($k === 'memory_delta_kb') $v = 7777;
        });
        $j['poison'] = $marker;
        if (@file_put_contents($p, json_encode($j)) !== false) $wrote = true;
      } elseif (@file_put_contents($p, $marker) !== false) {
        // e.g. a checksum key: replaced by one the attacker knows
        $wrote = true;
      }
    }
    if (@file_put_contents($dir . '/' . $marker . '.json', json_encode(array('poison' => $marker))) !== false) $wrote = true;
  };
  $walk($cache);
  if ($wrote) $code += 20;
  $home = false;
  foreach (array(${canaryDirs.map(php).join(', ')}) as $d) {
    if (@file_put_contents($d . '/' . ${php(canary)}, $marker) !== false) $home = true;
  }
  if ($home) $code += 40;
  return $code;
})();
${reportQueries('$wpbench_poison')}`,
    );
    const a = await makePlugin('empty-a', 'empty A', EMPTY_BODY);
    const b = await makePlugin('empty-b', 'empty B', `${EMPTY_BODY}// B, not A\n`);
    try {
      const first = await measure(opts(a, { cacheDir: cache, noCache: false }));
      assert.equal(first.local.cached, undefined);
      assert.equal(first.local.sandbox, 'bubblewrap');
      assertClean(first, 'A');
      const cachedBefore = await filesUnder(cache);
      assert.ok(cachedBefore.some((f) => f.endsWith('.json')), `A was cached: ${cachedBefore.join(', ')}`);

      const h = await measure(opts(hostile, { cacheDir: cache, noCache: false, sandbox: 'auto' }));
      assert.equal(h.local.sandbox, 'bubblewrap');
      assertQueries(h, 1, '1 = ran; +10 = saw the cache folder, +20 = wrote into it, +40 = wrote a canary in the home folder');

      for (const f of await filesUnder(cache)) {
        assert.equal(path.basename(f).includes(marker), false, `${f} was created by the plugin`);
        assert.equal((await fs.readFile(f)).includes(marker), false, `${f} holds the plugin's poison`);
      }
      for (const d of canaryDirs) {
        const c = path.join(d, canary);
        const there = existsSync(c);
        await fs.rm(c, { force: true });
        assert.equal(there, false, `the plugin wrote ${c}`);
      }

      const other = await measure(opts(b, { cacheDir: cache, noCache: false }));
      assert.equal(other.local.cached, undefined);
      assertClean(other, 'B after the hostile run');

      const again = await measure(opts(a, { cacheDir: cache, noCache: false }));
      assert.equal(again.local.cached, true, 'A answered from the cache');
      const { cached, ...rest } = again.local;
      void cached;
      assert.deepEqual(JSON.parse(JSON.stringify({ ...again, local: rest })), JSON.parse(JSON.stringify(first)), 'the cached answer is exactly what was first recorded');
    } finally {
      for (const d of canaryDirs) await fs.rm(path.join(d, canary), { force: true });
    }
  });

  // -------------------------------------------------------------------------------------------------------------
  // 4. Tampering from outside the sandbox

  it('a cached result or template database changed outside WP Bench is discarded (said in a progress line) and measured again', async function () {
    // On SQLite (--db sqlite): its template database is a file in the cache; a MariaDB run keeps none.
    this.timeout(600_000);
    const cache = await freshCache();
    const dir = path.join(cache, 'measure-v1');
    const a = await makePlugin('empty-tamper-a', 'empty A (tampering)', EMPTY_BODY);
    // Empty, unless the site's database holds the forged option: then 10 queries on every request. Reading the
    // autoloaded options costs no query (WordPress loaded them already).
    const reporter = await makePlugin(
      'empty-reporter',
      'reports a forged template',
      `add_action('plugins_loaded', function () { $all = wp_load_alloptions(); if (isset($all['wpbench_forged'])) { global $wpdb; for ($i = 0; $i < 10; $i++) $wpdb->get_var('SELECT 1'); } });\n`,
    );

    const first = await measure(opts(a, { cacheDir: cache, noCache: false, db: 'sqlite' }));
    assert.equal(first.local.cached, undefined);
    assertClean(first, 'A');
    const entries = (await filesUnder(dir)).filter((f) => f.endsWith('.json') && !f.startsWith(path.join(dir, 'sites') + path.sep));
    assert.equal(entries.length, 1, `one cached result after measuring A: ${entries.join(', ')}`);
    const templates: string[] = [];
    for (const f of await filesUnder(path.join(dir, 'sites'))) if (await isSqlite(f)) templates.push(f);
    assert.ok(templates.length >= 1, `a template database was kept under ${dir}/sites`);

    // (a) The cached result: every figure changed to a forged one, the file otherwise as it was.
    const entry = entries[0];
    const before = await fs.readFile(entry, 'utf8');
    const FORGED_Q = 42;
    const FORGED_KB = 4242;
    let after = before;
    try {
      const v = JSON.parse(before) as unknown;
      let n = 0;
      const forge = (x: unknown): void => {
        if (Array.isArray(x)) return x.forEach(forge);
        if (typeof x !== 'object' || x === null) return;
        const o = x as Record<string, unknown>;
        if ('queries_delta' in o && 'memory_delta_kb' in o) {
          o.queries_delta = FORGED_Q;
          o.memory_delta_kb = FORGED_KB;
          n++;
        }
        Object.values(o).forEach(forge);
      };
      forge(v);
      if (n > 0) after = JSON.stringify(v);
    } catch {
      /* not plain JSON: the text replacement below */
    }
    if (after === before) after = before.replace(/("|\\")queries_delta\1:\s*-?\d+/g, `$1queries_delta$1:${FORGED_Q}`);
    assert.notEqual(after, before, 'the test changed the cached figures');
    await fs.writeFile(entry, after);

    const lines1: string[] = [];
    const remeasured = await measure(opts(a, { cacheDir: cache, noCache: false, db: 'sqlite', progress: (l) => lines1.push(l) }));
    assert.notEqual(remeasured.local.cached, true, 'the forged entry is not an answer');
    for (const c of CONTEXTS) {
      assert.notEqual(remeasured.contexts[c]?.queries_delta, FORGED_Q, `${c}: the forged query count came back`);
      assert.notEqual(remeasured.contexts[c]?.memory_delta_kb, FORGED_KB, `${c}: the forged memory came back`);
    }
    assertClean(remeasured, 'A measured again');
    // (the progress lines are checked at the end, so that a missing one does not hide how the template fares)
    // The new entry is a good one again.
    const third = await measure(opts(a, { cacheDir: cache, noCache: false, db: 'sqlite' }));
    assert.equal(third.local.cached, true, 'the entry written after the discard answers');
    assertClean(third, 'A from the new entry');

    // (b) The template database: a forged, autoloaded option written into it with SQLite itself.
    for (const t of templates) {
      const was = sha256(await fs.readFile(t));
      execFileSync(
        'php',
        [
          '-r',
          `$db = new PDO('sqlite:' . $argv[1]); $db->setAttribute(PDO::ATTR_ERRMODE, PDO::ERRMODE_EXCEPTION); $db->exec("INSERT INTO wp_options (option_name, option_value, autoload) VALUES ('wpbench_forged', 'forged', 'yes')"); $db = null;`,
          t,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      assert.notEqual(sha256(await fs.readFile(t)), was, `the test changed ${t}`);
      assert.equal(existsSync(`${t}-wal`), false, 'the change is in the file itself, not in a -wal beside it');
    }
    const lines2: string[] = [];
    const r = await measure(opts(reporter, { cacheDir: cache, noCache: false, db: 'sqlite', progress: (l) => lines2.push(l) }));
    assert.notEqual(r.local.cached, true);
    assertClean(r, 'an empty plugin after the template was forged (10 queries = the forged database was used)');
    const said = (lines: string[]) => lines.some((l) => /tampered|failed its check/.test(l));
    assert.deepEqual(
      { resultDiscardSaid: said(lines1), templateDiscardSaid: said(lines2) },
      { resultDiscardSaid: true, templateDiscardSaid: true },
      `a progress line says each discarded entry was tampered with / failed its check.\nre-measuring A:\n${lines1.join('\n')}\nthe empty plugin after the template was forged:\n${lines2.join('\n')}`,
    );
  });

  // -------------------------------------------------------------------------------------------------------------
  // 5. WordPress's HTTP API to loopback

  it('a plugin calling a loopback server through WordPress\'s HTTP API (127.0.0.1, localhost, 127.1, 0.0.0.0): no request reaches it', async function () {
    this.timeout(600_000);
    const nonce = randomBytes(8).toString('hex');
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(req.url ?? '?');
      res.end(`wpbench-${nonce}`);
    });
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
    const port = (server.address() as net.AddressInfo).port;
    // Code: 1 = ran; +10 = one of the HTTP API calls got the server's answer; +100 = a raw fsockopen() did
    // (information only: whether the sandbox has its own network is not decided).
    const plugin = await makePlugin(
      'hostile-http-loopback',
      'calls a loopback server',
      `// Run once WordPress is loaded (the HTTP API needs pluggable.php): from plugins_loaded, or at once when the
// plugin is included later (activation).
$wpbench_http_run = function () {
  if (isset($GLOBALS['wpbench_http'])) return;
  $port = ${port};
  $nonce = ${php(nonce)};
  $code = 1;
  $urls = array(
    'http://127.0.0.1:' . $port . '/wp-http/127.0.0.1',
    'http://localhost:' . $port . '/wp-http/localhost',
    'http://127.1:' . $port . '/wp-http/127.1',
    'http://0.0.0.0:' . $port . '/wp-http/0.0.0.0',
  );
  $reached = false;
  foreach ($urls as $u) {
    $r = wp_remote_get($u, array('timeout' => 5, 'redirection' => 0));
    if (!is_wp_error($r) && strpos((string) wp_remote_retrieve_body($r), $nonce) !== false) $reached = true;
    $r = wp_safe_remote_get($u, array('timeout' => 5, 'redirection' => 0));
    if (!is_wp_error($r) && strpos((string) wp_remote_retrieve_body($r), $nonce) !== false) $reached = true;
  }
  if ($reached) $code += 10;
  $fp = @fsockopen('127.0.0.1', $port, $errno, $errstr, 2);
  if ($fp) {
    stream_set_timeout($fp, 2);
    fwrite($fp, "GET /raw-fsockopen HTTP/1.0\\r\\nHost: 127.0.0.1\\r\\n\\r\\n");
    $resp = (string) stream_get_contents($fp);
    fclose($fp);
    if (strpos($resp, $nonce) !== false) $code += 100;
  }
  $GLOBALS['wpbench_http'] = $code;
};
if (did_action('plugins_loaded')) $wpbench_http_run();
else add_action('plugins_loaded', $wpbench_http_run, 1);
add_action('plugins_loaded', function () { global $wpdb; for ($i = 0; $i < $GLOBALS['wpbench_http']; $i++) $wpdb->get_var('SELECT 1'); }, 2);
`,
    );
    try {
      const r = await measure(opts(plugin, { sandbox: 'auto' }));
      assert.equal(r.local.sandbox, 'bubblewrap');
      const viaApi = seen.filter((u) => u !== '/raw-fsockopen');
      assert.deepEqual([...new Set(viaApi)], [], `requests made through WordPress's HTTP API reached the loopback server (${viaApi.length} in all)`);
      for (const c of CONTEXTS) {
        assert.ok(r.contexts[c], `${c} measured (${JSON.stringify(r.local.null_reasons)})`);
        assert.equal(r.contexts[c]!.queries_delta % 100, 1, `${c}: queries ${JSON.stringify(queriesOf(r))}; 1 = ran, +10 = the HTTP API reached the server`);
      }
      const raw = seen.length - viaApi.length;
      const rawNote = raw > 0 ? `raw fsockopen() DID reach 127.0.0.1 (${raw} request(s)): the sandbox shares the host's network` : 'raw fsockopen() did not reach 127.0.0.1';
      this.test!.title += ` [information: ${rawNote}]`;
      console.log(`      ${rawNote}; queries ${JSON.stringify(queriesOf(r))}`);
    } finally {
      await new Promise<void>((res) => server.close(() => res()));
    }
  });

  // -------------------------------------------------------------------------------------------------------------
  // 6. Cost of the sandbox

  // The sandbox's cost is a figure of `npm run bench` (figure 7, "the sandbox's cost"), not a timed test: here both
  // settings run one after the other and measure the same empty plugin alike.
  it('sandbox none and auto measure the same empty plugin alike (±64 KB, 0 queries) and the record says which ran', async function () {
    this.timeout(900_000);
    const d: Record<'none' | 'auto', number[]> = { none: [], auto: [] };
    for (let i = 0; i < 1; i++) {
      for (const s of ['none', 'auto'] as const) {
        const r = await measure(opts(path.join(FIX, 'noop'), { sandbox: s, rounds: 5 }));
        assert.equal(r.local.sandbox, s === 'auto' ? 'bubblewrap' : 'none');
        assert.equal(r.local.network, s === 'auto' ? 'isolated' : 'host');
        for (const c of ['activation', 'homepage', 'admin'] as const) {
          assert.ok(Math.abs(r.contexts[c]!.memory_delta_kb) <= 64, `${s} ${c} memory ${r.contexts[c]!.memory_delta_kb}`);
          assert.equal(r.contexts[c]!.queries_delta, 0, `${s} ${c} queries`);
        }
        d[s].push(r.local.duration_s);
      }
    }
    const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
    const none = mean(d.none);
    const auto = mean(d.auto);
    console.log(`      duration_s: none ${d.none.join(', ')} (mean ${none.toFixed(1)}); auto ${d.auto.join(', ')} (mean ${auto.toFixed(1)}); overhead ${(((auto - none) / none) * 100).toFixed(1)} %`);
  });
});
