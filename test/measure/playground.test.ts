// Integration: the playground runtime (WordPress Playground's CLI from npm, PHP in WebAssembly) measures the
// calibration plugins offline, on the same throwaway site as the native runtime. Its TTFB is not asserted
// (less precise, said in the output); memory and queries are.
import * as assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MeasureError, measure, type MeasureOptions } from '../../src/core/measure/run/engine';

const FIX = path.resolve(__dirname, '..', 'fixtures', 'measure');
const ROOT = path.resolve(__dirname, '..', '..');

describe('wp-bench measure with the playground runtime', function () {
  this.timeout(600_000);
  let cacheDir: string;
  const made: Array<{ root?: string; pid?: number }> = [];
  const opts = (p: string): MeasureOptions => ({ path: p, runtime: 'playground', rounds: 3, env: process.env, cwd: ROOT, cacheDir, noCache: true, onResource: (r) => made.push(r) });

  before(async () => {
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-measure-pg-cache-'));
  });
  after(async () => {
    await fs.rm(cacheDir, { recursive: true, force: true });
  });
  afterEach(() => {
    for (const r of made.splice(0)) {
      if (r.root) assert.equal(existsSync(r.root), false, `temp folder ${r.root} left behind`);
      if (r.pid) {
        let alive = true;
        try {
          process.kill(r.pid, 0);
        } catch {
          alive = false;
        }
        assert.equal(alive, false, `Playground process ${r.pid} left running`);
      }
    }
  });

  it('a plugin that does nothing: |memory| ≤ 64 KB and 0 queries; the output says TTFB is less precise (and that --findings needs native php)', async () => {
    const lines: string[] = [];
    // As the editor's Measure Locally asks (always with --findings): measured, the findings said not looked for.
    const r = await measure({ ...opts(path.join(FIX, 'noop')), findings: true, progress: (l) => lines.push(l) });
    assert.equal(r.local.runtime, 'playground');
    assert.equal(r.findings, undefined);
    assert.ok(lines.some((l) => /^warning: findings were not looked for: they need the native php runtime/.test(l)), lines.join('\n'));
    assert.match(r.local.runtime_note ?? '', /less precise/);
    for (const c of ['activation', 'homepage', 'admin'] as const) {
      assert.ok(Math.abs(r.contexts[c]!.memory_delta_kb) <= 64, `${c} memory ${r.contexts[c]!.memory_delta_kb}`);
      assert.equal(r.contexts[c]!.queries_delta, 0);
    }
  });

  it('aborted mid-run (what Ctrl-C does): interrupted, the Playground process and the temp folder are gone', async () => {
    const ac = new AbortController();
    const run = measure({ ...opts(path.join(FIX, 'noop')), rounds: 50, signal: ac.signal, progress: (l) => /^round 1\//.test(l) && ac.abort() });
    await assert.rejects(run, (e: unknown) => e instanceof MeasureError && e.exitCode === 6 && /interrupted/.test(e.message));
    assert.ok(made.some((r) => r.pid) && made.some((r) => r.root), 'a server and a folder were made');
  });

  it('4 MB and 5 queries on every request: memory within ±5 % + 256 KB, queries exact', async () => {
    const r = await measure(opts(path.join(FIX, 'memory-queries')));
    for (const c of ['activation', 'homepage', 'admin'] as const) {
      const m = r.contexts[c]!;
      assert.ok(Math.abs(m.memory_delta_kb - 4096) <= 4096 * 0.05 + 256, `${c} memory ${m.memory_delta_kb}`);
      assert.equal(m.queries_delta, 5, c);
    }
  });
});
