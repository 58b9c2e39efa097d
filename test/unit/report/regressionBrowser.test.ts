// The regression reports with browser rows (`measure --baseline-ref REF --browser`; src/core/report/regressionBrowser.ts
// in regressionFormats.ts): the table, Markdown (the job summary), HTML, JSON and SARIF each show the browser rows and
// what they exceeded, the verdict says browser figures the noise left undecided, and hostile strings are escaped.
import * as assert from 'node:assert/strict';
import { regressionHtml, regressionJson, regressionMarkdown, regressionSarif, regressionTable, verdict, type RegressionSubject } from '../../../src/core/report/regressionFormats';
import { compareWithBrowser } from '../../../src/core/measure/compare/browser';
import type { RegressionPolicy } from '../../../src/core/measure/compare/regression';
import type { PairedBrowser } from '../../../src/core/measure/browser/paired';
import { withBrowser } from '../../../src/core/measure/browser/figures';
import type { LocalRecord } from '../../../src/core/measure/record/method';
import { browserRecord } from '../helpers/browserRecords';
import { localRecord } from '../helpers/localRecords';

const same = (x: number) => [x, x, x, x, x];
const IDENTICAL: PairedBrowser = { bytes_kb: same(0), requests: same(0), render_blocking: same(0), fcp_ms: [3.1, -5.2, 2, -1.4, 4.4], lcp_ms: [2.9, -6, 1.2, -0.8, 5], tbt_ms: same(0), cls: same(0) };
const HEAVIER: PairedBrowser = { ...IDENTICAL, bytes_kb: same(100.4), requests: same(1), render_blocking: same(1), fcp_ms: [150, 171, 160, 155, 166], lcp_ms: [149, 170, 158, 150, 162] };
const policy: RegressionPolicy = { maxRegressionPercent: 10, ceilings: {} };
const serverPairs = { activation: same(0), homepage: same(0), admin: same(0) };

function subject(current: LocalRecord, baseline: LocalRecord, paired: PairedBrowser, p: RegressionPolicy = policy): RegressionSubject {
  return { ref: 'main', commit: 'a'.repeat(40), current, baseline, report: compareWithBrowser(current, baseline, p, serverPairs, undefined, paired), mainFile: 'acme/acme.php' };
}
const tree = () => browserRecord({ bytes_kb: 112.7, requests: 2, render_blocking: 1, fcp_ms: 161.3, lcp_ms: 158 });
const ref = () => browserRecord({ bytes_kb: 12.3, requests: 1, fcp_ms: 1.2, lcp_ms: 0.5 });
const line = (text: string, figure: string) => text.split('\n').find((l) => new RegExp(`^\\|? ?${figure} +\\|? ?[0-9−]`).test(l)) ?? '';

