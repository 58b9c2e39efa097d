// What `measure --profile` prints: the component's top functions per context, where they are defined, their queries
// and hooks; a context not measured or with nothing seen says so.
import * as assert from 'node:assert/strict';
import type { LocalRecord } from '../../../src/core/measure/method';
import { profileLines } from '../../../src/cli/profile';

const f = (name: string, ms: number, queries = 0, hooks: string[] = []) => ({ function: name, file: 'inc/a.php', line: 7, ms, queries, hooks });

describe('measure --profile: the table', () => {
  it('top functions per context, slowest first as recorded; more in --json; not measured and nothing seen said', () => {
    const r = {
      profile: {
        profiler: 'excimer 1.0.4',
        period_ms: 1,
        rounds: 9,
        contexts: {
          activation: null,
          homepage: { functions: [f('Acme::render', 30.44, 4, ['template_redirect']), f('acme_one', 1, 1), ...Array.from({ length: 5 }, (_, i) => f(`x${i}`, 0.5))], sampled_ms: 80, component_ms: 31 },
          admin: { functions: [], sampled_ms: 60, component_ms: 0 },
        },
      },
    } as unknown as LocalRecord;
    const lines = profileLines(r);
    assert.match(lines[0], /^Where the time goes \(excimer 1\.0\.4, every 1 ms, 9 profiled requests per context/);
    assert.ok(lines.includes('  activation: not measured'));
    assert.ok(lines.includes('  homepage: the component\'s functions on the stack 31.0 ms of 80.0 ms sampled'));
    assert.ok(lines.includes('     30.4 ms  Acme::render (inc/a.php:7) · 4 queries · on template_redirect'), lines.join('\n'));
    assert.ok(lines.includes('      1.0 ms  acme_one (inc/a.php:7) · 1 query'));
    assert.ok(lines.includes('    … 2 more in --json'));
    assert.match(lines.find((l) => l.startsWith('  admin'))!, /none of the component's functions was seen/);
    assert.deepEqual(profileLines({} as LocalRecord), [], 'no profile, no lines');
  });
});
