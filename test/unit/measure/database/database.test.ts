// --db: what it accepts, what it refuses (exit 2, the password never repeated), and how a record's database is said.
import * as assert from 'node:assert/strict';
import { databaseLabel, parseDbOption, redactDb, shortDatabase } from '../../../../src/core/measure/database/database';
import { loginGuard } from '../../../../src/core/measure/database/externalDb';
import { wpConfigPhp } from '../../../../src/core/measure/php/phpFiles';
import { MeasureError } from '../../../../src/core/measure/options/runOptions';

describe('--db', () => {
  it('auto by default, sqlite, or a server URL with user, password, host and port', () => {
    assert.deepEqual(parseDbOption(undefined), { kind: 'auto' });
    assert.deepEqual(parseDbOption('auto'), { kind: 'auto' });
    assert.deepEqual(parseDbOption('sqlite'), { kind: 'sqlite' });
    assert.deepEqual(parseDbOption('mysql://root:secret@127.0.0.1:3307/'), { kind: 'url', url: { user: 'root', password: 'secret', host: '127.0.0.1', port: 3307 } });
    assert.deepEqual(parseDbOption('mariadb://wp@db.local'), { kind: 'url', url: { user: 'wp', password: '', host: 'db.local', port: 3306 } });
    assert.deepEqual(parseDbOption('mysql://u:p%40ss%20w@[::1]:3306'), { kind: 'url', url: { user: 'u', password: 'p@ss w', host: '::1', port: 3306 } });
  });

  it('refuses anything else with exit 2, never repeating the password', () => {
    for (const bad of ['postgres://u:hunter2@h:5432/', 'mysql://u:hunter2@h:99999/', 'mysql://u:hunter2@h/db; DROP', 'mysql://:hunter2@h/', 'mysql://u:%zz@h/']) {
      assert.throws(
        () => parseDbOption(bad),
        (e: unknown) => e instanceof MeasureError && e.exitCode === 2 && !e.message.includes('hunter2') && !e.message.includes('%zz'),
        bad,
      );
    }
    assert.equal(redactDb('mysql://root:hunter2@127.0.0.1:3306/'), 'mysql://root:***@127.0.0.1:3306/');
    assert.equal(redactDb('sqlite'), 'sqlite');
    assert.equal(redactDb('mysql:/u:hunter2@h'), '***@h', 'a typo in the scheme still hides what may be a password');
    assert.equal(redactDb('mysql://a/b:hunter2@h:1/'), '***@h:1/');
    assert.equal(redactDb('mysql://u:p@ss/w@db:3306/'), 'mysql://u:***@db:3306/', 'an unencoded @ or / in the password');
  });

  it('says the database in labels and tables', () => {
    assert.equal(shortDatabase({ engine: 'mariadb', version: '10.11.19' }), 'MariaDB 10.11');
    assert.equal(shortDatabase({ engine: 'mysql', version: '8.0.36' }), 'MySQL 8.0');
    assert.equal(shortDatabase({ engine: 'sqlite', version: '3.40.1' }), 'SQLite');
    assert.equal(databaseLabel({ engine: 'mariadb', version: '10.11.19' }), 'MariaDB 10.11.19');
    assert.equal(databaseLabel({ engine: 'sqlite', version: '3.40.1' }), "SQLite (WordPress's SQLite integration)");
  });

  it('wp-config.php connects to the server’s socket, or keeps SQLite’s file settings', () => {
    const base = { dbDir: '/w/db/', probeFile: '/w/probe.php', kind: 'plugin' as const, target: 'a/a.php', baseTheme: 'twentytwentythree', key: 'k', mustUse: false, salts: [] };
    const my = wpConfigPhp({ ...base, db: { host: 'localhost:/w/mysql/mysqld.sock', name: 'wordpress', user: 'root', password: "it's" } });
    assert.match(my, /define\('DB_HOST', 'localhost:\/w\/mysql\/mysqld\.sock'\);/);
    assert.match(my, /\$wpbench_db = array\('wordpress', 'root', 'it\\'s'\);/);
    assert.match(my, /define\('DB_PASSWORD', \$wpbench_db\[2\]\);/);
    assert.match(my, /define\('DB_CHARSET', 'utf8mb4'\);/);
    assert.ok(!my.includes('DB_FILE'));
    const lite = wpConfigPhp(base);
    assert.match(lite, /define\('DB_FILE', 'site\.sqlite'\);/);
  });

  it('old cores install on today\'s PHP: mysqli\'s exceptions are off before WordPress loads (PHP 8.1+ throws by default)', () => {
    const base = { dbDir: '/w/db/', probeFile: '/w/probe.php', kind: 'plugin' as const, target: 'a/a.php', baseTheme: 'twentytwentythree', key: 'k', mustUse: false, salts: [] };
    const my = wpConfigPhp({ ...base, db: { host: 'localhost:/w/sock/mysqld.sock', name: 'wordpress', user: 'wpbench', password: 'x' } });
    const off = my.indexOf('mysqli_report(MYSQLI_REPORT_OFF)');
    assert.ok(off > 0 && off < my.indexOf("require_once ABSPATH . 'wp-settings.php'"), 'before wp-settings.php');
  });

  it('a database per side: with a database server a side\'s own credentials come only in its request\'s header, in WP Bench\'s shape; SQLite keeps one file', () => {
    const base = { dbDir: '/w/db/', probeFile: '/w/probe.php', kind: 'plugin' as const, target: 'a/a.php', baseTheme: 'twentytwentythree', key: 'k', mustUse: false, salts: [] };
    const my = wpConfigPhp({ ...base, db: { host: 'localhost:/w/sock/mysqld.sock', name: 'wordpress', user: 'wpbench', password: 'x' }, ownTables: true });
    assert.match(my, /if \(isset\(\$_SERVER\['HTTP_X_WPBENCH_DB'\]\) && preg_match\('\/\^\(\[a-z0-9_\]\{1,40\}\) \(\[a-z0-9_\]\{1,40\}\) \(\[A-Za-z0-9_-\]\{16,80\}\)\$\/'/);
    // No table prefix per side any more, and no other side's password in the file.
    assert.ok(!my.includes('wpbc_') && !my.includes('wpbench_side_t'));
    assert.equal((my.match(/\$table_prefix = /g) ?? []).length, 1);
    assert.ok(!wpConfigPhp(base).includes('HTTP_X_WPBENCH_DB'));
    assert.ok(!wpConfigPhp({ ...base, db: { host: 'localhost:/w/sock/mysqld.sock', name: 'wordpress', user: 'wpbench', password: 'x' } }).includes('HTTP_X_WPBENCH_DB'));
  });
});

describe('the --db relay lets only the run’s user log in (loginGuard)', () => {
  // HandshakeResponse41: 3-byte length, sequence 1, capabilities 4, max packet 4, charset 1, filler 23, user NUL, auth…
  const login = (user: string, caps = 0x200 | 0x8 | 0x8000) => {
    const fixed = Buffer.alloc(32, 0);
    fixed.writeUInt32LE(caps >>> 0, 0);
    const body = Buffer.concat([fixed, Buffer.from(`${user}\0`), Buffer.from([20]), Buffer.alloc(20, 7), Buffer.from('wordpress\0')]);
    const head = Buffer.alloc(4);
    head.writeUIntLE(body.length, 0, 3);
    head[3] = 1;
    return Buffer.concat([head, body]);
  };
  const packet = (seq: number, payload: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUIntLE(payload.length, 0, 3);
    head[3] = seq;
    return Buffer.concat([head, payload]);
  };


  it('passes the run’s user, byte for byte, also split in one-byte chunks, and its queries', () => {
    const stream = Buffer.concat([login('wpbench_0123456789ab'), packet(0, Buffer.from('\x03SELECT 1')), packet(0, Buffer.from('\x0eping'))]);
    const g = loginGuard('wpbench_0123456789ab');
    const out: Buffer[] = [];
    for (let i = 0; i < stream.length; i++) {
      const r = g(stream.subarray(i, i + 1));
      assert.ok(r !== null, `cut at byte ${i}`);
      out.push(r);
    }
    assert.deepEqual(Buffer.concat(out), stream);
  });

  it('cuts another user (root, the account of the URL), an SSL request and a later COM_CHANGE_USER', () => {
    assert.equal(loginGuard('wpbench_0123456789ab')(login('root')), null);
    assert.equal(loginGuard('wpbench_0123456789ab')(login('wpbench_0123456789abX')), null);
    assert.equal(loginGuard('wpbench_0123456789ab')(packet(1, Buffer.alloc(32, 1))), null);
    // Compression would hide a later COM_CHANGE_USER inside its frames; TLS, the name; pre-4.1, its place.
    assert.equal(loginGuard('wpbench_0123456789ab')(login('wpbench_0123456789ab', 0x200 | 0x20)), null, 'CLIENT_COMPRESS');
    assert.equal(loginGuard('wpbench_0123456789ab')(login('wpbench_0123456789ab', 0x200 | (1 << 26))), null, 'zstd compression');
    assert.equal(loginGuard('wpbench_0123456789ab')(login('wpbench_0123456789ab', 0x200 | 0x800)), null, 'CLIENT_SSL');
    assert.equal(loginGuard('wpbench_0123456789ab')(login('wpbench_0123456789ab', 0x8)), null, 'no CLIENT_PROTOCOL_41');
    const g = loginGuard('wpbench_0123456789ab');
    assert.ok(g(login('wpbench_0123456789ab')));
    assert.ok(g(packet(0, Buffer.from('\x03SELECT 1'))));
    assert.equal(g(packet(0, Buffer.concat([Buffer.from([0x11]), Buffer.from('root\0')]))), null);
    assert.equal(g(packet(0, Buffer.from('\x03SELECT 2'))), null, 'nothing passes after a cut');
  });
});
