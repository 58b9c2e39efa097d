// Integration: the database a measurement runs on. By default a throwaway MariaDB server (Debian's mariadb-server,
// installed by the measure suite) started per run on a Unix socket in the run's folder; `--db sqlite` keeps the SQLite
// translation; `--db mysql://…` uses a server the user runs — here one this test starts on 127.0.0.1 with a user and
// a password — where WP Bench creates its own database and drops it, touching no other. A plugin that runs only on
// MySQL/MariaDB (a table of its own, a mysqli prepared statement, as Wordfence does) measures in admin on MariaDB and
// not through SQLite. Nothing is left behind: no server, no folder, no database.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../src/cli';
import type { LocalRecord } from '../../src/core/measure/record/method';
import { startUserMariaDb } from './helpers';

const ROOT = path.resolve(__dirname, '..', '..');
const MYSQL_ONLY = path.join(ROOT, 'test', 'fixtures', 'measure', 'mysql-only');
const PASSWORD = 'p@ss w"rd-Zq81';

async function cli(args: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['measure', ...args], { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd: ROOT });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The run's temporary folder, as its progress says it: gone after the run. */
function assertRootGone(stderr: string): void {
  const root = /building a throwaway site .* in (\S+)$/m.exec(stderr)?.[1];
  assert.ok(root, stderr.slice(0, 2000));
  assert.equal(existsSync(root), false, `${root} left behind`);
}

function mariadbdRunning(): number[] {
  const r = spawnSync('pgrep', ['-x', 'mariadbd'], { encoding: 'utf8' });
  return r.stdout.split('\n').filter(Boolean).map(Number);
}

describe('the database a measurement runs on', function () {
  let cache: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    cache = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-db-cache-'));
    env = { ...process.env, WPBENCH_CACHE_DIR: cache };
  });
  after(async () => {
    await fs.rm(cache, { recursive: true, force: true });
  });

  it('by default a throwaway MariaDB: the MySQL-only plugin measures in every context, the record says MariaDB, the server is gone after', async () => {
    const before = mariadbdRunning();
    const r = await cli([MYSQL_ONLY, '--json', '--runtime', 'php', '--no-cache', '--rounds', '3'], env);
    assert.equal(r.code, 0, r.err.slice(-2000));
    const rec = JSON.parse(r.out) as LocalRecord;
    assert.equal(rec.local.database?.engine, 'mariadb');
    assert.equal(rec.local.database?.server, 'throwaway');
    assert.match(rec.local.database!.version, /^\d+\.\d+\.\d+$/);
    for (const c of ['activation', 'homepage', 'admin'] as const) assert.ok(rec.contexts[c], `${c} measured: ${JSON.stringify(rec.local.null_reasons)}`);
    assert.deepEqual(rec.local.database_errors ?? {}, {}, 'no database error on MariaDB');
    assert.match(r.err, /database: MariaDB \d+\.\d+\.\d+ \(ready [\d.]+ s after the site was built\)/);
    // The template was made once in the cache folder; the run's own server is gone.
    assert.ok(existsSync(path.join(cache, 'db-templates')), 'template in the cache folder');
    assert.deepEqual(mariadbdRunning().filter((p) => !before.includes(p)), [], 'no mariadbd of the run left');
    assertRootGone(r.err);
  });

  it('the server starts from the template (how fast is the benchmark\'s figure, not a test\'s); the table names the database', async () => {
    const r = await cli([path.join(ROOT, 'test', 'fixtures', 'measure', 'noop'), '--runtime', 'php', '--no-cache', '--rounds', '1', '--warmup', '0'], env);
    assert.equal(r.code, 0, r.err.slice(-2000));
    const ready = Number(/ready ([\d.]+) s after the site was built/.exec(r.err)![1]);
    assert.ok(Number.isFinite(ready) && ready >= 0, `${ready} s`);
    assert.match(r.out, /measured locally: php runtime, PHP [\d.]+ \(opcache on\), WordPress [\d.]+, MariaDB \d+\.\d+\.\d+, 1 rounds/);
  });

  it('--db sqlite keeps the SQLite translation, where the same plugin cannot run in admin (the translation’s limit, not the plugin’s)', async () => {
    const r = await cli([MYSQL_ONLY, '--json', '--runtime', 'php', '--no-cache', '--rounds', '1', '--warmup', '0', '--db', 'sqlite'], env);
    assert.equal(r.code, 0, r.err.slice(-2000));
    const rec = JSON.parse(r.out) as LocalRecord;
    assert.equal(rec.local.database?.engine, 'sqlite');
    assert.equal(rec.contexts.admin, null);
    assert.match(JSON.stringify(rec.local.null_reasons.admin), /mysqli/);
  });

  it('a wrong --db is refused before anything starts, without repeating the password', async () => {
    const r = await cli([MYSQL_ONLY, '--db', `postgres://u:${PASSWORD}@127.0.0.1:5432/`], env);
    assert.equal(r.code, 2);
    assert.ok(!r.err.includes('Zq81') && !r.out.includes('Zq81'), r.err);
    assert.match(r.err, /--db takes sqlite or mysql:\/\/USER:PASS@HOST:PORT\/ \(got postgres:\/\/u:\*\*\*@127\.0\.0\.1:5432\/\)/);
  });

  describe('--db mysql://USER:PASS@HOST:PORT/ (a server this test runs on 127.0.0.1)', function () {
    let port: number;
    let dir: string;
    let sql: (q: string) => string;
    let stopServer: (() => Promise<void>) | undefined;

    before(async function () {
      const srv = await startUserMariaDb();
      ({ port, sql, dir } = srv);
      stopServer = srv.stop;
      sql(
        `CREATE USER 'wpb'@'127.0.0.1' IDENTIFIED BY '${PASSWORD.replace(/"/g, '\\"')}'; GRANT ALL ON *.* TO 'wpb'@'127.0.0.1' WITH GRANT OPTION; CREATE DATABASE keepme; CREATE TABLE keepme.t (id INT); INSERT INTO keepme.t VALUES (7);`
      );
    });
    after(async () => {
      await stopServer?.();
    });

    it('measures on it in a database of its own, drops that one only, and never shows the password', async () => {
      const url = `mysql://wpb:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}/`;
      const r = await cli([MYSQL_ONLY, '--json', '--runtime', 'php', '--no-cache', '--rounds', '2', '--warmup', '1', '--db', url], env);
      assert.equal(r.code, 0, r.err.slice(-2000));
      const rec = JSON.parse(r.out) as LocalRecord;
      assert.deepEqual({ engine: rec.local.database?.engine, server: rec.local.database?.server }, { engine: 'mariadb', server: 'external' });
      assert.ok(rec.contexts.admin, 'admin measured on the real server');
      const name = /a database and a user of its own, (wpbench_[0-9a-f]{12}), dropped at the end/.exec(r.err)?.[1];
      assert.ok(name, r.err);
      for (const text of [r.out, r.err]) assert.ok(!text.includes(PASSWORD) && !text.includes(encodeURIComponent(PASSWORD)), 'the password is never shown');
      const dbs = sql('SHOW DATABASES').split('\n');
      assert.ok(!dbs.some((d) => d.startsWith('wpbench_')), `left: ${dbs.join(', ')}`);
      assert.equal(sql("SELECT COUNT(*) FROM mysql.user WHERE User LIKE 'wpbench\\_%'"), '0', 'the run\'s user is dropped too');
      assert.equal(sql('SELECT id FROM keepme.t'), '7', 'another database untouched');
      assertRootGone(r.err);
    });
  });
});
