import assert from 'node:assert/strict';
import { parseRecord } from '../../../src/core/api/record';
import { errors } from '../../../src/core/api/errors';
import type { LookupOutcome } from '../../../src/core/lookup/lookupService';
import type { ComponentKind, DetectedComponent } from '../../../src/core/model';
import { diffJudgements } from '../../../src/core/report/diff';
import { toJson, toMarkdown, toSarif, toTable } from '../../../src/core/report/formats';
import { judge, RULES, type JudgeConfig } from '../../../src/core/report/judge';
import { sampleBody } from '../helpers/samples';
import { assertSarifShape } from './sarifShape';

type Ctx = { ttfb_delta_ms: number; memory_delta_kb: number; queries_delta: number } | null;

function record(slug: string, grade: string, score: number, homepage: Ctx, extra: Record<string, unknown> = {}, kind: ComponentKind = 'plugin'): LookupOutcome {
  const body = sampleBody({ slug, type: kind, name: `Name of ${slug}`, speed_score: { grade, numeric: score }, contexts: { activation: homepage, homepage, admin: homepage }, ...extra });
  return { kind, slug, result: parseRecord(body, kind, slug), stale: false, fromCache: true, fetchedAt: 0 };
}

function comp(slug: string, kind: ComponentKind = 'plugin', line = 3, file = 'composer.json'): DetectedComponent {
  return { kind, slug, name: null, version: null, locations: [{ file, line, column: 6, length: slug.length + 18, source: file === 'composer.json' ? 'composer.json' : 'plugin-header' }] };
}

const CONFIG: JudgeConfig = { failOn: 'C', context: 'homepage', budgets: {}, ignore: [] };

function fixture() {
  const components = [comp('fast', 'plugin', 3), comp('slow', 'plugin', 4), comp('unmeasured', 'plugin', 5), comp('private', 'plugin', 7, 'wp-content/plugins/private/private.php'), comp('pending', 'plugin', 6), comp('skipped', 'theme', 8)];
  const outcomes = new Map<string, LookupOutcome>([
    ['plugin/fast', record('fast', 'A', 90, { ttfb_delta_ms: 10, memory_delta_kb: 1024, queries_delta: 1 })],
    ['plugin/slow', record('slow', 'E', 20, { ttfb_delta_ms: 100, memory_delta_kb: 4096, queries_delta: 9 })],
    ['plugin/unmeasured', record('unmeasured', 'B', 70, null)],
    ['plugin/private', { kind: 'plugin', slug: 'private', result: { state: 'not-in-dataset', kind: 'plugin', slug: 'private' }, stale: false, fromCache: false }],
    ['plugin/pending', { ...record('pending', 'A', 0, null), result: parseRecord(sampleBody({ slug: 'pending', benchmarked: false, speed_score: null }), 'plugin', 'pending') }],
    ['theme/skipped', { kind: 'theme', slug: 'skipped', stale: false, fromCache: true }],
  ]);
  return { components, outcomes, skipped: new Map<string, 'limit' | 'offline'>([['theme/skipped', 'limit']]) };
}

