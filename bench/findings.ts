// Figure 11 of `npm run bench`: `measure --findings` on the calibration plugin (test/measure/findingsPlugin.ts): every
// defect at its exact line with its counts and sizes (±10 %), no look-alike, nothing outside the plugin; `--fix` then
// `--baseline-ref HEAD` measuring the saving of a 200 KB autoloaded option; and what --findings adds to a run's time
// (runs with and without it, alternated, medians). Full mode only.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LocalRecord } from '../src/core/measure/record/method';
import { git } from '../test/measure/loadSample';
import { ASSET_BYTES, FINDINGS_FILES, markers, writeFindingsPlugin } from '../test/measure/findingsPlugin';
import { measureCli, type Status } from './common';

type RowFn = (id: string, figure: string, value: string, target: string, status: Status) => void;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const within10 = (x: number, truth: number) => Math.abs(x - truth) <= truth * 0.1;

export async function figureFindings(row: RowFn, details: Record<string, unknown>, quick: boolean, log: (s: string) => void): Promise<void> {
  const id = '11';
  if (quick) {
    row(id, 'measure --findings: calibration defects', 'not measured (full mode only: about 1 minute)', '-', 'not measured');
    return;
  }
  const cache = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-bench-findings-cache-'));
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-bench-findings-'));
  const env = { ...process.env, WPBENCH_CACHE_DIR: cache };
  const cli = measureCli(env);
  try {
    const plugin = await writeFindingsPlugin(work);
    log('findings: the calibration plugin, with and without --findings, alternated');
    const plain: number[] = [];
    const withF: number[] = [];
    let rec: LocalRecord | undefined;
    for (let i = 0; i < 3; i++) {
      const a = await cli([plugin, '--json', '--no-cache']);
      if (a.code !== 0) throw new Error(`measure exited ${a.code}: ${a.err.slice(-300)}`);
      plain.push(a.s);
      const b = await cli([plugin, '--findings', '--json', '--no-cache']);
      if (b.code !== 0) throw new Error(`measure --findings exited ${b.code}: ${b.err.slice(-300)}`);
      withF.push(b.s);
      rec = JSON.parse(b.out) as LocalRecord;
    }
    const fs_ = rec!.findings ?? [];
    details.findings = fs_;
    const want = markers('defect');
    const found = want.filter((m) => fs_.some((f) => f.kind === m.kind && f.file === m.file && f.line === m.line));
    row(id, 'measure --findings: each defect at its exact line', `${found.length} of ${want.length}`, `${want.length} of ${want.length}`, found.length === want.length ? 'PASS' : 'FAIL');
    const fine = markers('fine').filter((m) => fs_.some((f) => f.file === m.file && f.line === m.line));
    row(id, 'measure --findings: look-alikes reported', `${fine.length} of ${markers('fine').length}`, '0', fine.length === 0 ? 'PASS' : 'FAIL');
    const outside = fs_.filter((f) => !(f.file in FINDINGS_FILES));
    const extra = fs_.filter((f) => !want.some((m) => m.kind === f.kind && m.file === f.file && m.line === f.line));
    row(id, 'measure --findings: anything else (outside the plugin, or not a defect)', `${outside.length + extra.length}`, '0', outside.length + extra.length === 0 ? 'PASS' : 'FAIL');
    const by = (k: string) => fs_.find((f) => f.kind === k);
    const sizes = [
      { what: 'autoloaded option bytes', got: Number(by('autoloaded-option')?.evidence.bytes), truth: 200 * 1024 },
      { what: 'queries per request in the loop', got: Number(by('repeated-query')?.evidence.per_request), truth: 6 },
      { what: 'large script bytes', got: Number(by('large-asset')?.evidence.bytes), truth: ASSET_BYTES['big.js'] },
      { what: 'admin stylesheet bytes', got: Number(by('admin-asset-everywhere')?.evidence.bytes), truth: ASSET_BYTES['admin.css'] },
      { what: 'head script bytes', got: Number(by('render-blocking-script')?.evidence.bytes), truth: ASSET_BYTES['head.js'] },
    ];
    for (const s of sizes) row(id, `measure --findings: ${s.what}`, String(s.got), `${s.truth} ±10 %`, within10(s.got, s.truth) ? 'PASS' : 'FAIL');
    const overhead = (median(withF) / median(plain) - 1) * 100;
    details.findingsTimes = { plain, withFindings: withF };
    row(id, 'measure --findings: added to a run\'s time (whole command, medians of 3 alternated)', `${overhead.toFixed(1)} % (${median(plain).toFixed(1)} s → ${median(withF).toFixed(1)} s)`, '≤ 25 %', overhead <= 25 ? 'PASS' : 'FAIL');

    log('findings: --fix, then --baseline-ref HEAD');
    git(plugin, 'init', '-q');
    git(plugin, 'add', '.');
    git(plugin, 'commit', '-q', '-m', 'calibration');
    const f = await cli(['.', '--findings', '--fix', '--no-cache'], plugin);
    const fixed = /fixed inc\/options\.php:5:/.test(f.err);
    const d = await cli(['.', '--baseline-ref', 'HEAD', '--json'], plugin);
    const j = JSON.parse(d.out);
    const mem = (j.comparison as { context: string; metric: string; difference: number }[]).find((m) => m.context === 'homepage' && m.metric === 'memoryMb');
    const savedKb = mem ? -mem.difference * 1024 : NaN;
    row(id, 'measure --findings --fix, then --baseline-ref HEAD: a 200 KB autoloaded option, saved on the homepage', `${fixed ? 'fixed; ' : 'NOT fixed; '}${Math.round(savedKb)} KB (${j.saved ?? 'nothing said'})`, '≥ 150 KB', fixed && savedKb >= 150 ? 'PASS' : 'FAIL');
  } finally {
    await fs.rm(cache, { recursive: true, force: true });
    await fs.rm(work, { recursive: true, force: true });
  }
}
