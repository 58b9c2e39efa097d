// ScanCycles: one more run at most for any number of rescans asked for during a run, cancelled scans skip their
// follow-up, and whenSettled waits for tracked work and for the idle condition — without a scanner or an API.
import * as assert from 'node:assert/strict';
import { ScanCycles } from '../../../src/core/session/scanCycles';
import { deferred } from '../helpers/fakeSession';

function cycles(scan: (signal: AbortSignal, n: number) => Promise<boolean>) {
  const log: string[] = [];
  let disposed = false;
  let n = 0;
  const c = new ScanCycles({
    scan: (signal) => scan(signal, ++n),
    afterScan: async () => void log.push(`after ${n}`),
    changed: () => log.push(`changed ${c.scanning ? 'scanning' : 'not scanning'}`),
    isDisposed: () => disposed,
  });
  return { c, log, scans: () => n, dispose: () => ((disposed = true), c.dispose()) };
}

describe('session scan cycles', () => {
  it('rescans asked for during a scan cancel it and schedule exactly one more; only a completed scan is followed up', async () => {
    const gate = deferred();
    const signals: AbortSignal[] = [];
    const { c, log, scans } = cycles(async (signal, n) => {
      signals.push(signal);
      if (n === 1) await gate.promise;
      return !signal.aborted;
    });
    const first = c.rescan();
    const second = c.rescan();
    const third = c.rescan();
    assert.equal(first, second, 'one cycle, shared');
    assert.equal(signals[0].aborted, true);
    gate.resolve();
    await Promise.all([first, second, third]);
    assert.equal(scans(), 2, 'one more scan, not zero and not two more');
    assert.deepEqual(log, ['changed scanning', 'changed not scanning', 'changed scanning', 'changed not scanning', 'after 2']);
    assert.equal(c.scanning, false);
  });

  it('disposing stops the scan in progress and the cycles', async () => {
    const gate = deferred();
    let signal: AbortSignal | undefined;
    const { c, scans, dispose } = cycles(async (s) => {
      signal = s;
      await gate.promise;
      return !s.aborted;
    });
    const run = c.rescan();
    c.rescan(); // queued, but the window closes first
    dispose();
    assert.equal(signal?.aborted, true);
    gate.resolve();
    await run;
    assert.equal(scans(), 1, 'the rescan queued before the window closed is dropped');
    const again = cycles(async () => true);
    again.dispose();
    await again.c.rescan();
    assert.equal(again.scans(), 0, 'no cycle after disposal');
  });

  it('whenSettled waits for tracked work, then for the idle condition', async () => {
    const { c } = cycles(async () => true);
    const held = deferred();
    let idle = false;
    void c.tracked(held.promise);
    let settled = false;
    const done = c.whenSettled(() => idle).then(() => (settled = true));
    for (let i = 0; i < 10; i++) await new Promise<void>((r) => setImmediate(r));
    assert.equal(settled, false, 'tracked work is running');
    held.resolve();
    for (let i = 0; i < 10; i++) await new Promise<void>((r) => setImmediate(r));
    assert.equal(settled, false, 'not idle yet');
    idle = true;
    await done;
    assert.equal(settled, true);
    // A failed piece of work does not keep it waiting.
    void c.tracked(Promise.reject(new Error('boom'))).catch(() => undefined);
    await c.whenSettled(() => true);
  });
});
