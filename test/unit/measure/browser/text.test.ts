// The browser block of `measure --browser`'s table, on a recorded result: each figure signed or "within noise", the
// clean site's medians, the component's own files, how it was taken; and the sentence when there are no figures.
import assert from 'node:assert/strict';
import { browserFigure, browserLines } from '../../../../src/core/report/browserText';
import { measureTable } from '../../../../src/core/report/measureText';
import { DESKTOP, MOBILE, type BrowserDelta, type BrowserFigures } from '../../../../src/core/measure/browser/types';
import { buildRecord, CONTEXTS, type LocalRecord } from '../../../../src/core/measure/record/method';
import { failedRequests, withBrowser } from '../../../../src/core/measure/browser/figures';
import { browserInfoProblem } from '../../../../src/core/measure/siteRun/siteBrowserShape';
import type { BrowserLoad } from '../../../../src/core/measure/browser/types';

function record(): LocalRecord {
  const sample = { ttfbMs: 10, memoryBytes: 1_000_000, queries: 5 };
  const samples = Object.fromEntries(CONTEXTS.map((c) => [c, { baseline: [sample], measured: [sample] }])) as never;
  return buildRecord({ slug: 'acme', kind: 'plugin', name: 'Acme', version: '2.0' }, samples, { runtime: 'php', wordpress_version: '6.8', php_version: '8.2', rounds: 1, warmup_rounds: 0, baseline_theme: 'twentytwentyone', activation_hook: null, duration_s: 1 }, new Date(0));
}

const delta: BrowserDelta = {
  bytes_kb: 301.2,
  requests: 1,
  render_blocking: 1,
  fcp_ms: 260.4,
  lcp_ms: 255,
  tbt_ms: 4,
  cls: 0,
  spread: { bytes_kb: 0, fcp_ms: 9.1, lcp_ms: 10.2, tbt_ms: 6, cls: 0 },
  assets: [{ url: '/wp-content/plugins/acme/head.js', type: 'script', bytes_kb: 300, render_blocking: true, main_thread_ms: 251.5, handle: 'acme-head' }],
};
const clean: BrowserFigures = { bytes_kb: 45.1, requests: 5, render_blocking: 1, fcp_ms: 310, lcp_ms: 315, tbt_ms: 0, cls: 0.002 };

