// `measure --findings --browser`: the browser's measurements joined to the findings at their lines (by handle, else by
// the file's path), a script's main-thread time as a finding of its own, and layout shifts attributed to the line that
// names the element (or the enqueue of the only script that could have inserted it). Records as the collector writes
// them and browser figures as the pass records them.
import assert from 'node:assert/strict';
import { aggregateFindings } from '../../../../src/core/measure/findings/aggregate';
import { browserFindings, type ComponentText } from '../../../../src/core/measure/findings/browser';
import type { RawFindings, RawWhere } from '../../../../src/core/measure/findings/types';
import type { BrowserAsset, BrowserDelta, BrowserShift } from '../../../../src/core/measure/browser/types';

type Asset = NonNullable<RawFindings['assets']>[number];
const W = (line: number, file = 'inc/front.php'): RawWhere => ({ file, line, function: '{closure}', callee: 'wp_enqueue_script', via: null });
const SRC = 'http://127.0.0.1:8000/wp-content/plugins/acme/';
const script = (handle: string, file: string, line: number, extra: Partial<Asset> = {}): Asset => ({ type: 'script', handle, src: `${SRC}${file}?ver=1.0`, enq: W(line), enqs: [W(line)], printed: true, in_head: false, deferred: false, bytes: 2_000, ...extra });
const HEAD = script('acme-head', 'head.js', 3, { in_head: true, bytes: 307_200 });
const LATE = script('acme-late', 'late.js', 4);
const TINY = script('acme-tiny', 'tiny.js', 5);
const STYLE: Asset = { type: 'style', handle: 'acme-style', src: `${SRC}style.css?ver=1.0`, enq: W(6), enqs: [W(6)], printed: true, in_head: true, deferred: false, bytes: 400_000 };
const front = (assets: Asset[]): RawFindings[] => [
  { v: 1, id: 'm1', phase: 'p:homepage:front', side: 'measured', writes: [], assets, done: { script: assets.map((a) => a.handle), style: [] } },
  { v: 1, id: 'c1', phase: 'p:homepage:front', side: 'baseline', writes: [], assets: [], done: { script: [], style: [] } },
];
const file = (url: string, extra: Partial<BrowserAsset>): BrowserAsset => ({ url: `/wp-content/plugins/acme/${url}`, type: 'script', bytes_kb: 1.2, ...extra });
const delta = (assets: BrowserAsset[], layout_shifts?: BrowserShift[]): BrowserDelta => ({ bytes_kb: 300, requests: 4, render_blocking: 2, fcp_ms: 250, lcp_ms: 250, tbt_ms: 80, cls: 0.148, spread: { bytes_kb: 0, fcp_ms: 9, lcp_ms: 9, tbt_ms: 4, cls: 0 }, assets, ...(layout_shifts ? { layout_shifts } : {}) });
const ASSETS = [
  file('head.js', { bytes_kb: 230.4, render_blocking: true, main_thread_ms: 251.5, handle: 'acme-head' }),
  // No handle printed (a script tag filtered by the theme): joined by its path.
  file('late.js', { main_thread_ms: 130.2 }),
  file('tiny.js', { main_thread_ms: 3.1, handle: 'acme-tiny' }),
  file('style.css', { type: 'stylesheet', bytes_kb: 60.2, render_blocking: true, handle: 'acme-style' }),
];
const at = (fs: { kind: string; file: string; line: number }[]) => fs.map((f) => `${f.kind} ${f.file}:${f.line}`).sort();

