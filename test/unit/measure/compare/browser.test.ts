// The regression check's browser rows (`measure --baseline-ref REF --browser`, compare/browser.ts) on recorded
// figures: an identical copy is never flagged, +100 KB of render-blocking head script is, the noise of the time
// figures is within noise or inconclusive (never a failure), the team config's browser budgets, and a run without
// browser figures judged as before.
import * as assert from 'node:assert/strict';
import { BROWSER_FLOOR, browserAllowed, browserUndecided, compareWithBrowser, browserInconclusiveCount } from '../../../../src/core/measure/compare/browser';
import { compareRecords, type RegressionPolicy } from '../../../../src/core/measure/compare/regression';
import { ownMainThread, pairedBrowser, pairedMainThread, type PairedBrowser } from '../../../../src/core/measure/browser/paired';
import { withBrowser } from '../../../../src/core/measure/browser/figures';
import type { BrowserDelta, BrowserLoad } from '../../../../src/core/measure/browser/types';
import { browserResult, inconclusiveVerdict } from '../../../../src/core/report/regressionBrowser';
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

  it('a paint too noisy to bound, decided by its own render-blocking scripts\' main-thread time: grew is a regression (the busy machine\'s 300 ms head script)', () => {
    // As measured with both cores busy: FCP +370 ms, each record's spread 248 ms, ten paired loads from +84 to +600.
    const tree = browserRecord({ bytes_kb: 121, requests: 3, render_blocking: 2, fcp_ms: 690, lcp_ms: 690 }, { fcp_ms: 248, lcp_ms: 248 });
    const ref = browserRecord({ bytes_kb: 48.7, requests: 2, render_blocking: 1, fcp_ms: 320, lcp_ms: 320 }, { fcp_ms: 234, lcp_ms: 234 });
    const paint = [84, 416, 600, 380, 22, 452, 505, 300, 440, 470];
    const pairs: PairedBrowser = { bytes_kb: same(72.3, 10), requests: same(1, 10), render_blocking: same(1, 10), fcp_ms: paint, lcp_ms: paint, tbt_ms: same(0, 10), cls: same(0, 10) };
    const noisy = compareWithBrowser(tree, ref, policy, undefined, undefined, pairs);
    assert.deepEqual([row(noisy, 'fcp_ms').regression, row(noisy, 'fcp_ms').inconclusive, row(noisy, 'fcp_ms').allowed], [false, true, 248], 'the page alone: undecided');
    const r = compareWithBrowser(tree, ref, policy, undefined, undefined, { ...pairs, blocking_main_thread_ms: [300.2, 301.5, 299.8, 300.4, 302, 300.1, 300.9, 299.9, 300.3, 301], main_thread_ms: [300.2, 301.5, 299.8, 300.4, 302, 300.1, 300.9, 299.9, 300.3, 301] });
    const fcp = row(r, 'fcp_ms');
    assert.deepEqual([fcp.regression, fcp.inconclusive, fcp.main_thread?.verdict, fcp.main_thread?.lower], [true, undefined, 'grew', 299.9]);
    assert.deepEqual(r.exceeded.map((e) => e.figure), ['bytes_kb', 'requests', 'render_blocking', 'fcp_ms', 'lcp_ms']);
    assert.equal(r.exceeded[3].message, "homepage FCP (browser): +370.0 ms over the baseline (320.0 ms → 690.0 ms); its own render-blocking scripts' main-thread time grew by at least +299.9 ms (95 % bound over 10 paired loads), more than the 50.0 ms allowed (10 %, at least 50.0 ms; the page's loads alone were too noisy to bound it)");
    assert.equal(r.exceeded[3].limit, 50);
    assert.equal(browserResult(fcp), "REGRESSION (its scripts' main-thread time: at least +299.9 ms)");
    assert.equal(row(r, 'tbt_ms').main_thread, undefined, 'TBT was decided: nothing to ask');
    // Noisier still (each record's spread 500 ms): the page reads FCP within noise, its own render-blocking work does not.
    const calm = (x: ReturnType<typeof browserRecord>, n: number) => browserRecord(x.contexts.homepage!.browser!, { fcp_ms: n, lcp_ms: n });
    const hidden = (mt: number[]) => row(compareWithBrowser(calm(tree, 500), calm(ref, 480), policy, undefined, undefined, { ...pairs, blocking_main_thread_ms: mt, main_thread_ms: mt }), 'fcp_ms');
    assert.deepEqual([hidden(same(300, 10)).regression, hidden(same(300, 10)).main_thread?.verdict], [true, 'grew']);
    assert.deepEqual([hidden(same(0, 10)).regression, hidden(same(0, 10)).inconclusive, hidden(same(0, 10)).main_thread], [false, undefined, undefined], 'unchanged work leaves a within-noise paint as it was');
  });

  it('an identical copy on a busy machine: a paint undecided by the page is ok when its own scripts did the same work and nothing else of the page changed', () => {
    const tree = browserRecord({ fcp_ms: 75, lcp_ms: 75 }, { fcp_ms: 30, lcp_ms: 30 });
    const ref = browserRecord({ fcp_ms: 4, lcp_ms: 4 });
    const paint = [70, 75, -12, 90, 66];
    const work = [0.4, -0.3, 1.1, -0.8, 0.2];
    const pairs: PairedBrowser = { ...IDENTICAL, fcp_ms: paint, lcp_ms: paint, blocking_main_thread_ms: work, main_thread_ms: work };
    const r = compareWithBrowser(tree, ref, policy, undefined, undefined, pairs);
    const fcp = row(r, 'fcp_ms');
    assert.deepEqual([fcp.regression, fcp.inconclusive, fcp.main_thread?.verdict], [false, undefined, 'unchanged']);
    assert.deepEqual(r.exceeded, []);
    assert.equal(browserInconclusiveCount(r), 0);
    assert.equal(browserResult(fcp), "ok (its scripts' main-thread time unchanged: +0.2 ms load by load; the page moved with the machine)");
    assert.deepEqual(browserUndecided(policy)(tree.contexts.homepage!.browser!, ref.contexts.homepage!.browser!, pairs), [], 'no confirmation pass needed');
    // One request more (a new file): the page changed, so unchanged work clears nothing.
    const more = compareWithBrowser(tree, ref, policy, undefined, undefined, { ...pairs, requests: same(1), bytes_kb: same(0.3) });
    assert.deepEqual([row(more, 'fcp_ms').inconclusive, row(more, 'fcp_ms').main_thread], [true, undefined]);
    // Work that grew a little, within the floor, neither grew nor is unchanged in bound: still undecided.
    const some = compareWithBrowser(tree, ref, policy, undefined, undefined, { ...pairs, blocking_main_thread_ms: [10, 45, 60, 30, 80] });
    assert.deepEqual([row(some, 'fcp_ms').inconclusive, row(some, 'fcp_ms').main_thread], [true, undefined]);
    // Too few pairs of work (older records, a side without own scripts loaded): undecided as before.
    assert.equal(row(compareWithBrowser(tree, ref, policy, undefined, undefined, { ...pairs, blocking_main_thread_ms: [0, 0] }), 'fcp_ms').inconclusive, true);
  });

  it('TBT asks all its own scripts, the paints only the render-blocking ones; CLS is never asked', () => {
    const tree = browserRecord({ tbt_ms: 61, cls: 0.05 }, { tbt_ms: 30, cls: 0.04 });
    const ref = browserRecord({ tbt_ms: 2 });
    const pairs: PairedBrowser = { ...IDENTICAL, tbt_ms: [70, 75, -12, 90, 66], cls: [0.05, 0.06, -0.01, 0.07, 0.05], main_thread_ms: [120, 130, 118, 125, 122], blocking_main_thread_ms: same(0) };
    const r = compareWithBrowser(tree, ref, policy, undefined, undefined, pairs);
    assert.deepEqual([row(r, 'tbt_ms').regression, row(r, 'tbt_ms').main_thread?.verdict], [true, 'grew']);
    assert.match(r.exceeded.find((e) => e.figure === 'tbt_ms')!.message, /its own scripts' main-thread time grew by at least \+118\.0 ms/);
    assert.deepEqual([row(r, 'cls').inconclusive, row(r, 'cls').main_thread], [true, undefined]);
  });

  it('ownMainThread and pairedMainThread: each copy\'s own scripts in its own folder, round by round; render-blocking ones apart', () => {
    const req = (url: string, render_blocking: boolean) => ({ url, type: 'script' as const, bytes: 1024, status: 200, render_blocking, start_ms: 0, response_ms: 1, end_ms: 2 });
    const load = (side: string, round: number, dir: string, head: number, foot: number): BrowserLoad => ({ side, round, fcp_ms: 100, lcp_ms: 100, load_ms: 200, end_ms: 1000, long_tasks: [], layout_shifts: [], blocked: [],
      requests: [req(`${dir}head.js?ver=1`, true), req(`${dir}foot.js`, false), req('/wp-includes/js/jquery.js', true)],
      scripts: [{ url: `${dir}head.js?ver=1`, main_thread_ms: head }, { url: `${dir}foot.js`, main_thread_ms: foot }, { url: '/wp-includes/js/jquery.js', main_thread_ms: 40 }] });
    const tree = '/wp-content/plugins/acme--wpbench-new/';
    const at = '/wp-content/plugins/acme--wpbench-ref/';
    assert.equal(ownMainThread(load('measured', 0, tree, 300, 20), [tree]), 320);
    assert.equal(ownMainThread(load('measured', 0, tree, 300, 20), [tree], new Set([`${tree}head.js`])), 300);
    assert.equal(ownMainThread(load('measured', 0, tree, 300, 20), [at]), 0, 'the other copy\'s folder');
    const loads = [load('measured', -1, tree, 900, 0), load('measured', 0, tree, 300, 20), load('ref', 0, at, 0.5, 20), load('measured', 1, tree, 302, 25), load('ref', 1, at, 1, 19), load('ref', 2, at, 1, 1), load('measured', 2, tree, 300, 20), load('ref', 3, at, 1, 1)];
    assert.deepEqual(pairedMainThread(loads, { side: 'measured', folders: [tree] }, { side: 'ref', folders: [at] }), [299.5, 307, 318]);
    assert.deepEqual(pairedMainThread(loads, { side: 'measured', folders: [tree] }, { side: 'ref', folders: [at] }, true), [299.5, 301, 299]);
    // A load in which Chromium judged the head script otherwise: still its render-blocking work (most loads say so).
    const once = loads.map((l) => (l.side === 'measured' && l.round === 1 ? { ...l, requests: l.requests.map((q) => ({ ...q, render_blocking: false })) } : l));
    assert.deepEqual(pairedMainThread(once, { side: 'measured', folders: [tree] }, { side: 'ref', folders: [at] }, true), [299.5, 301, 299]);
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
