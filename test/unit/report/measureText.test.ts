// The table of `wp-bench measure` (src/core/report/measureText.ts) with `--instructions` figures, and byte for byte
// as before without them.
import * as assert from 'node:assert/strict';
import { measureTable } from '../../../src/core/report/measureText';
import { beforeInstructions, localRecord, withInstructions } from '../helpers/localRecords';

describe('measure table: instructions beside time', () => {
  it('an INSTRUCTIONS column ("+1.42 M instr (+0.5 %)" of the clean site), the range in SPREAD, the count in CLEAN SITE', () => {
    const table = measureTable(withInstructions(localRecord('Acme', 12.5, 300, 2), 1_420_000));
    const [, header, activation] = table.split('\n');
    assert.match(header, /^CONTEXT +TTFB +MEMORY +QUERIES +INSTRUCTIONS +SPREAD \(IQR\) +CLEAN SITE$/);
    assert.match(activation, /^activation +\+12\.5 ms +\+300 KB +\+2 +\+1\.42 M instr \(\+0\.5 %\) +0 ms · 0 KB · 0 q · range 20\.0 K instr +40 ms · 4,000 KB · 10 q · 290 M instr$/);
    assert.match(table, /^Instructions: CPU instructions PHP executes per request, counted with callgrind \(opcache warm, the clock set to the same start on every side, 3 counted requests per context and side\)/m);
  });

  it('a difference inside the spread reads "within noise"; a negative one keeps its sign', () => {
    assert.match(measureTable(withInstructions(localRecord('Acme', 1, 10, 0), 15_000)), /±15\.0 K instr \(within noise\)/);
    assert.match(measureTable(withInstructions(localRecord('Acme', 1, 10, 0), 0)), /±0 instr \(within noise\)/);
    assert.match(measureTable(withInstructions(localRecord('Acme', 1, 10, 0), -2_900_000)), /−2\.90 M instr \(−1\.0 %\)/);
  });

  it('a context not measured keeps its reason under SPREAD (the column count stays)', () => {
    const table = measureTable(withInstructions(localRecord('Acme', 12.5, 300, 2, 'fatal'), 1_420_000));
    assert.match(table, /^admin +not measured +PHP fatal error: boom$/m);
  });

  it('a context whose counted requests varied: a warning naming it with the spread; none when none varied', () => {
    const r = withInstructions(localRecord('Acme', 12.5, 300, 2), 1_420_000, 2_000_000);
    r.local.instructions = { ...r.local.instructions!, varying: ['homepage', 'admin'] };
    assert.match(measureTable(r), /^Warning: CPU instructions varied between identical requests in homepage \(by up to 2\.00 M instr, 0\.7 % of the request\) and admin \(by up to 2\.00 M instr, 0\.7 % of the request\): work that depends on the time or on the site's state .*not exact\.$/m);
    r.local.instructions = { ...r.local.instructions!, varying: [] };
    assert.doesNotMatch(measureTable(r), /varied/);
  });

  it('without counts: byte for byte the table of before, no "instr" anywhere', () => {
    const table = measureTable(localRecord('Acme', 12.5, 300, 2, 'fatal'));
    assert.equal(table, beforeInstructions().measureTable);
    assert.doesNotMatch(table, /instr/i);
  });
});