describe('measure --findings --browser', () => {
  const raw = front([HEAD, LATE, TINY, STYLE]);

  it('the findings at a script\'s or style\'s line carry its measured main-thread time and its bytes on the wire, joined by handle', () => {
    const fs = browserFindings(aggregateFindings(raw), raw, delta(ASSETS));
    const blocking = fs.find((f) => f.kind === 'render-blocking-script')!;
    assert.deepEqual([blocking.line, blocking.evidence.main_thread_ms, blocking.evidence.transfer_kb], [3, 251.5, 230.4]);
    const large = fs.filter((f) => f.kind === 'large-asset').map((f) => [f.line, f.evidence.main_thread_ms, f.evidence.transfer_kb]);
    assert.deepEqual(large.sort(), [[3, 251.5, 230.4], [6, undefined, 60.2]]);
  });

  it('a script busy 50 ms or more per load with no other finding is a main-thread finding at its line (joined by its path); a light one is none', () => {
    const fs = browserFindings(aggregateFindings(raw), raw, delta(ASSETS));
    assert.deepEqual(at(fs), ['large-asset inc/front.php:3', 'large-asset inc/front.php:6', 'main-thread inc/front.php:4', 'render-blocking-script inc/front.php:3']);
    const late = fs.find((f) => f.kind === 'main-thread')!;
    assert.deepEqual([late.severity, late.contexts, late.evidence.handle, late.evidence.main_thread_ms, late.evidence.transfer_kb], ['warning', ['homepage'], 'acme-late', 130.2, 1.2]);
    assert.match(late.message, /"acme-late".*130 ms/);
  });

  it('without browser figures the findings are as they were', () => {
    const plain = aggregateFindings(raw);
    assert.deepEqual(browserFindings(plain, raw, undefined), plain);
  });

  const BANNER_PHP = `<?php\n/**\n * Plugin Name: Calibration: banner after load\n */\nadd_action('wp_footer', function () { echo '<div id="calib-stage"><div id="calib-content">Calibration content</div></div>'; });\nadd_action('wp_enqueue_scripts', function () { wp_enqueue_script('calib-banner', plugins_url('banner.js', __FILE__), array(), '1.0', true); });\n`;
  const texts: ComponentText[] = [
    { file: 'calib-banner.php', text: BANNER_PHP },
    { file: 'banner.js', text: `addEventListener('load', function () {\n  var s = document.getElementById('calib-stage');\n  s.insertBefore(document.createElement('div'), s.firstChild);\n});\n` },
  ];
  const SHIFT: BrowserShift = { node: 'div#calib-content', names: ['#calib-content', '#calib-stage'], cls: 0.148, loads: 3, inserted: [{ node: 'div', names: ['#calib-stage'] }] };

  it('a layout shift of an element the component\'s markup names is a finding at that line, with its score and the element', () => {
    const fs = browserFindings([], [], delta([], [SHIFT]), texts);
    assert.deepEqual(at(fs), ['layout-shift calib-banner.php:5']);
    assert.deepEqual([fs[0].severity, fs[0].contexts, fs[0].evidence.cls, fs[0].evidence.node, fs[0].evidence.named, fs[0].evidence.loads], ['warning', ['homepage'], 0.148, 'div#calib-content', '#calib-content', 3]);
  });

  it('the element a script inserted is named first, a script or PHP file before a stylesheet, a whole name only', () => {
    const cookie: BrowserShift = { node: 'div.wp-site-blocks', names: ['.wp-site-blocks'], cls: 0.09, loads: 3, inserted: [{ node: 'div#acme-cookie.acme-banner', names: ['#acme-cookie', '.acme-banner'] }] };
    const t: ComponentText[] = [
      { file: 'assets/style.css', text: `.wp-site-blocks{margin:0}\n#acme-cookie{position:relative}\n` },
      { file: 'assets/cookie.js', text: `// banner\nvar old = 'acme-cookie-old';\nel.id = 'acme-cookie';\n` },
    ];
    const fs = browserFindings([], [], delta([], [cookie]), t);
    assert.deepEqual(at(fs), ['layout-shift assets/cookie.js:3']);
    assert.equal(fs[0].evidence.named, '#acme-cookie');
    assert.equal(fs[0].severity, 'warning');
  });

  it('an unnamed element inserted with the component\'s only script on the page: at that script\'s line; with two scripts, no line (the browser block says the shift)', () => {
    const unnamed: BrowserShift = { node: 'main.site', names: ['.site'], cls: 0.004, loads: 2, inserted: [{ node: 'div', names: [] }] };
    const one = browserFindings([], front([LATE]), delta([file('late.js', { main_thread_ms: 2, handle: 'acme-late' })], [unnamed]), []);
    assert.deepEqual(at(one), ['layout-shift inc/front.php:4']);
    assert.deepEqual([one[0].severity, one[0].evidence.inserted_by], ['information', 'acme-late']);
    const two = browserFindings([], front([LATE, TINY]), delta([file('late.js', { handle: 'acme-late' }), file('tiny.js', { handle: 'acme-tiny' })], [unnamed]), []);
    assert.deepEqual(two, []);
  });
});
