// The flame graph's page: the contexts it can draw, the first one, the focus, escaping, and what an older profile says.
import * as assert from 'node:assert/strict';
import type { LocalResult } from '../../../src/core/measure/record/method';
import type { FlameNode } from '../../../src/core/measure/profile/types';
import { flameView } from '../../../src/core/present/flameView';

const tree = (v: number, comp: number): FlameNode => ({ n: 'all', v, k: [{ n: 'do_action', f: 'wp-includes/plugin.php', v: v - 1, k: [{ n: 'acme_init', f: 'acme.php', l: 4, c: 1, v: comp }] }] });

function local(opts: { flame?: boolean; stale?: boolean } = {}): LocalResult {
  const flame = opts.flame !== false;
  return {
    kind: 'plugin',
    slug: 'acme',
    source: '/ws/wp-content/plugins/acme',
    hash: 'h',
    stale: opts.stale ?? false,
    record: {
      profile: {
        profiler: 'excimer 1.0.4',
        period_ms: 1,
        rounds: 9,
        contexts: {
          activation: null,
          homepage: { functions: [], sampled_ms: 80, component_ms: 5, ...(flame ? { flame: tree(80, 5) } : {}) },
          admin: { functions: [], sampled_ms: 60, component_ms: 30, ...(flame ? { flame: tree(60, 30) } : {}) },
        },
      },
    },
  } as unknown as LocalResult;
}

describe('flame graph view', () => {
  it('offers the contexts with a tree, disables the others, starts where the component spends the most', () => {
    const { body, data } = flameView(local(), 'Acme');
    assert.deepEqual(Object.keys(data.trees).sort(), ['admin', 'homepage']);
    assert.equal(data.context, 'admin', 'admin: 30 ms of the component against 5 ms');
    assert.match(body, /data-context="activation" aria-pressed="false" disabled>Activation: not measured</);
    assert.match(body, /data-context="admin" aria-pressed="true">Admin: 30\.0 ms of 60\.0 ms</);
    assert.match(body, /role="tree"/);
    assert.match(body, /excimer 1\.0\.4, a sample every 1 ms, 9 profiled requests per context/);
  });

  it('starts in the asked context when it has a tree, and carries the function to show', () => {
    const { data } = flameView(local(), 'Acme', { context: 'homepage', focus: { file: 'acme.php', line: 4 } });
    assert.equal(data.context, 'homepage');
    assert.deepEqual(data.focus, { file: 'acme.php', line: 4 });
    assert.equal(flameView(local(), 'Acme', { context: 'activation' }).data.context, 'admin', 'activation has no tree');
  });

  it('escapes the component’s name and says when the profile is stale', () => {
    const { body } = flameView(local({ stale: true }), '<img src=x onerror=alert(1)>');
    assert.ok(!body.includes('<img'), body);
    assert.match(body, /&#60;img src=x onerror=alert\(1\)&#62;/);
    assert.match(body, /class="stale">Stale: its files changed since it was profiled/);
  });

  it('an older profile without a call tree, or none at all, says what to run', () => {
    const old = flameView(local({ flame: false }), 'Acme');
    assert.match(old.body, /no call tree to draw .* Profile Locally again/);
    assert.ok(!old.body.includes('role="tree"'));
    const none = flameView({ ...local(), record: { ...local().record, profile: undefined } } as unknown as LocalResult, 'Acme');
    assert.match(none.body, /Not profiled yet\. Run WP Bench: Profile Locally\./);
  });
});

describe('flame graph view of a profile by instructions (--profile --instructions)', () => {
  it('counts in instructions, says so, and hands the unit to the script', () => {
    const l = local();
    const p = l.record.profile!;
    p.unit = 'instructions';
    p.period_ms = 0;
    p.rounds = 1;
    p.profiler = 'callgrind';
    p.contexts.admin = { functions: [], sampled_ms: 52_000_000, component_ms: 4_630_000, flame: tree(52_000_000, 4_630_000) };
    const { body, data } = flameView(l, 'Acme');
    assert.equal(data.unit, 'instructions');
    assert.match(body, /Admin: 4\.63 M instr of 52\.0 M instr/);
    assert.match(body, /callgrind, 1 counted requests per context\. Width: CPU instructions per request/);
    assert.doesNotMatch(body, /a sample every|0\.05 ms/);
    assert.match(data.labels.detail, /of the request’s instructions/);
    assert.equal(flameView(local(), 'Acme').data.unit, undefined, 'a time profile has no unit');
  });
});
