// The browser figures' arithmetic on recorded loads (modelled on loads of a calibration page through the gate:
// Chromium 156, desktop profile): TBT, CLS, one load's figures, the sides' medians and spread, the component's assets,
// the record's shape.
import assert from 'node:assert/strict';
import { assetLine } from '../../../../src/core/report/browserText';
import { browserDelta, browserWithinNoise, cumulativeLayoutShift, loadFigures, ownAssets, ownFolders, sideMedians, totalBlockingTime, withBrowser } from '../../../../src/core/measure/browser/figures';
import { DESKTOP, type BrowserLoad, type LoadRequest } from '../../../../src/core/measure/browser/types';
import { buildRecord, CONTEXTS } from '../../../../src/core/measure/record/method';

const req = (url: string, type: LoadRequest['type'], bytes: number, extra: Partial<LoadRequest> = {}): LoadRequest => ({ url, type, bytes, status: 200, render_blocking: false, start_ms: 0, response_ms: 40, end_ms: 50, ...extra });

/** A clean homepage: the document, the theme's stylesheet (render-blocking), a blocked beacon and the favicon. */
function cleanLoad(round: number, fcp: number): BrowserLoad {
  return {
    side: 'baseline',
    round,
    fcp_ms: fcp,
    lcp_ms: fcp + 4,
    load_ms: fcp + 20,
    end_ms: fcp + 1100,
    long_tasks: [],
    layout_shifts: [],
    requests: [req('/', 'document', 9_216), req('/wp-content/themes/twentytwentyone/style.css?ver=1.1', 'stylesheet', 20_480, { render_blocking: true }), req('http://example.com/b', 'other', 0, { status: 403, failed: 'blocked: not the site' }), req('/favicon.ico', 'other', 143, { status: 404 })],
    scripts: [],
    blocked: ['example.com'],
  };
}

/** The same page with a plugin's head script (300 KB, 250 ms of work before the first paint) and a late banner. */
function pluginLoad(round: number, fcp: number): BrowserLoad {
  const base = cleanLoad(round, fcp);
  return {
    ...base,
    side: 'measured',
    long_tasks: [{ start_ms: fcp - 260, duration_ms: 255 }, { start_ms: fcp + 500, duration_ms: 130 }],
    layout_shifts: [{ start_ms: fcp + 900, value: 0.12 }],
    requests: [...base.requests, req('/wp-content/plugins/acme/head.js?ver=2.0', 'script', 307_200, { render_blocking: true }), req('/wp-content/plugins/acme/banner.css', 'stylesheet', 1_024)],
    scripts: [{ url: '/wp-content/plugins/acme/head.js?ver=2.0', main_thread_ms: 251.5 }, { url: '/', main_thread_ms: 3.1 }],
    handles: { '/wp-content/plugins/acme/head.js': 'acme-head' },
  };
}

describe('browser figures: one load', () => {
  it('counts Total Blocking Time as Lighthouse does: after FCP, what a long task runs past 50 ms', () => {
    // Before FCP: not counted; spanning FCP: counted from FCP (120 − 50); after: 130 − 50.
    assert.equal(totalBlockingTime([{ start_ms: 100, duration_ms: 300 }], 500), 0);
    assert.equal(totalBlockingTime([{ start_ms: 400, duration_ms: 220 }], 500), 70);
    assert.equal(totalBlockingTime([{ start_ms: 600, duration_ms: 130 }, { start_ms: 800, duration_ms: 50 }], 500), 80);
    assert.equal(totalBlockingTime([{ start_ms: 600, duration_ms: 130 }], null), 0);
  });

  it('takes CLS as the largest session window (1 s gap, 5 s at most)', () => {
    assert.equal(cumulativeLayoutShift([]), 0);
    // Two shifts 0.5 s apart share a window; one 1.5 s later starts another.
    assert.equal(Math.round(cumulativeLayoutShift([{ start_ms: 100, value: 0.1 }, { start_ms: 600, value: 0.05 }, { start_ms: 2100, value: 0.12 }]) * 1000) / 1000, 0.15);
    // Shifts every 0.9 s for 7 s: a window closes at 5 s.
    const steady = Array.from({ length: 8 }, (_, i) => ({ start_ms: i * 900, value: 0.01 }));
    assert.equal(Math.round(cumulativeLayoutShift(steady) * 1000) / 1000, 0.06);
  });

  it('counts the site’s requests only: not what was refused, not the favicon Chromium asks for by itself', () => {
    const f = loadFigures(pluginLoad(0, 400));
    assert.equal(f.requests, 4);
    assert.equal(f.render_blocking, 2);
    assert.equal(f.bytes_kb, (9_216 + 20_480 + 307_200 + 1_024) / 1024);
    assert.equal(f.tbt_ms, 80);
    assert.equal(f.cls, 0.12);
    assert.equal(f.lcp_ms, 404);
  });

  it('reads a page that never painted at the end of observation', () => {
    const f = loadFigures({ ...cleanLoad(0, 0), fcp_ms: null, lcp_ms: null, end_ms: 30_000, cut: true });
    assert.equal(f.fcp_ms, 30_000);
    assert.equal(f.lcp_ms, 30_000);
  });
});

