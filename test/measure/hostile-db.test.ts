// Integration: round five of the hostile plugins — the database inside the sandbox, and numbers the measured code
// cannot forge. One plugin, BUILT by the test (nothing fetched), tries on activation every attack of the audit: through
// `$wpdb` (LOAD_FILE, LOAD DATA INFILE, INTO DUMPFILE, SET GLOBAL general_log_file, INSTALL SONAME, CREATE SERVER to
// another server's socket, root without a password, listing and reading other databases), and through PHP (writing
// every file and folder of the run it can see: WP Bench's must-use plugins, wp-config.php, the configurations file,
// core, its own code; reading a `.env`, `.git/config` and a deploy key beside a core copy at the workspace root;
// making a user namespace). It proves it ran by reporting what it saw through its activation error (base64 JSON,
// so the report survives any escaping), and its error text carries a forged "wp-bench: measured OK" line, a U+202E and
// the database password: none may reach the output as such. The `--db` case uses a MariaDB server this test starts on
// 127.0.0.1 with a database of its own to protect. Loopback only; every process the test starts is ended.
import * as assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../src/cli';
import { startUserMariaDb } from './helpers';

const ROOT = path.resolve(__dirname, '..', '..');
const PASSWORD = 'Hx7-secret"pw@9';

async function cli(args: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['measure', ...args], { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd: ROOT });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A PHP single-quoted string literal. */
function php(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

interface Report {
  db_user: string;
  db_password_is_users: boolean;
  vars: Record<string, string | null>;
  grants: string[];
  databases: string[];
  load_file: string | null;
  load_data: string;
  dumpfile: string;
  general_log: string;
  install_soname: string;
  create_server: string;
  root_login: string;
  other_db: string;
  db_folder_seen: boolean;
  writable: string[];
  read_beside_core: Record<string, boolean>;
  userns: string;
  uploads_ok: boolean;
}

/** The hostile plugin: every attack on activation, the report in the exception's text. */
function hostilePlugin(o: { secret: string; plantDir: string; victimSocket: string; userPassword: string }): string {
  return `<?php
/**
 * Plugin Name: Hostile test: the database and the run's files
 * Version: 1.0
 */
register_activation_hook(__FILE__, function () {
  global $wpdb;
  $wpdb->suppress_errors(true);
  $r = array();
  $err = function () use ($wpdb) { return (string) $wpdb->last_error; };
  $r['db_user'] = DB_USER;
  $r['db_password_is_users'] = DB_PASSWORD === ${php(o.userPassword)};
  $r['vars'] = $wpdb->get_row("SELECT @@secure_file_priv AS secure_file_priv, @@local_infile AS local_infile, @@plugin_dir AS plugin_dir, @@skip_networking AS skip_networking", ARRAY_A);
  $r['grants'] = $wpdb->get_col('SHOW GRANTS');
  $r['databases'] = $wpdb->get_col('SHOW DATABASES');
  $r['load_file'] = $wpdb->get_var("SELECT LOAD_FILE(" . ${php(`'${o.secret}'`)} . ")");
  $wpdb->query('CREATE TABLE IF NOT EXISTS wpbench_loot (l TEXT)');
  $wpdb->query("LOAD DATA INFILE " . ${php(`'${o.secret}'`)} . " INTO TABLE wpbench_loot");
  $r['load_data'] = $err() . ' rows=' . (int) $wpdb->get_var('SELECT COUNT(*) FROM wpbench_loot');
  $wpdb->query("SELECT 'import os' INTO DUMPFILE " . ${php(`'${o.plantDir}/planted.pth'`)});
  $r['dumpfile'] = $err();
  $wpdb->query("SET GLOBAL general_log_file = " . ${php(`'${o.plantDir}/authorized_keys'`)});
  $r['general_log'] = $err();
  $wpdb->query("INSTALL SONAME 'ha_federatedx'");
  $r['install_soname'] = $err();
  $wpdb->query("CREATE SERVER wpbench_out FOREIGN DATA WRAPPER mysql OPTIONS (SOCKET " . ${php(`'${o.victimSocket}'`)} . ", USER 'root')");
  $r['create_server'] = $err();
  $sock = preg_replace('/^localhost:/', '', DB_HOST);
  mysqli_report(MYSQLI_REPORT_OFF);
  $root = @mysqli_connect('localhost', 'root', '', '', 0, $sock);
  $r['root_login'] = $root ? 'CONNECTED' : (string) mysqli_connect_error();
  $wpdb->get_var('SELECT COUNT(*) FROM keepme.t');
  $r['other_db'] = $err();
  $r['db_folder_seen'] = is_dir(dirname(dirname($sock)) . '/data') || file_exists(dirname(dirname($sock)) . '/server.log');
  // Every file and folder of the run it can see, tried for writing (folders: a new file; files: opened to append nothing).
  $run = dirname(rtrim(ABSPATH, '/'));
  $writable = array();
  $walk = function ($dir) use (&$walk, &$writable, $run) {
    $t = $dir . '/.wpbench-hostile-' . mt_rand();
    if (@file_put_contents($t, 'x') !== false) { $writable[] = substr($dir, strlen($run) + 1) . '/'; @unlink($t); }
    foreach ((array) @scandir($dir) as $e) {
      if ($e === '.' || $e === '..' || $e === '' || strpos($e, '.wpbench-hostile-') === 0) continue;
      $p = $dir . '/' . $e;
      if (is_link($p)) continue;
      if (is_dir($p)) { $walk($p); continue; }
      if (!is_file($p)) continue;
      $h = @fopen($p, 'a');
      if ($h) { fclose($h); $writable[] = substr($p, strlen($run) + 1); }
    }
  };
  $walk($run);
  $r['writable'] = $writable;

  $r['uploads_ok'] = @file_put_contents(WP_CONTENT_DIR . '/uploads/hostile-ok.txt', 'ok') === 2;
  $r['read_beside_core'] = array();
  foreach (array('.env', '.git/config', 'deploy_key', 'wp-config-local.php') as $f) $r['read_beside_core'][$f] = @file_get_contents(ABSPATH . $f) !== false;
  $out = array();
  $code = 0;
  @exec('unshare -Urn true 2>&1', $out, $code);
  $r['userns'] = $code === 0 ? 'MADE' : 'refused: ' . implode(' ', $out);
  throw new Exception("WPB-REPORT:" . base64_encode(json_encode($r)) . ":END\\nwp-bench: measured OK, grade A \\u{202E}evil password=" . DB_PASSWORD);
});
`;
}

function reportOf(text: string): Report {
  const m = /WPB-REPORT:([A-Za-z0-9+/=]+):END/.exec(text);
  assert.ok(m, `the plugin ran and reported: ${text.slice(-3000)}`);
  return JSON.parse(Buffer.from(m[1], 'base64').toString('utf8')) as Report;
}

/**
 * What the measured PHP may write, as the docs say: uploads, cache, upgrade; the run's temporary folders. The run's
 * folder itself and `db/` are, inside the sandbox, only the folders leading to the mounts, made in the sandbox's own
 * /tmp (memory, capped, seen by nothing outside it): a file written there never reaches the run's folder.
 */
const ALLOWED = /^(\/$|db\/$|site\/wp-content\/(uploads|cache|upgrade)\/|work\/(tmp|db|probes|profiles|findings|sock)\/|work\/php-errors\.log$)/;

function assertHeld(r: Report, text: string, o: { plantDir: string; throwaway: boolean }): void {
  // The throwaway server's own settings, readable by anyone (--db's server is the user's, set as they set it).
  if (o.throwaway) {
    assert.ok(r.vars.secure_file_priv && r.vars.secure_file_priv !== '', `secure_file_priv set: ${JSON.stringify(r.vars)}`);
    assert.equal(String(r.vars.local_infile), '0');
    assert.match(String(r.vars.plugin_dir), /no-plugins/);
  }
  // Privileges: the site's database only.
  const grants = r.grants.join(' | ');
  assert.doesNotMatch(grants, /\bON \*\.\*/.test(grants) ? /ALL PRIVILEGES ON \*\.\*|\bFILE\b|\bSUPER\b|CREATE USER|GRANT OPTION/ : /$^/, grants);
  assert.match(grants, /ALL PRIVILEGES ON `[^`]+`\.\*/, grants);
  assert.deepEqual(r.databases.filter((d) => d !== 'information_schema').length, 1, `databases seen: ${r.databases.join(', ')}`);
  // Files: nothing read, nothing planted.
  assert.equal(r.load_file, null, 'LOAD_FILE read nothing');
  assert.match(r.load_data, /denied|secure-file-priv|rows=0/i, r.load_data);
  assert.match(r.load_data, /rows=0$/);
  assert.match(r.dumpfile, /denied|secure-file-priv/i, r.dumpfile);
  assert.equal(existsSync(path.join(o.plantDir, 'planted.pth')), false, 'no file planted');
  assert.match(r.general_log, /denied|SUPER|privilege/i, r.general_log);
  assert.equal(existsSync(path.join(o.plantDir, 'authorized_keys')), false);
  assert.match(r.install_soname, /denied|privilege|Can't open shared library|plugin/i, r.install_soname);
  assert.match(r.create_server, /denied|privilege|SUPER|FEDERATED ADMIN/i, r.create_server);
  assert.notEqual(r.root_login, 'CONNECTED', 'root without a password');
  assert.match(r.other_db, /denied|doesn't exist|Unknown database/i, r.other_db);
  assert.equal(r.db_folder_seen, false, 'the database folder is out of sight');
  assert.notEqual(r.db_user, 'root');
  // The run's files: only the places a site writes.
  const bad = r.writable.filter((w) => !ALLOWED.test(w));
  assert.deepEqual(bad, [], `writable to the measured PHP: ${bad.join(', ')}`);
  assert.ok(r.writable.some((w) => w.startsWith('site/wp-content/uploads/')) && r.uploads_ok, 'uploads writable (the positive control)');
  assert.match(r.userns, /^refused/, r.userns);
  // The output: the forged line, the U+202E and the password never printed as such.
  assert.ok(!text.split('\n').some((l) => /^wp-bench: measured OK/.test(l)), 'no forged line');
  assert.ok(!text.includes('\u202e'), 'U+202E escaped');
  assert.match(text, /\\u202e/);
  assert.match(text, /password=\*\*\*/, 'the database password replaced');
}

describe('hostile round five: the database inside the sandbox, the run read-only to the measured code', function () {
  let work: string;
  let env: NodeJS.ProcessEnv;
  let secret: string;
  let plantDir: string;

  before(async () => {
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-hostile-db-'));
    env = { ...process.env, WPBENCH_CACHE_DIR: path.join(work, 'cache') };
    delete env.WPBENCH_DB_URL;
    secret = path.join(work, 'secret.env');
    await fs.writeFile(secret, 'API_TOKEN=do-not-leak-4711\n', { mode: 0o600 });
    plantDir = path.join(work, 'home');
    await fs.mkdir(plantDir);
    await fs.chmod(work, 0o755);
  });
  after(async () => {
    await fs.rm(work, { recursive: true, force: true });
  });

  async function pluginDir(name: string, victimSocket: string, userPassword = PASSWORD): Promise<string> {
    const dir = path.join(work, name, 'hostile-db');
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, 'hostile-db.php'), hostilePlugin({ secret, plantDir, victimSocket, userPassword }));
    return dir;
  }

  it('the throwaway MariaDB: no file read or written, no plugin, no server, no root, one database; the run read-only but uploads; the report printed on its line', async () => {
    const dir = await pluginDir('p1', '/run/mysqld/mysqld.sock');
    const r = await cli([dir, '--runtime', 'php', '--no-cache', '--rounds', '1', '--warmup', '0'], env);
    assert.equal(r.code, 7, r.err.slice(-2000));
    const rep = reportOf(r.err);
    assert.equal(rep.db_user, 'wpbench');
    assert.equal(rep.vars.skip_networking, '1');
    assert.deepEqual(rep.databases.sort(), ['information_schema', 'wordpress']);
    assertHeld(rep, r.err, { plantDir, throwaway: true });
  });

  it('WordPress core at the workspace root: only core is copied, never a .env, .git/config, wp-config-local.php or a deploy key linked in', async () => {
    const core = path.join(work, 'site-root');
    await fs.cp('/usr/share/wordpress', core, { recursive: true, dereference: true });
    await fs.writeFile(path.join(core, '.env'), 'DB_PASSWORD=from-the-env\n');
    await fs.mkdir(path.join(core, '.git'), { recursive: true });
    await fs.writeFile(path.join(core, '.git', 'config'), '[remote "origin"]\n\turl = https://x-access-token:ghp_leak@github.com/acme/site\n');
    await fs.writeFile(path.join(core, 'wp-config-local.php'), "<?php define('DB_PASSWORD', 'local');\n");
    await fs.symlink(secret, path.join(core, 'deploy_key'));
    await fs.symlink(secret, path.join(core, 'wp-includes', 'leak.txt'));
    const dir = await pluginDir('p2', '/run/mysqld/mysqld.sock');
    const r = await cli([dir, '--runtime', 'php', '--no-cache', '--rounds', '1', '--warmup', '0', '--wordpress', core], env);
    assert.equal(r.code, 7, r.err.slice(-2000));
    const rep = reportOf(r.err);
    assert.deepEqual(rep.read_beside_core, { '.env': false, '.git/config': false, deploy_key: false, 'wp-config-local.php': false });
    assert.match(r.err, /skipped 1 entry of WordPress core: wp-includes\/leak\.txt -> .*secret\.env \(a link out of WordPress core\)/);
  });

  describe('--db mysql://… (a server this test runs on 127.0.0.1, with a database of its own to protect)', function () {
    let port: number;
    let dir: string;
    let sql: (q: string) => string;
    let stopServer: (() => Promise<void>) | undefined;

    before(async function () {
      const srv = await startUserMariaDb();
      ({ port, sql, dir } = srv);
      stopServer = srv.stop;
      sql(
        `CREATE USER 'wpb'@'127.0.0.1' IDENTIFIED BY '${PASSWORD.replace(/"/g, '\\"')}'; GRANT ALL ON *.* TO 'wpb'@'127.0.0.1' WITH GRANT OPTION; ` +
          `CREATE USER 'small'@'127.0.0.1' IDENTIFIED BY 'small-pw-1'; GRANT ALL ON \`wpbench\\_%\`.* TO 'small'@'127.0.0.1'; ` +
          'CREATE DATABASE keepme; CREATE TABLE keepme.t (id INT); INSERT INTO keepme.t VALUES (7);'
      );
    });
    after(async () => {
      await stopServer?.();
    });

    it("WordPress gets a user of the run's own (the URL from WPBENCH_DB_URL): another database unreadable, the password never shown, both dropped", async () => {
      const plugin = await pluginDir('p3', path.join(dir, 'admin.sock'));
      const r = await cli([plugin, '--runtime', 'php', '--no-cache', '--rounds', '1', '--warmup', '0'], { ...env, WPBENCH_DB_URL: `mysql://wpb:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}/` });
      assert.equal(r.code, 7, r.err.slice(-2000));
      const rep = reportOf(r.err);
      assert.match(rep.db_user, /^wpbench_[0-9a-f]{12}$/);
      assert.equal(rep.db_password_is_users, false, "the user's password is not in wp-config.php");
      assertHeld(rep, r.err, { plantDir, throwaway: false });
      for (const t of [r.out, r.err]) assert.ok(!t.includes(PASSWORD) && !t.includes(encodeURIComponent(PASSWORD)), 'the password is never shown');
      assert.equal(sql('SELECT id FROM keepme.t'), '7', 'the other database untouched');
      assert.equal(sql("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE 'wpbench\\_%'"), '0', 'the run\'s database dropped');
      assert.equal(sql("SELECT COUNT(*) FROM mysql.user WHERE User LIKE 'wpbench\\_%'"), '0', "the run's user dropped");
      assert.equal(sql("SELECT COUNT(*) FROM mysql.servers"), '0', 'no server defined');
    });

    it('an account that cannot create users is refused with exit 2 naming the privileges; nothing is left on the server', async () => {
      const r = await cli([path.join(ROOT, 'test', 'fixtures', 'measure', 'noop'), '--runtime', 'php', '--no-cache', '--rounds', '1', '--warmup', '0', '--db', `mysql://small:small-pw-1@127.0.0.1:${port}/`], env);
      assert.equal(r.code, 2, r.err.slice(-2000));
      assert.match(r.err, /cannot make WP Bench's user .*CREATE USER/);
      assert.ok(!r.err.includes('small-pw-1'));
      assert.equal(sql("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE 'wpbench\\_%'"), '0');
    });

    it('--timeout-s covers the wait for a server that accepts and never answers', async () => {
      const silent = net.createServer(() => undefined);
      const silentPort = await new Promise<number>((resolve) => silent.listen(0, '127.0.0.1', () => resolve((silent.address() as net.AddressInfo).port)));
      try {
        const t0 = Date.now();
        const r = await cli([path.join(ROOT, 'test', 'fixtures', 'measure', 'noop'), '--runtime', 'php', '--no-cache', '--timeout-s', '3', '--db', `mysql://u:p@127.0.0.1:${silentPort}/`], env);
        const seconds = (Date.now() - t0) / 1000;
        assert.ok(r.code === 6 || r.code === 7, `exit ${r.code}: ${r.err.slice(-1000)}`);
        // A bound that only catches a hang: the limit plus the clean-up's own bounded wait.
        assert.ok(seconds < 3 + 15, `ended after ${seconds} s`);
      } finally {
        silent.close();
      }
    });
  });

  it('the disk cap: a plugin writing past --disk-limit-mib ends the run with exit 7 saying so, nothing left behind', async () => {
    const dir = path.join(work, 'p4', 'hostile-fill');
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(
      path.join(dir, 'hostile-fill.php'),
      `<?php\n/**\n * Plugin Name: Hostile test: fills the disk\n * Version: 1.0\n */\nadd_action('init', function () { $b = str_repeat('x', 1 << 20); $f = fopen(WP_CONTENT_DIR . '/uploads/fill-' . mt_rand() . '.bin', 'w'); for ($i = 0; $i < 120; $i++) fwrite($f, $b); fclose($f); usleep(300000); });\n`,
    );
    const r = await cli([dir, '--runtime', 'php', '--no-cache', '--rounds', '20', '--warmup', '0', '--disk-limit-mib', '256'], env);
    assert.equal(r.code, 7, r.err.slice(-2000));
    assert.match(r.err, /wrote more than 256 MiB .*--disk-limit-mib 256/);
    const root = /building a throwaway site .* in (\S+)$/m.exec(r.err)?.[1];
    assert.ok(root && !existsSync(root), 'the run folder is gone');
  });
});
