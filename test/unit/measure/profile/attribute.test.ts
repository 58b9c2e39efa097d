import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { attributeProfiles, toCollapsed, toSpeedscope } from '../../../../src/core/measure/profile/attribute';
import { parseProfile } from '../../../../src/core/measure/profile/read';
import type { RequestProfile } from '../../../../src/core/measure/profile/types';

const FIX = path.resolve(__dirname, '..', '../../fixtures/profile');
const load = (name: string): RequestProfile => parseProfile(readFileSync(path.join(FIX, name), 'utf8'));

describe('profile attribution (synthetic profiles)', () => {
  const two = () => [load('synthetic-1.profile.json'), load('synthetic-2.profile.json')];

  it('lists only the component’s functions, inclusive, per request, sorted by time', () => {
    const r = attributeProfiles(two());
    assert.equal(r.requests, 2);
    assert.deepEqual(r.functions, [
      // (10 + 6 + 4 + 2 + 8) samples of 1 ms over 2 requests; its queries: (3 + 2 + 3) / 2
      // own time (self_ms): the samples where it is the innermost of the component's functions (15 - 5 - 3)
      { function: 'Acme_Front::render', file: 'inc/front.php', line: 17, ms: 15, self_ms: 7, queries: 4, hooks: ['template_redirect'] },
      { function: '{closure}', file: 'inc/front.php', line: 38, ms: 5, self_ms: 5, queries: 0, hooks: ['the_posts'] },
      // recursion counts once per sample; two executing lines of one function are one function
      { function: 'acme_walk', file: 'inc/tree.php', line: 5, ms: 3, self_ms: 3, queries: 1, hooks: [] },
    ]);
    assert.equal(r.sampled_ms, 29);
    assert.equal(r.component_ms, 15);
    assert.equal(r.period_ms, 1);
  });

  it('never lists code outside the component (core, another plugin, a folder with the same prefix)', () => {
    const names = attributeProfiles(two()).functions.map((f) => f.function);
    for (const n of ['WP_Hook::apply_filters', 'get_posts', 'wpdb::query', 'other_fn', 'acme_extra_trap']) assert.ok(!names.includes(n), n);
  });

  it('gives a core function’s time and queries to the component function that called it', () => {
    const [one] = two();
    const r = attributeProfiles([one]);
    const render = r.functions.find((f) => f.function === 'Acme_Front::render')!;
    // get_posts → closure (10), acme_walk (6), called back by another plugin (4), wpdb::query (2)
    assert.equal(render.ms, 22);
    assert.equal(render.queries, 5);
  });

  it('divides by the number of requests, not by the requests a function ran in', () => {
    const r = attributeProfiles([load('synthetic-1.profile.json')]);
    assert.equal(r.functions.find((f) => f.function === '{closure}')!.ms, 10);
    assert.equal(attributeProfiles(two()).functions.find((f) => f.function === '{closure}')!.ms, 5);
    assert.deepEqual(attributeProfiles([]).functions, []);
  });

  it('lists file-level code only when asked', () => {
    const r = attributeProfiles(two(), { fileScope: true });
    assert.deepEqual(
      r.functions.find((f) => f.function === '(file)'),
      { function: '(file)', file: 'acme.php', line: 0, ms: 1.5, self_ms: 1.5, queries: 0, hooks: [] },
    );
  });

  it('takes the component’s root from the caller when given (a prefix is not a folder)', () => {
    const r = attributeProfiles(two(), { root: '/site/wp-content/plugins/acme/' });
    assert.deepEqual(r.functions.map((f) => [f.function, f.file, f.line, f.ms, f.queries]), [
      ['Acme_Front::render', 'inc/front.php', 17, 15, 4],
      ['{closure}', 'inc/front.php', 38, 5, 0],
      ['acme_walk', 'inc/tree.php', 5, 3, 1],
    ]);
    const wide = attributeProfiles(two(), { root: '/site/wp-content/plugins', base: '/site/wp-content' });
    assert.ok(wide.functions.some((f) => f.function === 'other_fn' && f.file === 'plugins/other/other.php'));
    assert.ok(wide.functions.some((f) => f.function === 'acme_extra_trap'));
  });

  it('scales by the sampling period', () => {
    const r = attributeProfiles(two(), { period: 0.002 });
    assert.equal(r.functions[0].ms, 30);
    assert.equal(r.functions[0].queries, 4);
  });

  it('exports collapsed stacks: every sample once, the component’s frames by where they are defined', () => {
    const text = toCollapsed(two());
    const lines = text.trim().split('\n');
    const total = lines.reduce((a, l) => a + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
    assert.equal(total, 58);
    assert.ok(lines.includes('(file) index.php;WP_Hook::apply_filters;Acme_Front::render (inc/front.php:17) 8'), text);
    assert.ok(!text.includes('/site/'), 'no absolute path outside WordPress');
    assert.ok(text.includes(';{closure} (inc/front.php:38) 10'));
    assert.ok(lines.every((l) => /^[^;\n]+(;[^;\n]+)* \d+$/.test(l)));
  });

  it('exports speedscope: one sampled profile per request, weights in ms, frames shared', () => {
    const s = toSpeedscope(two(), { name: 'homepage' }) as any;
    assert.equal(s.$schema, 'https://www.speedscope.app/file-format-schema.json');
    assert.equal(s.profiles.length, 2);
    assert.equal(s.profiles[0].type, 'sampled');
    assert.equal(s.profiles[0].unit, 'milliseconds');
    assert.equal(s.profiles[0].endValue, 50);
    assert.equal(s.profiles[1].endValue, 8);
    for (const p of s.profiles) {
      assert.equal(p.samples.length, p.weights.length);
      for (const st of p.samples) for (const i of st) assert.ok(i >= 0 && i < s.shared.frames.length);
    }
    const render = s.shared.frames.filter((f: any) => f.name === 'Acme_Front::render');
    assert.deepEqual(render, [{ name: 'Acme_Front::render', file: 'inc/front.php', line: 17 }]);
  });

  it('refuses what is not a profile', () => {
    assert.throws(() => parseProfile('{"v":2}'));
    assert.throws(() => parseProfile(JSON.stringify({ v: 1, period: 0.001, frames: [{ file: 'a' }], samples: [{ s: [3], n: 1 }], queries: [], hooks: [] })), /out of range/);
  });
});

// Profiles recorded once (fixed input, no clock involved): the attribution of their samples is exact, and so are
// these figures. How close a live profile reads to each hot spot's true cost is the benchmark's claim (figure 9).
describe('profile attribution (recorded with Excimer: test/fixtures/profile/hotspots)', () => {
  const ctx = (c: string) => attributeProfiles([load(`recorded/${c}-2.profile.json`), load(`recorded/${c}-3.profile.json`)]);

  it('homepage: the init function and the homepage method, at their lines, with their queries and hooks', () => {
    const r = ctx('homepage');
    const byName = new Map(r.functions.map((f) => [f.function, f]));
    assert.deepEqual([...byName.keys()].sort(), ['Hotspots_Front::render', 'hotspots_busy', 'hotspots_init_work']);
    const init = byName.get('hotspots_init_work')!;
    assert.deepEqual([init.file, init.line, init.queries, init.hooks], ['hotspots.php', 12, 3, ['init']]);
    // inclusive: the 20 ms loop and its 3 queries' time (the SQLite driver parses each)
    assert.equal(init.ms, 24);
    const render = byName.get('Hotspots_Front::render')!;
    assert.deepEqual([render.file, render.line, render.queries, render.hooks], ['inc/front.php', 8, 2, ['template_redirect']]);
    assert.equal(render.ms, 16.5);
    const busy = byName.get('hotspots_busy')!;
    assert.deepEqual([busy.file, busy.line, busy.queries], ['inc/busy.php', 3, 0]);
    assert.equal(busy.ms, 35.5);
  });

  it('admin: the closure on admin_init, recursion counted once', () => {
    const r = ctx('admin');
    const closure = r.functions.find((f) => f.function === '{closure}')!;
    assert.deepEqual([closure.file, closure.line, closure.queries, closure.hooks], ['hotspots.php', 24, 0, ['admin_init']]);
    assert.equal(closure.ms, 11.5);
    const rec = r.functions.find((f) => f.function === 'hotspots_recurse')!;
    assert.deepEqual([rec.file, rec.line], ['inc/busy.php', 13]);
    assert.equal(rec.ms, 11.5, 'the recursion counted once');
    assert.ok(!r.functions.some((f) => f.function === 'Hotspots_Front::render'));
    assert.equal(r.functions.find((f) => f.function === 'hotspots_init_work')!.queries, 3);
    for (const f of r.functions) assert.ok(!f.file.startsWith('/') && !f.file.startsWith('wp-'), f.file);
  });
});
