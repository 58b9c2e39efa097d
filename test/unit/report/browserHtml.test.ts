// The browser report (`measure PATH --browser --format html|markdown`, and the editor's webview body) on a recorded
// record (test/fixtures/browser/acme-slider.record.json: a run of our own slider-like plugin — a head script, a
// stylesheet, a 293 KB hero image, a banner pushed in after load): the figures, the waterfall with the component's
// requests in colour, FCP/LCP marks, the filmstrip of both sides at the same times, no script and no request out,
// and every string from the record escaped (a hostile URL, handle, name and frame).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BROWSER_CSS, BROWSER_RULES, browserHtml, browserMarkdown, browserReportBody, waterfallSvg } from '../../../src/core/report/browserHtml';
import type { LocalRecord } from '../../../src/core/measure/record/method';
import type { BrowserInfo } from '../../../src/core/measure/browser/types';

const FIXTURE = path.join(__dirname, '..', '..', 'fixtures', 'browser', 'acme-slider.record.json');
const load = (): LocalRecord => JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));
const info = (r: LocalRecord) => r.local.browser as BrowserInfo;

describe('browser report (HTML and Markdown)', () => {
  it('draws a waterfall per side on one time scale: the component’s own requests in colour, with a legend and the FCP/LCP marks', () => {
    const r = load();
    const html = browserHtml(r);
    const w = info(r).waterfall!;
    // Two waterfalls (clean, with the component), each a row per request.
    assert.equal((html.match(/<svg[^>]*class="waterfall"/g) ?? []).length, 2);
    const own = w.measured.requests.filter((q) => q.own).length;
    assert.ok(own >= 3, `${own} own requests in the fixture`);
    assert.equal((html.match(/<rect class="wf-bar own/g) ?? []).length, own, 'each of its requests in colour, no other');
    assert.equal((html.match(/<rect class="wf-bar /g) ?? []).length, w.measured.requests.length + w.baseline.requests.length);
    assert.match(html, /class="legend"[\s\S]*its own files/);
    assert.match(html, /class="wf-mark fcp"/);
    assert.match(html, /class="wf-mark lcp"/);
    assert.match(html, /hero\.png/);
    // The component's render-blocking files are said in the row's title.
    assert.match(html, /slider-core\.js\?ver=2\.1[^<]*render-blocking/);
  });

  it('a filmstrip of both sides at the same times, frames as data: images, "nothing painted" before the first', () => {
    const r = load();
    const html = browserHtml(r);
    const w = info(r).waterfall!;
    const strip = /<table class="filmstrip">[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
    assert.ok(strip, 'a filmstrip table');
    for (const t of w.filmstrip_ms) assert.ok(strip.includes(`>${t} ms<`), `column ${t} ms`);
    assert.match(strip, /<th scope="row">Clean site<\/th>/);
    assert.match(strip, /<th scope="row">With Acme Slider<\/th>/);
    assert.equal((strip.match(/<img /g) ?? []).length + (strip.match(/class="blank"/g) ?? []).length, 2 * w.filmstrip_ms.length);
    assert.match(strip, /<img src="data:image\/jpeg;base64,\/9j\//);
    assert.match(strip, /nothing painted/);
  });

  it('the figures beside the clean site, "within noise" inside the spread, the component’s files with their handles', () => {
    const html = browserHtml(load());
    assert.match(html, /<td>\+294\.8 KB<\/td>/);
    assert.match(html, /within noise/);
    assert.match(html, /<code>acme-slider-core<\/code>/);
    assert.match(html, /121 ms/);
  });

  it('a self-contained page: no script, no request out (its CSP allows inline styles and data: images only)', () => {
    const html = browserHtml(load());
    assert.doesNotMatch(html, /<script/i);
    assert.match(html, /Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"/);
    assert.doesNotMatch(html, /(src|href)="(?!data:image\/jpeg;base64,|#)/);
    assert.ok(html.length < 200_000, `${html.length} characters`);
  });

  it('escapes every string from the record: a hostile URL, handle, name; a frame that is no base64 is left out', () => {
    const r = load();
    const evil = '"><script>alert(1)</script><img src=x onerror=alert(2)>';
    r.name = `Acme ${evil}`;
    const w = info(r).waterfall!;
    w.measured.requests[3] = { ...w.measured.requests[3], url: `/wp-content/plugins/acme-slider/${evil}.js`, own: true };
    w.measured.frames[0] = { ...w.measured.frames[0], jpeg: `AAAA"><script>alert(3)</script>` };
    r.contexts.homepage!.browser!.assets[0] = { ...r.contexts.homepage!.browser!.assets[0], handle: evil, url: `/x/${evil}` };
    const html = browserHtml(r);
    assert.doesNotMatch(html, /<script/i);
    assert.doesNotMatch(html, /<img src=x/);
    assert.doesNotMatch(html, /alert\(3\)/);
    assert.match(html, /&#60;script&#62;alert\(1\)/);
  });

  it('says why there are no figures: not measured, with the reason; no waterfall without one', () => {
    const r = load();
    r.local.browser = { unavailable: 'Chromium was not found: sudo apt install chromium' };
    delete r.contexts.homepage!.browser;
    const body = browserReportBody(r).join('\n');
    assert.match(body, /not measured — Chromium was not found: sudo apt install chromium/);
    assert.doesNotMatch(body, /waterfall/);
    const noWf = load();
    delete info(noWf).waterfall;
    assert.doesNotMatch(browserHtml(noWf), /class="waterfall"/);
    assert.match(browserHtml(noWf), /\+294\.8 KB/);
  });

  it('the waterfall alone: a request that never finished is drawn to the end of observation, a refused one as refused', () => {
    const svg = waterfallSvg(
      { fcp_ms: 100, lcp_ms: 120, load_ms: 150, end_ms: 1200, requests: [{ url: '/', type: 'document', bytes: 4000, start_ms: 0, response_ms: 40, end_ms: 50 }, { url: '/late.js', type: 'script', bytes: 0, start_ms: 60, response_ms: null, end_ms: null }, { url: 'http://tracker.example/p', type: 'other', bytes: 0, start_ms: 70, response_ms: null, end_ms: 71, failed: 'blocked: not the site' }], frames: [] },
      1200,
      'With Acme',
    );
    assert.match(svg, /late\.js[^<]*unfinished/);
    assert.match(svg, /class="wf-bar refused"/);
    const r = load();
    info(r).waterfall!.measured.cut = true;
    assert.match(browserHtml(r), /never settled and was cut at the time limit/);
    assert.doesNotMatch(browserHtml(load()), /never settled/);
  });

  it('Markdown: the figures and the component’s files, escaped', () => {
    const r = load();
    r.contexts.homepage!.browser!.assets[0].handle = 'a|b*c';
    const md = browserMarkdown(r);
    assert.match(md, /\| Bytes \| \+294\.8 KB \|/);
    assert.match(md, /a\\\|b\\\*c/);
  });
});

describe('browser report: the webview’s style sheet', () => {
  it('media/browser.css gives a colour to every variable of the rules the webview adds (BROWSER_RULES)', () => {
    const css = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'media', 'browser.css'), 'utf8');
    const used = (text: string) => [...new Set([...text.matchAll(/var\((--[a-z-]+)\)/g)].map((m) => m[1]))];
    const defined = (text: string) => [...text.matchAll(/(--[a-z-]+):/g)].map((m) => m[1]);
    assert.ok(used(BROWSER_RULES).length >= 8);
    assert.deepEqual(used(BROWSER_RULES).filter((v) => !defined(css).includes(v)), []);
    // The standalone page defines them too (its own light colours).
    assert.deepEqual(used(BROWSER_RULES).filter((v) => !defined(BROWSER_CSS).includes(v) && !['--line', '--muted'].includes(v)), []);
  });
});
