import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadTeamConfig, parseTeamConfig } from '../../../src/core/config/teamConfig';

describe('team config (.wp-bench.json)', () => {
  it('reads every setting, with positions for budgets', () => {
    const text = `{
  // comments and trailing commas are fine
  "$schema": "./schemas/wp-bench.schema.json",
  "minimumGrade": "d",
  "budgets": { "homepage": { "ttfbMs": 250, "memoryMb": 64, "queries": 40 }, "admin": { "ttfbMs": 900 } },
  "ignore": ["acme-internal-sso", "acme-loader"],
  "context": "admin",
  "contextWeights": { "homepage": 3, "admin": 1 },
}`;
    const { config, problems } = parseTeamConfig(text, '.wp-bench.json');
    assert.deepEqual(problems, []);
    assert.equal(config.minimumGrade, 'D');
    assert.deepEqual(config.budgets, { homepage: { ttfbMs: 250, memoryMb: 64, queries: 40 }, admin: { ttfbMs: 900 } });
    assert.deepEqual(config.ignore, ['acme-internal-sso', 'acme-loader']);
    assert.equal(config.context, 'admin');
    assert.deepEqual(config.contextWeights, { activation: 0, homepage: 3, admin: 1 });
    assert.deepEqual(config.positions['budgets.homepage.ttfbMs'], { line: 5, column: 30 });
    assert.equal(config.file, '.wp-bench.json');
  });

  it('refuses the API address and the key, with the line, and reports unknown keys without failing', () => {
    const text = '{\n  "apiUrl": "https://evil.example/api",\n  "apiKey": "k",\n  "key": "k",\n  "minimumGrade": "B",\n  "colour": "red"\n}';
    const { config, problems } = parseTeamConfig(text, '.wp-bench.json');
    assert.equal(config.minimumGrade, 'B', 'the rest is used');
    assert.deepEqual(problems.map((p) => p.line), [2, 3, 4, 6]);
    for (const p of problems.slice(0, 3)) assert.match(p.message, /can never set the API address or the API key/);
    assert.match(problems[3].message, /Unknown setting "colour"/);
    assert.ok(!('apiUrl' in config) && !JSON.stringify(config).includes('evil.example'));
  });

  it('invalid values are problems at their line; the valid rest is used', () => {
    const text = '{\n"minimumGrade": "Z",\n"budgets": { "homepage": { "ttfbMs": -1, "queries": 3, "cpu": 1 }, "checkout": {} },\n"ignore": ["ok-slug", "../etc", 3, "Divi", "a\\u0007b"],\n"context": "front",\n"contextWeights": { "homepage": "x" }\n}';
    const { config, problems } = parseTeamConfig(text, '.wp-bench.json');
    assert.equal(config.minimumGrade, undefined);
    assert.deepEqual(config.budgets, { homepage: { queries: 3 } });
    assert.deepEqual(config.ignore, ['ok-slug', 'Divi'], 'a folder name WordPress lists (a premium theme) can be ignored; paths and control characters cannot');
    assert.equal(config.context, undefined);
    assert.equal(config.contextWeights, undefined);
    assert.equal(problems.length, 9);
    assert.deepEqual([...new Set(problems.map((p) => p.line))], [2, 3, 4, 5, 6]);
  });

  it('malformed JSON: one problem, defaults used; not an object: defaults', () => {
    const bad = parseTeamConfig('{ "minimumGrade": "A", ', '.wp-bench.json');
    assert.equal(bad.problems.length, 1);
    assert.match(bad.problems[0].message, /Invalid JSON.*not used/);
    assert.equal(bad.config.minimumGrade, undefined);
    assert.equal(parseTeamConfig('[1]', 'x').problems.length, 1);
    assert.deepEqual(parseTeamConfig('', 'x').problems, []);
    const deep = parseTeamConfig('['.repeat(10_000), 'x');
    assert.equal(deep.problems.length, 1);
  });

  it('loadTeamConfig: no file is no problem; the file at the root is read', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-team-'));
    assert.deepEqual(await loadTeamConfig(dir), { config: { budgets: {}, ignore: [], positions: {} }, problems: [] });
    await fs.writeFile(path.join(dir, '.wp-bench.json'), '\uFEFF{"minimumGrade":"A"}');
    assert.equal((await loadTeamConfig(dir)).config.minimumGrade, 'A');
  });

  it('the JSON schema describes the same settings and refuses the others', async () => {
    const schema = JSON.parse(await fs.readFile(path.resolve('schemas/wp-bench.schema.json'), 'utf8'));
    assert.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#');
    assert.equal(schema.additionalProperties, false);
    assert.deepEqual(Object.keys(schema.properties).sort(), ['$schema', 'budgets', 'context', 'contextWeights', 'ignore', 'measure', 'minimumGrade']);
    assert.deepEqual(Object.keys(schema.properties.measure.properties), ['maxRegressionPercent', 'instructions', 'ceilings', 'browser']);
    assert.deepEqual(Object.keys(schema.properties.measure.properties.browser.properties), ['bytes_kb', 'requests', 'render_blocking', 'fcp_ms', 'lcp_ms', 'tbt_ms', 'cls']);
    assert.equal(schema.properties.measure.properties.browser.additionalProperties, false);
    assert.deepEqual([schema.properties.measure.properties.instructions.default, schema.properties.measure.properties.instructions.minimum, schema.properties.measure.properties.instructions.maximum], [0.5, 0, 100]);
    assert.equal(schema.properties.measure.additionalProperties, false);
    assert.equal(schema.properties.measure.properties.maxRegressionPercent.default, 10);
    assert.deepEqual(Object.keys(schema.properties.measure.properties.ceilings.properties), ['activation', 'homepage', 'admin']);
    assert.deepEqual(Object.keys(schema.definitions.ceiling.properties), ['ttfbMs', 'memoryMb', 'queries']);
    assert.deepEqual(schema.properties.minimumGrade.enum, ['A', 'B', 'C', 'D', 'E', 'F']);
    assert.deepEqual(Object.keys(schema.definitions.budget.properties), ['ttfbMs', 'memoryMb', 'queries']);
    for (const p of Object.values<any>(schema.properties)) assert.equal(typeof p.description, 'string');
  });

  it('the measure section: maximum regression and per-context ceilings, with positions; invalid parts are problems', () => {
    const text = '{\n"measure": {\n  "maxRegressionPercent": 15,\n  "ceilings": { "homepage": { "ttfbMs": 40, "memoryMb": 2, "queries": 5 }, "admin": { "queries": 3 } }\n}\n}';
    const { config, problems } = parseTeamConfig(text, '.wp-bench.json');
    assert.deepEqual(problems, []);
    assert.deepEqual(config.measure, { maxRegressionPercent: 15, ceilings: { homepage: { ttfbMs: 40, memoryMb: 2, queries: 5 }, admin: { queries: 3 } } });
    assert.deepEqual(config.positions['measure.maxRegressionPercent'], { line: 3, column: 3 });
    assert.ok(config.positions['measure.ceilings.homepage.ttfbMs']);
    assert.deepEqual(config.budgets, {}, 'ceilings are not site budgets');

    const bad = parseTeamConfig('{\n"measure": {\n"maxRegressionPercent": -3,\n"ceilings": { "front": {}, "homepage": { "ttfbMs": "x", "cpu": 1, "queries": 2 } },\n"floor": 1\n}\n}', '.wp-bench.json');
    assert.deepEqual(bad.config.measure, { ceilings: { homepage: { queries: 2 } } });
    assert.deepEqual(bad.problems.map((p) => p.line), [3, 4, 4, 4, 5]);
    assert.match(bad.problems[0].message, /maxRegressionPercent must be a number from 0 to 10000/);
    assert.match(bad.problems[1].message, /Unknown context "front" in measure\.ceilings/);
    assert.match(bad.problems[4].message, /Unknown setting "measure\.floor"/);
    assert.equal(parseTeamConfig('{"measure": 3}', 'x').problems.length, 1);
  });

  it('measure.instructions: the instructions threshold in percent, with its position; out of range or not a number is a problem', () => {
    const { config, problems } = parseTeamConfig('{\n"measure": {\n  "instructions": 0.25,\n  "maxRegressionPercent": 15\n}\n}', '.wp-bench.json');
    assert.deepEqual(problems, []);
    assert.deepEqual(config.measure, { instructions: 0.25, maxRegressionPercent: 15, ceilings: {} });
    assert.deepEqual(config.positions['measure.instructions'], { line: 3, column: 3 });
    for (const bad of ['-1', '101', '"0.5"', 'null']) {
      const r = parseTeamConfig(`{"measure": {"instructions": ${bad}}}`, '.wp-bench.json');
      assert.equal(r.config.measure?.instructions, undefined, bad);
      assert.equal(r.problems.length, 1, bad);
      assert.match(r.problems[0].message, /measure\.instructions must be a number from 0 to 100/);
    }
    assert.match(parseTeamConfig('{"measure": {"cpu": 1}}', 'x').problems[0].message, /known: maxRegressionPercent, instructions, ceilings, browser/);
  });

  it('measure.browser: budgets on what the component adds in the browser, with positions; a wrong figure or value is a problem at its line', () => {
    const text = '{\n"measure": {\n  "browser": {\n    "lcp_ms": 200,\n    "bytes_kb": 150, "tbt_ms": 50, "cls": 0.05, "requests": 5, "render_blocking": 1, "fcp_ms": 0\n  }\n}\n}';
    const { config, problems } = parseTeamConfig(text, '.wp-bench.json');
    assert.deepEqual(problems, []);
    assert.deepEqual(config.measure, { ceilings: {}, browser: { lcp_ms: 200, bytes_kb: 150, tbt_ms: 50, cls: 0.05, requests: 5, render_blocking: 1, fcp_ms: 0 } });
    assert.deepEqual(config.positions['measure.browser.lcp_ms'], { line: 4, column: 5 });
    assert.deepEqual(config.positions['measure.browser.cls'], { line: 5, column: 36 });
    const bad = parseTeamConfig('{"measure": {\n"browser": {\n"lcpMs": 1,\n"tbt_ms": -5,\n"cls": "0.1",\n"requests": 1.5,\n"bytes_kb": 100\n}}}', '.wp-bench.json');
    assert.deepEqual(bad.config.measure, { ceilings: {}, browser: { bytes_kb: 100 } });
    assert.deepEqual(bad.problems.map((p) => [p.line, p.column]), [[3, 1], [4, 11], [5, 8], [6, 13]]);
    assert.match(bad.problems[0].message, /Unknown figure "lcpMs" in measure\.browser is ignored \(use bytes_kb, requests, render_blocking, fcp_ms, lcp_ms, tbt_ms, cls\)/);
    assert.match(bad.problems[1].message, /measure\.browser\.tbt_ms must be a number ≥ 0/);
    assert.match(bad.problems[3].message, /measure\.browser\.requests must be a whole number ≥ 0/);
    assert.match(parseTeamConfig('{"measure": {"browser": [1]}}', 'x').problems[0].message, /measure\.browser must be an object of budgets \(bytes_kb, requests, render_blocking, fcp_ms, lcp_ms, tbt_ms, cls\)/);
  });
});
