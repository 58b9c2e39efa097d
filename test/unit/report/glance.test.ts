// At a glance, in plain Node: chart data (measured bars only, largest first, budget), inline texts, the comparison
// table, and the client HTML report — also rendered in headless Chromium: one bar per measured component, no request.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseRecord } from '../../../src/core/api/record';
import { chartData, compareTable, inlineText } from '../../../src/core/report/glance';
import { jsonForScript, siteReportView } from '../../../src/core/report/glanceView';
import type { LookupOutcome } from '../../../src/core/lookup/lookupService';
import type { ComponentKind, DetectedComponent } from '../../../src/core/model';
import { toHtml } from '../../../src/core/report/html';
import { judge, type JudgeConfig } from '../../../src/core/report/judge';
import { sampleBody } from '../helpers/samples';

type Ctx = { ttfb_delta_ms: number; memory_delta_kb: number; queries_delta: number } | null;
const ctx = (ttfb: number, mb = 1, q = 1): Ctx => ({ ttfb_delta_ms: ttfb, memory_delta_kb: mb * 1024, queries_delta: q });

function record(slug: string, grade: string, score: number, homepage: Ctx, extra: Record<string, unknown> = {}): LookupOutcome {
  const body = sampleBody({ slug, name: `Name of ${slug}`, speed_score: { grade, numeric: score }, contexts: { activation: ctx(5), homepage, admin: ctx(7) }, ...extra });
  return { kind: 'plugin', slug, result: parseRecord(body, 'plugin', slug), stale: false, fromCache: true, fetchedAt: 0 };
}

function comp(slug: string, line: number, kind: ComponentKind = 'plugin'): DetectedComponent {
  return { kind, slug, name: null, version: null, locations: [{ file: 'composer.json', line, column: 6, length: slug.length, source: 'composer.json' }] };
}

const CONFIG: JudgeConfig = { failOn: 'C', context: 'homepage', budgets: { homepage: { ttfbMs: 100 } }, ignore: [] };

function fixture(extra: Record<string, unknown> = {}) {
  const components = [comp('fast', 3), comp('slow', 4), comp('unmeasured', 5), comp('pending', 6), comp('hostile', 7)];
  const outcomes = new Map<string, LookupOutcome>([
    ['plugin/fast', record('fast', 'A', 90, ctx(10), extra)],
    ['plugin/slow', record('slow', 'E', 20, ctx(120, 30, 9), extra)],
    ['plugin/unmeasured', record('unmeasured', 'B', 70, null, extra)],
    ['plugin/hostile', record('hostile', 'C', 55, ctx(40), { ...extra, name: '<img src=x onerror=alert(1)><script>alert(2)</script>' })],
  ]);
  return judge({ components, outcomes, config: CONFIG });
}

