// Integration: the sandbox's limits (at most 1,024 processes; at most 2 GiB of address space per PHP process) and
// what the measured PHP says during its activation and first requests. Hostile plugins BUILT by the test in a
// temporary folder, measured on the native runtime in bubblewrap (required: a machine without it fails the suite)
// with the throwaway MariaDB. A plugin that hits a limit ends the run as failed, saying which limit; nothing is left
// behind (no temporary folder, no process, no cgroup). Warnings and uncaught exceptions are printed once each, on one
// line, escaped. Slow (a real WordPress per measurement): run with `npm run test:measure`.
import * as assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { MeasureError, measure, type MeasureOptions } from '../../src/core/measure/run/engine';
import type { LocalRecord } from '../../src/core/measure/record/method';
import { gone, nativeMeasureSuite, processesWith } from './helpers';

const ROOT = path.resolve(__dirname, '..', '..');

/** The folders of the pids cgroups WP Bench may make for its sandboxes (cgroup v1 and v2), below this process's own. */
function cgroupParents(): string[] {
  const out: string[] = [];
  for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
    const [, ctrl, p] = line.split(':');
    if (p === undefined) continue;
    if (ctrl.split(',').includes('pids')) out.push(path.join('/sys/fs/cgroup/pids', p));
    if (ctrl === '') out.push(path.join('/sys/fs/cgroup', p), path.join('/sys/fs/cgroup/unified', p));
  }
  return out.filter((d) => existsSync(d));
}

/** The cgroups this process's runs made (`wp-bench-PID-N`) that are still there. */
function sandboxCgroupsLeft(): string[] {
  return cgroupParents().flatMap((d) => readdirSync(d).filter((n) => n.startsWith(`wp-bench-${process.pid}-`)).map((n) => path.join(d, n)));
}

describe('the sandbox limits processes and memory, and what the measured PHP says is printed (native php, bubblewrap)', function () {
  this.timeout(600_000);
  const suite = nativeMeasureSuite(ROOT);
  const opts = (p: string, extra: Partial<MeasureOptions> = {}): MeasureOptions => suite.opts(p, { sandbox: 'bubblewrap', rounds: 2, warmup: 1, ...extra });
  afterEach(async () => {
    // The cgroups made for the run's sandboxes are removed once their processes are gone: asked until then, at most
    // 200 times 50 ms apart.
    for (let ask = 0; ask < 200 && sandboxCgroupsLeft().length > 0; ask++) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(sandboxCgroupsLeft(), [], 'cgroups left behind');
  });

  /** The plugin `slug` (its folder in the suite's cache folder, removed with it), its code after the header. */
  async function makePlugin(slug: string, code: string): Promise<string> {
    const dir = path.join(suite.cacheDir(), 'test-plugins', slug);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, `${slug}.php`), `<?php\n/**\n * Plugin Name: Limits test: ${slug}\n * Version: 1.0\n */\n${code}`);
    return dir;
  }

  /** measure() with its progress lines: the record, or the MeasureError it ended with. */
  async function run(o: MeasureOptions): Promise<{ record?: LocalRecord; error?: MeasureError; lines: string[] }> {
    const lines: string[] = [];
    try {
      return { record: await measure({ ...o, progress: (l) => lines.push(l) }), lines };
    } catch (err) {
      assert.ok(err instanceof MeasureError, `a MeasureError, not ${String((err as Error).stack ?? err)}`);
      return { error: err, lines };
    }
  }

  it('a plugin that starts processes in a loop fails the run at the limit of 1,024 processes, leaving none behind', async () => {
    // `sleep MARKER`: a marker no other process has; at most 1,500 are started (without the limit every one starts).
    const marker = String(3_700_000_000 + randomInt(1_000_000));
    const plugin = await makePlugin(
      'fork-loop',
      `register_activation_hook(__FILE__, function () {
  $GLOBALS['wpbench_keep'] = array();
  for ($i = 0; $i < 1500; $i++) {
    $p = proc_open(array('sleep', '${marker}'), array(), $pipes);
    if (!$p) break;
    $GLOBALS['wpbench_keep'][] = $p;
  }
});
`,
    );
    const r = await run(opts(plugin));
    assert.ok(r.error, `the run should fail; it measured ${JSON.stringify(r.record?.contexts)}`);
    assert.equal(r.error.exitCode, 7, r.error.message);
    assert.match(r.error.message, /the plugin hit the sandbox's limit of 1,024 processes/);
    assert.match(r.error.message, /Fork failed: Resource temporarily unavailable/);
    for (const pid of processesWith(marker)) assert.ok(await gone(pid, 5000), `process ${pid} (sleep ${marker}) left running`);
  });

  it('a plugin that allocates more than 2 GiB fails the run at the limit of 2 GiB of memory per process', async () => {
    // 3 GiB in 64 MiB strings, past PHP's own memory_limit (lifted): without the limit every allocation succeeds.
    const plugin = await makePlugin(
      'memory-hog',
      `register_activation_hook(__FILE__, function () {
  ini_set('memory_limit', '-1');
  $keep = array();
  for ($i = 0; $i < 48; $i++) $keep[] = str_repeat(chr(65 + $i % 26), 64 * 1024 * 1024);
  $GLOBALS['wpbench_held'] = count($keep);
});
`,
    );
    const r = await run(opts(plugin));
    assert.ok(r.error, `the run should fail; it measured ${JSON.stringify(r.record?.contexts)}`);
    assert.equal(r.error.exitCode, 7, r.error.message);
    assert.match(r.error.message, /the plugin hit the sandbox's limit of 2 GiB of memory per process/);
  });

  it("a warning during activation and an exception in the admin's requests are printed once each, escaped", async () => {
    const plugin = await makePlugin(
      'says-things',
      `register_activation_hook(__FILE__, function () { trigger_error("hostile\\nline", E_USER_WARNING); });
add_action('admin_init', function () { throw new RuntimeException("boom\\nforged line \\x1b[31mred\\x07"); });
`,
    );
    const r = await run(opts(plugin));
    assert.ok(r.record, r.error?.message);
    assert.ok(r.record.contexts.homepage, 'the homepage measured');
    assert.equal(r.record.contexts.admin, null, 'the admin fails');
    const warnings = r.lines.filter((l) => l.startsWith('warning: '));
    const activation = warnings.filter((l) => l.includes('hostile\\nline'));
    assert.equal(activation.length, 1, `the activation's warning once:\n${r.lines.join('\n')}`);
    assert.match(activation[0], /E_USER_WARNING|PHP Warning/);
    const thrown = warnings.filter((l) => l.includes('Uncaught RuntimeException: boom\\nforged line \\u001b[31mred\\u0007'));
    assert.equal(thrown.length, 1, `the admin's exception once:\n${r.lines.join('\n')}`);
    for (const l of r.lines) {
      // eslint-disable-next-line no-control-regex
      assert.doesNotMatch(l, /[\u0000-\u001f\u007f]/, `a progress line with a raw control character: ${JSON.stringify(l)}`);
      assert.ok(l.length <= 1200, `a progress line of ${l.length} characters`);
    }
  });
});
