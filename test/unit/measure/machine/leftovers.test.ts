// Processes outliving a request: found under the sandbox's first process (host /proc), killed and waited for.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { descendants, killLeftovers } from '../../../../src/core/measure/machine/leftovers';

describe('processes left after a request (leftovers)', function () {
  if (process.platform !== 'linux') return;

  it('finds every descendant, kills those not expected, and waits until they are gone', async () => {
    // sh (the "server") with a child of its own (expected) and another (not). (A double fork outside a PID namespace
    // goes to the machine's init; in the sandbox it stays under the namespace's first process, which is bwrap.)
    const root = spawn('sh', ['-c', 'sleep 301.25 & sleep 302.25 & wait'], { stdio: 'ignore' });
    try {
      let found = new Map<number, string>();
      for (let i = 0; i < 500 && [...found.values()].filter((n) => n === 'sleep').length < 2; i++) {
        await new Promise((r) => setTimeout(r, 10));
        found = descendants(root.pid!);
      }
      const sleeps = [...found].filter(([, n]) => n === 'sleep').map(([p]) => p);
      assert.equal(sleeps.length, 2, JSON.stringify([...found]));
      const [keep] = sleeps.sort((a, b) => a - b);
      const r = await killLeftovers(root.pid!, new Set([keep]));
      assert.deepEqual(r, { killed: ['sleep'], stuck: false });
      assert.deepEqual([...descendants(root.pid!).keys()], [keep]);
    } finally {
      root.kill('SIGKILL');
    }
  });
});
