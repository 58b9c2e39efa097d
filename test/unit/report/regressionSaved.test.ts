// `--baseline-ref` after a fix: a measured saving is said in every format whenever it is outside the noise of that
// figure (issue 45). Memory and queries are exact (their run's spread is typically 0): any saving of them is said,
// to the KB; time only outside its spread. On recorded figures: the working tree against REF (`main`).
import * as assert from 'node:assert/strict';
import { regressionHtml, regressionJson, regressionMarkdown, regressionTable } from '../../../src/core/report/regressionFormats';
import type { LocalRecord } from '../../../src/core/measure/record/method';
import { localRecord, regressionSubject } from '../helpers/localRecords';

/** The record with every context's spread of memory (KB) and TTFB (ms) set, as a noisier run reads. */
function withSpread(r: LocalRecord, memoryKb: number, ttfbMs = 0): LocalRecord {
  const out: LocalRecord = structuredClone(r);
  for (const c of ['activation', 'homepage', 'admin'] as const) if (out.local.spread[c]) out.local.spread[c] = { ...out.local.spread[c]!, memory_kb: memoryKb, ttfb_ms: ttfbMs };
  return out;
}

const savedLine = (table: string) => table.split('\n').find((l) => l.startsWith('Saved')) ?? '';

describe('regression reports: a measured saving is said', () => {
  it('−13 KB in every context (an 8 KB autoloaded option turned off), spread 0: said in the table, JSON, Markdown and HTML', () => {
    const s = regressionSubject(localRecord('Acme', 10, 1011, 2), localRecord('Acme', 10, 1024, 2));
    assert.equal(savedLine(regressionTable(s)), 'Saved against main (aaaaaaaaaaaa), per request: activation −13 KB; homepage −13 KB; admin −13 KB.');
    assert.equal(JSON.parse(regressionJson(s)).saved, 'activation −13 KB; homepage −13 KB; admin −13 KB');
    assert.match(regressionMarkdown(s), /^\*\*Saved\*\* against `main`, per request: activation −13 KB; homepage −13 KB; admin −13 KB$/m);
    assert.match(regressionHtml(s), /<p class="ok">Saved against <code>main<\/code>, per request: activation −13 KB; homepage −13 KB; admin −13 KB<\/p>/);
  });

  it('memory to the KB: −1 KB is said, −64 KB reads −64 KB (not rounded through three decimals of a MB)', () => {
    assert.match(savedLine(regressionTable(regressionSubject(localRecord('Acme', 10, 1023, 2), localRecord('Acme', 10, 1024, 2)))), /: activation −1 KB; homepage −1 KB; admin −1 KB\.$/);
    assert.match(savedLine(regressionTable(regressionSubject(localRecord('Acme', 10, 960, 2), localRecord('Acme', 10, 1024, 2)))), /: activation −64 KB; homepage −64 KB; admin −64 KB\.$/);
    assert.match(savedLine(regressionTable(regressionSubject(localRecord('Acme', 10, 1024, 1), localRecord('Acme', 10, 1024, 2)))), /: activation −1 query; homepage −1 query; admin −1 query\.$/);
  });

  it('a saving inside the run\'s own spread of that figure is not said; one outside it is', () => {
    const within = regressionSubject(withSpread(localRecord('Acme', 10, 1011, 2), 20), localRecord('Acme', 10, 1024, 2));
    assert.equal(savedLine(regressionTable(within)), '', 'a 13 KB saving inside a 20 KB spread');
    assert.equal(JSON.parse(regressionJson(within)).saved, null);
    const outside = regressionSubject(withSpread(localRecord('Acme', 10, 1011, 2), 12), localRecord('Acme', 10, 1024, 2));
    assert.match(savedLine(regressionTable(outside)), /homepage −13 KB/);
    // Time: only outside its spread.
    const slower = regressionSubject(withSpread(localRecord('Acme', 7, 1024, 2), 0, 5), localRecord('Acme', 10, 1024, 2));
    assert.equal(savedLine(regressionTable(slower)), '', '−3 ms inside a 5 ms spread');
    const faster = regressionSubject(withSpread(localRecord('Acme', 7, 1024, 2), 0, 0.5), localRecord('Acme', 10, 1024, 2));
    assert.match(savedLine(regressionTable(faster)), /homepage −3\.0 ms/);
  });

  it('the same figures on both sides: no "Saved" line, `saved` null', () => {
    const s = regressionSubject(localRecord('Acme', 10, 1024, 2), localRecord('Acme', 10, 1024, 2));
    assert.doesNotMatch(regressionTable(s), /Saved/);
    assert.equal(JSON.parse(regressionJson(s)).saved, null);
  });
});
