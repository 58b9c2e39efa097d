// `--profile --instructions` read back: a callgrind dump whose trampolines' callers were kept apart, the extension's
// map and calls files (test/fixtures/iprofile, written by hand in callgrind 3.19's format) → the component's functions
// with inclusive and own instructions (recursion counted once), their tree, and what the extension added taken out.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { calibrationScripts, correctedProfile, parseCalls } from '../../../../src/core/measure/profile/instructionsCorrection';
import { compileArgs, extensionSource } from '../../../../src/core/measure/profile/instructionsExt';
import { instructionsProfile, parseMap, readDump } from '../../../../src/core/measure/profile/instructionsProfile';
import { buildExtension } from '../../../../src/core/measure/run/instructionsProfiling';

const FIX = path.resolve(__dirname, '..', '..', '..', 'fixtures', 'iprofile');
const read = (f: string) => readFileSync(path.join(FIX, f), 'utf8');
const BASE = '/site/wp-content/plugins/acme/';
const rel = (f: string) => (f.startsWith(BASE) ? f.slice(BASE.length) : undefined);

describe('--profile --instructions: reading callgrind', () => {
  it('a dump: the trampolines\' contexts (compressed names too), the component functions each ran inside, the total', () => {
    const d = readDump(read('request.cg'));
    assert.equal(d.total, 50_000_000);
    const byKey = Object.fromEntries(d.contexts.map((c) => [`${c.id}<${c.within.join(',')}`, [c.instructions, c.calls]]));
    assert.deepEqual(byKey, { '1<': [1_300_000, 1], '0<': [30_000_000, 1], '2<0': [24_000_000, 3], '2<2,0': [6_000_000, 1] });
  });

  it('inclusive (recursion once) and own instructions per function at its file and line, the component\'s share, the tree', () => {
    const p = instructionsProfile([readDump(read('request.cg'))], parseMap(read('map.tsv')), rel, 'homepage');
    assert.deepEqual(
      p.functions.map((f) => [f.function, f.file, f.line, f.ms, f.self_ms]),
      [
        ['Acme::boot', 'acme.php', 12, 30_000_000, 6_000_000],
        ['acme_walk', 'inc/walk.php', 5, 24_000_000, 24_000_000],
        ['{closure}', 'acme.php', 30, 1_300_000, 1_300_000],
      ],
    );
    assert.equal(p.sampled_ms, 50_000_000);
    assert.equal(p.component_ms, 31_300_000);
    assert.equal(p.flame.v, 50_000_000);
    const boot = p.flame.k![0]!;
    assert.deepEqual([boot.n, boot.f, boot.l, boot.c, boot.v], ['Acme::boot', 'acme.php', 12, 1, 30_000_000]);
    assert.deepEqual([boot.k![0]!.n, boot.k![0]!.v, boot.k![0]!.k![0]!.n, boot.k![0]!.k![0]!.v], ['acme_walk', 24_000_000, 'acme_walk', 6_000_000]);
    // Two requests: per request.
    const two = instructionsProfile([readDump(read('request.cg')), readDump(read('request.cg'))], parseMap(read('map.tsv')), rel, 'homepage');
    assert.equal(two.functions[0]!.ms, 30_000_000);
  });

  it('the tree keeps the 600 largest frames (as the time profile\'s), whatever the plugin', () => {
    const map = new Map(Array.from({ length: 700 }, (_, i) => [i, { name: `f${i}`, file: `${BASE}a.php`, line: i + 1 }] as const));
    const contexts = Array.from({ length: 700 }, (_, i) => ({ id: i, within: [], instructions: 1000 + i, calls: 1 }));
    const p = instructionsProfile([{ total: 10_000_000, contexts }], map, rel, 'homepage');
    assert.equal(p.flame.k!.length, 600);
    assert.equal(p.flame.k![0]!.n, 'f699', 'the largest first');
    assert.equal(p.functions.length, 700, 'every function is listed in the record');
  });

  it('what the extension added per call is taken out of each function (inclusive and own), the total and the tree', () => {
    const calls = parseCalls(read('calls.tsv'));
    assert.deepEqual(calls.get(1)!.all, [900, 0, 100, 0]);
    assert.deepEqual(calls.get(2)!.byId.get(0), [300, 20, 0, 2, 100, 5, 0, 1]);
    const p = correctedProfile([{ dump: readDump(read('request.cg')), calls: calls.get(2) }], parseMap(read('map.tsv')), rel, 'homepage', [100, 150, 50, 120]);
    assert.deepEqual(
      p.functions.map((f) => [f.function, f.ms, f.self_ms]),
      [
        ['Acme::boot', 29_966_760, 5_989_130],
        ['acme_walk', 23_978_380, 23_978_380],
        ['{closure}', 1_300_000, 1_300_000],
      ],
    );
    assert.equal(p.sampled_ms, 50_000_000 - 108_600);
    assert.equal(p.component_ms, 5_989_130 + 23_978_380 + 1_300_000);
    assert.equal(p.flame.v, 50_000_000 - 108_600);
    assert.equal(p.flame.k![0]!.v, 29_966_760);
  });

  it('the extension\'s source: one trampoline per function, the hook, the calls written where callgrind does not count; the calibration', () => {
    const src = extensionSource(3);
    for (const f of ['wpb_f_0', 'wpb_f_2', 'wpb_f_overflow', 'wpb_execute_ex', 'wpb_write_calls', 'ZEND_GET_MODULE(wpbcg)']) assert.ok(src.includes(f), f);
    assert.ok(!src.includes('wpb_f_3('), 'three trampolines');
    assert.deepEqual(compileArgs(['-I/x'], 'a.c', 'a.so').slice(-4), ['-I/x', 'a.c', '-o', 'a.so']);
    assert.ok(compileArgs([], 'a.c', 'a.so').includes('-fno-optimize-sibling-calls'), 'a trampoline stays a call, not a jump');
    const cal = calibrationScripts();
    assert.match(cal.files['main.php']!, /require __DIR__ \. '\/comp\/loops\.php'/);
    assert.match(cal.files['comp/loops.php']!, /function wpbench_cal_3\(\$n\) \{ \$a = array_fill\(0, \$n, 1\); return array_map\('wpbench_cal_c', \$a\); \}/, 'callbacks from a function of the component');
    assert.ok(cal.calls > 0);
  });

  it('without the PHP headers the extension is not built, and the reason says what to install', async () => {
    const r = await buildExtension({ bin: '/nowhere/bin/php8.2', version: '8.2.36', sqlite: true }, { PATH: '' }, '/nowhere/iprofile');
    assert.ok('why' in r);
    assert.match(r.why, /php-config .*not found.*sudo apt install gcc php-dev/);
  });
});
