// The regression reports with instructions rows (src/core/report/regressionInstructions.ts, regressionFormats.ts):
// table, Markdown (the job summary), HTML, JSON and SARIF on recorded figures; and, for records without counts, every
// format byte for byte as before.
import * as assert from 'node:assert/strict';
import { regressionHtml, regressionJson, regressionMarkdown, regressionSarif, regressionTable, verdict } from '../../../src/core/report/regressionFormats';
import { beforeInstructions, CLEAN_INSTRUCTIONS, localRecord, regressionSubject, WITHOUT_INSTRUCTIONS_PAIRS, withInstructions } from '../helpers/localRecords';

const REF_DELTA = 3_000_000;
const REF_REQUEST = CLEAN_INSTRUCTIONS + REF_DELTA;
const ref = withInstructions(localRecord('Acme', 10, 1024, 2), REF_DELTA);
const tree = (share: number, ttfb = 10) => withInstructions(localRecord('Acme', ttfb, 1024, 2), REF_DELTA + Math.round(REF_REQUEST * share));
const line = (text: string, ctx: string, metric: string) => text.split('\n').find((l) => new RegExp(`^\\|? ?${ctx} +\\|? ?${metric} `).test(l)) ?? '';

describe('regression reports: instructions rows', () => {
  it('+0.6 %: REGRESSION in every format; FAILED, judged on instructions', () => {
    const s = regressionSubject(tree(0.006), ref);
    const table = regressionTable(s);
    assert.match(line(table, 'homepage', 'instructions'), /^homepage +instructions +293 M instr +295 M instr +\+1\.76 M instr \(\+0\.6 %\) +\+733 K instr +REGRESSION$/);
    assert.match(table, /^Exceeded: homepage instructions: \+1\.76 M instr per request over the baseline/m);
    assert.match(table, /^FAILED: 3 budgets exceeded\. Judged on instructions \(exact\), memory and queries; TTFB shown, not judged\.$/m);
    assert.match(table, /^Instructions: .*a change fails when it adds more than 0\.25 % of the baseline's request and more than the run's spread; never inconclusive\.$/m);
    const md = regressionMarkdown(s);
    assert.match(md, /❌ performance regression/);
    assert.match(md, /^\| homepage \| instructions \| 293 M instr \| 295 M instr \| \\\+1\.76 M instr \(\+0\.6 %\) \| \\\+733 K instr \| ❌ REGRESSION \|$/m);
    assert.match(regressionHtml(s), /<td>homepage<\/td><td>instructions<\/td>.*<td class="bad">REGRESSION<\/td>/);
    const j = JSON.parse(regressionJson(s));
    assert.equal(j.passed, false);
    assert.equal(j.instructionsPercent, 0.25);
    assert.deepEqual(j.judgedOnInstructions, ['activation', 'homepage', 'admin']);
    assert.deepEqual(j.comparison.find((m: { context: string; metric: string }) => m.context === 'homepage' && m.metric === 'instructions').current, 294_758_000, 'exact integers in JSON');
    const sarif = JSON.parse(regressionSarif(s, '0.1.0'));
    const run = sarif.runs[0];
    assert.deepEqual(run.results.map((r: { ruleId: string; ruleIndex: number }) => `${r.ruleId}:${r.ruleIndex}`), ['instructions-regression:4', 'instructions-regression:4', 'instructions-regression:4']);
    assert.equal(run.tool.driver.rules[4].id, 'instructions-regression');
    assert.equal(run.properties.passed, false);
    assert.deepEqual(run.properties.instructions[1], { context: 'homepage', baseline: 293_000_000, current: 294_758_000, difference: 1_758_000, percent: 0.6, noise: 20_000, allowed: 732_500, regression: true });
  });

  it('+0.1 % outside the spread: shown as a difference, ok, PASSED', () => {
    const s = regressionSubject(tree(0.001), ref);
    const table = regressionTable(s);
    assert.match(line(table, 'homepage', 'instructions'), / \+293 K instr \(\+0\.1 %\) +\+733 K instr +ok$/);
    assert.match(verdict(s), /^PASSED: no regression over 10 % \(instructions: 0\.25 % of the baseline's request, beyond the run's spread\) and no ceiling exceeded\. Judged on instructions/);
    assert.match(regressionMarkdown(s), /✅ no performance regression/);
    assert.equal(JSON.parse(regressionJson(s)).passed, true);
    const sarif = JSON.parse(regressionSarif(s)).runs[0];
    assert.deepEqual(sarif.results, []);
    assert.equal(sarif.properties.instructions.length, 3, 'a passing run says its instructions rows too');
  });

  it('inside the spread: "ok (within noise)"', () => {
    const s = regressionSubject(withInstructions(localRecord('Acme', 10, 1024, 2), REF_DELTA + 15_000), ref);
    assert.match(line(regressionTable(s), 'homepage', 'instructions'), / \+15\.0 K instr \(\+0\.01 %\) +\+733 K instr +ok \(within noise\)$/);
    assert.match(regressionMarkdown(s), /✅ ok \(within noise\) \|$/m);
  });

  it('TTFB failing or inconclusive on time: "not judged" in every format, no exit 1 or 3 material', () => {
    const noisy = { activation: [-30, 20, 8, 9, 7], homepage: [31, 22, 27, 19, 40], admin: [-30, 20, 8, 9, 7] };
    const s = regressionSubject(tree(0.001, 35), ref, { maxRegressionPercent: 10, ceilings: { homepage: { ttfbMs: 20 } } }, noisy);
    assert.deepEqual(s.report.exceeded, []);
    assert.deepEqual(s.report.inconclusive, []);
    const table = regressionTable(s);
    assert.match(line(table, 'activation', 'TTFB'), /not judged \(instructions decide this context\)$/);
    assert.match(line(table, 'homepage', 'TTFB'), /not judged \(instructions decide this context\); over its ceiling 20\.0 ms$/);
    assert.doesNotMatch(table, /INCONCLUSIVE|Inconclusive:|REGRESSION|FAILED/);
    assert.match(regressionMarkdown(s), /^\| activation \| TTFB \|.*\| ➖ not judged \(instructions decide this context\) \|$/m);
    assert.match(regressionHtml(s), /<td class="note">not judged/);
    const j = JSON.parse(regressionJson(s));
    assert.equal(j.passed, true);
    assert.equal(j.comparison.find((m: { context: string; metric: string }) => m.context === 'homepage' && m.metric === 'ttfbMs').judged, false);
  });

  it('fewer instructions than at REF, beyond the spread: said in the "Saved" line', () => {
    const s = regressionSubject(withInstructions(localRecord('Acme', 10, 824, 2), 1_800_000), ref);
    assert.match(regressionTable(s), /^Saved against main \(aaaaaaaaaaaa\), per request: activation −200 KB, −1\.20 M instr; homepage/m);
  });

  it('an identical copy\'s few thousand fewer instructions (REF\'s longer folder name) are no "Saved" line: 0.1 % of the request first', () => {
    // REF adds 3 M to the clean site's 290 M; the working tree 10,000 fewer (0.003 %), beyond a 2,000 spread.
    assert.doesNotMatch(regressionTable(regressionSubject(withInstructions(localRecord('Acme', 10, 1024, 2), 2_990_000, 2_000), withInstructions(localRecord('Acme', 10, 1024, 2), 3_000_000, 2_000))), /Saved/);
    assert.match(regressionTable(regressionSubject(withInstructions(localRecord('Acme', 10, 1024, 2), 2_500_000, 2_000), withInstructions(localRecord('Acme', 10, 1024, 2), 3_000_000, 2_000))), /^Saved against .*−500 K instr/m);
  });

  it('some contexts counted: the verdict names them', () => {
    const partial = tree(0.001);
    delete partial.contexts.admin!.instructions_delta;
    assert.match(verdict(regressionSubject(partial, ref)), /activation, homepage: judged on instructions \(exact\), memory and queries; TTFB shown there, not judged\.$/);
  });
});

