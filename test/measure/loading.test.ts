// Integration: components measured as WordPress loads them, with the native php runtime on Debian's WordPress — a
// child theme on its parent (test/fixtures/measure/loading/themes), must-use plugins from wp-content/mu-plugins
// (test/fixtures/measure/loading/mu-plugins). Slow (a real WordPress per measurement); never skipped.
import * as assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { MeasureError, measure, measureCompare, type MeasureOptions } from '../../src/core/measure/run/engine';
import { assertNothingLeft } from './helpers';

const FIX = path.resolve(__dirname, '..', 'fixtures', 'measure', 'loading');
const ROOT = path.resolve(__dirname, '..', '..');
const CONTEXTS = ['activation', 'homepage', 'admin'] as const;

/** memory within ±5 % + 256 KB (the accuracy target) */
function assertMemory(actualKb: number, expectedKb: number, what: string) {
  const tol = Math.abs(expectedKb) * 0.05 + 256;
  assert.ok(Math.abs(actualKb - expectedKb) <= tol, `${what}: memory ${actualKb} KB, expected ${expectedKb} ± ${tol}`);
}



describe('wp-bench measure: components as WordPress loads them (native php runtime)', function () {
  let cacheDir: string;
  let work: string;
  const made: Array<{ root?: string; pid?: number; port?: number }> = [];
  const lines: string[] = [];
  const opts = (p: string, extra: Partial<MeasureOptions> = {}): MeasureOptions => ({
    path: p,
    runtime: 'php',
    env: { ...process.env, WPBENCH_API_KEY: 'secret-must-not-reach-php' },
    cwd: ROOT,
    cacheDir,
    noCache: true,
    rounds: 5,
    onResource: (r) => made.push(r),
    progress: (l) => lines.push(l),
    ...extra,
  });

  before(async () => {
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-loading-cache-'));
  });
  after(async () => {
    await fs.rm(cacheDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    lines.length = 0;
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-loading-'));
  });
  afterEach(async () => {
    await fs.rm(work, { recursive: true, force: true });
    await assertNothingLeft(made);
  });

  describe('a child theme', () => {
    it('that adds nothing measures its parent\'s cost (1 MiB, 2 queries), and the record names the parent', async () => {
      const r = await measure(opts(path.join(FIX, 'themes', 'child-of-cost')));
      assert.equal(r.type, 'theme');
      assert.equal(r.slug, 'child-of-cost');
      assert.equal(r.name, 'Calibration Child');
      assert.deepEqual(r.local.parent_theme, { slug: 'parent-cost', name: 'Calibration Parent', version: '1.2' });
      for (const c of ['activation', 'homepage'] as const) {
        assertMemory(r.contexts[c]!.memory_delta_kb, 1024, c);
        assert.equal(r.contexts[c]!.queries_delta, 2, `${c} queries`);
      }
      assert.ok(
        lines.includes(`measuring child theme Calibration Child with its parent Calibration Parent 1.2 (from ${path.join(FIX, 'themes', 'parent-cost')})`),
        lines.join('\n'),
      );
    });

    it('a changed file in the parent: the cache does not answer; unchanged, it does', async () => {
      await fs.cp(path.join(FIX, 'themes'), path.join(work, 'themes'), { recursive: true });
      const child = path.join(work, 'themes', 'child-of-cost');
      const o = opts(child, { rounds: 1, warmup: 0, noCache: false });
      const first = await measure(o);
      assert.equal(first.local.cached, undefined);
      const second = await measure(o);
      assert.equal(second.local.cached, true, 'unchanged: answered from the cache');
      assert.deepEqual(second.local.parent_theme, first.local.parent_theme);
      await fs.appendFile(path.join(work, 'themes', 'parent-cost', 'functions.php'), '\n// changed\n');
      const third = await measure(o);
      assert.equal(third.local.cached, undefined, 'the parent changed: measured again');
    });

    it('whose parent is not beside it: exit 2 naming the parent and the folder, before anything is installed', async () => {
      await fs.cp(path.join(FIX, 'themes', 'child-of-cost'), path.join(work, 'child-of-cost'), { recursive: true });
      await assert.rejects(measure(opts(path.join(work, 'child-of-cost'), { noCache: false })), (e: unknown) => {
        assert.ok(e instanceof MeasureError);
        assert.equal(e.exitCode, 2);
        assert.match(e.message, /needs its parent theme "parent-cost" \(its Template: header\), which is not beside it in /);
        assert.doesNotMatch(e.message, /--wordpress|--php/);
        return true;
      });
      assert.deepEqual(made, [], 'no temp folder or server was made');
    });

    it('--baseline-ref: the snapshot of the child alone runs on the working tree\'s parent, not on a folder beside the snapshot', async () => {
      // The REF snapshot: the child only (as git archive extracts it), with a decoy "parent" beside it that costs more.
      await fs.cp(path.join(FIX, 'themes', 'child-of-cost'), path.join(work, 'snap', 'root'), { recursive: true });
      await fs.mkdir(path.join(work, 'snap', 'parent-cost'));
      await fs.writeFile(path.join(work, 'snap', 'parent-cost', 'style.css'), '/*\nTheme Name: Decoy\n*/');
      await fs.writeFile(path.join(work, 'snap', 'parent-cost', 'functions.php'), "<?php\nglobal $wpdb;\nfor ($i = 0; $i < 7; $i++) $wpdb->get_var('SELECT ' . $i);\n");
      await fs.writeFile(path.join(work, 'snap', 'parent-cost', 'index.php'), '<?php');
      const out = await measureCompare(opts(path.join(FIX, 'themes', 'child-of-cost'), { rounds: 3, warmup: 1 }), path.join(work, 'snap', 'root'));
      for (const rec of [out.current, out.baseline]) {
        assert.equal(rec.contexts.homepage!.queries_delta, 2, 'the working tree\'s parent (2 queries), not the decoy (7)');
        assert.deepEqual(rec.local.parent_theme, { slug: 'parent-cost', name: 'Calibration Parent', version: '1.2' });
      }
    });
  });

  describe('a must-use plugin', () => {
    it('without a header, 3 queries on every request: 3 queries in every context, never activated', async () => {
      const r = await measure(opts(path.join(FIX, 'mu-plugins', 'queries-3.php')));
      assert.equal(r.type, 'plugin');
      assert.equal(r.slug, 'queries-3');
      assert.equal(r.name, 'queries-3.php');
      for (const c of CONTEXTS) {
        assert.ok(r.contexts[c], `${c} measured`);
        assert.equal(r.contexts[c]!.queries_delta, 3, `${c} queries`);
        assert.ok(Math.abs(r.contexts[c]!.memory_delta_kb) <= 128, `${c} memory ${r.contexts[c]!.memory_delta_kb}`);
      }
      // No activation: activate_plugin() is never called for it (its activate_plugin hook would end the run).
      assert.equal(r.local.activation_hook, null);
      assert.equal(r.local.must_use, true, 'the record says it is a must-use plugin');
      assert.ok(!lines.some((l) => /^activating/.test(l)), lines.join('\n'));
      assert.ok(lines.some((l) => /^measuring must-use plugin queries-3\.php as WordPress loads it: from wp-content\/mu-plugins on every request, no activation$/.test(l)), lines.join('\n'));
    });

    it('a sub-folder with its loader (require __DIR__ . \'/acme/acme.php\'): measured through the loader, files found through WPMU_PLUGIN_DIR', async () => {
      const r = await measure(opts(path.join(FIX, 'mu-plugins', 'acme')));
      assert.equal(r.slug, 'acme');
      assert.equal(r.name, 'Acme');
      assert.equal(r.metadata.version, '3.4');
      for (const c of CONTEXTS) {
        assertMemory(r.contexts[c]!.memory_delta_kb, 2048, c);
        assert.equal(r.contexts[c]!.queries_delta, 4, `${c} queries`);
      }
      assert.equal(r.local.activation_hook, null);
    });

    it('--baseline-ref: the snapshot of the mu-plugins folder is measured as a must-use plugin beside the working tree\'s', async () => {
      // The REF snapshot of mu-plugins/ (git archive of the folder): the same loader, acme doing 1 query instead of 4.
      await fs.cp(path.join(FIX, 'mu-plugins'), path.join(work, 'snap'), { recursive: true });
      await fs.writeFile(path.join(work, 'snap', 'acme', 'inc', 'queries.php'), "<?php\n$GLOBALS['wpdb']->get_var('SELECT 99');\n");
      const out = await measureCompare(opts(path.join(FIX, 'mu-plugins', 'acme'), { rounds: 3, warmup: 1 }), path.join(work, 'snap', 'acme-loader.php'));
      for (const c of CONTEXTS) {
        assert.equal(out.current.contexts[c]!.queries_delta, 4, `working tree, ${c}`);
        assert.equal(out.baseline.contexts[c]!.queries_delta, 1, `REF, ${c}`);
      }
      assert.equal(out.current.local.activation_hook, null);
      assert.equal(out.baseline.local.activation_hook, null);
    });
  });
});
