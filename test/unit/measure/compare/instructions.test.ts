// The instructions row of the regression check (src/core/measure/compare/instructions.ts): on recorded figures, a
// change fails when it adds more than 0.25 % of REF's request and more than the run's spread; never inconclusive; the
// TTFB row of a context judged on instructions can neither fail nor make the run inconclusive.
import * as assert from 'node:assert/strict';
import { compareRecords, confirmWhenUndecided } from '../../../../src/core/measure/compare/regression';
import { DEFAULT_INSTRUCTIONS_PERCENT, compareInstructions, instructionsAllowed, instructionsNoise, requestInstructions } from '../../../../src/core/measure/compare/instructions';
import { CLEAN_INSTRUCTIONS, localRecord, withInstructions } from '../../helpers/localRecords';

const policy = { maxRegressionPercent: 10, ceilings: {} };
/** REF adds 3 M instructions to the clean site's 290 M: REF's request is 293 M, 0.25 % of it 732,500. */
const REF_DELTA = 3_000_000;
const REF_REQUEST = CLEAN_INSTRUCTIONS + REF_DELTA;
const ref = withInstructions(localRecord('Acme', 10, 1024, 2), REF_DELTA);
/** The working tree adding `share` of REF's request over REF (0.006: +0.6 %), TTFB as given. */
const tree = (share: number, ttfb = 10, spread = 20_000) => withInstructions(localRecord('Acme', ttfb, 1024, 2), REF_DELTA + Math.round(REF_REQUEST * share), spread);
const row = (r: ReturnType<typeof compareRecords>, ctx: string, metric: string) => r.rows.find((m) => m.context === ctx && m.metric === metric)!;

