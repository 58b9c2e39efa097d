import assert from 'node:assert/strict';
import { parseRecord } from '../../../src/core/api/record';
import type { LookupOutcome } from '../../../src/core/lookup/lookupService';
import { accessibleSummary, escapeHtml, escapeMarkdown, hoverMarkdown, lookupHtml, markdownLinkTarget, siteTotal, siteTotalLine, compareWorstFirst } from '../../../src/core/present/outcome';
import { isWorseThan, formatMemoryKb } from '../../../src/core/present/format';
import { sampleBody } from '../helpers/samples';

function outcome(overrides: Record<string, unknown> = {}, extra: Partial<LookupOutcome> = {}): LookupOutcome {
  const slug = (overrides.slug as string) ?? 'akismet';
  return { kind: 'plugin', slug, result: parseRecord(sampleBody({ slug, ...overrides }), 'plugin', slug), stale: false, fromCache: true, fetchedAt: 0, ...extra };
}

const HOSTILE = '[click](command:workbench.action.quit) <img src=x onerror=alert(1)> **bold** `code` javascript:alert(1) | a |';

describe('presentation', () => {
  it('hover: grade, score, the three contexts, "not measured" for null, facts and profile link', () => {
    const md = hoverMarkdown('plugin', 'akismet', outcome(), { now: 60_000 });
    assert.match(md, /Grade \*\*A\+\*\* · score 97/);
    assert.match(md, /\| Activation \| 12\.5 ms \| 2\.0 MB \| 2 \|/);
    assert.match(md, /\| Homepage \| not measured \| not measured \| not measured \|/);
    assert.match(md, /\| Admin \| 30 ms \| 4\.0 MB \| 5 \|/);
    assert.match(md, /5,000,000\+ active installs/);
    assert.match(md, /\[Open benchmark profile\]\(https:\/\/example\.test\/plugins\/akismet\)/);
    assert.match(md, /Fetched 1 min ago/);
  });

  it('hover: stale answers say so, with the age and the failed refresh', () => {
    const md = hoverMarkdown('plugin', 'akismet', outcome({}, { stale: true, fetchedAt: 0 }), { now: 30 * 3_600_000 });
    assert.match(md, /Stale: fetched 30 h ago/);
  });

  it('hover: not benchmarked and not in dataset states', () => {
    assert.match(hoverMarkdown('plugin', 'akismet', outcome({ benchmarked: false })), /Known, not benchmarked yet/);
    const nf: LookupOutcome = { kind: 'theme', slug: 'x', result: { state: 'not-in-dataset', kind: 'theme', slug: 'x' }, stale: false, fromCache: false };
    assert.match(hoverMarkdown('theme', 'x', nf), /Not in the benchmark dataset/);
  });

  it('hover: API strings cannot inject markdown links, HTML or command links', () => {
    const md = hoverMarkdown('plugin', 'akismet', outcome({ name: HOSTILE, links: { profile: 'command:workbench.action.quit' } }));
    assert.ok(!/(?<!\\)\]\(command:/.test(md), md);
    assert.ok(!/(?<!\\)<img/.test(md), md);
    assert.ok(!/\[Open benchmark profile\]/.test(md), 'non-http profile links are dropped');
    assert.ok(!md.includes('**bold**'));
    const js = hoverMarkdown('plugin', 'akismet', outcome({ links: { profile: 'javascript:alert(1)' } }));
    assert.ok(!js.includes('javascript:'));
  });

  it('escapes markdown and HTML completely', () => {
    assert.equal(escapeMarkdown('a*b_c'), 'a\\*b\\_c');
    assert.ok(!escapeHtml(HOSTILE).includes('<'));
    assert.equal(markdownLinkTarget('https://x.test/a)(b'), 'https://x.test/a%29%28b');
    assert.equal(markdownLinkTarget('command:x'), null);
  });

  it('webview HTML escapes every API string', () => {
    const html = lookupHtml('plugin', 'akismet', outcome({ name: HOSTILE }));
    assert.ok(!html.includes('<img'));
    assert.ok(!html.includes('onerror=alert(1)>'));
    assert.match(html, /<table>/);
    assert.match(html, /not measured/);
  });

  it('site total sums measured deltas and counts unmeasured contexts, never as zero', () => {
    const a = outcome({ slug: 'a' });
    const b = outcome({ slug: 'b', contexts: { activation: { ttfb_delta_ms: 10, memory_delta_kb: 100, queries_delta: 1 }, homepage: { ttfb_delta_ms: 40, memory_delta_kb: 512, queries_delta: 3 }, admin: null } });
    const t = siteTotal([a, b, undefined]);
    assert.equal(t.contexts.activation.ttfbDeltaMs, 22.5);
    assert.equal(t.contexts.activation.queriesDelta, 3);
    assert.equal(t.contexts.homepage.ttfbDeltaMs, 40);
    assert.equal(t.contexts.homepage.notMeasured, 1);
    assert.equal(t.contexts.admin.notMeasured, 1);
    assert.equal(t.benchmarked, 2);
    assert.equal(t.unknown, 1);
  });

  it('a site total with nothing measured says so instead of "+0 ms" (every lookup failed, or nothing benchmarked)', () => {
    const none = siteTotal([undefined, undefined]);
    assert.equal(siteTotalLine(none.contexts.homepage), 'no measurement');
    const onlyNull = siteTotal([outcome({ slug: 'a', contexts: { activation: null, homepage: null, admin: null } })]);
    assert.equal(siteTotalLine(onlyNull.contexts.admin), 'no measurement (1 not measured)');
    const some = siteTotal([outcome({ slug: 'b' })]);
    assert.match(siteTotalLine(some.contexts.activation), /^\+[\d.]+ ms TTFB · \+/);
  });

  it('sorts worst first, ungraded last', () => {
    const items = [
      { slug: 'good', outcome: outcome({ slug: 'good' }) },
      { slug: 'none', outcome: undefined },
      { slug: 'bad', outcome: outcome({ slug: 'bad', speed_score: { grade: 'F', numeric: 5 } }) },
      { slug: 'mid', outcome: outcome({ slug: 'mid', speed_score: { grade: 'C', numeric: 50 } }) },
    ];
    assert.deepEqual(items.sort(compareWorstFirst).map((i) => i.slug), ['bad', 'mid', 'good', 'none']);
  });

  it('grades below the minimum', () => {
    assert.equal(isWorseThan('D', 'C'), true);
    assert.equal(isWorseThan('C-', 'C'), false);
    assert.equal(isWorseThan('A+', 'C'), false);
    assert.equal(isWorseThan('F', 'E'), true);
    assert.equal(isWorseThan(null, 'C'), false);
    assert.equal(formatMemoryKb(512), '512 KB');
    assert.equal(formatMemoryKb(-1), '-1 KB');
    assert.equal(formatMemoryKb(20480), '20 MB');
  });
});

describe('synthetic data', () => {
  it('is labelled wherever a record is shown', () => {
    const o = outcome({ synthetic: true });
    assert.match(hoverMarkdown('plugin', 'akismet', o), /synthetic data \(emulator\)/);
    assert.match(lookupHtml('plugin', 'akismet', o), /synthetic data \(emulator\)/);
    assert.doesNotMatch(hoverMarkdown('plugin', 'akismet', outcome()), /synthetic/);
  });
});

describe('present: accessible', () => {
  it('spells the grade out and gives the lookup table column headers and a caption', () => {
    const o = outcome({ speed_score: { grade: 'D', numeric: 29.9 } });
    assert.equal(accessibleSummary(o), 'grade D, score 29.9');
    assert.equal(accessibleSummary({ ...o, stale: true }), 'grade D, score 29.9, stale cached data');
    const html = lookupHtml('plugin', 'akismet', o);
    assert.match(html, /role="img" aria-label="grade D, score 29\.9"/);
    assert.match(html, /<caption>/);
    assert.equal((html.match(/<th scope="col">/g) ?? []).length, 4);
  });
});
