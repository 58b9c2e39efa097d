// Run in a separate VS Code whose folder is NOT trusted: detection works, no request until the user agrees.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { API_URL, KEYS, api, usage, waitFor, setApiUrl } from './util';

describe('WP Bench in an untrusted workspace', function () {
  this.timeout(60_000);

  it('detects components but sends no lookup until the user allows it', async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'this run must open the folder untrusted');
    await setApiUrl(API_URL);
    const before = await usage(KEYS.scale);
    await vscode.commands.executeCommand('wpBench.setApiKey', KEYS.scale);
    const a = await api();
    await a.bench.rescan();
    assert.ok(a.bench.components.length >= 10, `detected ${a.bench.components.length}`);
    await waitFor('the consent question', () => a.bench.pendingConsent === 'untrusted');
    // Everything the scan, the key and the settings started has finished: what was sent, was sent.
    await a.bench.whenSettled();
    assert.equal(await usage(KEYS.scale), before, 'not one lookup was counted');
    await a.bench.allowUntrustedLookups();
    assert.equal((await usage(KEYS.scale)) - before, a.bench.activeEntries.filter((e) => e.lookup === 'yes').length, 'after consent: one request per unique slug');
  });

  it('Measure Locally: no link in the hover, and the command runs nothing (nor Measure Site Locally)', async () => {
    const a = await api();
    const entry = await waitFor('layerslider detected', () => a.bench.components.find((e) => e.slug === 'LayerSlider'));
    const uri = vscode.Uri.file(entry.locations[0].file);
    const doc = await vscode.workspace.openTextDocument(uri);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, doc.positionAt(doc.getText().indexOf('LayerSlider WP') + 1));
    const text = hovers.flatMap((h) => h.contents).map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : '')).join('\n');
    assert.match(text, /LayerSlider/);
    assert.doesNotMatch(text, /command:/);
    const r = await vscode.commands.executeCommand<{ status: string }>('wpBench.measureLocally', { kind: 'plugin', slug: 'LayerSlider' });
    assert.equal(r.status, 'untrusted');
    assert.equal(a.measure.running, undefined);
    assert.equal(a.bench.localResult('plugin', 'LayerSlider'), undefined);
    const site = await vscode.commands.executeCommand<{ status: string }>('wpBench.measureSiteLocally');
    assert.equal(site.status, 'untrusted', 'nor the whole site');
    assert.equal(a.measureSite.running, undefined);
    assert.equal(a.bench.siteResult(), undefined);
  });
});
