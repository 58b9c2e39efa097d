// `check --measure-local --instructions`: a locally measured component's recorded instruction counts in every output
// of check (table, JSON, Markdown, SARIF, HTML) beside its time, the notice of a context whose counts varied, and every
// output exactly as before without counts.
import assert from 'node:assert/strict';
import type { LookupOutcome } from '../../../src/core/lookup/lookupService';
import type { LocalRecord } from '../../../src/core/measure/record/method';
import type { DetectedComponent } from '../../../src/core/model';
import { toJson, toMarkdown, toSarif, toTable } from '../../../src/core/report/formats';
import { toHtml } from '../../../src/core/report/html';
import { judge, localKey } from '../../../src/core/report/judge';
import { varyingNotice } from '../../../src/core/present/instructions';
import { localRecord, withInstructions } from '../helpers/localRecords';

const comp: DetectedComponent = { kind: 'plugin', slug: 'acme-plugin', name: 'Acme', version: '1.0', locations: [{ file: 'wp-content/plugins/acme-plugin/acme-plugin.php', line: 2, column: 1, length: 1, source: 'plugin-header' }] };
const outcomes = new Map<string, LookupOutcome>([['plugin/acme-plugin', { kind: 'plugin', slug: 'acme-plugin', result: { state: 'not-in-dataset', kind: 'plugin', slug: 'acme-plugin' }, stale: false, fromCache: false }]]);
const judged = (r: LocalRecord) => judge({ components: [comp], outcomes, config: { failOn: 'C', context: 'homepage', budgets: {}, ignore: [], local: new Map([[localKey('plugin', 'acme-plugin'), r]]) }, now: Date.parse('2026-11-26T00:00:00Z') });

const counted = withInstructions(localRecord('Acme', 12.5, 300, 2), 1_420_000);
const varying: LocalRecord = { ...counted, local: { ...counted.local, instructions: { ...counted.local.instructions!, varying: ['homepage'] } } };
const plain = localRecord('Acme', 12.5, 300, 2);

describe('check --measure-local --instructions: the counts in every output', () => {
  it('table: an INSTRUCTIONS column beside TTFB, MEMORY and QUERIES', () => {
    const [header, row] = toTable(judged(counted)).split('\n');
    assert.match(header, /TTFB \(homepage\) +MEMORY +QUERIES +INSTRUCTIONS +STATUS/);
    assert.match(row, / 12\.5 ms +300 KB +2 +\+1\.42 M instr \(\+0\.5 %\) +measured locally/);
  });

  it('JSON: the component\'s local.instructions with each context\'s delta, clean count and spread, and varying', () => {
    const c = JSON.parse(toJson(judged(counted))).components[0];
    assert.deepEqual(c.local.instructions, {
      counter: 'callgrind',
      opcache: 'warm',
      clock: 'set',
      rounds: 3,
      varying: [],
      contexts: {
        activation: { delta: 1_420_000, clean: 290_000_000, spread: 20_000 },
        homepage: { delta: 1_420_000, clean: 290_000_000, spread: 20_000 },
        admin: { delta: 1_420_000, clean: 290_000_000, spread: 20_000 },
      },
    });
    assert.deepEqual(JSON.parse(toJson(judged(varying))).components[0].local.instructions.varying, ['homepage']);
  });

  it('Markdown and HTML: an Instructions column', () => {
    assert.match(toMarkdown(judged(counted)), /\| TTFB \(homepage\) \| Memory \| Queries \| Instructions \| Status \|\n\|:--\|:--\|:--\|:--\|--:\|--:\|--:\|--:\|:--\|/);
    assert.match(toMarkdown(judged(counted)), /\| 12\\\.5 ms \| 300 KB \| 2 \| \\\+1\.42 M instr \(\+0\.5 %\) \| 🖥 measured locally/);
    const html = toHtml(judged(counted));
    assert.match(html, /<th scope="col">Queries<\/th><th scope="col">Instructions<\/th><th scope="col">Status<\/th>/);
    assert.match(html, /<td>2<\/td><td>\+1\.42 M instr \(\+0\.5 %\)<\/td><td class="local">/);
  });

  it('SARIF: the counts and the varying contexts in the run\'s measuredLocally properties', () => {
    const [m] = JSON.parse(toSarif(judged(varying))).runs[0].properties.measuredLocally;
    assert.deepEqual(m.instructions, { activation: '+1.42 M instr (+0.5 %)', homepage: '+1.42 M instr (+0.5 %)', admin: '+1.42 M instr (+0.5 %)' });
    assert.deepEqual(m.instructionsVarying, ['homepage']);
  });

  it('a context whose counted requests varied: the notice names it with the spread, in the table, Markdown, HTML and SARIF', () => {
    const notice = varyingNotice(varying);
    assert.equal(notice, 'CPU instructions varied between identical requests in homepage (by up to 20.0 K instr, 0.01 % of the request): work that depends on the time or on the site\'s state (a counter, a transient that expires, random), so the instruction figures there are not exact');
    assert.equal(varyingNotice(counted), null);
    assert.equal(varyingNotice(plain), null);
    assert.match(toTable(judged(varying)), /^acme-plugin: CPU instructions varied between identical requests in homepage \(by up to 20\.0 K instr/m);
    assert.match(toMarkdown(judged(varying)), /^- ⚠️ Acme: CPU instructions varied between identical requests in homepage/m);
    assert.match(toHtml(judged(varying)), /<li>Acme: CPU instructions varied between identical requests in homepage/);
    assert.doesNotMatch(toTable(judged(counted)), /varied/);
    const sarif = JSON.parse(toSarif(judged(varying)));
    const result = sarif.runs[0].results.find((r: { ruleId: string }) => r.ruleId === 'instructions-varying');
    assert.equal(result.level, 'note');
    assert.match(result.message.text, /^Acme: CPU instructions varied between identical requests in homepage/);
    assert.equal(result.locations[0].physicalLocation.artifactLocation.uri, 'wp-content/plugins/acme-plugin/acme-plugin.php');
    assert.ok(sarif.runs[0].tool.driver.rules.some((r: { id: string }) => r.id === 'instructions-varying'));
  });

  it('without counts: no column, no "instr", no instructions key, the same SARIF properties as before', () => {
    const j = judged(plain);
    for (const text of [toTable(j), toMarkdown(j), toHtml(j)]) assert.doesNotMatch(text, /instr/i);
    assert.equal(JSON.parse(toJson(j)).components[0].local.instructions, undefined);
    const sarif = JSON.parse(toSarif(j));
    assert.deepEqual(Object.keys(sarif.runs[0].properties.measuredLocally[0]), ['kind', 'slug', 'label']);
    assert.ok(!sarif.runs[0].tool.driver.rules.some((r: { id: string }) => r.id === 'instructions-varying'));
  });
});