describe('browser figures: the sides', () => {
  const base = [cleanLoad(0, 300), cleanLoad(1, 320), cleanLoad(2, 310), cleanLoad(3, 900), cleanLoad(4, 305)];
  const meas = [pluginLoad(0, 560), pluginLoad(1, 575), pluginLoad(2, 570), pluginLoad(3, 565), pluginLoad(4, 580)];

  it('says the differences of the medians and the IQR of the paired differences', () => {
    const d = browserDelta(base, meas);
    assert.equal(sideMedians(base).fcp_ms, 310);
    assert.equal(d.fcp_ms, 260);
    // Paired: 260, 255, 260, −335, 275 → IQR 260 − 255 = 5.
    assert.equal(d.spread.fcp_ms, 5);
    assert.equal(d.bytes_kb, 301);
    assert.equal(d.spread.bytes_kb, 0);
    assert.equal(d.requests, 2);
    assert.equal(d.render_blocking, 1);
    assert.equal(d.tbt_ms, 80);
    assert.equal(d.cls, 0.12);
    assert.equal(browserWithinNoise(d, 'fcp_ms'), false);
  });

  it('reads two identical sides as within noise on every figure', () => {
    const d = browserDelta(base, base.map((l) => ({ ...l, side: 'measured' as const })));
    for (const k of ['bytes_kb', 'fcp_ms', 'lcp_ms', 'tbt_ms', 'cls'] as const) assert.equal(browserWithinNoise(d, k), true, k);
    assert.equal(d.requests, 0);
  });

  it('names the component’s own files: by path, with their handle, bytes, main-thread time and blocking', () => {
    const assets = ownAssets(meas, ownFolders('plugin', 'acme'));
    assert.deepEqual(assets, [
      { url: '/wp-content/plugins/acme/head.js', type: 'script', bytes_kb: 300, render_blocking: true, main_thread_ms: 251.5, handle: 'acme-head' },
      { url: '/wp-content/plugins/acme/banner.css', type: 'stylesheet', bytes_kb: 1 },
    ]);
    assert.deepEqual(ownAssets(meas, ownFolders('theme', 'acme')), []);
    assert.deepEqual(ownFolders('theme', 'child', false, 'parent'), ['/wp-content/themes/child/', '/wp-content/themes/parent/']);
  });

  it('a file the site answers with an error is named with its status, and said as a request for nothing', () => {
    const missing = meas.map((l) => ({ ...l, requests: l.requests.map((r) => (r.url.includes('banner.css') ? { ...r, status: 404 } : r)) }));
    const a = ownAssets(missing, ownFolders('plugin', 'acme')).find((x) => x.url.endsWith('banner.css'))!;
    assert.equal(a.status, 404);
    assert.match(assetLine(a), /banner\.css \(stylesheet\): 1\.0 KB, answered 404: a request for nothing/);
    assert.equal(ownAssets(meas, ownFolders('plugin', 'acme')).find((x) => x.url.endsWith('banner.css'))!.status, undefined);
  });

  it('a file is render-blocking when most loads said so, not one (a real theme\'s footer script, mobile)', () => {
    const once = meas.map((l, i) => ({ ...l, requests: l.requests.map((r) => (r.url.includes('head.js') ? { ...r, render_blocking: i === 0 } : r)) }));
    assert.equal(ownAssets(once, ownFolders('plugin', 'acme')).find((a) => a.url.endsWith('head.js'))!.render_blocking, undefined);
    assert.equal(ownAssets(meas, ownFolders('plugin', 'acme')).find((a) => a.url.endsWith('head.js'))!.render_blocking, true);
  });

  it('a difference of the floor itself, repeated exactly, is a difference (0.5 KB of head markup, spread 0)', () => {
    const d = { ...browserDelta(base, base.map((l) => ({ ...l, side: 'measured' as const }))), bytes_kb: 0.5 };
    assert.equal(browserWithinNoise(d, 'bytes_kb'), false);
    assert.equal(browserWithinNoise({ ...d, bytes_kb: 0.4 }, 'bytes_kb'), true);
  });

  it('puts the figures where the record says them', () => {
    const sample = { ttfbMs: 10, memoryBytes: 1_000_000, queries: 5 };
    const samples = Object.fromEntries(CONTEXTS.map((c) => [c, { baseline: [sample], measured: [sample] }])) as never;
    const record = buildRecord({ slug: 'acme', kind: 'plugin', name: 'Acme', version: '2.0' }, samples, { runtime: 'php', wordpress_version: '6.8', php_version: '8.2', rounds: 1, warmup_rounds: 0, baseline_theme: 'twentytwentyone', activation_hook: null, duration_s: 1 }, new Date(0));
    const info = { chromium: '156.0.8078.108', device: 'desktop' as const, rounds: 5, profile: DESKTOP, sandbox: 'bubblewrap' as const };
    const withIt = withBrowser(record, { delta: browserDelta(base, meas), baseline: sideMedians(base), info });
    assert.equal(withIt.contexts.homepage?.browser?.fcp_ms, 260);
    assert.equal(withIt.local.baseline.homepage?.browser?.fcp_ms, 310);
    assert.deepEqual(withIt.local.browser, info);
    assert.equal(withIt.contexts.admin?.browser, undefined);
    const without = withBrowser(record, { unavailable: 'Chromium was not found' });
    assert.deepEqual(without.local.browser, { unavailable: 'Chromium was not found' });
    assert.equal(without.contexts.homepage?.browser, undefined);
  });
});