describe('regression reports without instructions: byte for byte as before', () => {
  const before = beforeInstructions();
  const failing = () => regressionSubject(localRecord('Acme', 16, 3072, 5, 'fatal'), localRecord('Acme', 10, 1024, 2), { maxRegressionPercent: 10, ceilings: { homepage: { queries: 4 } } }, WITHOUT_INSTRUCTIONS_PAIRS);
  const passing = () => regressionSubject(localRecord('Acme', 10, 1024, 2), localRecord('Acme', 10, 1024, 2));
  it('table, Markdown, HTML, JSON and SARIF of a failing, inconclusive run', () => {
    const s = failing();
    assert.equal(regressionTable(s), before.regressionTable);
    assert.equal(regressionMarkdown(s), before.regressionMarkdown);
    assert.equal(regressionHtml(s), before.regressionHtml);
    assert.equal(regressionJson(s), before.regressionJson);
    assert.equal(regressionSarif(s, '0.1.0'), before.regressionSarif);
  });
  it('a passing run; no "instr" in any format', () => {
    const s = passing();
    assert.equal(regressionTable(s), before.passedTable);
    assert.equal(regressionMarkdown(s), before.passedMarkdown);
    for (const text of [regressionTable(s), regressionMarkdown(s), regressionHtml(s), regressionJson(s), regressionSarif(s)]) assert.doesNotMatch(text, /instr/i);
  });
});
