// `wp-bench measure`'s guards before anything runs: a comparison too small to judge is refused, --sandbox is
// validated, and the exit code of an interruption follows --help (Ctrl-C 130, SIGTERM/SIGHUP 6).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { MEASURE_USAGE, runMeasureCli, tooSmallToJudge } from '../../../src/cli/measure';
import { MeasureError } from '../../../src/core/measure/run/engine';

const FIX = path.resolve(__dirname, '..', '..', 'fixtures', 'measure', 'noop');

function io(signal?: AbortSignal) {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s), env: { PATH: process.env.PATH }, cwd: process.cwd(), cacheDir: '/nonexistent-wpbench-cache', signal } };
}

describe('measure CLI guards', () => {
  it('tooSmallToJudge: fewer than 5 rounds or no warm-up cannot be judged; the defaults can', () => {
    assert.match(tooSmallToJudge(1, 2)!, /1 measured round cannot tell a change from noise/);
    assert.match(tooSmallToJudge(2, 2)!, /--rounds 5 or more/);
    assert.match(tooSmallToJudge(5, 0)!, /--warmup 1 or more/);
    assert.match(tooSmallToJudge(3, 1)!, /--rounds 5 or more/, 'below 5 pairs the smallest difference is no 95 % bound');
    assert.equal(tooSmallToJudge(5, 1), undefined);
    assert.equal(tooSmallToJudge(9, 2), undefined);
  });

  it('--baseline-ref with --rounds 1 --warmup 0 is refused with exit 2 before anything is measured', async () => {
    const t = io();
    const code = await runMeasureCli([FIX, '--baseline-ref', 'HEAD', '--rounds', '1', '--warmup', '0'], t.io as never);
    assert.equal(code, 2);
    assert.match(t.err.join('\n'), /--baseline-ref: 1 measured round cannot tell a change from noise/);
    assert.deepEqual(t.out, []);
  });

  it('--sandbox takes auto, bubblewrap or none', async () => {
    const t = io();
    assert.equal(await runMeasureCli([FIX, '--sandbox', 'docker'], t.io as never), 2);
    assert.match(t.err.join('\n'), /--sandbox is auto, bubblewrap or none/);
    assert.match(MEASURE_USAGE, /--sandbox auto\|bubblewrap\|none/);
    assert.match(MEASURE_USAGE, /SIGTERM and\s+SIGHUP exit 6/);
  });

  it('--site takes --format table, json, markdown or html, and refuses what measures one component', async () => {
    for (const [args, message] of [
      [['--format', 'sarif'], /with --site, --format is table, json, markdown or html/],
      [['--format', 'speedscope'], /with --site, --format is table, json, markdown or html/],
      [['--format', 'markdown', '--json'], /--json and --format exclude each other/],
      [['--fail-on-regression', '5'], /--site measures the whole stack: without --baseline-ref, --profile or --fail-on-regression/],
      [['--format', 'html', '--profile'], /--site measures the whole stack/],
    ] as const) {
      const t = io();
      assert.equal(await runMeasureCli([FIX, '--site', ...args], t.io as never), 2, args.join(' '));
      assert.match(t.err.join('\n'), message);
    }
    assert.match(MEASURE_USAGE, /with --site:\s+table \(default\), json \(as --json\), markdown or html/);
  });

  it('an interruption by SIGTERM exits 6, by Ctrl-C 130', async () => {
    for (const [byCtrlC, expected] of [
      [false, 6],
      [true, 130],
    ] as const) {
      const ac = new AbortController();
      ac.abort(Object.assign(new MeasureError('interrupted (test)', 6), { byCtrlC }));
      const t = io(ac.signal);
      // --php names a binary that cannot run, so nothing would start even if the abort were missed.
      const code = await runMeasureCli([FIX, '--php', '/nonexistent/php', '--runtime', 'php', '--no-cache'], t.io as never);
      assert.equal(code, expected, t.err.join('\n'));
    }
  });
});
