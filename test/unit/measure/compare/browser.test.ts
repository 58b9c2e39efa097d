// The regression check's browser rows (`measure --baseline-ref REF --browser`, compare/browser.ts) on recorded
// figures: an identical copy is never flagged, +100 KB of render-blocking head script is, the noise of the time
// figures is within noise or inconclusive (never a failure), the team config's browser budgets, and a run without
// browser figures judged as before.
import * as assert from 'node:assert/strict';
import { BROWSER_FLOOR, browserAllowed, browserUndecided, compareWithBrowser, browserInconclusiveCount } from '../../../../src/core/measure/compare/browser';
import { compareRecords, type RegressionPolicy } from '../../../../src/core/measure/compare/regression';
import { pairedBrowser, type PairedBrowser } from '../../../../src/core/measure/browser/paired';
import { withBrowser } from '../../../../src/core/measure/browser/figures';
import type { BrowserDelta, BrowserLoad } from '../../../../src/core/measure/browser/types';
import { inconclusiveVerdict } from '../../../../src/core/report/regressionBrowser';
import { localRecord } from '../../helpers/localRecords';
import { browserRecord } from '../../helpers/browserRecords';

const policy: RegressionPolicy = { maxRegressionPercent: 10, ceilings: {} };
const same = (x: number, n = 5) => Array.from({ length: n }, () => x);
/** Paired loads of an identical copy: bytes and counts equal, the paints a few ms apart either way. */
const IDENTICAL: PairedBrowser = { bytes_kb: same(0), requests: same(0), render_blocking: same(0), fcp_ms: [3.1, -5.2, 2, -1.4, 4.4], lcp_ms: [2.9, -6, 1.2, -0.8, 5], tbt_ms: same(0), cls: same(0) };
const row = (r: ReturnType<typeof compareWithBrowser>, f: string) => r.browser!.rows.find((x) => x.figure === f)!;

