// Issue 21, items 1-3: what a report says must be true. The scan's problems are in every report; nothing measured is
// "no measurement", never "+0 ms"; memory in one unit; "1 component", never "1 components".
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseRecord } from '../../../src/core/api/record';
import { siteReportView } from '../../../src/core/report/glanceView';
import type { LookupOutcome } from '../../../src/core/lookup/lookupService';
import type { ComponentKind, DetectedComponent } from '../../../src/core/model';
import { toJson, toMarkdown, toSarif, toTable } from '../../../src/core/report/formats';
import { toHtml } from '../../../src/core/report/html';
import { judge, type JudgeConfig } from '../../../src/core/report/judge';
import { WorkspaceSession } from '../../../src/core/session/session';
import { DEMO, startEmulator, type Emulator } from '../../../src/emulator/server';
import { component, fakeApi, fakeHost } from '../helpers/fakeSession';
import { sampleBody } from '../helpers/samples';
import { cli } from '../helpers/cliRun';
import { composerPlugin, measured } from '../helpers/measured';

const CONFIG: JudgeConfig = { failOn: 'C', context: 'homepage', budgets: {}, ignore: [] };

function benchmarked(slug: string, homepage: { ttfb_delta_ms: number; memory_delta_kb: number; queries_delta: number } | null, kind: ComponentKind = 'plugin'): LookupOutcome {
  const body = sampleBody({ slug, type: kind, name: slug, speed_score: { grade: 'A', numeric: 90 }, contexts: { activation: homepage, homepage, admin: homepage } });
  return { kind, slug, result: parseRecord(body, kind, slug), stale: false, fromCache: true, fetchedAt: 0 };
}

function comp(slug: string, kind: ComponentKind = 'plugin'): DetectedComponent {
  return { kind, slug, name: null, version: null, locations: [{ file: 'composer.json', line: 3, column: 6, length: slug.length, source: 'composer.json' }] };
}

