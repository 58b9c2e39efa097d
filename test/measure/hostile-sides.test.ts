// Integration: round six of the hostile plugins — no side can reach another side's tables. A plugin BUILT by the test
// (nothing fetched) writes, on activation, `active_plugins` of every options table it can see in every database, so
// that the clean side (and the --baseline-ref copy, and every --site configuration) loads one more file of it, and
// tries a trigger on each: its cost (+4 MB, +15 queries per request) must still read as its own, the regression
// check must fail the change, and a second plugin reports through its activation error what it reached. Real PHP and
// MariaDB; loopback only; every process the test starts is ended.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../src/cli';
import { processesWith } from './helpers';

const ROOT = path.resolve(__dirname, '..', '..');

/** The activation's attack: every options table of every database it can see; `report`: throw what it reached. */
function forger(o: { report: boolean }): string {
  return `<?php
/**
 * Plugin Name: Forger
 * Version: 1.0
 */
require_once __DIR__ . '/cost.php';
register_activation_hook(__FILE__, function () {
  global $wpdb;
  $wpdb->suppress_errors(true);
  $r = array('databases' => array(), 'written' => array(), 'triggers' => array(), 'own' => DB_NAME);
  foreach ((array) $wpdb->get_col('SHOW DATABASES') as $db) {
    if (in_array($db, array('information_schema', 'mysql', 'performance_schema', 'sys'), true)) continue;
    $r['databases'][] = $db;
    foreach ((array) $wpdb->get_col("SHOW TABLES FROM \`$db\` LIKE '%options'") as $t) {
      $v = $wpdb->get_var("SELECT option_value FROM \`$db\`.\`$t\` WHERE option_name = 'active_plugins'");
      $list = $v ? (array) unserialize($v) : array();
      $list[] = 'forger/cost.php';
      $ok = $wpdb->query($wpdb->prepare("UPDATE \`$db\`.\`$t\` SET option_value = %s WHERE option_name = 'active_plugins'", serialize(array_values(array_unique($list)))));
      if ($ok && !($db === DB_NAME && $t === $wpdb->options)) $r['written'][] = "$db.$t";
      $name = 'forge_' . substr(md5($db . $t), 0, 8);
      if ($wpdb->query("CREATE TRIGGER \`$db\`.\`$name\` BEFORE UPDATE ON \`$db\`.\`$t\` FOR EACH ROW SET NEW.autoload = NEW.autoload") && !($db === DB_NAME && $t === $wpdb->options)) $r['triggers'][] = "$db.$t";
    }
  }
  ${o.report ? 'throw new Exception("WPB-REPORT:" . base64_encode(json_encode($r)) . ":END");' : ''}
});
`;
}

/**
 * The cost, paid by whichever side loads this file (the main file or, forged, `forger/cost.php` as a plugin); and on
 * every request, past wpdb's count (mysqli directly), a 4 MB autoloaded option written into every other options table
 * it can see, so that whichever side reads it pays as much as the forger.
 */
const COST = `<?php
if (!defined('FORGER_COST')) {
  define('FORGER_COST', 1);
  add_action('init', function () {
    global $wpdb;
    for ($i = 0; $i < 15; $i++) $wpdb->query('SELECT ' . $i);
    $GLOBALS['forger_blob'] = str_repeat('x', 4 * 1024 * 1024);
    $res = @mysqli_query($wpdb->dbh, "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES WHERE TABLE_NAME LIKE '%options'");
    while ($res && ($row = mysqli_fetch_row($res))) {
      if ($row[0] === DB_NAME && $row[1] === $wpdb->options) continue;
      @mysqli_query($wpdb->dbh, "INSERT IGNORE INTO \`{$row[0]}\`.\`{$row[1]}\` (option_name, option_value, autoload) VALUES ('forged_blob', REPEAT('x', 4194304), 'yes')");
    }
  });
}
`;

/**
 * What the measured code reaches without a database: a process of its own that outlives every request (a sleep
 * marked by its odd length), the PHP server's memory through /proc, opcache's API, and the database's connections.
 * `report`: the activation throws what it reached.
 */