describe('regression reports: browser rows', () => {
  it('+100 KB of render-blocking head script: REGRESSION rows and exceeded lines in every format; exit-1 material', () => {
    const s = subject(tree(), ref(), HEAVIER);
    const table = regressionTable(s);
    assert.match(table, /^In the browser \(homepage; Chromium 140\.0\.1, desktop \(10,240 kb\/s, 40 ms RTT\), 5 loads a side\): /m);
    assert.match(line(table, 'bytes'), /^bytes +12\.3 KB +112\.7 KB +\+100\.4 KB \(\+816\.3 %\) +\+1\.2 KB +REGRESSION$/);
    assert.match(line(table, 'FCP'), /^FCP +1\.2 ms +161\.3 ms +\+160\.1 ms +\+50\.0 ms +REGRESSION$/);
    assert.match(line(table, 'TBT'), /^TBT +0\.0 ms +0\.0 ms +±0\.0 ms +\+50\.0 ms +ok$/);
    assert.match(table, /^Exceeded: homepage FCP \(browser\): \+160\.1 ms over the baseline/m);
    assert.match(table, /^Browser figures: what the component adds to the homepage/m);
    assert.match(verdict(s), /^FAILED: 5 budgets exceeded\.$/);
    const md = regressionMarkdown(s);
    assert.match(md, /❌ performance regression/);
    assert.match(md, /^\| Figure \| Baseline \| Current \| Difference \| Allowed \| Result \|$/m);
    assert.match(md, /^\| FCP \| 1\\\.2 ms \| 161\\\.3 ms \| \\\+160\.1 ms \| \\\+50\.0 ms \| ❌ REGRESSION \|$/m);
    assert.match(md, /^- homepage render-blocking requests \(browser\): \+1 over the baseline/m);
    assert.match(regressionHtml(s), /<tr><td>FCP<\/td><td>1\.2 ms<\/td><td>161\.3 ms<\/td>.*<td class="bad">REGRESSION<\/td><\/tr>/);
    const j = JSON.parse(regressionJson(s));
    assert.equal(j.passed, false);
    assert.equal(j.browser.rows.length, 7);
    assert.deepEqual(j.exceeded.filter((e: { figure?: string }) => e.figure).map((e: { figure: string }) => e.figure), ['bytes_kb', 'requests', 'render_blocking', 'fcp_ms', 'lcp_ms']);
    const run = JSON.parse(regressionSarif(s, '0.1.0')).runs[0];
    const rules = run.tool.driver.rules.map((r: { id: string }) => r.id);
    assert.deepEqual(rules.slice(-2), ['browser-regression', 'browser-budget-exceeded']);
    assert.deepEqual([...new Set(run.results.map((r: { ruleId: string; ruleIndex: number }) => `${r.ruleId}:${rules[r.ruleIndex]}`))], ['browser-regression:browser-regression']);
    assert.equal(run.results[3].partialFingerprints['wpBench/v1'], 'browser-regression/plugin/acme-plugin/homepage/fcp_ms');
    assert.equal(run.properties.browser.find((r: { figure: string }) => r.figure === 'fcp_ms').regression, true);
  });

  it('an identical copy: every browser row ok, PASSED, no SARIF result', () => {
    const s = subject(ref(), ref(), IDENTICAL);
    assert.match(verdict(s), /^PASSED: /);
    assert.match(line(regressionTable(s), 'LCP'), / ok$/);
    assert.match(regressionMarkdown(s), /✅ no performance regression/);
    assert.equal(JSON.parse(regressionJson(s)).passed, true);
    assert.deepEqual(JSON.parse(regressionSarif(s)).runs[0].results, []);
  });

  it('a time figure the noise cannot decide: INCONCLUSIVE in every format, not passed', () => {
    const s = subject(browserRecord({ tbt_ms: 61 }, { tbt_ms: 30 }), browserRecord({ tbt_ms: 2 }), { ...IDENTICAL, tbt_ms: [70, 75, -12, 90, 66] });
    assert.equal(verdict(s), "INCONCLUSIVE: 1 browser figure too close to the threshold for this run's noise (no budget exceeded).");
    const table = regressionTable(s);
    assert.match(line(table, 'TBT'), / INCONCLUSIVE \(noise\)$/);
    assert.match(table, /^Inconclusive: homepage TBT \(browser\): load by load \+70\.0 ms \(median of 5 paired loads\) is over the 50\.0 ms allowed, but its 95 % lower bound −12\.0 ms is not\.$/m);
    const md = regressionMarkdown(s);
    assert.match(md, /⚠️ inconclusive/);
    assert.match(md, /\| ⚠️ INCONCLUSIVE \(noise\) \|$/m);
    const j = JSON.parse(regressionJson(s));
    assert.equal(j.passed, false);
    assert.deepEqual(j.browser.inconclusive, ['tbt_ms']);
    assert.equal(JSON.parse(regressionSarif(s)).runs[0].properties.browser.find((r: { figure: string }) => r.figure === 'tbt_ms').inconclusive, true);
  });

  it('judged after a confirmation pass: said in the title, JSON counts its loads, the verdict says it did not decide', () => {
    const confirmed = (r: LocalRecord): LocalRecord => ({ ...r, local: { ...r.local, browser: { ...(r.local.browser as object), rounds: 10, confirmation_rounds: 5 } as LocalRecord['local']['browser'] } });
    const ten = (xs: number[]) => [...xs, ...xs];
    const pairs = Object.fromEntries(Object.entries(IDENTICAL).map(([k, v]) => [k, ten(v!)])) as PairedBrowser;
    const s = subject(confirmed(browserRecord({ tbt_ms: 61 }, { tbt_ms: 30 })), browserRecord({ tbt_ms: 2 }), { ...pairs, tbt_ms: ten([70, 75, -12, 90, 66]) });
    assert.match(regressionTable(s), /^In the browser \(homepage; Chromium 140\.0\.1, desktop \(10,240 kb\/s, 40 ms RTT\), 10 loads a side \(5 of them a confirmation pass\)\): /m);
    assert.match(regressionMarkdown(s), /10 loads a side \(5 of them a confirmation pass\)/);
    assert.equal(verdict(s), "INCONCLUSIVE: 1 browser figure too close to the threshold for this run's noise, even after a confirmation pass (no budget exceeded).");
    const j = JSON.parse(regressionJson(s));
    assert.equal(j.browser.confirmation_rounds, 5);
    assert.equal(JSON.parse(regressionJson(subject(ref(), ref(), IDENTICAL))).browser.confirmation_rounds, undefined, 'none without one');
  });

  it('a browser budget exceeded: "over budget" in the rows, the exceeded line, SARIF\'s browser-budget-exceeded', () => {
    const t = browserRecord({ lcp_ms: 250 });
    const s = subject(t, t, IDENTICAL, { ...policy, browser: { lcp_ms: 200 } });
    assert.match(line(regressionTable(s), 'LCP'), / ok, over budget 200\.0 ms$/);
    assert.match(regressionTable(s), /^Exceeded: homepage LCP \(browser\): the component adds 250\.0 ms, over the budget of 200\.0 ms \(measure\.browser\.lcp_ms\)\.$/m);
    assert.match(regressionMarkdown(s), /\| ❌ ok, over budget 200\.0 ms \|$/m);
    const run = JSON.parse(regressionSarif(s)).runs[0];
    assert.deepEqual(run.results.map((r: { ruleId: string }) => r.ruleId), ['browser-budget-exceeded']);
    assert.equal(run.tool.driver.rules[run.results[0].ruleIndex].id, 'browser-budget-exceeded');
  });

  it('hostile strings (a browser failure\'s message, a Chromium version) are escaped for each place', () => {
    const hostile = 'boom <img src=x onerror=alert(1)> | [x](javascript:1) @admin\u001b[31m';
    const gone = withBrowser(localRecord('Acme', 10, 1024, 2, 'ok', 5), { unavailable: `the browser failed (${hostile})` });
    const s = subject(gone, gone, {});
    const table = regressionTable(s);
    assert.match(table, /^In the browser: not measured \(the browser failed \(boom <img src=x onerror=alert\(1\)> \| \[x\]\(javascript:1\) @admin \[31m\)\); judged on the server alone\.$/m);
    assert.doesNotMatch(table, /\u001b/);
    const md = regressionMarkdown(s);
    assert.match(md, /\\<img src=x onerror=alert\(1\)\\> \\\| \\\[x\\\]\(javascript:1\)/);
    assert.doesNotMatch(md, /[^\\]<img/);
    const html = regressionHtml(s);
    assert.match(html, /&#60;img src=x onerror=alert\(1\)&#62;/);
    assert.doesNotMatch(html, /<img/);
    assert.equal(JSON.parse(regressionSarif(s)).runs[0].properties.browserUnavailable, `the browser failed (${hostile})`);
    const v = browserRecord({ fcp_ms: 1 });
    (v.local.browser as { chromium: string }).chromium = '<script>alert(1)</script>';
    const h = regressionHtml(subject(v, v, IDENTICAL));
    assert.doesNotMatch(h, /<script>/);
    assert.match(regressionMarkdown(subject(v, v, IDENTICAL)), /Chromium \\<script\\>alert\(1\)\\<\/script\\>/);
  });

  it('a report without browser figures has no browser block in any format', () => {
    const plain = localRecord('Acme', 10, 1024, 2);
    const s = subject(plain, plain, {});
    for (const text of [regressionTable(s), regressionMarkdown(s), regressionHtml(s), regressionJson(s), regressionSarif(s)]) assert.doesNotMatch(text, /browser/i);
  });
});
