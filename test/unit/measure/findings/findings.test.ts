// `measure --findings` on recorded data (issue 39): what the collector recorded on a real run of the calibration
// plugin (test/measure/findingsPlugin.ts: each kind at a marked line beside a look-alike) turned into findings, the
// mechanical fix of an autoloaded option, --fix's writes, the reports, and the CLI's guards.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { aggregateFindings, REPEAT_MIN } from '../../../../src/core/measure/findings/aggregate';
import { applyEdits, autoloadEdit, withFixes } from '../../../../src/core/measure/findings/fix';
import type { Finding, RawFindings } from '../../../../src/core/measure/findings/types';
import { parseRawFindings, readFindingsDir } from '../../../../src/core/measure/run/findingsPass';
import { findingsHtml, findingsLines, findingsMarkdown, findingsSarif, savedText } from '../../../../src/core/report/findingsFormats';
import { runMeasureCli } from '../../../../src/cli/measure';
import type { LocalRecord } from '../../../../src/core/measure/record/method';
import type { RegressionReport } from '../../../../src/core/measure/compare/regression';
import { ASSET_BYTES, FINDINGS_FILES, markers } from '../../../measure/findingsPlugin';

const RECORDED = path.resolve(__dirname, '..', '..', '..', 'fixtures', 'findings', 'acme-findings.raw.json');
const recorded = (): RawFindings[] => (JSON.parse(readFileSync(RECORDED, 'utf8')) as unknown[]).map((r) => parseRawFindings(JSON.stringify(r))!);
const within10 = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) <= expected * 0.1, `${what}: ${actual}, expected ${expected} ± 10 %`);

