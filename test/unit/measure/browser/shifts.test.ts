// The layout shifts the component causes, on recorded loads: the calibration banner pushed in after load (it moves
// #calib-content by 200 px at 1350 px: 0.148), beside a shift of the theme's own that both sides have.
import assert from 'node:assert/strict';
import { componentShifts } from '../../../../src/core/measure/browser/shifts';
import type { BrowserLoad, LayoutShift } from '../../../../src/core/measure/browser/types';

const THEME: LayoutShift = { start_ms: 300, value: 0.01, sources: [{ node: 'div.wp-site-blocks', names: ['.wp-site-blocks'] }] };
const BANNER: LayoutShift = { start_ms: 1500, value: 0.148, sources: [{ node: 'div#calib-content', names: ['#calib-content', '#calib-stage'] }, { node: 'p', names: ['#calib-content', '#calib-stage'] }], inserted: [{ node: 'div', names: ['#calib-stage'] }] };
const load = (side: string, round: number, shifts: LayoutShift[]): BrowserLoad => ({ side, round, fcp_ms: 100, lcp_ms: 100, load_ms: 120, end_ms: 2600, long_tasks: [], layout_shifts: shifts, requests: [], scripts: [], blocked: [] });

describe('browser: the layout shifts the component causes', () => {
  it('the banner\'s shift, by the node it moved, with the element inserted before it; the theme\'s own shift on both sides is not its', () => {
    const base = [0, 1, 2].map((r) => load('baseline', r, [THEME]));
    const meas = [0, 1, 2].map((r) => load('measured', r, [THEME, BANNER]));
    assert.deepEqual(componentShifts(base, meas), [{ node: 'div#calib-content', names: ['#calib-content', '#calib-stage'], cls: 0.148, loads: 3, inserted: [{ node: 'div', names: ['#calib-stage'] }] }]);
  });

  it('a shift in one load of three is no shift of the component\'s (median 0); two of three is', () => {
    const base = [0, 1, 2].map((r) => load('baseline', r, []));
    assert.deepEqual(componentShifts(base, [load('measured', 0, [BANNER]), load('measured', 1, []), load('measured', 2, [])]), []);
    const two = componentShifts(base, [load('measured', 0, [BANNER]), load('measured', 1, [BANNER]), load('measured', 2, [])]);
    assert.deepEqual(two.map((s) => [s.node, s.cls, s.loads]), [['div#calib-content', 0.148, 2]]);
  });

  it('shifts of one node in a load are added up; a load\'s shifts without sources count to no node', () => {
    const twice: LayoutShift[] = [BANNER, { ...BANNER, start_ms: 1600, value: 0.05, inserted: undefined }, { start_ms: 1700, value: 0.3 }];
    const s = componentShifts([load('baseline', 0, [])], [load('measured', 0, twice)]);
    assert.deepEqual(s.map((x) => [x.node, x.cls]), [['div#calib-content', 0.198]]);
  });
});