function lurker(o: { report: boolean }): string {
  return `<?php
/**
 * Plugin Name: Lurker
 * Version: 1.0
 */
add_action('init', function () { @exec('sleep ${LURK} > /dev/null 2>&1 &'); });
register_activation_hook(__FILE__, function () {
  $r = array('proc' => @file_exists('/proc/self/status') || @is_dir('/proc/1'), 'invalidate' => @opcache_invalidate(ABSPATH . 'wp-settings.php', true), 'connections' => 0);
  $sock = substr(DB_HOST, strlen('localhost:'));
  $keep = array();
  for ($i = 0; $i < 14; $i++) { $m = @mysqli_connect('localhost', DB_USER, DB_PASSWORD, DB_NAME, 0, $sock); if ($m) $keep[] = $m; }
  $r['connections'] = count($keep);
  ${o.report ? 'throw new Exception("WPB-REPORT:" . base64_encode(json_encode($r)) . ":END");' : ''}
});
`;
}
const LURK = '301.4517';

function git(cwd: string, ...args: string[]) {
  execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], { cwd, stdio: 'pipe' });
}

async function run(args: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd: ROOT });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('hostile plugins, round six: no side reaches another side\'s tables (native php, MariaDB)', function () {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const fast = ['--runtime', 'php', '--rounds', '5', '--warmup', '1', '--no-cache'];

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-sides-'));
    env = { ...process.env, WPBENCH_CACHE_DIR: path.join(dir, 'cache') };
    for (const [name, report] of [['forger', false], ['reporter', true]] as const) {
      await fs.mkdir(path.join(dir, 'repo', name), { recursive: true });
      await fs.writeFile(path.join(dir, 'repo', name, 'cost.php'), COST);
    }
    await fs.writeFile(path.join(dir, 'repo', 'reporter', 'forger.php'), forger({ report: true }));
    // The pull request: a plugin that did nothing at HEAD becomes the forger in the working tree.
    await fs.writeFile(path.join(dir, 'repo', 'forger', 'forger.php'), "<?php\n/**\n * Plugin Name: Forger\n * Version: 0.9\n */\n");
    await fs.writeFile(path.join(dir, 'repo', 'forger', 'cost.php'), '<?php\n');
    git(path.join(dir, 'repo'), 'init', '-q');
    git(path.join(dir, 'repo'), 'add', '.');
    git(path.join(dir, 'repo'), 'commit', '-q', '-m', 'a plugin that does nothing');
    await fs.writeFile(path.join(dir, 'repo', 'forger', 'forger.php'), forger({ report: false }));
    await fs.writeFile(path.join(dir, 'repo', 'forger', 'cost.php'), COST);
  });
  after(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('measure: the forger\'s cost reads as its own (the clean side never loads its file), in every context', async () => {
    const r = await run(['measure', path.join(dir, 'repo', 'forger'), '--json', ...fast], env);
    assert.equal(r.code, 0, r.err);
    const rec = JSON.parse(r.out) as { contexts: Record<string, { memory_delta_kb: number; queries_delta: number }> };
    for (const ctx of ['activation', 'homepage', 'admin']) {
      assert.ok(rec.contexts[ctx].memory_delta_kb >= 4000, `${ctx}: ${rec.contexts[ctx].memory_delta_kb} KB`);
      assert.equal(rec.contexts[ctx].queries_delta, 15, ctx);
    }
  });

  it('--baseline-ref HEAD: the change that adds 4 MB and 15 queries fails the check (exit 1), REF never loads the forged file', async () => {
    const r = await run(['measure', path.join(dir, 'repo', 'forger'), '--baseline-ref', 'HEAD', ...fast], env);
    assert.equal(r.code, 1, `${r.out}\n${r.err}`);
    assert.doesNotMatch(r.out, /PASSED/);
    assert.match(r.out, /\+15\b/);
  });

  it('the activation sees only its own database and writes or triggers nothing outside it (the report it throws)', async () => {
    const r = await run(['measure', path.join(dir, 'repo', 'reporter', 'forger.php'), '--baseline-ref', 'HEAD', '--json', ...fast], env);
    const m = /WPB-REPORT:([A-Za-z0-9+/=]+):END/.exec(`${r.out}\n${r.err}`);
    assert.ok(m, `no report in: ${r.out.slice(0, 600)} ${r.err.slice(0, 600)}`);
    const rep = JSON.parse(Buffer.from(m[1], 'base64').toString('utf8')) as { databases: string[]; written: string[]; triggers: string[]; own: string };
    assert.deepEqual(rep.written, []);
    assert.deepEqual(rep.triggers, []);
    assert.deepEqual(rep.databases, [rep.own]);
  });

  it('a process the plugin leaves running after each request is ended before the next one, said once; nothing of it outlives the run', async () => {
    await fs.mkdir(path.join(dir, 'lurker'));
    await fs.writeFile(path.join(dir, 'lurker', 'lurker.php'), lurker({ report: false }));
    const r = await run(['measure', path.join(dir, 'lurker'), ...fast], env);
    assert.equal(r.code, 0, r.err);
    assert.equal((r.err.match(/left (a process|\d+ processes) running after its request \(sleep\)/g) ?? []).length, 1, r.err);
    assert.deepEqual(processesWith(LURK), []);
  });

  it('the measured PHP sees no /proc (no other process\'s memory), cannot use opcache\'s API, and holds at most 10 database connections', async () => {
    await fs.mkdir(path.join(dir, 'lurk-report'));
    await fs.writeFile(path.join(dir, 'lurk-report', 'lurker.php'), lurker({ report: true }));
    const r = await run(['measure', path.join(dir, 'lurk-report'), ...fast], env);
    const m = /WPB-REPORT:([A-Za-z0-9+/=]+):END/.exec(`${r.out}\n${r.err}`);
    assert.ok(m, `no report in: ${r.out.slice(0, 600)} ${r.err.slice(0, 600)}`);
    const rep = JSON.parse(Buffer.from(m[1], 'base64').toString('utf8')) as { proc: boolean; invalidate: boolean; connections: number };
    assert.equal(rep.proc, false);
    assert.equal(rep.invalidate, false);
    // WordPress's own connection is one of the 10.
    assert.ok(rep.connections <= 9, `${rep.connections} connections`);
  });

  it('--site: a member writing every options table it sees cannot make the clean site or the configuration without it pay', async () => {
    const site = path.join(dir, 'site');
    await fs.mkdir(path.join(site, 'wp-content', 'plugins'), { recursive: true });
    await fs.cp(path.join(dir, 'repo', 'forger'), path.join(site, 'wp-content', 'plugins', 'forger'), { recursive: true });
    await fs.mkdir(path.join(site, 'wp-content', 'plugins', 'quiet'));
    await fs.writeFile(path.join(site, 'wp-content', 'plugins', 'quiet', 'quiet.php'), "<?php\n/**\n * Plugin Name: Quiet\n */\n");
    const r = await run(['measure', site, '--site', '--json', ...fast], env);
    assert.equal(r.code, 0, r.err);
    type Figures = { contexts: Record<string, { memory_delta_kb: number; queries_delta: number }> };
    const rec = JSON.parse(r.out) as { components: Array<{ slug: string; in_site: Figures | null; alone: Figures | null }> };
    const f = rec.components.find((c) => c.slug === 'forger')!;
    const q = rec.components.find((c) => c.slug === 'quiet')!;
    for (const ctx of ['homepage', 'admin']) {
      assert.equal(f.alone!.contexts[ctx].queries_delta, 15, `forger alone, ${ctx}`);
      assert.equal(f.in_site!.contexts[ctx].queries_delta, 15, `forger in the site, ${ctx}`);
      assert.ok(f.in_site!.contexts[ctx].memory_delta_kb >= 4000, `forger in the site, ${ctx}: ${f.in_site!.contexts[ctx].memory_delta_kb} KB`);
      assert.equal(q.alone!.contexts[ctx].queries_delta, 0, `quiet alone, ${ctx}`);
    }
  });
});
