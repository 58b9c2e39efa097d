// `measure PATH --browser --format html|markdown`: the browser report of a plain measure (no --baseline-ref needed);
// other formats refused with why (exit 2, nothing measured).
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { runMeasureCli, MEASURE_USAGE } from '../../../../src/cli/measure';

const io = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s), env: { PATH: process.env.PATH }, cwd: process.cwd(), cacheDir: '/nonexistent-wpbench-cache' } };
};
const FIX = path.resolve(__dirname, '..', '..', '..', 'fixtures', 'measure', 'noop');

describe('measure --browser --format', () => {
  it('html and markdown are its report: accepted (what refuses this run is Playground, not the format)', async () => {
    for (const format of ['html', 'markdown']) {
      const t = io();
      assert.equal(await runMeasureCli([FIX, '--browser', '--format', format, '--runtime', 'playground'], t.io as never), 2);
      assert.doesNotMatch(t.err.join('\n'), /--format/);
      assert.match(t.err.join('\n'), /--browser needs the native php runtime/);
    }
    assert.match(MEASURE_USAGE, /with --browser alone: html/);
  });

  it('another format is a usage error that says which ones (exit 2), nothing measured', async () => {
    const t = io();
    assert.equal(await runMeasureCli([FIX, '--browser', '--format', 'sarif'], t.io as never), 2);
    assert.deepEqual(t.out, []);
    assert.match(t.err.join('\n'), /--format with --browser alone is html or markdown/);
  });
});
