// The judge's local measurements (JudgeConfig.local, keyed `${kind}:${slug}`): used only where the API has no
// benchmark, marked source "local" with how they were measured, never graded, counted in the site total and its
// budgets, and said apart in every report.
import assert from 'node:assert/strict';
import { parseRecord } from '../../../src/core/api/record';
import type { LookupOutcome } from '../../../src/core/lookup/lookupService';
import { buildRecord, type LocalRecord, type Sample } from '../../../src/core/measure/record/method';
import type { DetectedComponent } from '../../../src/core/model';
import { toJson, toMarkdown, toSarif, toTable } from '../../../src/core/report/formats';
import { compareChart, compareTable } from '../../../src/core/report/glance';
import { compareView } from '../../../src/core/report/glanceView';
import { localAsBenchmark } from '../../../src/core/present/local';
import { contextLine } from '../../../src/core/present/outcome';
import { toHtml } from '../../../src/core/report/html';
import { judge, localKey, totalSources, type JudgeConfig } from '../../../src/core/report/judge';
import { sampleBody } from '../helpers/samples';

const s = (ttfbMs: number, kb: number, queries: number): Sample => ({ ttfbMs, memoryBytes: kb * 1024, queries });

function local(slug: string, ms: number, kb: number, q: number): LocalRecord {
  const m = { baseline: [s(20, 4000, 10)], measured: [s(20 + ms, 4000 + kb, 10 + q)] };
  return buildRecord(
    { slug, kind: 'plugin', name: `Local ${slug}`, version: '1' },
    { activation: m, homepage: m, admin: m },
    { runtime: 'php', wordpress_version: '6.1.9', php_version: '8.2.29', rounds: 9, warmup_rounds: 2, baseline_theme: 't', activation_hook: null, duration_s: 4 },
    new Date('2026-11-25T10:00:00Z'),
  );
}

const comp = (slug: string, file = 'composer.json'): DetectedComponent => ({ kind: 'plugin', slug, name: null, version: null, locations: [{ file, line: 1, column: 1, length: 1, source: file === 'composer.json' ? 'composer.json' : 'plugin-header' }] });

function api(slug: string, grade: string, ms: number): LookupOutcome {
  const ctx = { ttfb_delta_ms: ms, memory_delta_kb: 1024, queries_delta: 1 };
  return { kind: 'plugin', slug, result: parseRecord(sampleBody({ slug, type: 'plugin', speed_score: { grade, numeric: 80 }, contexts: { activation: ctx, homepage: ctx, admin: ctx } }), 'plugin', slug), stale: false, fromCache: true, fetchedAt: 0 };
}

describe('report: local measurements in the judgement', () => {
  const components = [comp('apiplug'), comp('custom', 'wp-content/plugins/custom/custom.php'), comp('both'), comp('nothing', 'wp-content/plugins/nothing/nothing.php')];
  const outcomes = new Map<string, LookupOutcome>([
    ['plugin/apiplug', api('apiplug', 'B', 10)],
    ['plugin/custom', { kind: 'plugin', slug: 'custom', result: { state: 'not-in-dataset', kind: 'plugin', slug: 'custom' }, stale: false, fromCache: false }],
    ['plugin/both', api('both', 'A', 5)],
    ['plugin/nothing', { kind: 'plugin', slug: 'nothing', result: { state: 'not-in-dataset', kind: 'plugin', slug: 'nothing' }, stale: false, fromCache: false }],
  ]);
  const config: JudgeConfig = {
    failOn: 'C',
    context: 'homepage',
    budgets: { homepage: { ttfbMs: 40 } },
    ignore: [],
    local: new Map([
      [localKey('plugin', 'custom'), local('custom', 30, 2048, 3)],
      [localKey('plugin', 'both'), local('both', 500, 0, 0)],
    ]),
  };
  const j = judge({ components, outcomes, config });

  it('a component without an API benchmark takes its local record; the API always wins where it answers', () => {
    const custom = j.components.find((v) => v.slug === 'custom')!;
    assert.equal(custom.source, 'local');
    assert.equal(custom.state, 'benchmarked');
    assert.equal(custom.grade, null, 'never a grade the API did not give');
    assert.equal(custom.failed, false);
    assert.equal(custom.localLabel, 'measured locally, PHP 8.2, WordPress 6.1.9, 2026-11-25');
    assert.deepEqual(custom.contexts!.homepage, { ttfbDeltaMs: 30, memoryDeltaKb: 2048, queriesDelta: 3 });
    const both = j.components.find((v) => v.slug === 'both')!;
    assert.equal(both.source, 'api');
    assert.equal(both.contexts!.homepage!.ttfbDeltaMs, 5);
    assert.equal(j.components.find((v) => v.slug === 'nothing')!.state, 'not-in-dataset');
  });

  it('the site total counts the local figures, says how much is local, and its budgets cover them', () => {
    assert.equal(j.total.contexts.homepage.ttfbDeltaMs, 10 + 30 + 5);
    assert.equal(j.total.contexts.homepage.measured, 3);
    assert.equal(totalSources(j.total), '2 from the benchmark API, 1 measured locally, 1 unknown');
    assert.deepEqual([j.counts.benchmarked, j.counts.local, j.counts.notInDataset], [2, 1, 1]);
    assert.equal(j.budgets[0].exceeded, true, '45 ms over the 40 ms budget only with the local 30 ms');
  });

  it('every report marks the row as measured locally and prints the sources of the total', () => {
    assert.match(toTable(j), /custom .*measured locally, PHP 8\.2, WordPress 6\.1\.9, 2026-11-25/);
    assert.match(toTable(j), /Site total: 2 from the benchmark API, 1 measured locally, 1 unknown\./);
    const md = toMarkdown(j);
    assert.match(md, /\| – \| .*custom.* \| 🖥 measured locally, PHP 8\.2, WordPress 6\.1\.9, 2026-11-25 \|/);
    const json = JSON.parse(toJson(j));
    const c = json.components.find((x: any) => x.slug === 'custom');
    assert.equal(c.source, 'local');
    assert.equal(c.local.estimated_grade, 'A');
    assert.equal(json.siteTotal.sources, '2 from the benchmark API, 1 measured locally, 1 unknown');
    assert.match(toHtml(j), /<td class="local">measured locally, PHP 8\.2/);
    assert.deepEqual(JSON.parse(toSarif(j)).runs[0].properties.measuredLocally, [{ kind: 'plugin', slug: 'custom', label: 'measured locally, PHP 8.2, WordPress 6.1.9, 2026-11-25' }]);
  });
});

