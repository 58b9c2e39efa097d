// The editor's view of a local profile: CodeLenses at each profiled function's definition and at the lines that
// register it, their tooltips, stale marking, the tree's top functions.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { LocalResult } from '../../../src/core/measure/record/method';
import { profileLenses, profiledFunctions, topFunctions } from '../../../src/core/present/profileLens';

const fc = (name: string, file: string, line: number, ms: number, queries = 0, hooks: string[] = []) => ({ function: name, file, line, ms, self_ms: ms, queries, hooks });
const ROOT = path.join(path.sep, 'ws', 'wp-content', 'plugins', 'acme');

function local(stale = false): LocalResult {
  return {
    kind: 'plugin',
    slug: 'acme',
    source: ROOT,
    hash: 'h',
    stale,
    record: {
      profile: {
        profiler: 'excimer 1.0.4',
        period_ms: 1,
        rounds: 9,
        contexts: {
          activation: { functions: [fc('acme_init', 'acme.php', 4, 20.04, 3, ['init'])], sampled_ms: 40, component_ms: 20 },
          homepage: { functions: [fc('Acme_Front::render', 'inc/front.php', 8, 30.44, 4, ['template_redirect']), fc('acme_init', 'acme.php', 4, 21, 3, ['init'])], sampled_ms: 80, component_ms: 51 },
          admin: { functions: [fc('acme_init', 'acme.php', 4, 0.3, 1, ['init']), fc('{closure}', 'acme.php', 12, 10, 0, ['admin_init'])], sampled_ms: 60, component_ms: 11 },
        },
      },
    },
  } as unknown as LocalResult;
}

const MAIN = `<?php
/* Plugin Name: Acme */
require __DIR__ . '/inc/front.php';
function acme_init() {
  acme_work();
}
add_action( 'init', 'acme_init' );
add_filter('the_title', 'strtoupper');
$front = new Acme_Front();
add_action( 'template_redirect', array( $front, 'render' ) );
add_action('wp_footer', [ $front, 'render' ], 20);
add_action( 'admin_init', function () {
  acme_busy( 10 );
} );
`;

describe('Profile Locally in the editor: CodeLens and tree', () => {
  it('a lens at each profiled function and at the lines registering it, with every context it was seen in', () => {
    const lenses = profileLenses(local(), path.join(ROOT, 'acme.php'), MAIN);
    assert.deepEqual(lenses.map((l) => [l.line + 1, l.title]), [
      [4, 'Activation +20.0 ms · 3 queries · Homepage +21.0 ms · 3 queries · Admin +0.3 ms · 1 query'],
      [7, 'Activation +20.0 ms · 3 queries · Homepage +21.0 ms · 3 queries · Admin +0.3 ms · 1 query'],
      [10, 'Homepage +30.4 ms · 4 queries'],
      [11, 'Homepage +30.4 ms · 4 queries'],
      [12, 'Admin +10.0 ms'],
    ]);
    assert.ok(!lenses.some((l) => l.line === 7), 'strtoupper is not the component\'s');
    const tip = lenses.find((l) => l.line === 9)!.tooltip;
    assert.match(tip, /^Acme_Front::render — inc\/front\.php:8$/m);
    assert.match(tip, /^Homepage: 30\.4 ms per request \(its own 30\.4 ms\), 4 queries$/m);
    assert.match(tip, /^Admin: not seen \(under 1 ms per request\)$/m);
    assert.match(tip, /^Runs on: template_redirect$/m);
    assert.match(tip, /Profiled locally \(excimer 1\.0\.4, 9 requests per context\)/);
  });

  it("the method's own file gets its lens at the definition; another component's file gets none", () => {
    const front = "<?php\nclass Acme_Front {\n  public function __construct() {}\n\n\n\n\n  public function render() {}\n}\n";
    assert.deepEqual(profileLenses(local(), path.join(ROOT, 'inc', 'front.php'), front).map((l) => l.line + 1), [8]);
    assert.deepEqual(profileLenses(local(), path.join(path.sep, 'ws', 'wp-content', 'plugins', 'other', 'acme.php'), MAIN), []);
    assert.deepEqual(profileLenses(local(), path.join(ROOT, 'acme.php'), '<?php\n'), [], 'a line past the end of an edited file: no lens');
  });

  it('stale after an edit: every lens says so, the tooltip too', () => {
    const lenses = profileLenses(local(true), path.join(ROOT, 'acme.php'), MAIN);
    assert.ok(lenses.every((l) => / \(stale: edited since it was profiled\)$/.test(l.title)));
    assert.match(lenses[0].tooltip, /Stale: its files changed since it was profiled\./);
  });

  it('the tree: the five functions with the largest time of any context, each opening its line', () => {
    const top = topFunctions(local());
    assert.deepEqual(top.map((t) => t.label), ['Acme_Front::render', 'acme_init', '{closure}']);
    assert.equal(top[0].absFile, path.join(ROOT, 'inc', 'front.php'));
    assert.match(top[0].description, /— inc\/front\.php:8$/);
    assert.equal(profiledFunctions(local()).find((f) => f.function === 'acme_init')!.hooks.join(), 'init');
    assert.deepEqual(topFunctions({ ...local(), record: {} } as unknown as LocalResult), [], 'not profiled: nothing');
  });
});

describe('Profile Locally in the editor: a profile by instructions (--profile --instructions)', () => {
  it('lenses, tooltips and the tree say instructions, never ms', () => {
    const l = local();
    const p = l.record.profile!;
    p.unit = 'instructions';
    p.period_ms = 0;
    p.rounds = 1;
    p.contexts.homepage!.functions = [fc('Acme_Front::render', 'inc/front.php', 8, 4_630_000, 4, ['template_redirect'])];
    p.contexts.activation = { functions: [], sampled_ms: 40_000_000, component_ms: 0 };
    p.contexts.admin = null;
    const [lens] = profileLenses(l, path.join(ROOT, 'inc', 'front.php'), 'line1\nline2\nline3\nline4\nline5\nline6\nline7\nclass render {}\n');
    assert.equal(lens!.title, 'Homepage +4.63 M instr · 4 queries');
    assert.match(lens!.tooltip, /Homepage: 4\.63 M instr per request \(its own 4\.63 M instr\), 4 queries/);
    assert.match(lens!.tooltip, /Activation: not run/);
    assert.match(lens!.tooltip, /inclusive CPU instructions per request, the same on a repeat/);
    assert.doesNotMatch(lens!.tooltip + lens!.title, /\bms\b/);
    assert.equal(topFunctions(l)[0]!.description, 'Homepage +4.63 M instr · 4 queries — inc/front.php:8');
  });
});