describe('report: judge', () => {
  it('fails a component graded worse than the fail-on grade; notes are never failures', () => {
    const f = fixture();
    const j = judge({ ...f, config: CONFIG });
    assert.equal(j.failed, true);
    assert.deepEqual(j.components.filter((v) => v.failed).map((v) => v.slug), ['slow']);
    assert.deepEqual(
      j.findings.map((x) => `${x.ruleId}:${x.level}:${x.slug}`).sort(),
      ['grade-below-threshold:error:slow', 'not-benchmarked:note:pending', 'not-in-dataset:note:private', 'not-looked-up:note:skipped'],
    );
    assert.match(j.findings.find((x) => x.slug === 'skipped')!.message, /--max-requests/);
    assert.equal(judge({ ...f, config: { ...CONFIG, failOn: 'E' } }).failed, false, 'E is not worse than E');
    const noMinimum = judge({ ...f, config: { ...CONFIG, failOn: null } });
    assert.equal(noMinimum.failed, false, 'no minimum: grades never fail');
    // The verdict says so in words, not "no component graded worse than (no minimum)".
    assert.match(toTable(noMinimum), /^PASSED: no minimum grade set\./m);
    assert.doesNotMatch(toMarkdown(noMinimum), /graded worse than/);
    const notesOnly = judge({ ...f, components: f.components.filter((c) => c.slug !== 'slow'), config: CONFIG });
    assert.equal(notesOnly.failed, false);
  });

  it('sorts worst first and sums measured deltas only: unmeasured and unknown are counted as such, never as zero', () => {
    const j = judge({ ...fixture(), config: CONFIG });
    assert.deepEqual(j.components.slice(0, 3).map((v) => v.slug), ['slow', 'unmeasured', 'fast']);
    const t = j.total.contexts.homepage;
    assert.equal(t.ttfbDeltaMs, 110);
    assert.equal(t.memoryDeltaKb, 5120);
    assert.equal(t.queriesDelta, 10);
    assert.equal(t.measured, 2);
    assert.equal(t.notMeasured, 1);
    assert.equal(j.total.unknown, 3);
    assert.deepEqual(j.counts, { components: 6, benchmarked: 3, local: 0, notBenchmarked: 1, notInDataset: 1, unknown: 1, stale: 0, ignored: 0, gradeFailures: 1, budgetFailures: 0, problems: 0, uncounted: 0, notes: 0 });
  });

  it('budgets: over and within, per context, memory in MB, with the unmeasured listed', () => {
    const f = fixture();
    const j = judge({
      ...f,
      config: { ...CONFIG, failOn: null, budgets: { homepage: { ttfbMs: 100, memoryMb: 5, queries: 10 }, admin: { ttfbMs: 1000 } } },
      budgetLocation: { file: 'composer.json', line: 1, column: 1 },
    });
    const by = Object.fromEntries(j.budgets.map((b) => [`${b.context}.${b.metric}`, b]));
    assert.equal(by['homepage.ttfbMs'].exceeded, true);
    assert.equal(by['homepage.ttfbMs'].actual, 110);
    assert.equal(by['homepage.memoryMb'].actual, 5);
    assert.equal(by['homepage.memoryMb'].exceeded, false, 'equal to the budget is within it');
    assert.equal(by['homepage.queries'].exceeded, false);
    assert.equal(by['admin.ttfbMs'].exceeded, false);
    assert.equal(by['homepage.ttfbMs'].notMeasured, 1);
    assert.equal(by['homepage.ttfbMs'].unknown, 3);
    assert.equal(j.failed, true);
    const finding = j.findings.find((x) => x.ruleId === 'budget-exceeded')!;
    assert.match(finding.message, /110 ms TTFB, over the budget of 100 ms \(1 not measured in this context, 3 without a benchmark/);
    assert.deepEqual(finding.locations, [{ file: 'composer.json', line: 1, column: 1 }]);
    const noComposer = judge({ ...f, config: { ...CONFIG, budgets: { homepage: { ttfbMs: 1 } } } });
    assert.deepEqual(noComposer.findings.find((x) => x.ruleId === 'budget-exceeded')!.locations, []);
  });

  it('ignored slugs are not judged or counted', () => {
    const j = judge({ ...fixture(), config: { ...CONFIG, ignore: ['slow', 'private'] } });
    assert.equal(j.failed, false);
    assert.equal(j.counts.ignored, 2);
    assert.equal(j.total.contexts.homepage.ttfbDeltaMs, 10);
  });

  it('context weights order reports by weighted TTFB, without changing the verdict', () => {
    const components = [comp('a'), comp('b')];
    const outcomes = new Map([
      ['plugin/a', record('a', 'E', 20, { ttfb_delta_ms: 5, memory_delta_kb: 0, queries_delta: 0 })],
      ['plugin/b', record('b', 'A', 95, null, { contexts: { activation: null, homepage: null, admin: { ttfb_delta_ms: 500, memory_delta_kb: 0, queries_delta: 0 } } })],
    ]);
    assert.deepEqual(judge({ components, outcomes, config: CONFIG }).components.map((v) => v.slug), ['a', 'b']);
    const weighted = judge({ components, outcomes, config: { ...CONFIG, contextWeights: { activation: 0, homepage: 1, admin: 1 } } });
    assert.deepEqual(weighted.components.map((v) => v.slug), ['b', 'a']);
    assert.equal(weighted.failed, true);
  });

  it('a failed lookup is a warning naming the error, still not a failure', () => {
    const j = judge({ components: [comp('x')], outcomes: new Map([['plugin/x', { kind: 'plugin', slug: 'x', stale: false, fromCache: true, error: errors.quotaExceeded(null) }]]), config: CONFIG });
    assert.equal(j.failed, false);
    assert.equal(j.findings[0].level, 'warning');
    assert.match(j.findings[0].message, /quota/);
  });
});

describe('report: formats', () => {
  it('table: worst first, site total row, contexts, budgets and the verdict', () => {
    const text = toTable(judge({ ...fixture(), config: { ...CONFIG, budgets: { homepage: { ttfbMs: 500 } } } }));
    const lines = text.split('\n');
    assert.match(lines[0], /^GRADE\s+KIND\s+SLUG/);
    assert.match(lines[1], /^E\s+plugin\s+slow\s+.*100 ms.*FAIL/);
    assert.match(text, /SITE TOTAL\s+\+110 ms\s+\+5\.0 MB\s+\+10\s+1 not measured on the homepage, 3 without a benchmark/);
    assert.match(text, /not looked up \(limit\)/);
    assert.match(text, /within budget: homepage TTFB 110 ms of 500 ms/);
    assert.match(text, /FAILED: 1 graded worse than C\./);
  });

  it('json: the documented, stable shape', () => {
    const j = JSON.parse(toJson(judge({ ...fixture(), config: CONFIG })));
    assert.deepEqual(Object.keys(j), ['version', 'passed', 'failOn', 'context', 'counts', 'siteTotal', 'budgets', 'components', 'findings', 'problems']);
    assert.equal(j.version, 1);
    assert.equal(j.passed, false);
    assert.deepEqual(Object.keys(j.components[0]), ['kind', 'slug', 'name', 'version', 'state', 'grade', 'score', 'failed', 'stale', 'fetchedAt', 'synthetic', 'unknownReason', 'source', 'local', 'contexts', 'profileUrl', 'locations', 'findings']);
    assert.deepEqual(Object.keys(j.siteTotal), ['activation', 'homepage', 'admin', 'components', 'benchmarked', 'local', 'unknown', 'sources']);
    assert.equal(j.siteTotal.homepage.notMeasured, 1);
    const unmeasured = j.components.find((c: any) => c.slug === 'unmeasured');
    assert.equal(unmeasured.contexts.homepage, null, 'not measured is null, never zero');
    assert.deepEqual(j.components.find((c: any) => c.slug === 'skipped').unknownReason, 'limit');
  });

  it('markdown: a table sorted worst first with the site total; API strings cannot break the table or inject markup', () => {
    const f = fixture();
    f.outcomes.set('plugin/slow', record('slow', 'E', 20, { ttfb_delta_ms: 100, memory_delta_kb: 4096, queries_delta: 9 }, { name: 'Evil | <img src=x onerror=alert(1)> [x](javascript:alert(1)) **b**\n| row |' }));
    const md = toMarkdown(judge({ ...f, config: CONFIG }));
    assert.match(md, /^### WP Bench: ❌ check failed/);
    const rows = md.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Context') && !l.startsWith('| Grade'));
    assert.match(rows[0], /`slow`/, 'worst first');
    assert.match(md, /\| \| \*\*Site total\*\* \| \| \| \*\*\\\+110 ms\*\* \|/);
    const evil = rows[0];
    assert.equal(evil.split(/(?<!\\)\|/).length - 2, 8, 'the hostile name adds no column');
    assert.ok(!/(?<!\\)<img/.test(md));
    assert.ok(!/(?<!\\)\]\(javascript:/.test(md));
    assert.ok(!md.includes('**b**'));
    assert.match(md, /never counted as zero/);
  });

  it('sarif: 2.1.0 shape, one rule per judgement, results at the declaring file and line', () => {
    const j = judge({ ...fixture(), config: { ...CONFIG, budgets: { homepage: { ttfbMs: 50 } } }, budgetLocation: { file: 'composer.json', line: 1, column: 1 } });
    const sarif = JSON.parse(toSarif(j, { uriPrefix: 'site', toolVersion: '0.1.0' }));
    assertSarifShape(sarif);
    const ids = sarif.runs[0].tool.driver.rules.map((r: any) => r.id);
    assert.deepEqual(ids, ['grade-below-threshold', 'budget-exceeded', 'not-benchmarked', 'not-in-dataset', 'not-looked-up', 'scan-problem']);
    assert.deepEqual(RULES.map((r) => r.id), ids);
    const results = sarif.runs[0].results;
    const slow = results.find((r: any) => r.ruleId === 'grade-below-threshold');
    assert.equal(slow.level, 'error');
    assert.deepEqual(slow.locations[0].physicalLocation, { artifactLocation: { uri: 'site/composer.json', uriBaseId: '%SRCROOT%' }, region: { startLine: 4, startColumn: 6, endColumn: 28 } });
    const priv = results.find((r: any) => r.ruleId === 'not-in-dataset');
    assert.equal(priv.level, 'note');
    assert.equal(priv.locations[0].physicalLocation.artifactLocation.uri, 'site/wp-content/plugins/private/private.php');
    const budget = results.find((r: any) => r.ruleId === 'budget-exceeded');
    assert.equal(budget.locations[0].physicalLocation.artifactLocation.uri, 'site/composer.json');
    assert.equal(budget.locations[0].physicalLocation.region.startLine, 1);
    assert.equal(new Set(results.map((r: any) => r.partialFingerprints['wpBench/v1'])).size, results.length);
  });

  it('sarif: file names with spaces are percent-encoded; a component declared twice has related locations', () => {
    const c: DetectedComponent = { kind: 'plugin', slug: 'slow', name: null, version: null, locations: [
      { file: 'wp content/plugins/slow/slow.php', line: 3, column: 17, length: 4, source: 'plugin-header' },
      { file: 'composer.json', line: 9, column: 6, length: 22, source: 'composer.json' },
    ] };
    const sarif = JSON.parse(toSarif(judge({ components: [c], outcomes: fixture().outcomes, config: CONFIG })));
    assertSarifShape(sarif);
    const [r] = sarif.runs[0].results;
    assert.equal(r.locations[0].physicalLocation.artifactLocation.uri, 'composer.json', 'the composer.json entry is the primary location');
    assert.equal(r.relatedLocations[0].physicalLocation.artifactLocation.uri, 'wp%20content/plugins/slow/slow.php');
  });

  it('diff: added and removed components and the site-total delta per context', () => {
    const f = fixture();
    const base = judge({ ...f, components: f.components.filter((c) => c.slug !== 'slow'), config: CONFIG });
    const head = judge({ ...f, components: f.components.filter((c) => c.slug !== 'fast'), config: CONFIG });
    const d = diffJudgements('main', base, head);
    assert.deepEqual(d.added.map((v) => v.slug), ['slow']);
    assert.deepEqual(d.removed.map((v) => v.slug), ['fast']);
    assert.equal(d.delta.homepage.ttfbDeltaMs, 90);
    assert.match(d.headline, /^This change adds \+90 ms TTFB on the homepage \(\+3\.0 MB memory, \+8 queries; 1 component added, 1 removed compared with main\)\.$/);
    const back = diffJudgements('main', head, base);
    assert.match(back.headline, /^This change saves 90 ms TTFB on the homepage/);
    assert.match(diffJudgements('main', head, head).headline, /No plugin or theme is added or removed/);
    const md = toMarkdown(head, { diff: d });
    assert.match(md, /➕ added \| \[Name of slow `slow`\]/);
    assert.match(md, /➖ removed \| \[Name of fast `fast`\]/);
    assert.match(md, /\| homepage TTFB \| \\\+10 ms \| \\\+100 ms \| \*\*\\\+90 ms\*\* \|/);
    assert.match(toTable(head, { diff: d }), /^Compared with main: This change adds \+90 ms/);
    const json = JSON.parse(toJson(head, { diff: d }));
    assert.deepEqual(Object.keys(json.diff), ['ref', 'headline', 'added', 'removed', 'changed', 'siteTotal']);
    assert.equal(json.diff.siteTotal.delta.homepage.ttfbDeltaMs, 90);
  });
});
