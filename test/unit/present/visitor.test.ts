// What the visitor pays, in the editor's words (core/present/visitor.ts): the hover's line and the tree's row from a
// recorded record (test/fixtures/browser/acme-slider.record.json), "within noise" where a figure is inside its spread,
// "not measured" with why (Chromium missing: the command to install it), nothing for a record without --browser; and
// Measure Locally's arguments with the setting.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { visitorHoverLines, visitorLine, visitorTreeText } from '../../../src/core/present/visitor';
import { localHoverSection } from '../../../src/core/present/local';
import { measureLocallyArgs } from '../../../src/core/measure/child';
import type { LocalRecord } from '../../../src/core/measure/record/method';

const FIXTURE = path.join(__dirname, '..', '..', 'fixtures', 'browser', 'acme-slider.record.json');
const load = (): LocalRecord => JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));

describe('what the visitor pays, in the editor', () => {
  it('one line: bytes, requests, LCP, TBT, CLS with the profile; a figure inside its spread "within noise"', () => {
    assert.equal(visitorLine(load()), 'Visitor (homepage, desktop): +295 KB, +4 requests, LCP +176 ms, TBT +42 ms, CLS +0.058');
    const r = load();
    r.contexts.homepage!.browser!.lcp_ms = 12;
    r.contexts.homepage!.browser!.requests = 1;
    assert.match(visitorLine(r)!, /\+1 request, LCP ±12 ms \(within noise\)/);
  });

  it('the hover: the line under the server figures, its own heaviest files, and the report a click away', () => {
    const r = load();
    const hover = localHoverSection({ kind: 'plugin', slug: 'acme-slider', record: r, stale: false } as never, undefined, { link: true }).join('\n');
    assert.match(hover, /\*\*Visitor \(homepage, desktop\):\*\* \\\+295 KB, \+4 requests, LCP \+176 ms, TBT \+42 ms, CLS \+0\.058/);
    // The report's link on the visitor line itself (a tall hover is cut at VS Code's height: a last paragraph was lost).
    assert.match(hover, /CLS \+0\.058 · \[Show the waterfall and filmstrip\]\(command:wpBench\.showBrowserReport\?[^)\n]+\)$/m);
    const lines = visitorHoverLines(r).join('\n');
    assert.match(lines, /hero\.png 293\.5 KB/);
    assert.match(lines, /slider-core\.js 0\.3 KB, 121 ms main thread, render-blocking/);
  });

  it('not measured: said with why (the command to install Chromium); a record without --browser says nothing', () => {
    const r = load();
    r.local.browser = { unavailable: 'Chromium was not found: sudo apt install chromium' };
    assert.equal(visitorLine(r), 'Visitor: not measured — Chromium was not found: sudo apt install chromium');
    const none = load();
    delete none.local.browser;
    delete none.contexts.homepage!.browser;
    assert.equal(visitorLine(none), undefined);
    assert.deepEqual(visitorHoverLines(none), []);
    assert.equal(visitorTreeText(none), undefined);
  });

  it('the tree’s row: short figures in the description, the whole line spoken', () => {
    const t = visitorTreeText(load())!;
    assert.equal(t.label, 'Visitor (desktop)');
    assert.equal(t.description, '+295 KB · +4 req · LCP +176 ms · TBT +42 ms · CLS +0.058');
    assert.match(t.spoken, /^Visitor \(homepage, desktop\): \+295 KB/);
  });

  it('Measure Locally passes --browser when the setting asks', () => {
    assert.deepEqual(measureLocallyArgs({ profile: false, instructions: false, browser: true }), ['--findings', '--browser']);
    assert.deepEqual(measureLocallyArgs({ profile: false, instructions: true, browser: false }), ['--findings', '--instructions']);
    assert.deepEqual(measureLocallyArgs({ profile: true, instructions: true, browser: true }), ['--profile', '--findings']);
  });
});
