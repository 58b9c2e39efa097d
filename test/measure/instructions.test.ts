// Integration: `measure --instructions` with real PHP, MariaDB and Valgrind (callgrind) on calibration plugins BUILT by
// the test: work of a known count next to the same work counted alone, an identical copy against HEAD (never a
// regression), and a change adding a few percent of the request (always one). No time is asserted: the point of the
// counts is that they do not depend on the machine's load.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { countedAlone, countedWorkPlugin } from './countedWork';
import { git, measureCli } from './helpers';


const run = measureCli;

type Rec = { contexts: Record<string, { instructions_delta?: number } | null>; local: { baseline: Record<string, { instructions?: number } | null>; spread: Record<string, { instructions?: number } | null>; instructions?: { counter: string } } };

describe('wp-bench measure --instructions (native php, MariaDB, callgrind)', function () {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const fast = ['--runtime', 'php', '--rounds', '5', '--warmup', '1', '--no-cache', '--instructions'];
  const N = 100_000;

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-instructions-'));
    env = { ...process.env, WPBENCH_CACHE_DIR: path.join(dir, 'cache') };
    await fs.mkdir(path.join(dir, 'repo', 'counted'), { recursive: true });
    await fs.writeFile(path.join(dir, 'repo', 'counted', 'counted.php'), countedWorkPlugin(N));
    git(path.join(dir, 'repo'), 'init', '-q');
    git(path.join(dir, 'repo'), 'add', '.');
    git(path.join(dir, 'repo'), 'commit', '-q', '-m', 'known work');
  });
  after(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('a calibration plugin\'s count is the same work counted alone (within ±2 %), in every context, with a tiny spread', async () => {
    const r = await run([path.join(dir, 'repo', 'counted'), '--json', ...fast], env);
    assert.equal(r.code, 0, r.err);
    const rec = JSON.parse(r.out) as Rec;
    assert.equal(rec.local.instructions?.counter, 'callgrind');
    const alone = countedAlone(N, dir);
    for (const ctx of ['activation', 'homepage', 'admin']) {
      const d = rec.contexts[ctx]!.instructions_delta!;
      assert.ok(Math.abs(d - alone) <= 0.02 * alone, `${ctx}: ${d} instructions in WordPress, ${alone} alone`);
      // Two identical requests: a few thousand instructions of tens of millions.
      assert.ok(rec.local.spread[ctx]!.instructions! < 0.001 * rec.local.baseline[ctx]!.instructions!, `${ctx} spread ${rec.local.spread[ctx]!.instructions}`);
    }
  });

  it('--baseline-ref HEAD on an identical copy: exit 0, judged on instructions', async () => {
    const r = await run([path.join(dir, 'repo', 'counted'), '--baseline-ref', 'HEAD', ...fast], env);
    assert.equal(r.code, 0, `${r.out}\n${r.err}`);
    assert.match(r.out, /homepage\s+instructions\s/);
    assert.match(r.out, /PASSED/);
  });

  it('--baseline-ref HEAD on a change adding a few percent of the request: exit 1, an instructions regression in every context', async () => {
    await fs.writeFile(path.join(dir, 'repo', 'counted', 'counted.php'), countedWorkPlugin(N + 40_000, '1.1'));
    try {
      const r = await run([path.join(dir, 'repo', 'counted'), '--baseline-ref', 'HEAD', ...fast], env);
      assert.equal(r.code, 1, `${r.out}\n${r.err}`);
      for (const ctx of ['activation', 'homepage', 'admin']) assert.match(r.out, new RegExp(`${ctx}\\s+instructions\\s.*REGRESSION`));
    } finally {
      git(path.join(dir, 'repo'), 'checkout', '-q', '--', '.');
    }
  });
});
