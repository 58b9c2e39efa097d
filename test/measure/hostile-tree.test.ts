// Integration: `measure` on components whose FILES are hostile (a symlink loop, a FIFO, a link to /dev/zero, links
// that fan out): detection, hashing and the copy into the throwaway site go through one walk (src/core/measure/component/tree.ts)
// that never follows a loop or a link out of the component and never opens what is not a regular file, under the
// run's deadline. Each run measures (the entries skipped and said) or ends with a clear error within its time limit
// (+15 s), leaving no temp folder and no process. Native php on Debian's WordPress, as test/measure/native.test.ts.
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MeasureError, measure, type MeasureOptions } from '../../src/core/measure/run/engine';
import type { LocalRecord } from '../../src/core/measure/record/method';
import { alive } from './helpers';

const ROOT = path.resolve(__dirname, '..', '..');

const PLUGIN = `<?php
/**
 * Plugin Name: Hostile Tree
 * Version: 1.0.0
 */
add_action('init', function () { $GLOBALS['wpbench_hostile'] = str_repeat('a', 1024); });
`;

describe('wp-bench measure on a component with hostile files (native php)', function () {
  this.timeout(120_000);
  let cacheDir: string;
  let work: string;
  const made: Array<{ root?: string; pid?: number; port?: number }> = [];
  const opts = (p: string, extra: Partial<MeasureOptions> = {}): MeasureOptions => ({
    path: p,
    runtime: 'php',
    env: { ...process.env, WPBENCH_API_KEY: 'secret-must-not-reach-php' },
    cwd: ROOT,
    cacheDir,
    noCache: true,
    rounds: 1,
    warmup: 0,
    onResource: (r) => made.push(r),
    ...extra,
  });

  /** A plugin folder in a temp folder, with `hostile` added to it. */
  async function plugin(name: string, hostile: (dir: string) => Promise<void>): Promise<string> {
    const dir = path.join(work, name);
    await fs.mkdir(path.join(dir, 'inc'), { recursive: true });
    await fs.writeFile(path.join(dir, `${name}.php`), PLUGIN);
    await fs.writeFile(path.join(dir, 'inc', 'helper.php'), '<?php // helper');
    await hostile(dir);
    return dir;
  }

  /** measure() under a wall clock: a record, or a MeasureError with a message, within limit + 15 s. */
  async function bounded(o: MeasureOptions): Promise<{ record?: LocalRecord; error?: MeasureError; lines: string[]; ms: number }> {
    const lines: string[] = [];
    const t0 = Date.now();
    let record: LocalRecord | undefined;
    let error: MeasureError | undefined;
    try {
      record = await measure({ ...o, progress: (l) => lines.push(l) });
    } catch (err) {
      assert.ok(err instanceof MeasureError, `a MeasureError, not ${String(err)}`);
      error = err;
    }
    const ms = Date.now() - t0;
    assert.ok(ms < ((o.timeoutS ?? 300) + 15) * 1000, `ended after ${ms} ms`);
    return { record, error, lines, ms };
  }

  /**
   * Measured (the preferable outcome), or ended by the time limit with a clear error on a slow machine (copying
   * WordPress core and installing it take seconds). Once the copy is done, the skipped entries have been said.
   */
  function assertMeasuredOrTimedOut(r: Awaited<ReturnType<typeof bounded>>, skipped: string) {
    if (!r.record) {
      assert.equal(r.error?.exitCode, 6, r.error?.message);
      assert.match(r.error!.message, /the time limit of \d+ s was reached/);
    } else {
      assert.ok(r.record.contexts.activation, 'the plugin loaded');
    }
    if (r.record || r.lines.some((l) => /^starting php/.test(l))) assert.ok(r.lines.includes(skipped), r.lines.join('\n'));
  }

  before(async () => {
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-hostile-tree-cache-'));
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-hostile-tree-'));
  });
  after(async () => {
    await fs.rm(cacheDir, { recursive: true, force: true });
    await fs.rm(work, { recursive: true, force: true });
  });
  afterEach(async () => {
    // Whatever the outcome, nothing is left behind: no temp folder, no server process.
    for (const r of made.splice(0)) {
      if (r.root) assert.equal(existsSync(r.root), false, `temp folder ${r.root} left behind`);
      if (r.pid) assert.equal(alive(r.pid), false, `process ${r.pid} left running`);
    }
  });

  it('a symlink loop (a -> ., b -> ..): measured with the loop and the link out skipped and said, in time', async () => {
    const dir = await plugin('loop', async (d) => {
      await fs.symlink('.', path.join(d, 'a'));
      await fs.symlink('..', path.join(d, 'b'));
      await fs.symlink('..', path.join(d, 'inc', 'up'));
    });
    const r = await bounded(opts(dir, { timeoutS: 20 }));
    assertMeasuredOrTimedOut(r, 'skipped 3 entries of the component: a -> . (a link loop), b -> .. (a link out of the component), inc/up -> .. (a link loop)');
  });

  it('a FIFO (and a link to it): measured, never opened, in time', async () => {
    const dir = await plugin('fifo', async (d) => {
      execFileSync('mkfifo', [path.join(d, 'inc', 'pipe.php')]);
      await fs.symlink('inc/pipe.php', path.join(d, 'pipe-link.php'));
    });
    const r = await bounded(opts(dir, { timeoutS: 10 }));
    assertMeasuredOrTimedOut(r, 'skipped 2 entries of the component: inc/pipe.php (a FIFO), pipe-link.php -> inc/pipe.php (a link to a FIFO)');
  });

  it('a link to /dev/zero (and one to a secret file): measured, neither read nor copied, in time', async () => {
    const secret = path.join(work, 'id_rsa');
    await fs.writeFile(secret, 'SECRET');
    const dir = await plugin('devzero', async (d) => {
      await fs.symlink('/dev/zero', path.join(d, 'zero.php'));
      await fs.symlink(secret, path.join(d, 'inc', 'key.txt'));
    });
    const r = await bounded(opts(dir, { timeoutS: 10 }));
    assertMeasuredOrTimedOut(r, `skipped 2 entries of the component: inc/key.txt -> ${secret} (a link out of the component), zero.php -> /dev/zero (a link out of the component)`);
  });

  it('links that fan out past the walk\'s cap: exit 2 naming the cap and the folder, before anything is built', async () => {
    const dir = await plugin('fanout', (d) => fanOut(d, 20));
    const r = await bounded(opts(dir, { timeoutS: 60 }));
    assert.ok(r.error, 'not measured');
    assert.equal(r.error.exitCode, 2);
    assert.match(r.error.message, /holds more than 50,000 files and folders/);
    assert.ok(r.error.message.includes(dir), r.error.message);
    assert.equal(made.filter((m) => m.root).length, 0, 'no temp folder was made');
  });

  it('the time limit covers the walk: a fan-out walk under --timeout-s 2 ends with exit 6 at the limit', async () => {
    const dir = await plugin('slow', (d) => fanOut(d, 20));
    const r = await bounded(opts(dir, { timeoutS: 2 }));
    assert.equal(r.error?.exitCode, 6, r.error?.message);
    assert.match(r.error!.message, /time limit of 2 s/);
    // A walk the limit did not stop ends at the walk's cap instead (exit 2): the exit code and the words tell, not the clock.
  });

  it('the CLI sent SIGTERM while walking a component with a FIFO ends at once, leaving no temp folder', async () => {
    const cli = path.join(ROOT, 'dist', 'cli.js');
    assert.ok(existsSync(cli), 'dist/cli.js is built (node esbuild.mjs)');
    const dir = await plugin('sigterm', async (d) => {
      execFileSync('mkfifo', [path.join(d, 'fifo.php')]);
      await fanOut(d, 20); // seconds of walking before the cap: the signal lands mid-walk
    });
    const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-hostile-tree-tmp-'));
    try {
      const child = spawn(process.execPath, [cli, 'measure', dir, '--timeout-s', '10', '--no-cache', '--runtime', 'php'], {
        env: { ...process.env, WPBENCH_CACHE_DIR: cacheDir, TMPDIR: tmp },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
      await new Promise((r) => setTimeout(r, 1500));
      assert.doesNotMatch(stderr, /building a throwaway site/, 'still walking');
      child.kill('SIGTERM');
      // A FIFO opened would block for good: then the run ends only at its own limit, saying "time limit", not
      // "interrupted" (a hang beyond that is the suite's timeout's).
      const code = await exited;
      // SIGTERM is "interrupted" (exit 6; 130 is Ctrl-C's), said on stderr.
      assert.ok(code === 6 || code === 130, `exit ${code}: ${stderr}`);
      assert.match(stderr, /interrupted/);
      assert.doesNotMatch(stderr, /time limit/, 'ended by SIGTERM, not by --timeout-s');
      assert.deepEqual(await fs.readdir(tmp), [], 'nothing left in its temp folder');
    } finally {
      await fs.rm(tmp, { recursive: true, force: true });
    }
  });
});

/** Folders l0…l(n-1), each reached twice from the one before (x and y links): no loop, but 2^n paths. */
async function fanOut(dir: string, n: number): Promise<void> {
  let level = dir;
  for (let i = 0; i < n; i++) {
    const next = path.join(dir, `l${i}`);
    await fs.mkdir(next);
    await fs.writeFile(path.join(next, 'f.txt'), 'x');
    await fs.symlink(path.relative(level, next), path.join(level, 'x'));
    await fs.symlink(path.relative(level, next), path.join(level, 'y'));
    level = next;
  }
}

