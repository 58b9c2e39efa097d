// Integration (issue 39): `measure --findings` with real PHP and MariaDB on the calibration plugin (findingsPlugin.ts:
// each kind at a marked line beside a look-alike), then `--fix` and `--baseline-ref HEAD`: the fix of a 200 KB
// autoloaded option is measured as a saving on the homepage.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { measure } from '../../src/core/measure/run/engine';
import { runMeasureCli } from '../../src/cli/measure';
import { ASSET_BYTES, FINDINGS_FILES, markers, writeFindingsPlugin } from './findingsPlugin';
import { nativeMeasureSuite } from './helpers';

const ROOT = path.resolve(__dirname, '..', '..');
const within10 = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) <= expected * 0.1, `${what}: ${actual}, expected ${expected} ± 10 %`);

describe('wp-bench measure --findings (native php, a throwaway MariaDB; issue 39)', function () {
  const { opts, cacheDir } = nativeMeasureSuite(ROOT);
  let work: string;
  before(async () => {
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-findings-'));
  });
  after(async () => {
    await fs.rm(work, { recursive: true, force: true });
  });

  it('every defect at its exact line with its counts and sizes, no look-alike, nothing outside the plugin; the figures are measured as always', async function () {
    this.timeout(600_000);
    const plugin = await writeFindingsPlugin(path.join(work, 'one'));
    const r = await measure(opts(plugin, { findings: true, rounds: 3, warmup: 1 }));
    assert.equal(r.local.database?.engine, 'mariadb');
    assert.ok(r.findings, 'the record has findings');
    const got = r.findings.map((f) => `${f.kind} ${f.file}:${f.line}`).sort();
    assert.deepEqual(got, markers('defect').map((m) => `${m.kind} ${m.file}:${m.line}`).sort());
    for (const f of r.findings) assert.ok(f.file in FINDINGS_FILES, `${f.file} is the plugin's own`);
    const by = (k: string) => r.findings!.find((f) => f.kind === k)!;
    within10(by('autoloaded-option').evidence.bytes as number, 200 * 1024, 'autoloaded option');
    assert.equal(by('repeated-query').evidence.per_request, 6);
    assert.equal(by('remote-request').evidence.host, 'status.acme.example');
    within10(by('large-asset').evidence.bytes as number, ASSET_BYTES['big.js'], 'large asset');
    assert.deepEqual(by('admin-asset-everywhere').evidence.screens, ['index.php', 'options-general.php']);
    // Issue 45: one handle, two files (MonsterInsights's pattern): the 640 KB file WordPress kept on the dashboard at its
    // registration, the every-screen finding at the line that enqueues it everywhere, with the file printed there;
    // jQuery, which the admin prints anyway, is no finding (the clean side's records say so).
    const vendors = (k: string) => r.findings!.find((f) => f.kind === k && f.file === 'inc/vendors.php')!;
    within10(vendors('large-asset').evidence.bytes as number, ASSET_BYTES['vendors-full.js'], 'the dashboard\'s vendor bundle');
    assert.deepEqual([vendors('large-asset').contexts, vendors('large-asset').evidence.screens], [['admin'], ['index.php']]);
    within10(vendors('admin-asset-everywhere').evidence.bytes as number, ASSET_BYTES['vendors.js'], 'the vendor file of every screen');
    for (const fine of markers('fine')) assert.ok(!r.findings.some((f) => f.file === fine.file && f.line === fine.line), `look-alike at ${fine.file}:${fine.line} reported`);
    assert.equal(by('autoloaded-option').fix.edits?.length, 1, 'the autoload fix is mechanical');
    // The timed figures: the plugin's own 13 homepage queries (6 + 4 in loops, 2 options, the transient), none of the collector's.
    assert.equal(r.contexts.homepage!.queries_delta, 13);
  });

  it('--fix turns autoload off at its line; --baseline-ref HEAD then measures ≥ 150 KB saved on the homepage', async function () {
    this.timeout(600_000);
    const plugin = await writeFindingsPlugin(path.join(work, 'repo'));
    const git = (...a: string[]) => execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', ...a], { cwd: plugin, encoding: 'utf8' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'calibration');
    const io = () => {
      const out: string[] = [];
      const err: string[] = [];
      return { out, err, io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s), env: process.env, cwd: plugin, cacheDir: cacheDir() } };
    };
    const fixRun = io();
    assert.equal(await runMeasureCli(['.', '--findings', '--fix', '--rounds', '3', '--warmup', '1', '--no-cache'], fixRun.io as never), 0, fixRun.err.join('\n'));
    assert.match(fixRun.err.join('\n'), /fixed inc\/options\.php:5: add_option\('acme_cache', \$cache\);.*→ add_option\('acme_cache', \$cache, '', false\);/);
    assert.equal(git('diff', '--stat').trim().split('\n').length, 2, 'one file changed');
    assert.match(readFileSync(path.join(plugin, 'inc', 'options.php'), 'utf8').split('\n')[4], /add_option\('acme_cache', \$cache, '', false\);/);

    const cmp = io();
    const code = await runMeasureCli(['.', '--baseline-ref', 'HEAD', '--json'], cmp.io as never);
    assert.ok(code === 0 || code === 3, `exit ${code}: ${cmp.err.join('\n')}`);
    const report = JSON.parse(cmp.out.join('\n'));
    const mem = report.comparison.find((m: { context: string; metric: string }) => m.context === 'homepage' && m.metric === 'memoryMb');
    assert.ok(-mem.difference * 1024 >= 150, `homepage memory saved: ${(-mem.difference * 1024).toFixed(0)} KB`);
    assert.match(report.saved, /homepage −\d+ KB/);

    // Measured again, the fixed copy no longer has the finding.
    const again = await measure(opts(plugin, { findings: true, rounds: 3, warmup: 1 }));
    assert.ok(!again.findings!.some((f) => f.kind === 'autoloaded-option'), JSON.stringify(again.findings!.map((f) => f.kind)));
  });
});