describe('browser text', () => {
  it('signs what the component adds and says "within noise" inside the spread', () => {
    assert.equal(browserFigure(delta, 'fcp_ms'), '+260 ms');
    assert.equal(browserFigure(delta, 'bytes_kb'), '+301.2 KB');
    assert.equal(browserFigure(delta, 'tbt_ms'), '±4 ms (within noise)');
    assert.equal(browserFigure(delta, 'cls'), '±0.000 (within noise)');
    assert.equal(browserFigure({ ...delta, requests: -2 }, 'requests'), '−2');
  });

  it('prints the block under the table: profile, figures, clean site, the component’s files, the sandbox', () => {
    const r = withBrowser(record(), { delta, baseline: clean, info: { chromium: '156.0.8078.108', device: 'desktop', rounds: 5, profile: DESKTOP, sandbox: 'bubblewrap', blocked: ['example.com'] } });
    const text = measureTable(r);
    assert.match(text, /Browser — what the visitor pays on the homepage: Chromium 156\.0\.8078\.108, desktop \(10,240 kb\/s, 40 ms RTT, 1350×940\), 5 loads per side/);
    assert.match(text, /FCP\s+\+260 ms\s+9\.1 ms\s+310 ms/);
    assert.match(text, /TBT\s+±4 ms \(within noise\)/);
    assert.match(text, /\/wp-content\/plugins\/acme\/head\.js \(script, handle acme-head\): 300\.0 KB, render-blocking, 252 ms main thread/);
    assert.match(text, /tried to reach outside the site \(refused\): example\.com/);
    assert.match(text, /Chromium ran in bubblewrap/);
  });

  it('says the mobile profile’s CPU slowdown', () => {
    const r = withBrowser(record(), { delta, baseline: clean, info: { chromium: '156', device: 'mobile', rounds: 3, profile: MOBILE, sandbox: 'none', sandbox_note: 'bubblewrap is not installed' } });
    assert.match(browserLines(r).join('\n'), /mobile \(1,638\.4 kb\/s, 150 ms RTT, 4× CPU slowdown, 412×823\), 3 loads per side/);
    assert.match(browserLines(r).join('\n'), /without a sandbox \(bubblewrap is not installed\)/);
  });

  it('says why there are no browser figures, and nothing without --browser', () => {
    assert.deepEqual(browserLines(withBrowser(record(), { unavailable: 'Chromium was not found: install Chromium (Debian/Ubuntu: sudo apt install chromium…)' })), ['Browser: not measured — Chromium was not found: install Chromium (Debian/Ubuntu: sudo apt install chromium…).']);
    assert.deepEqual(browserLines(record()), []);
    assert.doesNotMatch(measureTable(record()), /Browser/);
  });
  it('requests of the site that failed in most of a side\'s loads are said, with the side and why; a confirmation pass is counted', () => {
    const req = (url: string, over: { failed?: string; status?: number } = {}) => ({ url, type: 'script' as const, bytes: over.failed ? 0 : 900, status: over.status ?? (over.failed ? 0 : 200), render_blocking: false, start_ms: 0, response_ms: 1, end_ms: 2, ...(over.failed ? { failed: over.failed } : {}) });
    const load = (side: string, round: number, requests: ReturnType<typeof req>[]): BrowserLoad => ({ side, round, fcp_ms: 100, lcp_ms: 100, load_ms: 200, end_ms: 1000, long_tasks: [], layout_shifts: [], scripts: [], blocked: [], requests: [req('/'), ...requests] });
    const core = '/wp-includes/js/dist/hooks.min.js?ver=1';
    const loads = [
      load('baseline', -1, [req(core, { failed: 'net::ERR_ABORTED' })]),
      load('baseline', 0, [req(core, { failed: 'net::ERR_ABORTED' })]),
      load('baseline', 1, [req(core, { failed: 'net::ERR_ABORTED' }), req('/once.js', { failed: 'net::ERR_FAILED' })]),
      load('baseline', 2, [req(core)]),
      load('measured', 0, [req(core, { failed: 'net::ERR_ABORTED' }), req('/wp-content/plugins/acme/app.js', { status: 404 }), req('https://evil.example/x.js', { failed: 'blocked: not the site' })]),
      load('measured', 1, [req(core, { failed: 'net::ERR_ABORTED' }), req('/wp-content/plugins/acme/app.js', { status: 404 })]),
    ];
    assert.deepEqual(failedRequests(loads), ['/wp-includes/js/dist/hooks.min.js (baseline: net::ERR_ABORTED)', '/wp-content/plugins/acme/app.js (measured: 404)']);
    // One failure in two loads is no majority: the clean side keeps its file (the measured side's one load still fails it).
    assert.deepEqual(failedRequests(loads.filter((l) => l.round !== 1)), ['/wp-includes/js/dist/hooks.min.js (measured: net::ERR_ABORTED)', '/wp-content/plugins/acme/app.js (measured: 404)']);
    const info = { chromium: '156', device: 'desktop' as const, rounds: 10, confirmation_rounds: 5, profile: DESKTOP, sandbox: 'bubblewrap' as const, failed_requests: failedRequests(loads) };
    const text = browserLines(withBrowser(record(), { delta, baseline: clean, info })).join('\n');
    assert.match(text, /10 loads per side \(5 of them a confirmation pass\), fresh each/);
    assert.match(text, /Warning: 2 requests of the site failed in most loads \(the figures leave out what they would have cost\): \/wp-includes\/js\/dist\/hooks\.min\.js \(baseline: net::ERR_ABORTED\), \/wp-content\/plugins\/acme\/app\.js \(measured: 404\)\./);
    assert.equal(browserInfoProblem(info, 'browser'), undefined);
    assert.equal(browserInfoProblem({ ...info, failed_requests: 'x' }, 'browser'), 'browser.failed_requests must be an array of at most 100 strings (got "x")');
    assert.match(browserInfoProblem({ ...info, confirmation_rounds: '<b>' }, 'browser') ?? '', /^browser\.confirmation_rounds must be/);
  });
});
