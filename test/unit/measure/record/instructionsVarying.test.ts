// `--instructions`: which contexts' counted requests varied (record/instructionsVarying.ts), on recorded counts.
// Identical requests differ by about 4,000 instructions of 30 to 60 million; a component doing time-based or
// state-dependent work by far more.
import assert from 'node:assert/strict';
import { countsVary, VARYING_SHARE, varyingContexts, withVarying } from '../../../../src/core/measure/record/instructionsVarying';
import { localRecord, withInstructions } from '../../helpers/localRecords';

const steady = (n: number) => [n, n + 3_900, n + 1_200];

describe('instructions: a context whose counted requests vary', () => {
  it('the threshold is 0.05 % of the side\'s median count: identical requests (~4 K of 40 M) never vary, 2 M always', () => {
    assert.equal(VARYING_SHARE, 0.0005);
    assert.equal(countsVary(steady(40_000_000)), false);
    assert.equal(countsVary([40_000_000, 42_000_000, 40_000_000]), true);
    // Just at 0.05 % of the median: still the same work; just over it: varying.
    assert.equal(countsVary([40_000_000, 40_020_000, 40_010_000]), false);
    assert.equal(countsVary([40_000_000, 40_020_100, 40_010_000]), true);
    assert.equal(countsVary([]), false, 'nothing counted: nothing to say');
    assert.equal(countsVary([40_000_000]), false);
  });

  it('a context varies when any side\'s counts vary (the component\'s, the clean site\'s or REF\'s); in context order', () => {
    const measured = { activation: steady(30e6), homepage: [41e6, 43e6, 41e6], admin: steady(50e6) };
    const baseline = { activation: [30e6, 30.5e6, 30e6], homepage: steady(40e6), admin: steady(49e6) };
    assert.deepEqual(varyingContexts([measured, baseline]), ['activation', 'homepage']);
    assert.deepEqual(varyingContexts([{ activation: steady(30e6), homepage: steady(40e6), admin: steady(50e6) }, baseline, undefined]), ['activation']);
    assert.deepEqual(varyingContexts([undefined, { homepage: [] }]), []);
  });

  it('the record says which in local.instructions.varying (an empty list: counted and none varied); without counts it is untouched', () => {
    const counted = withInstructions(localRecord('Acme', 12, 300, 2), 1_420_000);
    assert.deepEqual(withVarying(counted, ['homepage']).local.instructions?.varying, ['homepage']);
    assert.deepEqual(withVarying(counted, []).local.instructions?.varying, []);
    const plain = localRecord('Acme', 12, 300, 2);
    assert.equal(withVarying(plain, ['homepage']), plain);
  });
});
