// Integration (issue 45): `--baseline-ref` says a measured saving of memory or queries to the KB, and an identical
// copy reads none. The working tree's and REF's copies are installed on one site under folder names of one length:
// a plugin keeping 3,000 paths of its own files (as a Composer class map does) costs the same at both, so an
// identical copy reads ±0 KB in every context (REF's longer folder name once made it read 32 KB "saved"), and a fix
// that stops autoloading an 8 KB option reads its saving, said. And the result cache is keyed by content: two
// identical copies under folders of different names share one entry, with no warning of tampering.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { measure, measureCompare, type MeasureOptions } from '../../src/core/measure/run/engine';
import { compareRecords, DEFAULT_MAX_REGRESSION_PERCENT } from '../../src/core/measure/compare/regression';
import { savedText } from '../../src/core/report/findingsFormats';

const ROOT = path.resolve(__dirname, '..', '..');
const CONTEXTS = ['activation', 'homepage', 'admin'] as const;

/** A plugin that builds a class map of 3,000 paths under its own folder on every request. */
const CLASS_MAP = `<?php
/**
 * Plugin Name: Calibration class map
 * Version: 1.0
 */
$GLOBALS['cal_class_map'] = array();
// Paths of many lengths, as a real map's are (a few more bytes in each move some into the allocator's next size).
for ($i = 0; $i < 3000; $i++) $GLOBALS['cal_class_map']['Cal_Class_' . $i] = __DIR__ . '/src/' . str_repeat('Package/', $i % 8) . 'Class' . $i . '.php';
`;

/** A plugin that keeps an 8 KB install log in an option, autoloaded (REF) or not (the fix). */
const logPlugin = (autoload: 'yes' | 'no') => `<?php
/**
 * Plugin Name: Calibration install log
 * Version: 1.0
 */
register_activation_hook(__FILE__, function () { add_option('cal_install_log', str_repeat('log line ', 910), '', '${autoload}'); });
`;

describe('a measured saving is said; an identical copy reads none; the cache keyed by content (issue 45)', function () {
  let work: string;
  const opts = (p: string): MeasureOptions => ({ path: p, runtime: 'php', rounds: 5, warmup: 1, env: { ...process.env, WPBENCH_CACHE_DIR: path.join(work, 'cache') }, cwd: ROOT, noCache: true });
  const write = async (dir: string, file: string, text: string) => {
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, file), text);
  };
  const compare = async (tree: string, ref: string) => {
    const out = await measureCompare(opts(tree), ref);
    return { out, report: compareRecords(out.current, out.baseline, { maxRegressionPercent: DEFAULT_MAX_REGRESSION_PERCENT, ceilings: {} }, out.paired, out.pairedCpu) };
  };

  before(async () => {
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-saved-'));
  });
  after(async () => {
    await fs.rm(work, { recursive: true, force: true });
  });

  it('an identical copy keeping 3,000 paths of its own: memory and queries ±0 in every context, no saving of them said', async () => {
    for (const side of ['tree', 'ref']) await write(path.join(work, side, 'cal-class-map'), 'cal-class-map.php', CLASS_MAP);
    const { out, report } = await compare(path.join(work, 'tree', 'cal-class-map'), path.join(work, 'ref', 'cal-class-map'));
    for (const c of CONTEXTS) {
      assert.ok(out.current.contexts[c]!.memory_delta_kb > 300, `${c}: the class map is measured (${out.current.contexts[c]!.memory_delta_kb} KB)`);
      for (const metric of ['memoryMb', 'queries']) {
        const row = report.rows.find((r) => r.context === c && r.metric === metric)!;
        assert.equal(row.difference, 0, `${c} ${metric}: ${row.current} at the working tree, ${row.baseline} at REF`);
      }
    }
    assert.doesNotMatch(savedText(report) ?? '', /KB|quer/, 'no memory or query saving said');
  });

  it('the same as a must-use plugin and as a single-file plugin: ±0 KB in every context', async () => {
    for (const [shape, rel] of [['must-use', 'mu-plugins/cal-class-map.php'], ['single-file', 'plugins/cal-class-map.php']]) {
      for (const side of ['tree', 'ref']) await write(path.join(work, shape, side, path.dirname(rel)), path.basename(rel), CLASS_MAP);
      const { report } = await compare(path.join(work, shape, 'tree', rel), path.join(work, shape, 'ref', rel));
      for (const c of CONTEXTS) {
        const row = report.rows.find((r) => r.context === c && r.metric === 'memoryMb')!;
        assert.equal(row.difference, 0, `${shape}, ${c}: ${row.current} at the working tree, ${row.baseline} at REF`);
      }
    }
  });

  it('the result cache: two identical copies in folders of different names, measured one after the other, share one entry; no word of tampering', async () => {
    const lines: string[] = [];
    const cached = (p: string): MeasureOptions => ({ ...opts(p), noCache: false, cacheDir: path.join(work, 'cache'), rounds: 3, progress: (l) => lines.push(l) });
    for (const folder of ['cal-install-log', 'cal-install-log-copy']) await write(path.join(work, 'copies', folder), 'cal-install-log.php', logPlugin('yes'));
    const first = await measure(cached(path.join(work, 'copies', 'cal-install-log')));
    assert.equal(first.local.cached, undefined, 'measured');
    lines.length = 0;
    const second = await measure(cached(path.join(work, 'copies', 'cal-install-log-copy')));
    assert.equal(second.local.cached, true, lines.join('\n'));
    assert.equal(second.slug, 'cal-install-log-copy');
    assert.deepEqual(second.contexts, first.contexts);
    assert.equal((await measure(cached(path.join(work, 'copies', 'cal-install-log')))).local.cached, true, 'the first copy\'s entry is still there');
    assert.ok(!lines.some((l) => /failed its check|tamper/.test(l)), lines.join('\n'));
  });

  it('an 8 KB option no longer autoloaded: memory saved on the homepage and in the admin, said to the KB', async () => {
    await write(path.join(work, 'fixed', 'cal-install-log'), 'cal-install-log.php', logPlugin('no'));
    await write(path.join(work, 'before', 'cal-install-log'), 'cal-install-log.php', logPlugin('yes'));
    const { report } = await compare(path.join(work, 'fixed', 'cal-install-log'), path.join(work, 'before', 'cal-install-log'));
    for (const c of ['homepage', 'admin'] as const) {
      const row = report.rows.find((r) => r.context === c && r.metric === 'memoryMb')!;
      assert.ok(row.difference! * 1024 <= -8 && row.difference! * 1024 > -16, `${c}: ${row.difference! * 1024} KB`);
      assert.match(savedText(report) ?? '', new RegExp(`${c} −${Math.round(-row.difference! * 1024)} KB`), `${c} said`);
    }
  });
});
