// The sandbox's limits (src/core/measure/machine/sandboxLimits.ts, bubblewrapArgs in sandbox.ts): the command that
// sets them before the sandboxed program runs (here run by the shell itself, without bubblewrap), PHP's and the
// database server's limits apart, and which limit a PHP error shows was reached.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { bubblewrapArgs } from '../../../../src/core/measure/machine/sandbox';
import { DB_LIMITS, PHP_LIMITS, describeLimits, limitReached, limitedCommand, limitsFor } from '../../../../src/core/measure/machine/sandboxLimits';

const run = (command: string[]) => spawnSync(command[0], command.slice(1), { encoding: 'utf8' });

describe('sandbox limits', () => {
  it('PHP gets 1,024 processes and 2 GiB of address space; the database server no limit of address space', () => {
    assert.deepEqual(limitsFor('/usr/bin/php8.2'), PHP_LIMITS);
    assert.deepEqual(limitsFor('/bin/sh'), PHP_LIMITS);
    assert.deepEqual(limitsFor('/usr/sbin/mariadbd'), DB_LIMITS);
    assert.deepEqual(limitsFor('mysqld'), DB_LIMITS);
    assert.equal(PHP_LIMITS.processes, 1024);
    assert.equal(PHP_LIMITS.addressSpaceBytes, 2 * 1024 ** 3);
    assert.equal(DB_LIMITS.addressSpaceBytes, undefined);
  });

  it('the command sets the limits (soft and hard), then runs the program in its place with its arguments intact', function () {
    if (process.platform !== 'linux') this.skip();
    const c = limitedCommand(PHP_LIMITS, { hardened: true, support: { rlimit: true, cgroup: false }, cwd: '/tmp/unit-limits-a', bin: '/bin/sh', args: ['-c', 'ulimit -Hv; ulimit -Sv; (ulimit -u || ulimit -p) 2>/dev/null | tail -1; printf "[%s]" "$@"', 'x', 'a b', '$HOME', "it's"] });
    assert.deepEqual(c.bwrap, [], 'no cgroup: nothing to bind');
    assert.equal(c.command[0], '/bin/sh');
    const r = run(c.command);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(r.stdout.trim().split('\n'), ['2097152', '2097152', '1024', "[a b][$HOME][it's]"]);
  });

  it('without a user namespace of its own (or where RLIMIT_NPROC does not apply) no limit of processes is set, the memory one is', () => {
    for (const o of [
      { hardened: false, support: { rlimit: true, cgroup: false } },
      { hardened: true, support: { rlimit: false, cgroup: false } },
    ]) {
      const c = limitedCommand(PHP_LIMITS, { ...o, cwd: '/tmp/unit-limits-b', bin: 'php', args: ['-v'] });
      assert.match(c.command[2], /ulimit -v 2097152/);
      assert.doesNotMatch(c.command[2], /ulimit -[up]/);
    }
    const db = limitedCommand(DB_LIMITS, { hardened: false, support: { rlimit: true, cgroup: false }, cwd: '/tmp/unit-limits-c', bin: 'mariadbd', args: ['--no-defaults'] });
    assert.deepEqual(db.command, ['mariadbd', '--no-defaults'], 'nothing to set: the program alone');
    const off = limitedCommand(PHP_LIMITS, { hardened: true, support: { rlimit: true, cgroup: false, off: 'no shell' }, cwd: '/tmp/unit-limits-d', bin: 'php', args: ['-v'] });
    assert.deepEqual(off.command, ['php', '-v']);
  });

  it('bubblewrapArgs runs PHP through the command and the database server without a limit of address space', () => {
    const php = bubblewrapArgs({ mounts: [], cwd: '/tmp/unit-limits-e', bin: 'php', args: ['-S', '127.0.0.1:1'], hardened: true });
    const tail = php.slice(php.indexOf('--') + 1);
    assert.equal(tail[0], '/bin/sh');
    assert.match(tail[2], /ulimit -v 2097152/);
    assert.deepEqual(tail.slice(-3), ['php', '-S', '127.0.0.1:1']);
    const db = bubblewrapArgs({ mounts: [], cwd: '/tmp/unit-limits-f', bin: '/usr/sbin/mariadbd', args: ['--no-defaults'], hardened: true });
    assert.doesNotMatch(db.join(' '), /ulimit -v/);
    assert.deepEqual(db.slice(-2), ['/usr/sbin/mariadbd', '--no-defaults']);
    const none = bubblewrapArgs({ mounts: [], cwd: '/tmp/unit-limits-g', bin: 'php', args: ['-v'], hardened: true, limits: false });
    assert.deepEqual(none.slice(none.indexOf('--')), ['--', 'php', '-v']);
  });

  it("PHP's words name the limit reached: processes, memory; PHP's own memory_limit is none of them", () => {
    limitedCommand(PHP_LIMITS, { hardened: true, support: { rlimit: true, cgroup: false }, cwd: '/tmp/unit-limits-h', bin: 'php', args: [] });
    const at = (t: string) => limitReached(t, '/tmp/unit-limits-h');
    assert.deepEqual(at('PHP Warning:  proc_open(): Fork failed: Resource temporarily unavailable in x.php on line 3'), { reason: "the sandbox's limit of 1,024 processes", sign: 'Fork failed: Resource temporarily unavailable' });
    assert.equal(at('PHP Warning:  exec(): Unable to fork [ls] in x.php on line 3')?.reason, "the sandbox's limit of 1,024 processes");
    assert.equal(at('PHP Warning:  pcntl_fork(): Error 11 in x.php on line 3')?.reason, "the sandbox's limit of 1,024 processes");
    assert.deepEqual(at('server output: [200] GET /\\n\\nmmap() failed: [12] Cannot allocate memory\\nOut of memory\\n'), { reason: "the sandbox's limit of 2 GiB of memory per process", sign: 'mmap() failed: [12] Cannot allocate memory' });
    assert.equal(at('Out of memory (allocated 2097152) (tried to allocate 67108872 bytes) in x.php:4')?.reason, "the sandbox's limit of 2 GiB of memory per process");
    assert.equal(at('Allowed memory size of 1073741824 bytes exhausted (tried to allocate 20480 bytes)'), undefined);
    assert.equal(at('PHP Warning:  Undefined variable $x'), undefined);
    // A run without the sandbox's limits: the machine's.
    assert.equal(limitReached('Fork failed: Resource temporarily unavailable', '/tmp/unit-limits-none')?.reason, "the machine's limit of processes");
    assert.equal(limitReached('mmap() failed: [12] Cannot allocate memory', '/tmp/unit-limits-none')?.reason, "the machine's memory");
  });

  it('says the limits a sandbox gets here', () => {
    assert.equal(describeLimits({ rlimit: true, cgroup: false }, true), 'at most 1,024 processes (RLIMIT_NPROC in its own user namespace) and 2 GiB of address space per PHP process');
    assert.equal(describeLimits({ rlimit: false, cgroup: true }, true), 'at most 1,024 processes (a pids cgroup of its own) and 2 GiB of address space per PHP process');
    assert.match(describeLimits({ rlimit: true, cgroup: false }, false), /^2 GiB of address space per PHP process; no limit of processes \(without a user namespace/);
    assert.match(describeLimits({ rlimit: false, cgroup: false }, true), /no limit of processes \(run as root/);
    assert.equal(describeLimits({ rlimit: false, cgroup: false, off: 'exit 126' }, true), 'none (they cannot be set here: exit 126)');
  });
});
