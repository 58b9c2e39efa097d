// The page's own growth, itemised: a recorded homepage (WordPress 6.8, the calibration theme) with and without a
// plugin that localizes its script, adds an inline script after it and inline CSS, and prints a widget's markup.
import assert from 'node:assert/strict';
import { documentGrowth, documentParts, inlineKind } from '../../../../src/core/measure/browser/documentParts';
import type { BrowserLoad, LoadRequest } from '../../../../src/core/measure/browser/types';

const HEAD = `<!DOCTYPE html>\n<html lang="en-US">\n<head>\n<meta charset="UTF-8" />\n<style id='wp-block-library-inline-css'>\n:root{--wp-admin-theme-color:#007cba}\n</style>\n`;
const CLEAN = `${HEAD}</head>\n<body class="home blog">\n<div class="wp-site-blocks"><p>Hello world!</p></div>\n<script id="wp-emoji-settings" type="application/json">{"baseUrl":"x"}</script>\n</body>\n</html>\n`;
const LOCALIZE = `<script id="acme-app-js-extra">\nvar acmeData = {"ajax":"\\/wp-admin\\/admin-ajax.php","nonce":"0123456789","label":"Café"};\n</script>\n`;
const APP = `<script src="http://127.0.0.1:8000/wp-content/plugins/acme/app.js?ver=1.0" id="acme-app-js"></script>\n`;
const AFTER = `<script id="acme-app-js-after">\nacme.start({ lazy: true });\n</script>\n`;
const CSS = `<style id='acme-style-inline-css'>\n.acme-widget{min-height:120px;border:1px solid #ccc}\n</style>\n`;
const WIDGET = `<div class="acme-widget"><h2>Acme</h2><p>${'Lorem ipsum dolor sit amet. '.repeat(20)}</p></div>\n`;
const MEASURED = CLEAN.replace('</head>', `${LOCALIZE}${APP}${CSS}</head>`).replace('<div class="wp-site-blocks">', `${WIDGET}<div class="wp-site-blocks">`).replace('</body>', `${AFTER}</body>`);
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

const doc = (n: number): LoadRequest => ({ url: '/', type: 'document', bytes: n, status: 200, render_blocking: false, start_ms: 0, response_ms: 50, end_ms: 60 });
const load = (side: string, round: number, html: string, wire: number): BrowserLoad => ({ side, round, fcp_ms: 100, lcp_ms: 100, load_ms: 120, end_ms: 1200, long_tasks: [], layout_shifts: [], requests: [doc(wire)], scripts: [], blocked: [], document: documentParts(html) });

describe('browser: the page\'s own growth', () => {
  it('names each inline script and style WordPress printed with an id, whole, in bytes; a script with a src is no inline part', () => {
    const p = documentParts(MEASURED);
    assert.equal(p.html_bytes, bytes(MEASURED));
    assert.deepEqual(p.inline.map((x) => x.id).sort(), ['acme-app-js-after', 'acme-app-js-extra', 'acme-style-inline-css', 'wp-block-library-inline-css', 'wp-emoji-settings']);
    // "Café": the bytes are UTF-8 bytes, the element with its tags.
    assert.equal(p.inline.find((x) => x.id === 'acme-app-js-extra')!.bytes, bytes(LOCALIZE.trimEnd()));
    assert.equal(p.inline.find((x) => x.id === 'acme-style-inline-css')!.tag, 'style');
  });

  it('reads WordPress\'s ids: localize, before, after, inline CSS, and any other id as a script or style', () => {
    assert.deepEqual(inlineKind('acme-app-js-extra', 'script'), { kind: 'localize', handle: 'acme-app' });
    assert.deepEqual(inlineKind('acme-app-js-before', 'script'), { kind: 'before', handle: 'acme-app' });
    assert.deepEqual(inlineKind('acme-app-js-after', 'script'), { kind: 'after', handle: 'acme-app' });
    assert.deepEqual(inlineKind('acme-style-inline-css', 'style'), { kind: 'inline-css', handle: 'acme-style' });
    assert.deepEqual(inlineKind('wp-emoji-settings', 'script'), { kind: 'script' });
    assert.deepEqual(inlineKind('custom-css', 'style'), { kind: 'style' });
  });

  it('the growth: what the component printed inline by id, the rest as markup, and the document\'s bytes on the wire', () => {
    const g = documentGrowth([load('baseline', 0, CLEAN, 2_100), load('baseline', 1, CLEAN, 2_110)], [load('measured', 0, MEASURED, 3_124), load('measured', 1, MEASURED, 3_134)])!;
    assert.ok(g);
    assert.equal(g.bytes_kb, 1);
    assert.deepEqual(g.inline.map((x) => [x.id, x.kind, x.handle]), [['acme-app-js-extra', 'localize', 'acme-app'], ['acme-style-inline-css', 'inline-css', 'acme-style'], ['acme-app-js-after', 'after', 'acme-app']]);
    const kb = (s: string) => Math.round((bytes(s.trimEnd()) / 1024) * 10) / 10;
    assert.deepEqual(g.inline.map((x) => x.bytes_kb), [kb(LOCALIZE), kb(CSS), kb(AFTER)]);
    const htmlKb = (bytes(MEASURED) - bytes(CLEAN)) / 1024;
    assert.equal(g.html_kb, Math.round(htmlKb * 10) / 10);
    const inlineKb = (bytes(LOCALIZE.trimEnd()) + bytes(CSS.trimEnd()) + bytes(AFTER.trimEnd())) / 1024;
    assert.equal(g.markup_kb, Math.round((htmlKb - inlineKb) * 10) / 10);
  });

  it('an inline part of core\'s that the component made larger counts by its growth; loads without a readable body give no growth', () => {
    const grown = CLEAN.replace(':root{', `:root{${'--acme:1;'.repeat(30)}`);
    const g = documentGrowth([load('baseline', 0, CLEAN, 2_100)], [load('measured', 0, grown, 2_200)])!;
    assert.deepEqual(g.inline.map((x) => [x.id, x.kind, x.handle, x.bytes_kb]), [['wp-block-library-inline-css', 'inline-css', 'wp-block-library', 0.3]]);
    assert.equal(g.markup_kb, 0);
    const none = { ...load('measured', 0, CLEAN, 2_100), document: undefined };
    assert.equal(documentGrowth([none], [none]), undefined);
  });
});