describe('at a glance', () => {
  it('chart data: a bar per measured component, largest first; not measured and unknown listed, never as zero; the budget', () => {
    const c = chartData(fixture(), 'homepage', 'ttfb');
    assert.deepEqual(c.bars.map((b) => b.slug), ['slow', 'hostile', 'fast']);
    assert.deepEqual(c.bars.map((b) => b.value), [120, 40, 10]);
    assert.equal(c.total, 170);
    assert.ok(Math.abs(c.bars.reduce((s, b) => s + b.share, 0) - 1) < 1e-9);
    assert.deepEqual(c.notMeasured.map((i) => i.slug), ['unmeasured']);
    assert.deepEqual(c.unknown.map((i) => i.slug), ['pending']);
    assert.equal(c.unknown[0].why, 'not looked up');
    assert.equal(c.budget, 100);
    assert.equal(c.overBudget, true);
    const mem = chartData(fixture(), 'homepage', 'memory');
    assert.deepEqual(mem.bars.map((b) => b.value), [30, 1, 1]);
    assert.equal(mem.budget, null);
  });

  it('inline text: grade and the context TTFB, not benchmarked, not measured, not a wordpress.org slug, stale', () => {
    const o = record('fast', 'A+', 95, ctx(3.2));
    assert.equal(inlineText(o, 'yes', 'homepage', false), 'A+ · +3.2 ms homepage');
    assert.equal(inlineText(record('x', 'B', 60, null), 'yes', 'homepage', false), 'B · not measured (homepage)');
    assert.equal(inlineText({ ...o, stale: true }, 'yes', 'admin', false), 'A+ · +7 ms admin (stale)');
    assert.equal(inlineText(record('y', 'B', 60, ctx(1), { benchmarked: false }), 'yes', 'homepage', false), 'not benchmarked');
    assert.equal(inlineText(undefined, 'not-a-wordpress-org-slug', 'homepage', false), 'not a wordpress.org slug');
    assert.equal(inlineText(undefined, 'yes', 'homepage', false), null, 'nothing until an answer arrives');
    assert.equal(inlineText(o, 'yes', 'homepage', true), 'ignored');
  });

  it('compare: the best value of each row marked (lowest cost, best score, most installs), "not measured" kept', () => {
    const { columns, rows } = compareTable([
      { kind: 'plugin', slug: 'fast', outcome: record('fast', 'A', 90, ctx(10), { metadata: { active_installs: 1000, rating: 4 } }) },
      { kind: 'plugin', slug: 'slow', outcome: record('slow', 'E', 20, ctx(120), { metadata: { active_installs: 5000, rating: 3 } }) },
      { kind: 'plugin', slug: 'unmeasured', outcome: record('unmeasured', 'B', 70, null, { metadata: { active_installs: 10, rating: 5 } }) },
    ]);
    assert.deepEqual(columns.map((c) => c.state), ['benchmarked', 'benchmarked', 'benchmarked']);
    const row = (label: string) => rows.find((r) => r.label === label)!;
    assert.deepEqual(row('Grade').best, [0]);
    assert.deepEqual(row('Homepage · TTFB').best, [0]);
    assert.equal(row('Homepage · TTFB').cells[2], 'not measured');
    assert.deepEqual(row('Active installs').best, [1]);
    assert.deepEqual(row('Rating').best, [2]);
  });

  it('the site report view escapes API strings, and its JSON cannot close its script element', () => {
    const { body, data } = siteReportView(fixture());
    assert.doesNotMatch(body, /<img|<script/);
    const json = jsonForScript(data);
    assert.doesNotMatch(json, /<\/script/i);
    assert.equal(JSON.parse(json).charts.homepage.ttfb.bars[1].name, '<img src=x onerror=alert(1)><script>alert(2)</script>');
  });

  it('the HTML report: self-contained (no script, no URL but profile links), escaped, synthetic label, print CSS', () => {
    const html = toHtml(fixture({ synthetic: true }), { subject: 'acme-site', now: Date.UTC(2026, 10, 24) });
    assert.doesNotMatch(html, /<script/i);
    assert.doesNotMatch(html, /<img src=x/);
    assert.match(html, /Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"/);
    assert.match(html, /class="synthetic"[^>]*>Synthetic data/);
    assert.match(html, /@page \{ margin: 14mm; \}/);
    assert.match(html, /@media print/);
    assert.equal(html.match(/<rect class="bar"/g)?.length, 3);
    assert.match(html, /<line class="budget"/);
    assert.doesNotMatch(toHtml(fixture()), /Synthetic data/);
    const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    assert.ok(urls.length > 0 && urls.every((u) => u.startsWith('https://example.test/plugins/')), `only profile links: ${urls.join()}`);
  });

  it('the HTML report in headless Chromium: one bar per measured component, no request made, prints to A4 and Letter', async function () {
    this.timeout(60_000);
    const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
    assert.ok(fs.existsSync(chromiumPath), `Chromium is needed (${chromiumPath}): apt-get install chromium, or set CHROMIUM_PATH`);
    const { chromium } = await import('playwright-core');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-html-'));
    const file = path.join(dir, 'report.html');
    fs.writeFileSync(file, toHtml(fixture({ synthetic: true }), { subject: 'acme-site' }));
    const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage();
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(`file://${file}`);
      const bars = await page.locator('svg rect.bar').count();
      assert.equal(bars, 3);
      const widths = await page.locator('svg rect.bar').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
      assert.ok(widths[0] > widths[1] && widths[1] > widths[2], `largest first: ${widths.join(', ')}`);
      assert.ok(await page.locator('.synthetic').isVisible());
      assert.deepEqual(requests, [`file://${file}`], 'nothing but the file itself is loaded');
      for (const format of ['A4', 'Letter'] as const) {
        const pdf = await page.pdf({ format, printBackground: true });
        assert.ok(pdf.length > 5000, `${format} PDF`);
      }
    } finally {
      await browser.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
