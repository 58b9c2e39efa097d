import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { flameSize, flameTree, type FlameNode } from '../../../../src/core/measure/profile/flame';
import { parseProfile } from '../../../../src/core/measure/profile/read';
import type { RequestProfile } from '../../../../src/core/measure/profile/types';

const FIX = path.resolve(__dirname, '..', '../../fixtures/profile');
const load = (name: string): RequestProfile => parseProfile(readFileSync(path.join(FIX, name), 'utf8'));

/** The child named `n` (the first, they are sorted largest first). */
const child = (node: FlameNode | undefined, n: string): FlameNode | undefined => node?.k?.find((c) => c.n === n);
const at = (root: FlameNode, ...names: string[]) => names.reduce<FlameNode | undefined>((node, n) => child(node, n), root);

describe('flame graph tree (synthetic profiles)', () => {
  it('merges identical stacks into one call tree with inclusive time per request', () => {
    const t = flameTree([load('synthetic-1.profile.json')], { name: 'homepage' });
    assert.equal(t.n, 'homepage');
    assert.equal(t.v, 50, 'every sample under the root');
    const index = at(t, '(file) index.php')!;
    assert.equal(index.v, 50);
    const hooks = child(index, 'WP_Hook::apply_filters')!;
    assert.equal(hooks.v, 47);
    assert.equal(hooks.f, 'wp-includes/class-wp-hook.php');
    assert.equal(hooks.c, undefined, 'core is not the component');
    const render = child(hooks, 'Acme_Front::render')!;
    assert.deepEqual({ ...render, k: undefined }, { n: 'Acme_Front::render', f: 'inc/front.php', l: 17, c: 1, v: 18, k: undefined });
    assert.equal(at(render, 'get_posts', 'WP_Hook::apply_filters', '{closure}')!.l, 38, 'a closure at its first line');
    assert.equal(at(render, 'get_posts', 'wpdb::query')!.v, 2);
    // recursion stays nested: two executing lines of one function are one frame each level
    assert.equal(at(render, 'acme_walk', 'acme_walk', 'acme_walk')!.v, 6);
    // another plugin calling back into the component: the component's frame under it, marked
    assert.equal(at(hooks, 'other_fn', 'WP_Hook::apply_filters', 'Acme_Front::render')!.c, 1);
    assert.equal(child(hooks, 'other_fn')!.c, undefined);
  });

  it('sorts callees largest first and never makes a child larger than its parent', () => {
    const t = flameTree([load('synthetic-1.profile.json'), load('synthetic-2.profile.json')]);
    const walk = (n: FlameNode) => {
      const kids = n.k ?? [];
      for (let i = 1; i < kids.length; i++) assert.ok(kids[i - 1].v >= kids[i].v, `${n.n}: ${kids[i - 1].n} before ${kids[i].n}`);
      assert.ok(kids.reduce((a, c) => a + c.v, 0) <= n.v + 0.011, `${n.n}: children within the parent`);
      kids.forEach(walk);
    };
    walk(t);
  });

  it('divides by the number of requests', () => {
    const one = flameTree([load('synthetic-1.profile.json')]);
    const two = flameTree([load('synthetic-1.profile.json'), load('synthetic-1.profile.json')]);
    assert.deepEqual(two, one);
    assert.deepEqual(flameTree([]), { n: 'all', v: 0 });
  });

  it('keeps at most maxNodes, dropping the smallest, and drops nodes under minMs', () => {
    const full = flameTree([load('synthetic-1.profile.json')]);
    assert.ok(flameSize(full) > 12, String(flameSize(full)));
    const small = flameTree([load('synthetic-1.profile.json')], { maxNodes: 5 });
    assert.ok(flameSize(small) - 1 <= 5, String(flameSize(small)));
    assert.equal(at(small, '(file) index.php', 'WP_Hook::apply_filters')!.v, 47, 'the largest stay');
    const floor = flameTree([load('synthetic-1.profile.json')], { minMs: 5 });
    const all: FlameNode[] = [];
    const collect = (n: FlameNode) => (n.k ?? []).forEach((c) => (all.push(c), collect(c)));
    collect(floor);
    assert.ok(all.length > 0 && all.every((n) => n.v >= 5), all.map((n) => `${n.n} ${n.v}`).join());
  });

  it('takes recorded profiles of a real request and stays small', () => {
    const rec = readFileSync(path.join(FIX, 'recorded', 'homepage-2.profile.json'), 'utf8');
    const t = flameTree([parseProfile(rec)]);
    assert.ok(t.v > 0);
    assert.ok(flameSize(t) <= 601);
    assert.ok(JSON.stringify(t).length < 80_000, `${JSON.stringify(t).length} bytes`);
    const comp: FlameNode[] = [];
    const collect = (n: FlameNode) => (n.k ?? []).forEach((c) => (c.c && comp.push(c), collect(c)));
    collect(t);
    assert.ok(comp.length > 0, 'the component’s frames are in it');
    assert.ok(comp.every((n) => n.f && !n.f.startsWith('/') && n.l! > 0), 'the component’s frames by relative file and line');
    assert.ok(!JSON.stringify(t).includes('/tmp/'), 'no temporary path');
  });
});
