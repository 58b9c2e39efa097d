// The browser block's parts beyond the figures, on a recorded result: "none of its files load" told from "no front-end
// files", the page's own HTML growth itemised, the layout shifts by element — names from the page as plain text.
import assert from 'node:assert/strict';
import { browserLines } from '../../../../src/core/report/browserText';
import { documentLines, ownFilesNote, shiftLines } from '../../../../src/core/report/browserPageText';
import { DESKTOP, type BrowserDelta, type BrowserFigures } from '../../../../src/core/measure/browser/types';
import { buildRecord, CONTEXTS, type LocalRecord } from '../../../../src/core/measure/record/method';
import { withBrowser } from '../../../../src/core/measure/browser/figures';

function record(delta: BrowserDelta): LocalRecord {
  const sample = { ttfbMs: 10, memoryBytes: 1_000_000, queries: 5 };
  const samples = Object.fromEntries(CONTEXTS.map((c) => [c, { baseline: [sample], measured: [sample] }])) as never;
  const r = buildRecord({ slug: 'acme', kind: 'plugin', name: 'Acme', version: '2.0' }, samples, { runtime: 'php', wordpress_version: '6.8', php_version: '8.2', rounds: 1, warmup_rounds: 0, baseline_theme: 'twentytwentyone', activation_hook: null, duration_s: 1 }, new Date(0));
  const clean: BrowserFigures = { bytes_kb: 45.1, requests: 5, render_blocking: 1, fcp_ms: 310, lcp_ms: 315, tbt_ms: 0, cls: 0.002 };
  return withBrowser(r, { delta, baseline: clean, info: { chromium: '156.0.8078.108', device: 'desktop', rounds: 5, profile: DESKTOP, sandbox: 'bubblewrap' } });
}
const zero: BrowserDelta = { bytes_kb: 0.2, requests: 0, render_blocking: 0, fcp_ms: 1, lcp_ms: 1, tbt_ms: 0, cls: 0, spread: { bytes_kb: 0.1, fcp_ms: 4, lcp_ms: 4, tbt_ms: 0, cls: 0 }, assets: [] };

describe('browser text: the page beyond the figures', () => {
  it('none of its files load on the homepage, in those words, told from a component with no front-end files', () => {
    const none = browserLines(record({ ...zero, front_end_files: 14 })).join('\n');
    assert.ok(none.includes('None of its files load on the homepage (it has 14 front-end files: scripts, styles, images or fonts).'), none);
    const nothing = browserLines(record({ ...zero, front_end_files: 0 })).join('\n');
    assert.ok(nothing.includes('It has no front-end files (no scripts, styles, images or fonts in its folder).'), nothing);
    assert.equal(ownFilesNote({ ...zero, front_end_files: 3, assets: [{ url: '/wp-content/plugins/acme/a.js', type: 'script', bytes_kb: 1 }] }), undefined);
    assert.equal(ownFilesNote(zero), undefined);
  });

  it('the page\'s own HTML growth: each inline part by its id and what printed it, then the markup', () => {
    const lines = documentLines({ bytes_kb: 1, html_kb: 2.3, inline: [{ id: 'acme-app-js-extra', handle: 'acme-app', kind: 'localize', bytes_kb: 0.6 }, { id: 'acme-style-inline-css', handle: 'acme-style', kind: 'inline-css', bytes_kb: 0.1 }], markup_kb: 1.6 });
    assert.deepEqual(lines, [
      "The page's own HTML: +1.0 KB on the wire, +2.3 KB decoded:",
      '  acme-app-js-extra (wp_localize_script data of acme-app): 0.6 KB',
      '  acme-style-inline-css (wp_add_inline_style of acme-style): 0.1 KB',
      '  the rest of the markup: +1.6 KB',
    ]);
    assert.deepEqual(documentLines({ bytes_kb: 0, html_kb: 0, inline: [], markup_kb: 0 }), []);
    const text = browserLines(record({ ...zero, document: { bytes_kb: 1, html_kb: 2.3, inline: [], markup_kb: 2.3 } })).join('\n');
    assert.ok(text.includes("The page's own HTML: +1.0 KB on the wire, +2.3 KB decoded."), text);
  });

  it('the layout shifts by the element moved and what a script inserted before it; a line break from the page is \\n', () => {
    const lines = shiftLines({ layout_shifts: [{ node: 'div#calib-content', names: ['#calib-content'], cls: 0.148, loads: 3, inserted: [{ node: 'div\n#x', names: [] }] }] });
    assert.deepEqual(lines, ["Layout shifts with the component (per load, beyond the clean site's):", '  div#calib-content moves: 0.148 (in 3 loads), after a script inserted div\\n#x before it']);
    const text = browserLines(record({ ...zero, cls: 0.148, layout_shifts: [{ node: 'div#calib-content', names: [], cls: 0.148, loads: 3 }] })).join('\n');
    assert.ok(text.includes('  div#calib-content moves: 0.148 (in 3 loads)'), text);
  });
});