describe('measure --findings: the findings of recorded requests', () => {
  it('the recorded calibration run: every defect at its marked line, no look-alike, every file the plugin\'s own', () => {
    const raw = recorded();
    assert.equal(raw.length, 15, 'activation, 3 warm-up requests, 2 × 4 pass requests, 3 pages of the clean side');
    const fs = aggregateFindings(raw);
    const got = fs.map((f) => `${f.kind} ${f.file}:${f.line}`).sort();
    const want = markers('defect').map((m) => `${m.kind} ${m.file}:${m.line}`).sort();
    assert.deepEqual(got, want);
    for (const fine of markers('fine')) assert.ok(!fs.some((f) => f.file === fine.file && f.line === fine.line), `look-alike at ${fine.file}:${fine.line} reported`);
    for (const f of fs) {
      assert.ok(f.file in FINDINGS_FILES, `${f.file} is not one of the plugin's files`);
      assert.ok(f.contexts.length > 0 && Array.isArray(f.contexts));
    }
    const by = (k: string) => fs.find((f) => f.kind === k)!;
    const opt = by('autoloaded-option');
    assert.equal(opt.evidence.option, 'acme_cache');
    within10(opt.evidence.bytes as number, 200 * 1024, 'option bytes');
    assert.deepEqual(opt.evidence.read_in, []);
    assert.equal(opt.function, 'acme_activate');
    within10(opt.saves.homepage!.memory_kb!, 200, 'saved on the homepage');
    assert.equal(opt.severity, 'warning');
    const q = by('repeated-query');
    assert.equal(q.evidence.per_request, 6);
    assert.match(String(q.evidence.query), /^SELECT option_value FROM wp_options WHERE option_name = \?$/);
    assert.deepEqual(q.contexts, ['homepage']);
    assert.equal(q.saves.homepage!.queries, 5);
    const h = by('remote-request');
    assert.deepEqual([h.evidence.method, h.evidence.host, h.evidence.per_request], ['GET', 'status.acme.example', 1]);
    const rb = by('render-blocking-script');
    assert.deepEqual([rb.evidence.handle, rb.evidence.in_head], ['acme-head', true]);
    within10(by('large-asset').evidence.bytes as number, ASSET_BYTES['big.js'], 'large asset bytes');
    const adm = by('admin-asset-everywhere');
    assert.deepEqual([adm.evidence.handle, adm.evidence.screens], ['acme-admin', ['index.php', 'options-general.php']]);
    // Issue 45 (MonsterInsights's pattern): the file WordPress kept on the dashboard at its registration, the handle's
    // every-screen finding at the line that enqueues it everywhere with the file printed there; jQuery is core's.
    const vendors = (k: string) => fs.find((f) => f.kind === k && f.file === 'inc/vendors.php')!;
    assert.deepEqual([vendors('large-asset').line, vendors('large-asset').evidence.bytes, vendors('large-asset').evidence.screens, vendors('large-asset').evidence.enqueued_at], [5, ASSET_BYTES['vendors-full.js'], ['index.php'], ['inc/vendors.php:6', 'inc/vendors.php:9']]);
    assert.deepEqual([vendors('admin-asset-everywhere').line, vendors('admin-asset-everywhere').evidence.bytes], [9, ASSET_BYTES['vendors.js']]);
  });

  it('the recorded run without its clean side: jQuery, enqueued on every admin screen, is said (what WordPress prints anyway is known only from the clean side)', () => {
    const fs = aggregateFindings(recorded().filter((r) => r.side !== 'baseline'));
    const jq = fs.find((f) => f.evidence.handle === 'jquery')!;
    assert.deepEqual([jq.kind, `${jq.file}:${jq.line}`, jq.severity], ['admin-asset-everywhere', 'inc/vendors.php:10', 'information']);
  });

  it('a look-alike turned into a defect is reported: the option read on the front end but over 150 KB', () => {
    const raw = recorded().map((r) => ({ ...r, autoload: r.autoload?.map(([n, a, b]) => [n, a, n === 'acme_settings' ? 160_000 : b] as [string, string, number]) }));
    const f = aggregateFindings(raw).find((x) => x.evidence.option === 'acme_settings');
    assert.ok(f, 'a read option over the limit is reported');
    assert.match(f.message, /over WordPress's 146 KB limit/);
    assert.ok(!f.contexts.includes('homepage') || Object.keys(f.saves).length === 0 || !f.saves.homepage, 'no saving claimed where it is read');
  });

  it('a count seen on one request of a context but not the other is not "every request"; below 5 never', () => {
    const raw = recorded();
    // The homepage's two pass requests: in one of them the loop ran only twice.
    let first = true;
    const changed = raw.map((r) => {
      if (r.phase !== 'p:homepage:front' || !first) return r;
      first = false;
      return { ...r, queries: r.queries!.map((q) => (q.n === 6 ? { ...q, n: 2 } : q)) };
    });
    assert.ok(!aggregateFindings(changed).some((f) => f.kind === 'repeated-query'));
    assert.ok(REPEAT_MIN === 5);
  });

  it('a helper enqueuing for several callers: each finding at its caller\'s line, the helper named in `through`; one caller: at the enqueue', () => {
    const helper = (handle: string, via: string | null) => ({ type: 'style' as const, handle, enq: { file: 'inc/assets.php', line: 9, function: 'Acme_Assets::enqueue', callee: 'wp_enqueue_style', via }, printed: true, in_head: true, deferred: false, bytes: 12_000 });
    const pass = (screen: string, assets: ReturnType<typeof helper>[]): RawFindings => ({ v: 1, id: screen, phase: `p:admin:${screen}`, writes: [], assets });
    const two = aggregateFindings([pass('index.php', [helper('a', 'admin/init.php:78'), helper('b', 'admin/bar.php:123')]), pass('options-general.php', [helper('a', 'admin/init.php:78'), helper('b', 'admin/bar.php:123')])]);
    assert.deepEqual(two.map((f) => `${f.file}:${f.line} ${String(f.evidence.through)}`).sort(), ['admin/bar.php:123 inc/assets.php:9 (Acme_Assets::enqueue)', 'admin/init.php:78 inc/assets.php:9 (Acme_Assets::enqueue)']);
    const one = aggregateFindings([pass('index.php', [helper('a', 'admin/init.php:78')]), pass('options-general.php', [helper('a', 'admin/init.php:78')])]);
    assert.deepEqual(one.map((f) => `${f.file}:${f.line}`), ['inc/assets.php:9']);
  });

  it('a context the component could not be measured in gives no findings', () => {
    const fs = aggregateFindings(recorded(), new Set(['activation', 'admin'] as const));
    assert.ok(fs.every((f) => !f.contexts.includes('homepage')), JSON.stringify(fs.map((f) => f.contexts)));
    assert.ok(!fs.some((f) => f.kind === 'repeated-query' || f.kind === 'render-blocking-script'));
  });

  it('the records folder is the measured PHP\'s to write too: a FIFO, a link, a damaged file and one over the cap are left out', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wpbench-findings-dir-'));
    try {
      const good = JSON.stringify({ v: 1, id: 'a', phase: 'w', writes: [] });
      writeFileSync(path.join(dir, 'a.findings.json'), good);
      writeFileSync(path.join(dir, 'b.findings.json'), '{"v":1,');
      writeFileSync(path.join(dir, 'c.findings.json'), ' '.repeat(9 * 1024 * 1024));
      execFileSync('mkfifo', [path.join(dir, 'd.findings.json')]);
      symlinkSync('/etc/passwd', path.join(dir, 'e.findings.json'));
      const raw = await readFindingsDir(dir);
      assert.deepEqual(raw.map((r) => r.id), ['a']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('damaged records are left out, not thrown', () => {
    assert.equal(parseRawFindings('not json'), undefined);
    assert.equal(parseRawFindings('{"v":2,"phase":"w","writes":[]}'), undefined);
    const r = parseRawFindings('{"v":1,"id":"x","phase":"p:homepage:front","writes":[{"file":1}],"queries":[{"file":"a.php","line":3,"callee":"f","n":"x"}],"autoload":[["a","yes","big"]]}')!;
    assert.deepEqual([r.writes, r.queries, r.autoload], [[], [], []]);
  });
});

describe('measure --findings: the autoload fix', () => {
  const edit = (src: string, line: number, callee = 'add_option') => autoloadEdit(src, 'x.php', line, callee);

  it('adds autoload off where it is missing, replaces it where it is on', () => {
    assert.equal(edit("<?php\nadd_option('a', $v);\n", 2)!.new, "add_option('a', $v, '', false);");
    assert.equal(edit("<?php\nadd_option('a');\n", 2)!.new, "add_option('a', '', '', false);");
    assert.equal(edit("<?php\n  add_option( 'a', $v, '', 'yes' ); // keep\n", 2)!.new, "  add_option( 'a', $v, '', false ); // keep");
    assert.equal(edit("<?php\nupdate_option('a', array(1, 2));\n", 2, 'update_option')!.new, "update_option('a', array(1, 2), false);");
    assert.equal(edit("<?php\nupdate_option('a', $v, true);\n", 2, 'update_option')!.new, "update_option('a', $v, false);");
    assert.equal(edit("<?php\nadd_option(option: 'a', value: $v, autoload: 'yes');\n", 2)!.new, "add_option(option: 'a', value: $v, autoload: false);");
    assert.equal(edit("<?php\n\\add_option('a', \"x(,)\");\n", 2)!.new, "\\add_option('a', \"x(,)\", '', false);");
  });

  it('a call over several lines, reported at its first or its last line, is edited whole', () => {
    const src = "<?php\nadd_option(\n  'a',\n  $v\n);\n";
    for (const line of [2, 5]) {
      const e = edit(src, line)!;
      assert.deepEqual([e.line, e.end_line], [2, 5]);
      assert.equal(e.new, "add_option(\n  'a',\n  $v, '', false\n);");
    }
  });

  it('nothing to change: already off, a method of another class, a comment in the call, spread arguments, no call there', () => {
    assert.equal(edit("<?php\nadd_option('a', $v, '', 'no');\n", 2), undefined);
    assert.equal(edit("<?php\nupdate_option('a', $v, false);\n", 2, 'update_option'), undefined);
    assert.equal(edit("<?php\n$o->add_option('a', $v);\n", 2), undefined);
    assert.equal(edit("<?php\nadd_option('a', /* x */ $v);\n", 2), undefined);
    assert.equal(edit("<?php\nadd_option(...$args);\n", 2), undefined);
    assert.equal(edit("<?php\n$x = 1;\n", 2), undefined);
    assert.equal(edit("<?php\n$x = 1;\n", 99), undefined);
  });

  it('withFixes reads the plugin\'s file; applyEdits changes only lines still as read, keeps CRLF, refuses paths out', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wpbench-fix-'));
    try {
      writeFileSync(path.join(dir, 'a.php'), "<?php\r\nadd_option('a', $v);\r\nadd_option('b', $v);\r\n");
      const base: Finding = { kind: 'autoloaded-option', severity: 'warning', contexts: ['homepage'], file: 'a.php', line: 2, function: null, message: '', evidence: { option: 'a', call: 'add_option' }, saves: {}, fix: { description: 'd' } };
      const [f, g] = await withFixes([base, { ...base, line: 3, evidence: { option: 'b', call: 'add_option' } }], dir);
      assert.equal(f.fix.edits!.length, 1);
      const stale = { ...g.fix.edits![0], old: "add_option('b', $other);" };
      const out = await applyEdits(dir, [f.fix.edits![0], stale, { ...f.fix.edits![0], file: '../a.php' }]);
      assert.deepEqual(out.map((a) => `${a.edit.file}:${a.edit.line} ${a.applied}`).sort(), ['../a.php:2 false', 'a.php:2 true', 'a.php:3 false']);
      assert.equal(readFileSync(path.join(dir, 'a.php'), 'utf8'), "<?php\r\nadd_option('a', $v, '', false);\r\nadd_option('b', $v);\r\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('measure --findings: reports', () => {
  const record = (findings: Finding[]): LocalRecord => ({ slug: 'acme', type: 'plugin', name: 'Acme <b>', local: { wordpress_version: '6.1.9', php_version: '8.2' }, findings }) as unknown as LocalRecord;
  const hostile: Finding = { kind: 'remote-request', severity: 'warning', contexts: ['homepage'], file: 'inc/a|b.php', line: 7, function: null, message: 'GET <script>x</script> | [link](y)', evidence: { host: 'h' }, saves: { homepage: { http_requests: 1 } }, fix: { description: 'cache it' } };

  it('SARIF: each finding at its line under the component\'s folder, with the fix as a replacement where mechanical', async () => {
    const fs = await withFixes(aggregateFindings(recorded()), path.resolve(__dirname, '..', '..', '..', 'measure'));
    const sarif = JSON.parse(findingsSarif(record(fs), 'wp-content/plugins/acme-findings'));
    const res = sarif.runs[0].results as { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[];
    assert.equal(res.length, 8);
    const opt = res.find((r) => r.ruleId === 'autoloaded-option')!;
    assert.equal(opt.locations[0].physicalLocation.artifactLocation.uri, 'wp-content/plugins/acme-findings/inc/options.php');
    assert.equal(opt.locations[0].physicalLocation.region.startLine, 5);
    assert.equal(sarif.runs[0].tool.driver.rules.length, 8); // six, and the two of --browser (main-thread, layout-shift)
  });

  it('Markdown, HTML and the table escape what came from the plugin; no findings is said', () => {
    const md = findingsMarkdown(record([hostile]));
    assert.ok(!/(?<!\\)<script>/.test(md) && !/(?<!\\)\]\(y\)/.test(md), md);
    assert.ok(md.split('\n').find((l) => l.includes('remote-request'))!.split(/(?<!\\)\|/).length === 8, 'the cell with a pipe stays one cell');
    const html = findingsHtml(record([hostile]));
    assert.ok(!html.includes('<script>x') && html.includes('&#60;script&#62;'), html);
    assert.match(findingsLines([hostile]).join('\n'), /Saves per request: homepage −1 HTTP request\./);
    assert.match(findingsLines([]).join('\n'), /Findings: none/);
    assert.deepEqual(findingsLines(undefined), []);
    assert.match(findingsMarkdown(record([])), /No findings/);
  });

  it('--baseline-ref after a fix: what was saved, outside the noise only', () => {
    const row = (context: string, metric: string, difference: number, noise: number) => ({ context, metric, difference, noise });
    const report = { rows: [row('homepage', 'memoryMb', -0.2, 0.01), row('homepage', 'ttfbMs', -0.4, 0.1), row('admin', 'memoryMb', -0.005, 0.01), row('admin', 'queries', 1, 0)] } as unknown as RegressionReport;
    assert.equal(savedText(report), 'homepage −205 KB');
    // Memory first, then time, whatever order the rows come in.
    const both = { rows: [row('homepage', 'ttfbMs', -1.3, 0.2), row('homepage', 'memoryMb', -0.2, 0.01)] } as unknown as RegressionReport;
    assert.match(savedText(both)!, /^homepage −205 KB, −1\.3 ms$/);
    const faster = { rows: [row('homepage', 'ttfbMs', -3, 0.5)] } as unknown as RegressionReport;
    assert.match(savedText(faster)!, /^homepage −3(\.0)? ms$/);
    assert.equal(savedText({ rows: [row('homepage', 'queries', 0, 0)] } as unknown as RegressionReport), undefined);
  });
});

describe('measure --findings: CLI guards', () => {
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s), env: { PATH: process.env.PATH }, cwd: process.cwd(), cacheDir: '/nonexistent-wpbench-cache' } };
  };
  const FIX = path.resolve(__dirname, '..', '..', '..', 'fixtures', 'measure', 'noop');
  for (const args of [['--fix'], ['--findings', '--site'], ['--findings', '--baseline-ref', 'HEAD'], ['--findings', '--format', 'speedscope', '--profile'], ['--findings', '--format', 'collapsed']]) {
    it(`${args.join(' ')} is a usage error (exit 2), nothing measured`, async () => {
      const t = io();
      assert.equal(await runMeasureCli([FIX, ...args], t.io as never), 2);
      assert.deepEqual(t.out, []);
      assert.match(t.err.join('\n'), /--fix goes with --findings|--findings|--format/);
    });
  }
});
