// --baseline-ref --profile: the change of each of the component's functions, matched by name and file.
import * as assert from 'node:assert/strict';
import { changeWords, growth, profileDiff } from '../../../../src/core/measure/profile/diff';
import type { LocalProfile } from '../../../../src/core/measure/profile/types';

const fn = (name: string, file: string, line: number, ms: number, queries = 0, hooks: string[] = []) => ({ function: name, file, line, ms, self_ms: ms, queries, hooks });
const prof = (homepage: ReturnType<typeof fn>[] | null): LocalProfile => ({
  profiler: 'excimer 1.0.4',
  period_ms: 1,
  rounds: 9,
  contexts: { activation: { functions: [], sampled_ms: 40, component_ms: 0 }, homepage: homepage && { functions: homepage, sampled_ms: 80, component_ms: 30 }, admin: null },
});

describe('measure --baseline-ref --profile: the profile diff', () => {
  it('matches by name and file (a moved line still matches), largest change first; new and gone functions count from zero', () => {
    const current = prof([fn('Acme_Loader::boot', 'inc/loader.php', 44, 30.2, 3, ['init']), fn('acme_new', 'acme.php', 9, 2), fn('acme_same', 'acme.php', 20, 5, 1)]);
    const baseline = prof([fn('Acme_Loader::boot', 'inc/loader.php', 42, 12, 1, ['init']), fn('acme_same', 'acme.php', 20, 5.1, 1), fn('acme_gone', 'acme.php', 30, 4)]);
    const d = profileDiff(current, baseline);
    assert.equal(d.contexts.admin, null, 'not measured on one side: null');
    assert.deepEqual(d.contexts.activation, []);
    const h = d.contexts.homepage!;
    assert.deepEqual(h.map((c) => [c.function, c.ms_difference, c.queries_difference]), [
      ['Acme_Loader::boot', 18.2, 2],
      ['acme_gone', -4, 0],
      ['acme_new', 2, 0],
      ['acme_same', -0.1, 0],
    ]);
    assert.equal(h[0].line, 44, "the working tree's line");
    assert.deepEqual(changeWords(h[0]), { amount: '+18.2 ms, +2 queries', where: 'inc/loader.php:44, on init' });
    assert.deepEqual(growth(d, 'homepage').map((c) => c.function), ['Acme_Loader::boot', 'acme_new'], 'only growth of 1 ms or a query');
    assert.deepEqual(growth(d, 'admin'), []);
  });
});