describe('compare: local measurements beside the API', () => {
  it('a component without an API benchmark shows its local record, marked; ★ compares only memory and queries with it', () => {
    const { columns, rows } = compareTable([
      { kind: 'plugin', slug: 'apiplug', outcome: api('apiplug', 'B', 10) },
      { kind: 'plugin', slug: 'custom', outcome: undefined, local: { record: local('custom', 2, 512, 3), stale: false }, notLookedUp: 'not-from-wordpress-org' },
      { kind: 'plugin', slug: 'both', outcome: api('both', 'A', 5), local: { record: local('both', 1, 1, 0), stale: false } },
      { kind: 'plugin', slug: 'premium', outcome: undefined, notLookedUp: 'update-uri' },
    ]);
    assert.deepEqual(columns.map((c) => c.state), ['benchmarked', 'measured-locally', 'benchmarked', 'not-looked-up']);
    assert.equal(columns[1].local, 'measured locally, PHP 8.2, WordPress 6.1.9, 2026-11-25');
    assert.equal(columns[2].local, null, 'the API benchmark wins where there is one');
    assert.equal(columns[3].summary, 'not from wordpress.org (Update URI)');
    const row = (label: string) => rows.find((r) => r.label === label)!;
    assert.match(row('Grade').cells[1], /^≈[A-F] local$/);
    assert.deepEqual(row('Grade').best, [0, 2], 'a local grade is not ranked against the API (both API scores are 80)');
    assert.equal(row('Homepage · TTFB').cells[1], '+2 ms');
    assert.deepEqual(row('Homepage · TTFB').best, [2], "this machine's TTFB is not ranked against the API's");
    assert.equal(row('Homepage · Memory').cells[1], '+512 KB');
    assert.deepEqual(row('Homepage · Memory').best, [1], 'memory is the same method on any machine: ranked');
    assert.deepEqual(row('Homepage · Queries').best, [0, 2]);
    assert.equal(row('Measured').cells[1], 'measured locally, PHP 8.2, WordPress 6.1.9, 2026-11-25');
    assert.equal(row('Homepage · TTFB').cells[3], '—');
    const chart = compareChart(columns, 'homepage', 'memory');
    assert.deepEqual(chart.bars.map((b) => b.name).sort(), ['Akismet Anti-spam', 'Akismet Anti-spam', 'Local custom (measured locally)']);
    assert.equal(chart.bars.find((b) => b.slug === 'custom')?.grade, null, 'no grade letter on a local bar');
    const html = compareView(columns, rows, 'homepage').body;
    assert.match(html, /<code>custom<\/code><br><span class="local">measured locally<\/span>/);
    assert.match(html, /<p class="note" role="note">[^<]*Measured locally[^<]*not its grade, score or time to first byte/);
    assert.doesNotMatch(compareView(columns.slice(0, 1), rows.map((r) => ({ ...r, cells: r.cells.slice(0, 1), best: [] })), 'homepage').body, /role="note">[^<]*Measured locally/);
  });
});

