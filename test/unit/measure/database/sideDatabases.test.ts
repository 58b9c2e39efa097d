// A database and a user per side: the statements that make them, what a side's header carries, and the state check.
import * as assert from 'node:assert/strict';
import { dbHeaderValue, sideDbStatements, sidePassword, stateChange, type SideState } from '../../../../src/core/measure/database/sideDatabases';
import { SIDE_NAME_PATTERN, SIDE_PASSWORD_PATTERN } from '../../../../src/core/measure/php/phpFiles';
import { loginGuard } from '../../../../src/core/measure/database/externalDb';

describe('a database and a user per side (sideDatabases)', () => {
  it('the side\'s user gets every privilege on its own database only ("_" escaped: no wildcard reaching another side\'s)', () => {
    const [create, user, grant] = sideDbStatements({ name: 'wpbench_s1', user: 'wpbench_s1', password: 'Aa1-abcdefghijklmnopq' }, 'localhost');
    assert.equal(create, 'CREATE DATABASE `wpbench_s1` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
    assert.equal(user, "CREATE USER 'wpbench_s1'@'localhost' IDENTIFIED BY 'Aa1-abcdefghijklmnopq' WITH MAX_USER_CONNECTIONS 10");
    assert.equal(grant, "GRANT ALL PRIVILEGES ON `wpbench\\_s1`.* TO 'wpbench_s1'@'localhost'");
  });

  it('refuses a name or a password that is not of WP Bench\'s shape (nothing reaches SQL unchecked)', () => {
    for (const bad of [{ name: 'a`; DROP DATABASE x; --', user: 'u', password: 'Aa1-abcdefghijklmnopq' }, { name: 'ok', user: "u'@'%", password: 'Aa1-abcdefghijklmnopq' }, { name: 'ok', user: 'u', password: "short'" }]) {
      assert.throws(() => sideDbStatements(bad, 'localhost'), /not a side of WP Bench's/);
    }
  });

  it('a new password and the header wp-config.php accepts match each other (and differ every time)', () => {
    const a = sidePassword();
    assert.notEqual(a, sidePassword());
    assert.match(a, new RegExp(`^${SIDE_PASSWORD_PATTERN}$`));
    const h = dbHeaderValue({ name: 'wpbench_s2', user: 'wpbench_s2', password: a });
    assert.match(h, new RegExp(`^(${SIDE_NAME_PATTERN}) (${SIDE_NAME_PATTERN}) (${SIDE_PASSWORD_PATTERN})$`));
  });

  it('the state check names the first change: the plugin list, the theme, a trigger, a routine or an event', () => {
    const s: SideState = { active_plugins: 'a:0:{}', stylesheet: 't', template: 't', triggers: 0, routines: 0, events: 0 };
    assert.equal(stateChange(s, { ...s }), undefined);
    assert.equal(stateChange(s, { ...s, active_plugins: 'a:1:{i:0;s:15:"forger/cost.php";}' }), 'its active_plugins option changed');
    assert.equal(stateChange(s, { ...s, template: 'x' }), 'its template option changed');
    assert.equal(stateChange(s, { ...s, triggers: 1 }), "its database's triggers went from 0 to 1");
    assert.equal(stateChange(s, { ...s, events: 2 }), "its database's events went from 0 to 2");
    // WordPress's own bookkeeping (a cron entry) is not a change; 4 MB of autoloaded options is.
    assert.equal(stateChange({ ...s, autoload_bytes: 10_000 }, { ...s, autoload_bytes: 12_000 }), undefined);
    assert.equal(stateChange({ ...s, autoload_bytes: 10_000 }, { ...s, autoload_bytes: 10_000 + 4 * 1024 * 1024 }), 'its autoloaded options grew by 4096 KB');
  });

  it('the --db relay lets each side\'s own user through, and no other', () => {
    const login = (user: string) => {
      const fixed = Buffer.alloc(32, 0);
      fixed.writeUInt32LE(0x200 | 0x8 | 0x8000, 0);
      const body = Buffer.concat([fixed, Buffer.from(`${user}\0`), Buffer.from([20]), Buffer.alloc(20, 7)]);
      const head = Buffer.alloc(4);
      head.writeUIntLE(body.length, 0, 3);
      head[3] = 1;
      return Buffer.concat([head, body]);
    };
    const users = new Set(['wpbench_0123456789ab', 'wpbench_0123456789ab_s1']);
    assert.ok(loginGuard(users)(login('wpbench_0123456789ab_s1')));
    assert.ok(loginGuard(users)(login('wpbench_0123456789ab')));
    assert.equal(loginGuard(users)(login('root')), null);
    assert.equal(loginGuard(users)(login('wpbench_0123456789ab_s2')), null);
  });
});
