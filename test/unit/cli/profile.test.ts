// What `measure --profile` prints: the component's top functions per context, where they are defined, their queries
// and hooks; a context not measured or with nothing seen says so.
import * as assert from 'node:assert/strict';
import type { LocalRecord } from '../../../src/core/measure/record/method';
import { profileLines } from '../../../src/cli/profile';

const f = (name: string, ms: number, queries = 0, hooks: string[] = [], self = ms) => ({ function: name, file: 'inc/a.php', line: 7, ms, self_ms: self, queries, hooks });

describe('measure --profile: the table', () => {
  it('top functions per context, slowest first as recorded; more in --json; not measured and nothing seen said', () => {
    const r = {
      profile: {
        profiler: 'excimer 1.0.4',
        period_ms: 1,
        rounds: 9,
        contexts: {
          activation: null,
          homepage: { functions: [f('Acme::render', 30.44, 4, ['template_redirect'], 1), f('acme_json', 25, 0, [], 22), f('acme_one', 1, 1), ...Array.from({ length: 5 }, (_, i) => f(`x${i}`, 0.5, 0, [], 0.2)), f('acme_icons', 0.4, 0, [], 0.4)], sampled_ms: 80, component_ms: 31 },
          admin: { functions: [], sampled_ms: 60, component_ms: 0 },
        },
      },
    } as unknown as LocalRecord;
    const lines = profileLines(r);
    assert.match(lines[0], /^Where the time goes \(excimer 1\.0\.4, every 1 ms, 9 profiled requests per context/);
    assert.ok(lines.includes('  activation: not measured'));
    assert.ok(lines.includes('  homepage: the component\'s functions on the stack 31.0 ms of 80.0 ms sampled'));
    assert.ok(lines.includes('     30.4 ms  Acme::render (inc/a.php:7) (own 1.0 ms) · 4 queries · on template_redirect'), lines.join('\n'));
    assert.ok(lines.includes('      1.0 ms  acme_one (inc/a.php:7) · 1 query'));
    assert.ok(lines.includes('     25.0 ms  acme_json (inc/a.php:7) (own 22.0 ms)'), 'second by inclusive time');
    assert.ok(!lines.includes('    most time of their own:'), 'every function with its own time over 0.5 ms is listed already');
    assert.ok(lines.includes('    … 4 more in --json'), lines.join('\n'));
    assert.match(lines.find((l) => l.startsWith('  admin'))!, /none of the component's functions was seen/);
    assert.deepEqual(profileLines({} as LocalRecord), [], 'no profile, no lines');
    // A function outside the top five by inclusive time but with the most time of its own is added below them.
    const chain = structuredClone(r);
    chain.profile!.contexts.homepage!.functions = [f('a', 12, 0, [], 0), f('b', 12, 0, [], 0), f('c', 12, 0, [], 0), f('d', 12, 0, [], 0), f('e', 12, 0, [], 0), f('fetch_svg_icon', 7, 0, [], 7)];
    const withOwn = profileLines(chain);
    const at = withOwn.indexOf('    most time of their own:');
    assert.ok(at > 0, withOwn.join('\n'));
    assert.equal(withOwn[at + 1], '      7.0 ms  fetch_svg_icon (inc/a.php:7)');
  });
});

describe('measure --profile --instructions: the table', () => {
  it('the same lines in instructions: inclusive and own counts per request, "counted", the own threshold at 0.5 % of the request', () => {
    const r = {
      profile: {
        profiler: 'callgrind (valgrind), the component\'s PHP functions by the wpbcg extension',
        unit: 'instructions',
        period_ms: 0,
        rounds: 1,
        contexts: {
          activation: null,
          homepage: { functions: [f('Acme::render', 4_630_000, 2, ['init'], 1_020_000), f('acme_small', 250_000, 0, [], 249_000)], sampled_ms: 41_200_000, component_ms: 4_880_000 },
          admin: { functions: [], sampled_ms: 52_000_000, component_ms: 0 },
        },
      },
    } as unknown as LocalRecord;
    const lines = profileLines(r);
    assert.match(lines[0], /^Where the instructions go \(callgrind .*, 1 counted request per context after a warm-up; inclusive CPU instructions per request/);
    assert.ok(lines.includes("  homepage: the component's functions on the stack 4.88 M instr of 41.2 M instr counted"), lines.join('\n'));
    assert.ok(lines.includes('     4.63 M instr  Acme::render (inc/a.php:7) (own 1.02 M instr) · 2 queries · on init'), lines.join('\n'));
    // 1,000 instructions apart is under 0.5 % of the request: no "own".
    assert.ok(lines.includes('      250 K instr  acme_small (inc/a.php:7)'), lines.join('\n'));
    assert.match(lines.find((l) => l.startsWith('  admin'))!, /none of the component's functions ran/);
  });
});
