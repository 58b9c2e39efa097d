// The counted servers' clock (run/instructions.ts): every server of a pass starts at the pass's second, whenever it
// is started, and runs at a tenth of real speed (a minute's transient outlives a pass counted on a busy machine).
import * as assert from 'node:assert/strict';
import { clockStart, clockWrap, CLOCK_RATE } from '../../../../src/core/measure/run/instructions';

describe('--instructions: the counted servers\' clock', () => {
  const at = clockStart(new Date(Date.UTC(2026, 10, 28, 5, 0, 0, 700)));
  it('the start is the pass\'s second, in UTC', () => {
    assert.equal(at, '2026-11-28 05:00:00');
  });
  it('an offset from now, so a server started 95 s into the pass still starts at the pass\'s second; slowed', () => {
    const start = Date.UTC(2026, 10, 28, 5, 0, 0);
    const wrap = clockWrap('/lib/libfaketime.so.1', at, start + 95_000);
    assert.deepEqual(wrap, ['/usr/bin/env', 'LD_PRELOAD=/lib/libfaketime.so.1', 'FAKETIME=-95 x0.1', 'FAKETIME_DONT_FAKE_MONOTONIC=1']);
    assert.equal(clockWrap('/lib/libfaketime.so.1', at, start)[2], 'FAKETIME=+0 x0.1');
    assert.ok(CLOCK_RATE > 0 && CLOCK_RATE < 1, 'slowed, never frozen (a frozen clock hung mysqlnd)');
  });
  it('without libfaketime: no wrapper (the machine\'s clock)', () => {
    assert.deepEqual(clockWrap(undefined, at), []);
  });
});
