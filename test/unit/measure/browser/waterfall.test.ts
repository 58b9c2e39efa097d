// The waterfall and filmstrip data the report draws, on recorded loads (modelled on a calibration page's loads with
// frames: the clean side and the side with a plugin's head script and hero image): the component's requests marked,
// the favicon left out, URLs cut, the filmstrip's times and only the frames they show, the record's size.
import assert from 'node:assert/strict';
import { browserWaterfall, filmstripTimes, frameAt, WATERFALL_MAX_REQUESTS } from '../../../../src/core/measure/browser/waterfall';
import { ownFolders } from '../../../../src/core/measure/browser/figures';
import type { BrowserLoad, LoadRequest } from '../../../../src/core/measure/browser/types';

const req = (url: string, type: LoadRequest['type'], bytes: number, start: number, extra: Partial<LoadRequest> = {}): LoadRequest => ({ url, type, bytes, status: 200, render_blocking: false, start_ms: start, response_ms: start + 45, end_ms: start + 60, ...extra });
/** A JPEG's base64 of about 4 KB (what a 200 px frame at quality 40 weighs). */
const jpeg = (n: number) => `/9j/${String(n).padStart(4, '0')}${'A'.repeat(5400)}`;

function load(side: string, extra: Partial<BrowserLoad> = {}): BrowserLoad {
  return {
    side,
    round: 5,
    fcp_ms: 180,
    lcp_ms: 190,
    load_ms: 240,
    end_ms: 1300,
    long_tasks: [],
    layout_shifts: [],
    requests: [req('/', 'document', 9_216, 0), req('/wp-content/themes/twentytwentyfive/style.css?ver=1.2', 'stylesheet', 20_480, 70, { render_blocking: true }), req('/favicon.ico', 'other', 143, 300, { status: 404 })],
    scripts: [],
    blocked: [],
    frames: [{ at_ms: 185, jpeg: jpeg(1) }],
    ...extra,
  };
}

const clean = load('baseline');
const withPlugin = load('measured', {
  fcp_ms: 700,
  lcp_ms: 1150,
  load_ms: 1190,
  requests: [
    ...clean.requests,
    req('/wp-content/plugins/acme/head.js?ver=2.0', 'script', 307_200, 72, { render_blocking: true }),
    req('/wp-content/plugins/acme/hero.jpg', 'image', 512_000, 710),
    req('http://tracker.example/beacon', 'other', 0, 900, { failed: 'blocked: not the site' }),
  ],
  // A frame every 50 ms from the first paint: what a screencast of a page whose hero loads late gives.
  frames: Array.from({ length: 12 }, (_, i) => ({ at_ms: 705 + i * 50, jpeg: jpeg(100 + i) })),
});

describe('browser waterfall and filmstrip (the report’s data)', () => {
  const folders = ownFolders('plugin', 'acme');
  const w = browserWaterfall(clean, withPlugin, folders);

  it('keeps each side’s requests in order, the component’s own marked, the favicon out, a refused one said', () => {
    assert.deepEqual(w.baseline.requests.map((r) => r.url), ['/', '/wp-content/themes/twentytwentyfive/style.css?ver=1.2']);
    assert.deepEqual(w.measured.requests.filter((r) => r.own).map((r) => r.url), ['/wp-content/plugins/acme/head.js?ver=2.0', '/wp-content/plugins/acme/hero.jpg']);
    assert.equal(w.measured.requests.find((r) => r.url.includes('head.js'))?.render_blocking, true);
    assert.equal(w.measured.requests.find((r) => r.url.includes('tracker'))?.failed, 'blocked: not the site');
    assert.equal(w.measured.requests.find((r) => r.url === '/')?.own, undefined);
    assert.deepEqual([w.measured.fcp_ms, w.measured.lcp_ms, w.measured.load_ms], [700, 1150, 1190]);
    assert.equal(w.measured.cut, undefined);
    assert.equal(browserWaterfall(clean, { ...withPlugin, cut: true }, folders).measured.cut, true, 'a load cut at the time limit is said');
  });

  it('a theme’s own files are its folder’s (and its parent’s)', () => {
    const t = browserWaterfall(clean, clean, ownFolders('theme', 'twentytwentyfive'));
    assert.equal(t.measured.requests.find((r) => r.type === 'stylesheet')?.own, true);
  });

  it('the filmstrip’s times: round steps from 0 until the later side’s last change', () => {
    assert.deepEqual(filmstripTimes([clean]), [0, 50, 100, 150, 200, 250, 300, 350]);
    // The last frame at 1255 ms: 8 columns of 200 ms reach 1400.
    assert.deepEqual(w.filmstrip_ms, [0, 200, 400, 600, 800, 1000, 1200, 1400]);
  });

  it('the frame shown at a time is the last one at or before it; none before the first paint', () => {
    const frames = [{ at_ms: 100 }, { at_ms: 300 }];
    assert.equal(frameAt(frames, 50), undefined);
    assert.equal(frameAt(frames, 100)?.at_ms, 100);
    assert.equal(frameAt(frames, 299)?.at_ms, 100);
    assert.equal(frameAt(frames, 5000)?.at_ms, 300);
  });

  it('keeps only the frames the filmstrip shows, each once (the record stays small)', () => {
    // Measured: nothing before 705; at 800 → 755, 1000 → 955, 1200 → 1155, 1400 → 1255.
    assert.deepEqual(w.measured.frames.map((f) => f.at_ms), [755, 955, 1155, 1255]);
    // Clean: one frame at 185, shown from 200 on: kept once.
    assert.deepEqual(w.baseline.frames.map((f) => f.at_ms), [185]);
    assert.ok(JSON.stringify(w).length < 150_000, `${JSON.stringify(w).length} characters`);
  });

  it('a page of many requests: the first WATERFALL_MAX_REQUESTS kept, the rest counted', () => {
    const many = load('measured', { requests: Array.from({ length: WATERFALL_MAX_REQUESTS + 30 }, (_, i) => req(`/wp-content/plugins/acme/i${i}.png?${'x'.repeat(400)}`, 'image', 100, i)) });
    const m = browserWaterfall(clean, many, folders).measured;
    assert.equal(m.requests.length, WATERFALL_MAX_REQUESTS);
    assert.equal(m.more_requests, 30);
    assert.ok(m.requests.every((r) => r.url.length <= 300));
  });
});
