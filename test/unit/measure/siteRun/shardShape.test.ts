// The shape check `wp-bench merge` runs on each file before using it: what is wrong, said as the field and what it
// holds (shortened, escaped); nothing a real record has is refused.
import * as assert from 'node:assert/strict';
import { printable, shown, siteRecordProblem } from '../../../../src/core/measure/siteRun/shardShape';
import { isSiteRecord } from '../../../../src/core/measure/siteRun/siteRecord';
import { siteRecord } from '../../helpers/siteRecord';

describe('shardShape: a site record read from a file', () => {
  it('takes a record of the documented shape, with or without --shard (a single saved --site record too)', () => {
    assert.equal(siteRecordProblem(siteRecord()), undefined);
    const r = siteRecord();
    assert.equal(siteRecordProblem({ ...r, local: { ...r.local, shard: { k: 3, n: 1000 }, warmup_rounds: 2, rounds_taken: { min: 3, median: 4.5, max: 9 } } }), undefined);
    assert.equal(siteRecordProblem({ ...r, local: { ...r.local, database: null, shards: 4 }, state_dependent: [] }), undefined);
    assert.equal(siteRecordProblem({ ...r, from_a_later_version: { anything: [1, 'two'] } }), undefined, 'fields it does not read are left alone');
  });

  it('refuses what is not an object, naming what it is', () => {
    const want = (got: string) => `not a site record (measure SITE --site --json): it must be an object (got ${got})`;
    assert.equal(siteRecordProblem(null), want('null'));
    assert.equal(siteRecordProblem([siteRecord()]), want('an array of 1'));
    assert.equal(siteRecordProblem('{"source":"local"}'), want('"{\\"source\\":\\"local\\"}"'));
    assert.equal(siteRecordProblem(42), want('42'));
  });

  it('says the first wrong field by its path', () => {
    const r = siteRecord();
    assert.equal(siteRecordProblem({ ...r, sum_of_alone: { contexts: r.sum_of_alone.contexts, not_counted: { homepage: ['a', 3] } } }), 'sum_of_alone.not_counted.homepage[1] must be a string of at most 300 characters (got 3)');
    assert.equal(siteRecordProblem({ ...r, drop_ins_left_out: 'object-cache.php' }), 'drop_ins_left_out must be an array (got "object-cache.php")');
    assert.equal(siteRecordProblem({ ...r, local: { ...r.local, database: { engine: 'oracle', version: '23' } } }), 'local.database.engine must be one of mariadb, mysql, sqlite (got "oracle")');
    assert.equal(siteRecordProblem({ ...r, components: Array(5001).fill(r.components[0]) }), 'components must be an array of at most 5000 (got an array of 5001)');
  });

  it('a key no identifier spells is shown quoted and escaped in the path', () => {
    const r = siteRecord();
    const notCounted = JSON.parse('{"home\\u001bpage": [7]}');
    assert.equal(siteRecordProblem({ ...r, sum_of_alone: { contexts: r.sum_of_alone.contexts, not_counted: notCounted } }), 'sum_of_alone.not_counted["home\\u001bpage"][0] must be a string of at most 300 characters (got 7)');
  });

  it('finds a __proto__ key however deep, without recursion', () => {
    let deep = '0';
    for (let i = 0; i < 20000; i++) deep = `[${deep}]`;
    const r = JSON.parse(JSON.stringify(siteRecord()).replace('"source"', `"x":${deep},"y":{"a":[{"__proto__":1}]},"source"`));
    assert.equal(siteRecordProblem(r), 'y.a[0].__proto__ is not allowed (a prototype key)');
  });

  it('what it accepts, isSiteRecord accepts', () => {
    const r = siteRecord();
    for (const v of [r, { ...r, local: { ...r.local, shard: { k: 1, n: 2 } } }]) assert.ok(siteRecordProblem(v) === undefined && isSiteRecord(v));
  });

  it('a value from the file is shown short, on one line, without control characters', () => {
    assert.equal(shown(undefined), 'nothing');
    assert.equal(shown(1e9), '1000000000');
    assert.equal(shown(Infinity), 'Infinity');
    assert.equal(shown({ a: 1 }), 'an object');
    assert.equal(shown([1, 2, 3]), 'an array of 3');
    assert.equal(shown(true), 'true');
    assert.equal(shown('a\nb\u0085c\u202ed\u2028e'), '"a\\nb\\u0085c\\u202ed\\u2028e"');
    assert.equal(shown('y'.repeat(41)), `"${'y'.repeat(40)}…" (41 characters)`);
    assert.equal(printable('::error::x\u001b[31m', 60), '::error::x\\u001b[31m');
    assert.equal(printable('z'.repeat(300), 10), `${'z'.repeat(10)}…`);
  });
});