describe('issue 21: every report carries the scan problems', function () {
  this.timeout(30_000);
  let emulator: Emulator;
  let site: string;
  let env: Record<string, string>;
  before(async () => {
    emulator = await startEmulator();
    // A newsroom site whose theme is an uninitialised submodule: an empty folder under themes/.
    site = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-problems-'));
    await fs.writeFile(path.join(site, 'composer.json'), JSON.stringify({ require: { 'wpackagist-plugin/akismet': '*' } }, null, 2));
    await fs.mkdir(path.join(site, 'wp-content', 'themes', 'newsroom-theme'), { recursive: true });
    env = { WPBENCH_API_URL: emulator.url, WPBENCH_API_KEY: DEMO.pro, WPBENCH_CACHE_DIR: await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-problems-cache-')) };
  });
  after(() => emulator.close());

  const PROBLEM_FILE = 'wp-content/themes/newsroom-theme';

  it('json: a problems array with file, line and message; counts.problems', async () => {
    const r = await cli(['check', site, '--format', 'json'], env, site);
    assert.equal(r.code, 0, r.err);
    const report = JSON.parse(r.out);
    assert.equal(report.passed, true);
    assert.equal(report.problems.length, 1);
    assert.equal(report.problems[0].file, PROBLEM_FILE);
    assert.equal(report.problems[0].line, 1);
    assert.ok(['warning', 'info'].includes(report.problems[0].severity));
    assert.match(report.problems[0].message, /no style\.css/);
    assert.equal(report.counts.problems, 1);
  });

  it('markdown: a passing report says how many could not be counted, and lists the problem', async () => {
    const r = await cli(['check', site, '--format', 'markdown'], env, site);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /check passed/);
    assert.match(r.out, /PASSED: .*1 component or file could not be counted/);
    assert.match(r.out, /\*\*Problems found by the scan \(1 problem\)\*\*/);
    assert.match(r.out, /- wp-content\/themes\/newsroom-theme:1: .*style\.css/);
  });

  it('sarif: a result at the problem file and line', async () => {
    const r = await cli(['check', site, '--format', 'sarif'], env, site);
    assert.equal(r.code, 0, r.err);
    const run = JSON.parse(r.out).runs[0];
    const result = run.results.find((x: { ruleId: string }) => x.ruleId === 'scan-problem');
    assert.ok(result, 'a scan-problem result');
    assert.equal(result.level, 'warning', 'an empty theme folder leaves a theme uncounted: a warning');
    assert.equal(result.locations[0].physicalLocation.artifactLocation.uri, PROBLEM_FILE);
    assert.equal(result.locations[0].physicalLocation.region.startLine, 1);
    assert.equal(run.tool.driver.rules[result.ruleIndex].id, 'scan-problem');
  });

  it('html and table: a section with the problem; the verdict says it is not counted', async () => {
    const html = await cli(['check', site, '--format', 'html'], env, site);
    assert.match(html.out, /<h2>Problems found by the scan<\/h2>/);
    assert.match(html.out, /<code>wp-content\/themes\/newsroom-theme:1<\/code>/);
    assert.match(html.out, /1 component or file could not be counted/);
    const table = await cli(['check', site], env, site);
    assert.match(table.out, /Problems found by the scan \(1 problem\):\n {2}wp-content\/themes\/newsroom-theme:1: /);
    assert.match(table.out, /PASSED: .*1 component or file could not be counted/);
  });

  it('the editor (Export Report): the session judgement carries the scan problems, paths relative to the folder', async () => {
    const api = fakeApi();
    const { sessionHost, roots } = fakeHost(api, {
      scan: async (root) => ({
        root,
        components: [component('akismet')],
        problems: [{ file: 'wp-content/themes/newsroom-theme', line: 1, column: 1, message: 'Theme folder "newsroom-theme" has no style.css' }],
        stats: { filesOpened: 0, bytesRead: 0, dirsRead: 0 },
      }),
    });
    const s = new WorkspaceSession(sessionHost);
    await s.refreshKeyState();
    await s.rescan();
    const j = s.judgement();
    assert.deepEqual(j.problems.map((p) => `${p.file}:${p.line}`), ['wp-content/themes/newsroom-theme:1']);
    assert.match(toMarkdown(j), /Problems found by the scan \(1 problem\)/);
    assert.equal(JSON.parse(toJson(j)).problems.length, 1);
    assert.match(toHtml(j), /newsroom-theme:1/);
    assert.ok(roots.length === 1);
    s.dispose();
  });
});

describe('issue 21: nothing measured is not "+0"; memory in one unit', () => {
  it('a theme repository with nothing measured: "no measurement" in the headline and the totals, never "+0 ms"', () => {
    const j = judge({ components: [comp('astra', 'theme')], outcomes: new Map([['theme/astra', benchmarked('astra', null, 'theme')]]), config: CONFIG });
    const md = toMarkdown(j);
    assert.match(md, /Site total on the homepage: no measurement\./);
    for (const text of [md, toTable(j), toHtml(j)]) assert.doesNotMatch(text, /\+0 ms|\+0 KB|\+0 MB/);
  });

  it('memory under 1 MB in KB, from 1 MB in MB, in every format (issue 26); never "+0 KB" for a cost', () => {
    const outcomes = new Map([
      ['plugin/small', benchmarked('small', { ttfb_delta_ms: 2, memory_delta_kb: 512, queries_delta: 1 })],
      ['plugin/big', benchmarked('big', { ttfb_delta_ms: 50, memory_delta_kb: 20480, queries_delta: 4 })],
    ]);
    const j = judge({ components: [comp('small'), comp('big')], outcomes, config: { ...CONFIG, budgets: { homepage: { memoryMb: 0.25 } } } });
    for (const text of [toMarkdown(j), toTable(j), toHtml(j), toSarif(j)]) {
      assert.doesNotMatch(text, /(^|[^\d.])[+-]?0(\.0+)? (KB|MB)\b/, 'no zero for a cost');
      assert.doesNotMatch(text, /0\.5 MB/, 'under 1 MB in KB');
    }
    assert.match(toMarkdown(j), /\| 512 KB \|/);
    assert.match(toTable(j), /\+21 MB/);
  });
});

