// What the visitor pays, in a real VS Code: a recorded `measure --browser --findings --json` record (our slider-like
// calibration plugin's run: test/fixtures/browser/acme-slider.record.json) stored for the sample site's LayerSlider
// the way Measure Locally stores the child's record (bench.local.set), then the real hover provider, the tree's Visitor
// row and WP Bench: Show What the Visitor Pays (the real report code in its webview): the visitor line beside the
// server figures, the waterfall with the component's own requests in colour, the filmstrip of both sides.
// Named to run after the other suites of the trusted workspace (files run in name order): it sets the API address and
// the key, which the first suite ("WP Bench in VS Code") expects to find unset.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LocalRecord } from '../../../src/core/measure/record/method';
import { hashOfPath } from '../../../src/core/session/localResults';
import { measurableSource } from '../../../src/core/present/local';
import { API_URL, KEYS, api, hoverText, positionOf, setApiUrl, waitFor, workspaceFile } from './util';

const LAYERSLIDER = 'wp-content/plugins/LayerSlider/layerslider.php';
// out/test/integration/suite → the repository's root.
const FIXTURE = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'browser', 'acme-slider.record.json');

describe('What the visitor pays (measure --browser) in the editor', function () {
  this.timeout(60_000);

  before(async () => {
    if (!(await api()).bench.hasApiUrl) assert.equal(await setApiUrl(API_URL), API_URL);
    await vscode.commands.executeCommand('wpBench.setApiKey', KEYS.pro);
    const a = await api();
    await waitFor('the sample site scanned', () => a.bench.components.some((e) => e.slug === 'LayerSlider'));
    const entry = a.bench.components.find((e) => e.kind === 'plugin' && e.slug === 'LayerSlider')!;
    const source = measurableSource(entry)!;
    const record: LocalRecord = { ...JSON.parse(fs.readFileSync(FIXTURE, 'utf8')), slug: 'LayerSlider', name: 'LayerSlider WP' };
    await a.bench.local.set('plugin', 'LayerSlider', source, (await hashOfPath(source))!, record);
  });
  after(async () => {
    const a = await api();
    a.browserPanel()?.dispose();
    // The suites after this one start without a local measurement of LayerSlider.
    await a.bench.local.delete('plugin', 'LayerSlider');
  });

  it('the hover shows what the visitor pays beside the server figures, its own files and the report’s link', async () => {
    const uri = workspaceFile(LAYERSLIDER);
    const hover = await waitFor('the visitor line in the hover', async () => {
      const text = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, await positionOf(uri, 'LayerSlider WP')));
      return /Visitor \(homepage, desktop\)/.test(text) && text;
    });
    assert.match(hover, /Measured locally/);
    assert.match(hover, /\*\*Visitor \(homepage, desktop\):\*\* \\\+295 KB, \+4 requests, LCP \+176 ms, TBT \+42 ms, CLS \+0\.058/);
    assert.match(hover, /hero\.png 293\.5 KB/);
    assert.match(hover, /\(command:wpBench\.showBrowserReport\?/);
  });

  it('the tree has a Visitor row under the component; it opens the report', async () => {
    const a = await api();
    const group = a.tree.getChildren().find((n) => n.type === 'group' && n.kind === 'plugin');
    const node = a.tree.getChildren(group).find((n) => n.type === 'component' && n.entry.slug === 'LayerSlider')!;
    const row = a.tree.getChildren(node).find((n) => n.type === 'visitor');
    assert.ok(row, 'a Visitor row');
    const item = a.tree.getTreeItem(row);
    assert.equal(item.label, 'Visitor (desktop)');
    assert.equal(item.description, '+295 KB · +4 req · LCP +176 ms · TBT +42 ms · CLS +0.058');
    assert.equal(item.command?.command, 'wpBench.showBrowserReport');
  });

  it('Show What the Visitor Pays: the waterfall (its own requests in colour), the filmstrip of both sides, no script', async () => {
    const a = await api();
    await vscode.commands.executeCommand('wpBench.showBrowserReport', { kind: 'plugin', slug: 'LayerSlider' });
    const panel = await waitFor('the report webview', () => a.browserPanel());
    const html = panel.html;
    assert.equal((html.match(/<svg[^>]*class="waterfall"/g) ?? []).length, 2, 'a waterfall per side');
    assert.equal((html.match(/<rect class="wf-bar own/g) ?? []).length, 4, 'its four files in colour');
    assert.match(html, /<table class="filmstrip">[\s\S]*Clean site[\s\S]*With LayerSlider WP[\s\S]*data:image\/jpeg;base64,/);
    assert.doesNotMatch(html, /<script/i);
    assert.match(html, /Content-Security-Policy" content="default-src 'none'; style-src [^;]+; img-src data:;"/);
    assert.equal(panel.panel.webview.options.enableScripts, false);
  });
});
