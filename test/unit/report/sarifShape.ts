// Structural validation of SARIF 2.1.0 output, shared by the report and check tests (not a test file itself).
import assert from 'node:assert/strict';

/** Structural check of SARIF 2.1.0 (the parts code-scanning UIs need). */
export function assertSarifShape(sarif: any): void {
  assert.equal(sarif.version, '2.1.0');
  assert.match(sarif.$schema, /sarif-2\.1\.0/);
  assert.ok(Array.isArray(sarif.runs) && sarif.runs.length === 1);
  const run = sarif.runs[0];
  const driver = run.tool.driver;
  assert.equal(driver.name, 'WP Bench');
  assert.match(driver.informationUri, /^https:\/\//);
  const ids = driver.rules.map((r: any) => r.id);
  assert.equal(new Set(ids).size, ids.length, 'rule ids are unique');
  for (const r of driver.rules) {
    assert.equal(typeof r.shortDescription.text, 'string');
    assert.equal(typeof r.fullDescription.text, 'string');
    assert.ok(['error', 'warning', 'note', 'none'].includes(r.defaultConfiguration.level));
  }
  assert.ok(Array.isArray(run.results));
  for (const res of run.results) {
    assert.ok(ids.includes(res.ruleId), res.ruleId);
    assert.equal(driver.rules[res.ruleIndex].id, res.ruleId, 'ruleIndex points at the rule');
    assert.ok(['error', 'warning', 'note'].includes(res.level));
    assert.equal(typeof res.message.text, 'string');
    assert.ok(res.message.text.length > 0);
    assert.ok(Array.isArray(res.locations));
    for (const loc of [...res.locations, ...(res.relatedLocations ?? [])]) {
      const a = loc.physicalLocation.artifactLocation;
      assert.equal(a.uriBaseId, '%SRCROOT%');
      assert.ok(!a.uri.startsWith('/') && !a.uri.includes('\\') && !/^[a-z]+:/i.test(a.uri), `relative uri: ${a.uri}`);
      const region = loc.physicalLocation.region;
      assert.ok(Number.isInteger(region.startLine) && region.startLine >= 1);
      assert.ok(Number.isInteger(region.startColumn) && region.startColumn >= 1);
      if (region.endColumn !== undefined) assert.ok(region.endColumn > region.startColumn);
    }
  }
}
