// Folders of killed runs: the next run removes those whose owner process is gone (and stops a database server still
// running from one), and nothing else: a live run's folder, a folder without an owner, another name.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { OWNER_FILE, makeOwnedTempRoot, pidAlive, sweepOrphanedRoots } from '../../../../src/core/measure/site/orphans';

/** A process id that existed and is gone now. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
  return Number(r.stdout.trim());
}

describe('folders left by killed runs', () => {
  it('removes a dead owner\'s folder and stops its database server; leaves a live one, one without owner, other names', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-orphans-'));
    const dead = await makeOwnedTempRoot(tmp);
    fs.writeFileSync(path.join(dead, OWNER_FILE), String(deadPid()));
    // A server of the dead run (as `mariadbd --datadir=ROOT/work/mysql`): its command line names the run's folder.
    const db = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', `--datadir=${path.join(dead, 'work', 'mysql')}`], { stdio: 'ignore' });
    const exited = new Promise((resolve) => db.on('exit', resolve));
    // Another program (its command line names a folder that only starts like it): never signalled.
    const deadToo = await makeOwnedTempRoot(tmp);
    fs.writeFileSync(path.join(deadToo, OWNER_FILE), String(deadPid()));
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', `${deadToo}-not-it/x`], { stdio: 'ignore' });
    const live = await makeOwnedTempRoot(tmp);
    const noOwner = path.join(tmp, 'wp-bench-measure-older');
    fs.mkdirSync(noOwner);
    const otherName = path.join(tmp, 'something-else');
    fs.mkdirSync(otherName);
    fs.writeFileSync(path.join(otherName, OWNER_FILE), String(deadPid()));
    fs.writeFileSync(path.join(tmp, 'wp-bench-measure-file'), 'not a folder');
    try {
      const removed = await sweepOrphanedRoots(tmp);
      assert.deepEqual(removed.sort(), [dead, deadToo].sort());
      assert.ok(!fs.existsSync(dead) && !fs.existsSync(deadToo));
      await exited;
      assert.equal(pidAlive(db.pid!), false, 'its database server stopped');
      assert.equal(pidAlive(other.pid!), true, 'a process that does not run from the folder is left alone');
      for (const p of [live, noOwner, otherName, path.join(tmp, 'wp-bench-measure-file')]) assert.ok(fs.existsSync(p), p);
      assert.equal(fs.readFileSync(path.join(live, OWNER_FILE), 'utf8'), String(process.pid));
      assert.deepEqual(await sweepOrphanedRoots(tmp), [], 'nothing more');
      assert.deepEqual(await sweepOrphanedRoots(path.join(tmp, 'missing')), [], 'a missing folder is nothing to sweep');
    } finally {
      other.kill('SIGKILL');
      db.kill('SIGKILL');
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