describe('a local measurement below its baseline', () => {
  it('reads "-0.3 ms", never "+-0.3 ms": compare, the tree\'s context lines, the reports\' summaries and site total', () => {
    const below = local('below', -0.3, -1, 0);
    const { rows } = compareTable([
      { kind: 'plugin', slug: 'below', outcome: undefined, local: { record: below, stale: false } },
      { kind: 'plugin', slug: 'apiplug', outcome: api('apiplug', 'B', 10) },
    ]);
    const row = (label: string) => rows.find((r) => r.label === label)!;
    assert.equal(row('Homepage · TTFB').cells[0], '-0.3 ms');
    assert.equal(row('Homepage · Memory').cells[0], '-1 KB');
    assert.equal(row('Homepage · Queries').cells[0], '+0 queries');
    assert.equal(contextLine(localAsBenchmark(below), 'homepage'), '-0.3 ms TTFB · -1 KB · +0 queries');
    // A median that rounds to zero from below reads "+0", never "+-0" or "-0".
    assert.equal(contextLine(localAsBenchmark(local('tiny', 0, 0, -0.4)), 'homepage'), '+0 ms TTFB · +0 KB · +0 queries');
    const j = judge({
      components: [comp('below', 'wp-content/plugins/below/below.php')],
      outcomes: new Map([['plugin/below', { kind: 'plugin', slug: 'below', result: { state: 'not-in-dataset', kind: 'plugin', slug: 'below' }, stale: false, fromCache: false }]]),
      config: { failOn: null, context: 'homepage', budgets: {}, ignore: [], local: new Map([[localKey('plugin', 'below'), below]]) },
    });
    const text = [toTable(j), toMarkdown(j)].join('\n');
    assert.doesNotMatch(text, /\+-/);
    assert.match(text, /-0\.3 ms/);
  });

});

describe('report: the findings of local measurements (check --measure-local)', () => {
  it("check --measure-local: a local record's findings reach SARIF at their lines under the component's folder, Markdown, HTML and JSON", () => {
    const finding = {
      kind: 'autoloaded-option' as const,
      severity: 'warning' as const,
      contexts: ['homepage' as const],
      file: 'inc/options.php',
      line: 5,
      function: 'custom_activate',
      message: 'add_option() autoloads the option "custom_cache" (200 KB) <b>',
      evidence: { option: 'custom_cache', bytes: 204800, read_in: [] },
      saves: { homepage: { memory_kb: 200 } },
      fix: { description: 'Turn autoload off.' },
    };
    const components = [comp('custom', 'wp-content/plugins/custom/custom.php')];
    const outcomes = new Map<string, LookupOutcome>([['plugin/custom', { kind: 'plugin', slug: 'custom', result: { state: 'not-in-dataset', kind: 'plugin', slug: 'custom' }, stale: false, fromCache: false }]]);
    const config: JudgeConfig = { failOn: null, context: 'homepage', budgets: {}, ignore: [], local: new Map([[localKey('plugin', 'custom'), local('custom', 30, 2048, 3)]]) };
    const j = judge({ components, outcomes, config });
    const withFindings: JudgeConfig = { ...config, local: new Map([[localKey('plugin', 'custom'), { ...local('custom', 30, 2048, 3), findings: [finding], findings_root: 'wp-content/plugins/custom' }]]) };
    const jf = judge({ components, outcomes, config: withFindings });
    const sarif = JSON.parse(toSarif(jf, { uriPrefix: 'site' }));
    const rules = sarif.runs[0].tool.driver.rules as { id: string }[];
    const r = (sarif.runs[0].results as { ruleId: string; ruleIndex: number; level: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[]).find((x) => x.ruleId === 'autoloaded-option')!;
    assert.equal(rules[r.ruleIndex].id, 'autoloaded-option');
    assert.equal(r.level, 'warning');
    assert.equal(r.locations[0].physicalLocation.artifactLocation.uri, 'site/wp-content/plugins/custom/inc/options.php');
    assert.equal(r.locations[0].physicalLocation.region.startLine, 5);
    assert.match(toMarkdown(jf), /Findings of the local measurements[\s\S]*`wp-content\/plugins\/custom\/inc\/options\.php:5` autoloaded-option/);
    const html = toHtml(jf);
    assert.match(html, /<code>wp-content\/plugins\/custom\/inc\/options\.php:5<\/code> autoloaded-option/);
    assert.ok(!html.includes('<b>'), 'the message is escaped');
    const json = JSON.parse(toJson(jf)) as { components: { slug: string; local: { findings?: unknown[]; findings_root?: string } | null }[] };
    assert.equal(json.components.find((c) => c.slug === 'custom')!.local!.findings!.length, 1);
    // Without findings, SARIF has the check's rules only.
    assert.ok(!(JSON.parse(toSarif(j)).runs[0].tool.driver.rules as { id: string }[]).some((x) => x.id === 'autoloaded-option'));
  });
});
