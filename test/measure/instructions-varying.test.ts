// Integration: a component whose own requests vary in CPU instructions is SAID (`measure --instructions` and
// `check --measure-local --instructions`), with real PHP, MariaDB and Valgrind, on a calibration plugin BUILT by the
// test (varyingWork.ts): every other front-end request does ~1 M more instructions; the admin does the same work every
// time. The front-end contexts are named in `local.instructions.varying` and a notice on stderr; the admin is not.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../src/cli/index';
import { measureCli } from './helpers';
import { varyingWorkPlugin } from './varyingWork';

type Rec = { local: { instructions?: { varying?: string[] }; spread: Record<string, { instructions?: number } | null> } };

describe('--instructions: a component whose requests vary is said (native php, MariaDB, callgrind)', function () {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const plugin = () => path.join(dir, 'site', 'wp-content', 'plugins', 'varying-work');

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-varying-'));
    // No API address, no key: check judges what it measures locally.
    env = { PATH: process.env.PATH, HOME: process.env.HOME, WPBENCH_CACHE_DIR: path.join(dir, 'cache') };
    await fs.mkdir(plugin(), { recursive: true });
    await fs.writeFile(path.join(plugin(), 'varying-work.php'), varyingWorkPlugin());
  });
  after(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('measure --instructions: the front end named in local.instructions.varying and said on stderr; the admin not', async () => {
    const r = await measureCli([plugin(), '--runtime', 'php', '--rounds', '5', '--warmup', '1', '--no-cache', '--instructions', '--json'], env);
    assert.equal(r.code, 0, r.err);
    const rec = JSON.parse(r.out) as Rec;
    assert.deepEqual(rec.local.instructions?.varying, ['activation', 'homepage'], `spread: ${JSON.stringify(rec.local.spread)}`);
    assert.match(r.err, /^wp-bench: warning: CPU instructions varied between identical requests in activation \(by up to [\d.]+ [KM] instr, [\d.]+ % of the request\) and homepage \(by up to [\d.]+ [KM] instr/m);
  });

  it('check --measure-local --instructions: the component\'s local.instructions.varying, and the notice named on stderr', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['check', path.join(dir, 'site'), '--offline', '--measure-local', '--instructions', '--format', 'json', '--timeout-s', '900'], { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd: dir });
    assert.equal(code, 0, err.join('\n'));
    const c = JSON.parse(out.join('\n')).components.find((x: { slug: string }) => x.slug === 'varying-work');
    assert.equal(c.source, 'local');
    assert.equal(c.local.instructions.counter, 'callgrind');
    assert.deepEqual(c.local.instructions.varying, ['activation', 'homepage']);
    assert.equal(typeof c.local.instructions.contexts.admin.delta, 'number');
    assert.match(err.join('\n'), /^wp-bench: plugin varying-work: CPU instructions varied between identical requests in activation .* and homepage /m);
  });
});