describe('measure --baseline-ref --instructions: the threshold', () => {
  it('the request count is the clean median + the delta; the noise the larger spread of the two records', () => {
    assert.equal(requestInstructions(ref, 'homepage'), REF_REQUEST);
    assert.equal(requestInstructions(localRecord('Acme', 10, 1024, 2), 'homepage'), null, 'a record without counts');
    assert.equal(instructionsNoise(tree(0, 10, 50_000), ref, 'homepage'), 50_000);
    assert.equal(DEFAULT_INSTRUCTIONS_PERCENT, 0.25);
    assert.equal(instructionsAllowed(REF_REQUEST, 0.5, 20_000), 1_465_000, '0.5 % of the request');
    assert.equal(instructionsAllowed(REF_REQUEST, 0.5, 2_000_000), 2_000_000, 'never under the run\'s spread');
  });

  it('+0.6 % of REF\'s request: an instructions regression, the run fails (exit 1 material)', () => {
    const r = compareRecords(tree(0.006), ref, policy);
    const m = row(r, 'homepage', 'instructions');
    assert.deepEqual([m.baseline, m.current, m.difference, m.percent, m.allowed, m.noise, m.regression], [293_000_000, 294_758_000, 1_758_000, 0.6, 732_500, 20_000, true]);
    assert.deepEqual(r.exceeded.map((e) => `${e.rule}:${e.context}:${e.metric}`), ['regression:activation:instructions', 'regression:homepage:instructions', 'regression:admin:instructions']);
    assert.deepEqual(r.inconclusive, []);
    assert.match(r.exceeded[1].message, /^homepage instructions: \+1\.76 M instr per request over the baseline \(293 M instr → 295 M instr, \+0\.6 %\), more than the 733 K instr allowed \(0\.25 % of the baseline's request/);
    assert.deepEqual(r.judgedOnInstructions, ['activation', 'homepage', 'admin']);
  });

  it('+0.1 % outside the spread: a difference, not a regression', () => {
    const r = compareRecords(tree(0.001), ref, policy);
    const m = row(r, 'homepage', 'instructions');
    assert.equal(m.difference, 293_000);
    assert.ok(m.difference! > m.noise!, 'outside the spread');
    assert.equal(m.regression, false);
    assert.deepEqual(r.exceeded, []);
  });

  it('more than 0.5 % but within the run\'s spread: noise, never a failure', () => {
    const r = compareRecords(tree(0.006, 10, 2_000_000), ref, policy);
    assert.equal(row(r, 'homepage', 'instructions').allowed, 2_000_000);
    assert.deepEqual(r.exceeded, []);
  });

  it('measure.instructions overrides the 0.5 %', () => {
    assert.equal(compareRecords(tree(0.006), ref, { ...policy, instructionsPercent: 1 }).exceeded.length, 0);
    assert.equal(compareRecords(tree(0.001), ref, { ...policy, instructionsPercent: 0.05 }).exceeded.length, 3);
    assert.equal(compareInstructions(tree(0.006), ref, 'homepage', 1)!.allowed, 2_930_000);
  });

  it('an improvement never fails', () => {
    assert.deepEqual(compareRecords(tree(-0.05), ref, policy).exceeded, []);
  });
});

describe('measure --baseline-ref --instructions: TTFB shown, not judged', () => {
  it('a TTFB the paired rounds call a regression (and a TTFB ceiling exceeded) fails nothing where instructions judge', () => {
    const clear = { activation: [31, 22, 27, 19, 40], homepage: [31, 22, 27, 19, 40], admin: [31, 22, 27, 19, 40] };
    const without = compareRecords(localRecord('Acme', 35, 1024, 2), localRecord('Acme', 10, 1024, 2), { ...policy, ceilings: { homepage: { ttfbMs: 20 } } }, clear);
    assert.ok(without.exceeded.some((e) => e.metric === 'ttfbMs'), 'without counts TTFB fails');
    const r = compareRecords(tree(0, 35), ref, { ...policy, ceilings: { homepage: { ttfbMs: 20 } } }, clear);
    assert.deepEqual(r.exceeded, []);
    const t = row(r, 'homepage', 'ttfbMs');
    assert.equal(t.judged, false);
    assert.equal(t.regression, false);
    assert.equal(t.overCeiling, false);
    assert.equal(t.difference, 25, 'still shown');
  });

  it('a TTFB the busy machine left inconclusive is not inconclusive: no exit 3, no confirmation pass', () => {
    const noisy = { activation: [-30, 20, 8, 9, 7], homepage: [-30, 20, 8, 9, 7], admin: [-30, 20, 8, 9, 7] };
    const without = compareRecords(localRecord('Acme', 16, 1024, 2), localRecord('Acme', 10, 1024, 2), policy, noisy);
    assert.equal(without.inconclusive.length, 3, 'without counts: inconclusive');
    const r = compareRecords(tree(0.001, 16), ref, policy, noisy);
    assert.deepEqual(r.inconclusive, []);
    assert.deepEqual(r.exceeded, []);
    assert.equal(confirmWhenUndecided(policy)(tree(0.001, 16), ref, noisy), false);
    // Fewer pairs than a 95 % bound needs: inconclusive without counts, not judged with them.
    assert.deepEqual(compareRecords(tree(0, 16), ref, policy, { activation: [-30, 20, 8], homepage: [0, 9, 8], admin: [7, 8, 9] }).inconclusive, []);
  });

  it('memory and queries are judged as always', () => {
    const heavier = withInstructions(localRecord('Acme', 10, 5000, 6), REF_DELTA);
    const r = compareRecords(heavier, ref, policy);
    assert.deepEqual(r.exceeded.map((e) => `${e.context} ${e.metric}`), ['activation memoryMb', 'activation queries', 'homepage memoryMb', 'homepage queries', 'admin memoryMb', 'admin queries']);
  });

  it('only where both records counted: a context without counts keeps TTFB as its judge', () => {
    const partial = tree(0.006, 35);
    delete partial.contexts.admin!.instructions_delta;
    const clear = { activation: [31, 22, 27, 19, 40], homepage: [31, 22, 27, 19, 40], admin: [31, 22, 27, 19, 40] };
    const r = compareRecords(partial, ref, policy, clear);
    assert.deepEqual(r.judgedOnInstructions, ['activation', 'homepage']);
    assert.deepEqual(r.exceeded.map((e) => `${e.context} ${e.metric}`), ['activation instructions', 'homepage instructions', 'admin ttfbMs']);
    assert.equal(row(r, 'admin', 'instructions'), undefined);
  });

  it('records without counts: the same rows as before, no instructions row, nothing judged on them', () => {
    const r = compareRecords(localRecord('Acme', 30, 3072, 5), localRecord('Acme', 10, 1024, 2), policy);
    assert.equal(r.rows.length, 9);
    assert.ok(r.rows.every((m) => m.metric !== 'instructions' && m.judged === undefined));
    assert.deepEqual(r.judgedOnInstructions, []);
  });
});