describe('measure --baseline-ref --browser: the comparison', () => {
  it('an identical copy: every row ok, nothing exceeded, nothing inconclusive', () => {
    const r = compareWithBrowser(browserRecord({ bytes_kb: 12.3, requests: 1, fcp_ms: 4 }), browserRecord({ bytes_kb: 12.3, requests: 1, fcp_ms: 1.2 }), policy, { activation: same(0), homepage: same(0), admin: same(0) }, undefined, IDENTICAL);
    assert.deepEqual(r.browser!.rows.map((x) => x.figure), ['bytes_kb', 'requests', 'render_blocking', 'fcp_ms', 'lcp_ms', 'tbt_ms', 'cls']);
    assert.deepEqual(r.browser!.rows.filter((x) => x.regression || x.overCeiling || x.inconclusive), []);
    assert.deepEqual(r.exceeded, []);
    assert.equal(browserInconclusiveCount(r), 0);
    assert.deepEqual(row(r, 'fcp_ms').paired, { n: 5, median: 2, lower: -5.2 });
    assert.equal(row(r, 'fcp_ms').difference, 2.8);
  });

  it('+100 KB of render-blocking head script with 150 ms of work: bytes, requests, render-blocking and FCP are regressions', () => {
    const tree = browserRecord({ bytes_kb: 112.7, requests: 2, render_blocking: 1, fcp_ms: 161.3, lcp_ms: 158 });
    const ref = browserRecord({ bytes_kb: 12.3, requests: 1, fcp_ms: 1.2, lcp_ms: 0.5 });
    const paired: PairedBrowser = { ...IDENTICAL, bytes_kb: same(100.4), requests: same(1), render_blocking: same(1), fcp_ms: [150, 171, 160, 155, 166], lcp_ms: [149, 170, 158, 150, 162] };
    const r = compareWithBrowser(tree, ref, policy, undefined, undefined, paired);
    assert.deepEqual(r.exceeded.map((e) => `${e.rule}:${e.context}:${e.figure}`), ['regression:homepage:bytes_kb', 'regression:homepage:requests', 'regression:homepage:render_blocking', 'regression:homepage:fcp_ms', 'regression:homepage:lcp_ms']);
    assert.equal(r.exceeded[0].metric, undefined, 'a browser figure is no server metric');
    assert.equal(row(r, 'bytes_kb').allowed, 1.2, '10 % of REF\'s 12.3 KB');
    assert.equal(row(r, 'requests').allowed, 0.1);
    assert.equal(row(r, 'fcp_ms').allowed, BROWSER_FLOOR.fcp_ms, 'the floor: 10 % of 1.2 ms says nothing');
    assert.match(r.exceeded[3].message, /^homepage FCP \(browser\): \+160\.1 ms over the baseline \(1\.2 ms → 161\.3 ms\); load by load at least \+150\.0 ms \(95 % bound over 5 paired loads\), more than the 50\.0 ms allowed/);
    assert.match(r.exceeded[0].message, /^homepage bytes \(browser\): \+100\.4 KB over the baseline \(12\.3 KB → 112\.7 KB\)/);
    assert.match(r.exceeded[2].message, /^homepage render-blocking requests \(browser\): \+1 over the baseline \(0 → 1\)/);
    // The server rows are judged as before, beside them.
    assert.deepEqual(r.rows, compareRecords(tree, ref, policy).rows);
  });

  it('noisy time figures: within noise when the paired median is under the allowance, inconclusive when only its bound is — never a failure', () => {
    const tree = browserRecord({ fcp_ms: 72, tbt_ms: 61 }, { fcp_ms: 40, tbt_ms: 30 });
    const ref = browserRecord({ fcp_ms: 3, tbt_ms: 2 });
    const paired: PairedBrowser = { ...IDENTICAL, fcp_ms: [80, -60, 10, -30, 70], tbt_ms: [70, 75, -12, 90, 66] };
    const r = compareWithBrowser(tree, ref, policy, undefined, undefined, paired);
    assert.deepEqual(r.exceeded, []);
    assert.equal(row(r, 'fcp_ms').inconclusive, undefined);
    assert.equal(row(r, 'fcp_ms').regression, false);
    assert.equal(row(r, 'tbt_ms').inconclusive, true, 'median +70 ms over the 50 ms allowed, the bound −12 ms not');
    assert.deepEqual(r.browser!.inconclusive.map((x) => x.figure), ['tbt_ms']);
    assert.equal(browserInconclusiveCount(r), 1);
    assert.equal(r.inconclusive.length, 0, 'the server rows stay decided');
  });

  it('the allowance is max(percent of REF, the floor, the run\'s noise); counts need one whole request more', () => {
    assert.equal(browserAllowed('fcp_ms', 300, 10, 0), BROWSER_FLOOR.fcp_ms, '10 % of 300 ms is under the floor');
    assert.equal(browserAllowed('fcp_ms', 900, 10, 0), 90);
    assert.equal(browserAllowed('tbt_ms', 0, 10, 75), 75, 'the run\'s spread');
    assert.equal(browserAllowed('bytes_kb', 0.2, 10, 0), BROWSER_FLOOR.bytes_kb);
    const ten = browserRecord({ requests: 10 });
    const at = (n: number) => compareWithBrowser(browserRecord({ requests: n }), ten, policy, undefined, undefined, { ...IDENTICAL, requests: same(n - 10) });
    assert.equal(row(at(11), 'requests').regression, false, '+1 on 10 is the 10 % allowed');
    assert.equal(row(at(12), 'requests').regression, true);
    // A median of half a request (six loads, three with one more) is no whole request: not even undecided.
    const half = compareWithBrowser(browserRecord({ requests: 1.5 }), browserRecord({ requests: 1 }), policy, undefined, undefined, { ...IDENTICAL, requests: [0, 0, 0, 1, 1, 1] });
    assert.deepEqual([row(half, 'requests').regression, row(half, 'requests').inconclusive], [false, undefined]);
    const none = browserRecord({});
    assert.equal(row(compareWithBrowser(browserRecord({ render_blocking: 1 }), none, policy, undefined, undefined, { ...IDENTICAL, render_blocking: same(1) }), 'render_blocking').regression, true, 'one more than none');
  });

  it('bytes and counts are near exact: judged on the paired median, so one load Chromium judged otherwise neither makes nor undoes a regression', () => {
    const none = browserRecord({});
    const blocking = (pairs: number[]) => row(compareWithBrowser(browserRecord({ render_blocking: 1 }), none, policy, undefined, undefined, { ...IDENTICAL, render_blocking: pairs }), 'render_blocking');
    assert.deepEqual([blocking([1, 1, 0, 1, 1]).regression, blocking([1, 1, 0, 1, 1]).inconclusive], [true, undefined]);
    const flake = row(compareWithBrowser(none, none, policy, undefined, undefined, { ...IDENTICAL, render_blocking: [0, 0, 1, 0, 0], bytes_kb: [0, 0, 96.2, 0, 0] }), 'bytes_kb');
    assert.deepEqual([flake.regression, flake.inconclusive], [false, undefined]);
  });

  it('fewer than 5 paired loads: a time figure over the allowance is inconclusive, bytes and counts are still decided', () => {
    const tree = browserRecord({ bytes_kb: 40, fcp_ms: 300 });
    const ref = browserRecord({});
    const r = compareWithBrowser(tree, ref, policy, undefined, undefined, { bytes_kb: same(40, 3), fcp_ms: [290, 300, 310] });
    assert.equal(row(r, 'bytes_kb').regression, true);
    assert.equal(row(r, 'fcp_ms').regression, false);
    assert.equal(row(r, 'fcp_ms').inconclusive, true);
    // Without pairs at all (records alone): the difference of the medians over the allowance and the spread.
    const alone = compareWithBrowser(tree, ref, policy);
    assert.equal(row(alone, 'fcp_ms').regression, true);
    assert.equal(row(alone, 'fcp_ms').paired, undefined);
  });

  it('the budgets of .wp-bench.json (measure.browser) bound what the component adds at the working tree', () => {
    const tree = browserRecord({ lcp_ms: 250, bytes_kb: 140, cls: 0.08 });
    const r = compareWithBrowser(tree, tree, { ...policy, browser: { lcp_ms: 200, bytes_kb: 150, cls: 0.05 } }, undefined, undefined, IDENTICAL);
    assert.deepEqual(r.exceeded.map((e) => `${e.rule}:${e.figure}:${e.limit}`), ['ceiling:lcp_ms:200', 'ceiling:cls:0.05']);
    assert.match(r.exceeded[0].message, /^homepage LCP \(browser\): the component adds 250\.0 ms, over the budget of 200\.0 ms \(measure\.browser\.lcp_ms\)$/);
    assert.equal(row(r, 'bytes_kb').overCeiling, false);
    assert.equal(row(r, 'bytes_kb').ceiling, 150);
  });

  it('no browser figures: no browser part (the report as before); figures that could not be taken: said, judged on the server alone', () => {
    const plain = localRecord('Acme', 10, 1024, 2);
    assert.deepEqual(compareWithBrowser(plain, plain, policy), compareRecords(plain, plain, policy));
    const gone = withBrowser(plain, { unavailable: 'Chromium was not found: sudo apt-get install -y chromium' });
    const r = compareWithBrowser(gone, gone, policy);
    assert.deepEqual(r.browser, { rows: [], inconclusive: [], unavailable: 'Chromium was not found: sudo apt-get install -y chromium' });
    assert.deepEqual(r.exceeded, []);
  });

  it('browserUndecided: the timed figures the loads leave undecided, by name — none for an identical copy or a decided regression', () => {
    const undecided = browserUndecided(policy);
    const delta = (r: ReturnType<typeof browserRecord>) => r.contexts.homepage!.browser as BrowserDelta;
    const noisy = browserRecord({ fcp_ms: 72, lcp_ms: 70, tbt_ms: 61 }, { fcp_ms: 40, tbt_ms: 30 });
    const ref = browserRecord({ fcp_ms: 3, tbt_ms: 2 });
    assert.deepEqual(undecided(delta(noisy), delta(ref), { ...IDENTICAL, fcp_ms: [70, -12, 90, 66, 75], lcp_ms: [70, -12, 90, 66, 75], tbt_ms: [70, 75, -12, 90, 66] }), ['FCP', 'LCP', 'TBT']);
    assert.deepEqual(undecided(delta(ref), delta(ref), IDENTICAL), []);
    const heavy = browserRecord({ bytes_kb: 100, requests: 1, render_blocking: 1, fcp_ms: 300 });
    assert.deepEqual(undecided(delta(heavy), delta(ref), { ...IDENTICAL, bytes_kb: same(100), requests: same(1), render_blocking: same(1), fcp_ms: [290, 300, 310, 305, 295] }), [], 'a regression is decided');
    // Bytes and counts are never undecided, whatever their pairs.
    assert.deepEqual(undecided(delta(ref), delta(ref), { ...IDENTICAL, bytes_kb: [0, 0, 96.2, 96.2, 96.2], requests: [0, 1, 1, 0, 1] }), []);
  });

  it('judged after a confirmation pass: the report carries its loads, and a figure still undecided says so in the verdict', () => {
    const confirmed = (r: ReturnType<typeof browserRecord>) => ({ ...r, local: { ...r.local, browser: { ...(r.local.browser as object), rounds: 10, confirmation_rounds: 5 } } }) as typeof r;
    const ten = (xs: number[]) => [...xs, ...xs];
    const paired: PairedBrowser = { ...IDENTICAL, ...Object.fromEntries(Object.entries(IDENTICAL).map(([k, v]) => [k, ten(v!)])), tbt_ms: ten([70, 75, -12, 90, 66]) };
    const tree = confirmed(browserRecord({ tbt_ms: 61 }, { tbt_ms: 30 }));
    const r = compareWithBrowser(tree, browserRecord({ tbt_ms: 2 }), policy, undefined, undefined, paired);
    assert.equal(r.browser!.confirmation_rounds, 5);
    assert.deepEqual(row(r, 'tbt_ms').paired, { n: 10, median: 70, lower: -12 });
    assert.equal(inconclusiveVerdict(r), "INCONCLUSIVE: 1 browser figure too close to the threshold for this run's noise, even after a confirmation pass (no budget exceeded).");
    const first = compareWithBrowser(browserRecord({ tbt_ms: 61 }, { tbt_ms: 30 }), browserRecord({ tbt_ms: 2 }), policy, undefined, undefined, { ...IDENTICAL, tbt_ms: [70, 75, -12, 90, 66] });
    assert.equal(first.browser!.confirmation_rounds, undefined);
    assert.equal(inconclusiveVerdict(first), "INCONCLUSIVE: 1 browser figure too close to the threshold for this run's noise (no budget exceeded).");
  });

  it('pairedBrowser: the loads of the same round, working tree − REF, the warm-up left out', () => {
    const load = (side: string, round: number, fcp: number, bytes: number): BrowserLoad => ({ side, round, fcp_ms: fcp, lcp_ms: fcp, load_ms: fcp, end_ms: fcp + 1000, long_tasks: [], layout_shifts: [], requests: [{ url: '/', type: 'document', bytes, status: 200, render_blocking: false, start_ms: 0, response_ms: 1, end_ms: 2 }], scripts: [], blocked: [] });
    const loads = [load('measured', -1, 900, 0), load('baseline', 0, 100, 1024), load('measured', 0, 110, 2048), load('ref', 0, 104, 1024), load('ref', 1, 120, 1024), load('measured', 1, 115, 1024), load('measured', 2, 1, 1)];
    const p = pairedBrowser(loads);
    assert.deepEqual(p.fcp_ms, [6, -5]);
    assert.deepEqual(p.bytes_kb, [1, 0]);
    assert.deepEqual(p.requests, [0, 0]);
    assert.deepEqual(pairedBrowser(loads.filter((l) => l.side !== 'ref')), {});
  });
});
