// check --diff (src/core/report/diff.ts): what changed against the base, in the headline and the table.
import assert from 'node:assert/strict';
import type { LookupOutcome } from '../../../src/core/lookup/lookupService';
import { diffJudgements } from '../../../src/core/report/diff';
import { toTable } from '../../../src/core/report/formats';
import { judge, type JudgeConfig } from '../../../src/core/report/judge';
import { composerPlugin as comp, measured } from '../helpers/measured';

const CONFIG: JudgeConfig = { failOn: 'C', context: 'homepage', budgets: {}, ignore: [] };

describe('report: --diff counts in words', () => {
  it('the headline and the table lines say "+1 query"', () => {
    const outcomes = new Map<string, LookupOutcome>([
      ['plugin/base', measured('base', { ttfb_delta_ms: 10, memory_delta_kb: 1024, queries_delta: 4 })],
      ['plugin/one', measured('one', { ttfb_delta_ms: 5, memory_delta_kb: 3, queries_delta: 1 })],
    ]);
    const before = judge({ components: [comp('base')], outcomes, config: CONFIG });
    const after = judge({ components: [comp('base'), comp('one', 4)], outcomes, config: CONFIG });
    const d = diffJudgements('main', before, after);
    assert.match(d.headline, /\(\+3 KB memory, \+1 query; 1 component added/);
    const table = toTable(after, { diff: d });
    assert.match(table, /homepage: +\+5 ms TTFB, \+3 KB, \+1 query$/m);
    assert.doesNotMatch(table, /\b1 queries/);
    assert.match(diffJudgements('main', after, before).headline, /-1 query;/);
  });
});
