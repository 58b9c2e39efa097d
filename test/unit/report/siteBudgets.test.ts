// `check --measure-local --site`: the budgets are judged on the stack as it runs (JudgeConfig.site), not on the sum
// of the components' figures; the sum stays the site total; every format shows the stack.
import assert from 'node:assert/strict';
import { parseRecord } from '../../../src/core/api/record';
import type { LookupOutcome } from '../../../src/core/lookup/lookupService';
import type { DetectedComponent } from '../../../src/core/model';
import { stackTotal } from '../../../src/core/report/budgets';
import { toJson, toMarkdown, toSarif, toTable } from '../../../src/core/report/formats';
import { toHtml } from '../../../src/core/report/html';
import { judge, type JudgeConfig } from '../../../src/core/report/judge';
import { siteHtmlSection, siteMarkdownSection } from '../../../src/core/report/siteFormats';
import { sampleBody } from '../helpers/samples';
import { fig, siteRecord } from '../helpers/siteRecord';

/** Two plugins from the API, each 1 MB and 2 queries on the homepage: a sum of 2 MB and 4 queries. */
function apiSite(memoryKb = 1024) {
  const components: DetectedComponent[] = ['one', 'two'].map((slug, i) => ({ kind: 'plugin', slug, name: null, version: null, locations: [{ file: 'composer.json', line: 3 + i, column: 6, length: slug.length + 18, source: 'composer.json' }] }));
  const outcomes = new Map<string, LookupOutcome>(
    components.map((c) => {
      const m = { ttfb_delta_ms: 5, memory_delta_kb: memoryKb, queries_delta: 2 };
      const body = sampleBody({ slug: c.slug, name: c.slug, speed_score: { grade: 'A', numeric: 90 }, contexts: { activation: m, homepage: m, admin: m } });
      return [`plugin/${c.slug}`, { kind: 'plugin', slug: c.slug, result: parseRecord(body, 'plugin', c.slug), stale: false, fromCache: true, fetchedAt: 0 }];
    }),
  );
  return { components, outcomes };
}

const config = (over: Partial<JudgeConfig>): JudgeConfig => ({ failOn: 'C', context: 'homepage', budgets: { homepage: { memoryMb: 3 } }, ignore: [], ...over });

/** The fixture's record with the stack's homepage memory set. */
function stackWith(homepageKb: number) {
  const r = siteRecord();
  r.site.contexts.homepage = fig(12.5, homepageKb, 5);
  return r;
}

describe('report: budgets on the stack as it runs (check --measure-local --site)', () => {
  it('a stack over the budget fails where the sum of the parts is within it', () => {
    const f = apiSite();
    const sum = judge({ ...f, config: config({}) });
    assert.equal(sum.total.contexts.homepage.memoryDeltaKb, 2048);
    assert.equal(sum.failed, false, 'the sum (2 MB) is within 3 MB');
    const j = judge({ ...f, config: config({ site: stackWith(4096) }) });
    assert.equal(j.failed, true);
    assert.equal(j.counts.budgetFailures, 1);
    assert.deepEqual(j.budgets.map((b) => [b.context, b.metric, b.actual, b.exceeded]), [['homepage', 'memoryMb', 4, true]]);
    assert.equal(j.total.contexts.homepage.memoryDeltaKb, 2048, 'the site total stays the sum');
    const finding = j.findings.find((x) => x.ruleId === 'budget-exceeded')!;
    assert.equal(finding.message, 'The stack as it runs on the homepage adds 4.0 MB memory, over the budget of 3.0 MB (1 left out of the stack: not counted, so the real figure can only be higher).');
    assert.doesNotMatch(finding.message, /site total/i);
    assert.equal(j.site, j.config.site);
  });

  it('a stack within the budget passes where the sum of the parts is over it', () => {
    const f = apiSite(2048);
    assert.equal(judge({ ...f, config: config({}) }).failed, true, 'the sum (4 MB) is over 3 MB');
    const j = judge({ ...f, config: config({ site: stackWith(1024) }) });
    assert.equal(j.failed, false);
    assert.deepEqual(j.budgets.map((b) => [b.actual, b.exceeded]), [[1, false]]);
    assert.equal(j.findings.filter((x) => x.ruleId === 'budget-exceeded').length, 0);
  });

  it('a context the stack was not measured in is not measured, never zero: the budget is not judged exceeded and says so', () => {
    const r = siteRecord();
    assert.equal(r.site.contexts.admin, null);
    const t = stackTotal(r);
    assert.deepEqual(t.contexts.admin, { ttfbDeltaMs: 0, memoryDeltaKb: 0, queriesDelta: 0, notMeasured: 1, measured: 0 });
    assert.deepEqual(t.contexts.homepage, { ttfbDeltaMs: 12.5, memoryDeltaKb: 4200, queriesDelta: 5, notMeasured: 0, measured: 1 });
    assert.deepEqual([t.components, t.local, t.unknown, t.benchmarked], [5, 4, 1, 0], 'the left-out plugin is not counted in the stack');
    const j = judge({ ...apiSite(), config: config({ budgets: { admin: { queries: 0 } }, site: r }) });
    assert.deepEqual(j.budgets.map((b) => [b.context, b.notMeasured, b.exceeded]), [['admin', 1, false]]);
    assert.match(toTable(j), /^within budget: admin queries 0 queries of 0 queries, the stack as it runs \(not measured on the admin, 1 left out of the stack: not counted\)$/m);
    // Without the site, the sum is judged: 4 queries over 0.
    assert.equal(judge({ ...apiSite(), config: config({ budgets: { admin: { queries: 0 } } }) }).failed, true);
  });

  it('every format shows the stack; budgets name it; SARIF carries the stack in the finding only', () => {
    const r = stackWith(4096);
    const j = judge({ ...apiSite(), config: config({ site: r }) });
    const table = toTable(j);
    assert.match(table, /^The site as it runs — measured locally: php runtime/m);
    assert.match(table, /^over budget: homepage memory 4\.0 MB of 3\.0 MB, the stack as it runs \(1 left out of the stack: not counted\)$/m);
    assert.match(table.split('\n').at(-1)!, /^FAILED: 1 budget exceeded\./, 'the verdict stays the last line');
    const md = toMarkdown(j);
    assert.ok(md.endsWith(siteMarkdownSection(r)));
    assert.match(md, /^\| Budget \| The stack, as it runs \| Limit \| \|$/m);
    assert.match(md, /^\| homepage memory \| 4\\\.0 MB \| 3\\\.0 MB \| ❌ over \|$/m);
    const html = toHtml(j, { now: 0 });
    assert.ok(html.includes(siteHtmlSection(r)));
    assert.match(html, /<th scope="col">The stack, as it runs<\/th>/);
    assert.doesNotMatch(html, /<script/i);
    const json = JSON.parse(toJson(j));
    assert.deepEqual(json.site, r);
    assert.equal(json.version, 1);
    assert.equal(json.siteTotal.homepage.memoryDeltaKb, 2048);
    const sarif = JSON.parse(toSarif(j));
    assert.ok(sarif.runs[0].results.some((x: { message: { text: string } }) => x.message.text.startsWith('The stack as it runs on the homepage adds 4.0 MB memory')));
    assert.doesNotMatch(JSON.stringify(sarif), /lib-user-a/, 'the record itself is not in SARIF');
    // Without a site, nothing of it.
    const plain = judge({ ...apiSite(), config: config({}) });
    assert.equal(plain.site, undefined);
    assert.equal(JSON.parse(toJson(plain)).site, undefined);
    assert.doesNotMatch(toTable(plain) + toMarkdown(plain), /as it runs/i);
  });
});