describe('issue 21: "1 component", never "1 components"', function () {
  this.timeout(30_000);
  it('CLI scan, reports, the site report and budget units', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-plural-'));
    await fs.writeFile(path.join(dir, 'composer.json'), JSON.stringify({ require: { 'wpackagist-plugin/akismet': '*' } }));
    const scan = await cli(['scan', dir], {}, dir);
    assert.match(scan.out, /\n1 component\.$/);
    const j = judge({ components: [comp('one')], outcomes: new Map([['plugin/one', benchmarked('one', { ttfb_delta_ms: 1, memory_delta_kb: 1024, queries_delta: 1 })]]), config: { ...CONFIG, budgets: { homepage: { queries: 1 } } } });
    assert.match(toHtml(j), /1 plugin or theme, 1 benchmarked/);
    assert.match(siteReportView(j).body, /1 plugin or theme, 1 benchmarked/);
    assert.match(toTable(j), /within budget: homepage queries 1 query of 1 query/);
    assert.match(toTable(j), /\+1 query \(1 measured\)/);
    for (const text of [scan.out, toHtml(j), toTable(j), toMarkdown(j), siteReportView(j).body]) {
      assert.doesNotMatch(text, /\b1 (components|plugins|problems|queries|requests|lookups)\b/);
    }
  });
});

describe('scan notes (info) are not said to be uncounted', () => {
  const warning = { file: 'wp-content/themes/empty', line: 1, column: 1, message: 'Theme folder "empty" has no style.css', severity: 'warning' as const };
  const note = { file: 'wp-content/plugins/private/private.php', line: 1, column: 1, message: 'Plugin "private" is read through a symbolic link', severity: 'info' as const };
  const outcomes = new Map<string, LookupOutcome>([['plugin/base', measured('base', { ttfb_delta_ms: 10, memory_delta_kb: 1024, queries_delta: 4 })]]);

  it('a note only: no "could not be counted", no "not judged or counted"; listed as a note', () => {
    const j = judge({ components: [composerPlugin('base')], outcomes, config: CONFIG, problems: [note] });
    assert.equal(j.counts.uncounted, 0);
    assert.equal(j.counts.notes, 1);
    for (const text of [toTable(j), toMarkdown(j), toHtml(j)]) {
      assert.doesNotMatch(text, /could not be counted|not judged or counted/);
      assert.match(text, /1 note\b/);
    }
    const json = JSON.parse(toJson(j));
    assert.deepEqual(json.problems.map((p: { severity: string }) => p.severity), ['info']);
    const rule = JSON.parse(toSarif(j)).runs[0].tool.driver.rules.find((r: { id: string }) => r.id === 'scan-problem');
    assert.match(rule.fullDescription.text, /Level note: .*leaves nothing uncounted/);
  });

  it('a problem and a note: one component or file could not be counted, not two', () => {
    const j = judge({ components: [composerPlugin('base')], outcomes, config: CONFIG, problems: [warning, note] });
    assert.equal(j.counts.problems, 2);
    assert.equal(j.counts.uncounted, 1);
    assert.match(toTable(j), /PASSED: .*1 component or file could not be counted/);
    assert.match(toTable(j), /Problems found by the scan \(1 problem, 1 note\):/);
    assert.match(toMarkdown(j), /\*\*Problems found by the scan \(1 problem, 1 note\)\*\*: what a problem concerns is not judged or counted; a note \(info\) is for information/);
    assert.deepEqual(JSON.parse(toJson(j)).problems.map((p: { severity: string }) => p.severity).sort(), ['info', 'warning']);
  });
});
