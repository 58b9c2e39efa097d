// `measure --browser`'s command line: its flags refused where they mean nothing (exit 2, nothing measured), and on
// WordPress Playground refused with why before any site is built.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { runMeasureCli, MEASURE_USAGE } from '../../../../src/cli/measure';

const io = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s), env: { PATH: process.env.PATH }, cwd: process.cwd(), cacheDir: '/nonexistent-wpbench-cache' } };
};
const FIX = path.resolve(__dirname, '..', '..', '..', 'fixtures', 'measure', 'noop');

describe('measure --browser: CLI', () => {
  it('is in --help with its profiles', () => {
    assert.match(MEASURE_USAGE, /--browser\s/);
    assert.match(MEASURE_USAGE, /--device desktop\|mobile/);
    assert.match(MEASURE_USAGE, /sudo apt install chromium/);
  });

  for (const [args, why] of [
    [['--device', 'mobile'], /--device and --browser-rounds go with --browser/],
    [['--browser-rounds', '3'], /--device and --browser-rounds go with --browser/],
    [['--browser', '--device', 'tablet'], /--device is desktop or mobile/],
    [['--browser', '--browser-rounds', '0'], /--browser-rounds needs a whole number/],
    [['--browser', '--baseline-ref', 'HEAD', '--browser-rounds', '4'], /--baseline-ref: --browser: 4 loads a side cannot tell a change from noise .*--browser-rounds 5 or more/],
  ] as const) {
    it(`${args.join(' ')} is a usage error (exit 2), nothing measured`, async () => {
      const t = io();
      assert.equal(await runMeasureCli([FIX, ...args], t.io as never), 2);
      assert.deepEqual(t.out, []);
      assert.match(t.err.join('\n'), why);
    });
  }

  it('goes with --site: the run starts (on Playground --site itself is refused, exit 8)', async () => {
    const t = io();
    assert.equal(await runMeasureCli([FIX, '--site', '--browser', '--device', 'mobile', '--runtime', 'playground'], t.io as never), 8);
    assert.match(t.err.join('\n'), /--site needs the native php runtime/);
  });

  it('is refused on WordPress Playground (exit 2), saying why and what to run instead', async () => {
    const t = io();
    assert.equal(await runMeasureCli([FIX, '--browser', '--runtime', 'playground', '--json'], t.io as never), 2);
    assert.match(t.err.join('\n'), /--browser needs the native php runtime.*--runtime php/);
    assert.match(t.out.join(''), /"exit_code":2/);
  });
});
