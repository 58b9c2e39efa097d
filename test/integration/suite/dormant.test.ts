// A PHP project that is not WordPress (its composer.json and index.php wake WP Bench up): the scan finds nothing,
// and WP Bench stays out of the way — no status bar item, no diagnostics, no notification, no request.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { API_URL, api, waitFor, setApiUrl } from './util';

describe('WP Bench outside WordPress', function () {
  this.timeout(60_000);

  it('finds nothing and shows nothing: no status bar item, no diagnostics, no /me, no notification', async () => {
    const ext = vscode.extensions.getExtension('wpbench.wp-bench');
    await waitFor('activation by workspaceContains:**/composer.json', () => ext?.isActive);
    const a = await api();
    assert.equal(await setApiUrl(API_URL), API_URL);
    await a.bench.rescan();
    assert.equal(a.bench.components.length, 0);
    assert.deepEqual(a.bench.problems, []);
    assert.equal(a.statusBar.shown, false, 'no status bar item in a workspace without WordPress');
    const ours = vscode.languages.getDiagnostics().flatMap(([, d]) => d).filter((d) => d.source === 'WP Bench');
    assert.deepEqual(ours, []);
    assert.equal(a.bench.lastAccount, undefined, 'no /me at start-up');
    assert.deepEqual(a.bench.notificationsShown, {});
    // Opening the WP Bench view shows the item (the user is looking for it).
    await vscode.commands.executeCommand('wpBench.components.focus');
    await waitFor('the status bar item with the view open', () => a.statusBar.shown);
    assert.match(a.statusBar.item.text, /Set up WP Bench/);
  });
});
