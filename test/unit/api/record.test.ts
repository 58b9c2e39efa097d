import assert from 'node:assert/strict';
import { parseRecord, RecordShapeError, safeLink } from '../../../src/core/api/record';
import { sampleBody } from '../helpers/samples';

describe('benchmark records', () => {
  it('normalises a benchmarked record; null contexts stay null (not measured)', () => {
    const r = parseRecord(sampleBody(), 'plugin', 'akismet');
    assert.equal(r.state, 'benchmarked');
    if (r.state !== 'benchmarked') return;
    assert.equal(r.record.grade, 'A+');
    assert.equal(r.record.score, 97);
    assert.equal(r.record.contexts.homepage, null);
    assert.deepEqual(r.record.contexts.activation, { ttfbDeltaMs: 12.5, memoryDeltaKb: 2048, queriesDelta: 2 });
    assert.equal(r.record.activeInstalls, 5000000);
    assert.equal(r.record.profileUrl, 'https://example.test/plugins/akismet');
  });

  it('reads known-but-not-benchmarked records', () => {
    const r = parseRecord(sampleBody({ benchmarked: false, speed_score: null, contexts: null, benchmarked_at: null }), 'plugin', 'akismet');
    assert.equal(r.state, 'not-benchmarked');
    if (r.state === 'not-benchmarked') assert.equal(r.record.grade, null);
  });

  const broken: [string, Record<string, unknown>][] = [
    ['grade missing', { speed_score: { numeric: 3 } }],
    ['contexts an array', { contexts: [] }],
    ['numbers as strings', { contexts: { activation: { ttfb_delta_ms: '12', memory_delta_kb: 1, queries_delta: 1 }, homepage: null, admin: null } }],
    ['benchmarked missing', { benchmarked: undefined }],
    ['another slug', { slug: 'jetpack' }],
  ];
  for (const [label, override] of broken) {
    it(`rejects a record with ${label}`, () => {
      assert.throws(() => parseRecord(sampleBody(override), 'plugin', 'akismet'), RecordShapeError);
    });
  }

  it('rejects non-objects', () => {
    for (const body of [null, [], 'x', 3]) assert.throws(() => parseRecord(body, 'plugin', 'akismet'), RecordShapeError);
  });

  it('keeps only http(s) profile links', () => {
    assert.equal(safeLink('javascript:alert(1)'), null);
    assert.equal(safeLink('command:workbench.action.quit'), null);
    assert.equal(safeLink('data:text/html,x'), null);
    assert.equal(safeLink('not a url'), null);
    assert.equal(safeLink('http://127.0.0.1:8787/p'), 'http://127.0.0.1:8787/p');
  });
});
