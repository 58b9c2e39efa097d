// WP Bench: Measure Site Locally in a real VS Code, on the sample site (after the Measure Locally suite, whose edit
// left acme-shop-tweaks with 15 ms of work on every request): Cancel leaves nothing behind; a run puts the stack as
// it runs in the tree's site total beside the sum of the parts, each component's "in this site · alone" in the tree
// and its hover, the site report's section; an edit of a member makes it stale.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import * as vscode from 'vscode';
import type { MeasureSiteOutcome } from '../../../src/vscode/measureSite';
import { API_URL, KEYS, api, gone, hoverText, positionOf, setApiUrl, waitFor, workspaceFile } from './util';

const ACME = 'wp-content/plugins/acme-shop-tweaks/acme-shop-tweaks.php';

async function treeItems() {
  const a = await api();
  const total = a.tree.getChildren()[0];
  const group = a.tree.getChildren().find((n) => n.type === 'group' && n.kind === 'plugin');
  const item = (slug: string) => {
    const node = a.tree.getChildren(group).find((n) => n.type === 'component' && n.entry.slug === slug);
    return node && a.tree.getTreeItem(node);
  };
  return { total: a.tree.getTreeItem(total), children: a.tree.getChildren(total).map((n) => a.tree.getTreeItem(n)), item };
}

describe('Measure Site Locally', function () {
  this.timeout(180_000);

  before(async () => {
    if (!(await api()).bench.hasApiUrl) assert.equal(await setApiUrl(API_URL), API_URL);
    await vscode.commands.executeCommand('wpBench.setApiKey', KEYS.pro);
    const a = await api();
    a.clearAnswers();
    await waitFor('the sample site scanned', () => a.bench.components.some((e) => e.slug === 'acme-shop-tweaks'));
    if (!a.measure.consented) a.answerNext('Continue');
  });

  it('Cancel stops the run: no child process, no PHP server, no temporary site, no result', async () => {
    const a = await api();
    let ended: MeasureSiteOutcome | undefined;
    const run = vscode.commands.executeCommand<MeasureSiteOutcome>('wpBench.measureSiteLocally');
    void Promise.resolve(run).then((o) => (ended = o));
    const running = await waitFor('the PHP server to start', () => {
      if (ended) throw new Error(`the run ended before it could be cancelled: ${JSON.stringify(ended)}`);
      return a.measureSite.running?.serverPid && a.measureSite.running.siteRoot ? a.measureSite.running : undefined;
    }, 60_000);
    // One measurement at a time: Measure Locally waits for it.
    assert.equal((await vscode.commands.executeCommand<{ status: string }>('wpBench.measureLocally', { kind: 'plugin', slug: 'acme-shop-tweaks' })).status, 'busy');
    running.cancel();
    assert.equal((await run).status, 'cancelled');
    await waitFor('the child process to end', () => gone(running.childPid));
    await waitFor('the PHP server to end', () => gone(running.serverPid));
    await waitFor('the temporary site to be removed', () => !fs.existsSync(running.siteRoot!));
    assert.equal(a.bench.siteResult(), undefined);
  });

  it('measures the site: the tree total is the stack as it runs beside the sum of the parts; each component says both', async () => {
    const a = await api();
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const r = await vscode.commands.executeCommand<MeasureSiteOutcome>('wpBench.measureSiteLocally');
    assert.equal(r.status, 'measured', r.message);
    assert.equal(r.root, root, 'the open folder is the site');
    assert.equal(a.bench.siteResult()?.root, root);
    const acme = r.record!.components.find((c) => c.slug === 'acme-shop-tweaks')!;
    const inSite = acme.in_site!.contexts.homepage!.ttfb_delta_ms;
    assert.ok(Number.isFinite(inSite), `acme-shop-tweaks adds ${inSite} ms in the site`);
    // Its 15 ms of work is attributed to it: the most homepage time any measured component adds in this run. How
    // close that reads to 15 ms is the benchmark's claim (npm run bench), never a test's against the clock.
    const others = r.record!.components.filter((c) => c !== acme && c.in_site?.contexts.homepage);
    assert.ok(others.length > 0, 'other components measured in the site');
    for (const c of others) assert.ok(inSite > c.in_site!.contexts.homepage!.ttfb_delta_ms, `acme-shop-tweaks ${inSite} ms, ${c.slug} ${c.in_site!.contexts.homepage!.ttfb_delta_ms} ms`);
    assert.ok(r.record!.components.some((c) => c.slug === 'acme-child' && c.left_out), 'the child theme without its parent is left out, said');

    const t = await treeItems();
    assert.match(String(t.total.description), /^as it runs: [+-][\d.]+ ms, [+-]?[\d.]+ [KM]B homepage · sum of the parts: [+-][\d.]+ ms, [+-]?[\d.]+ [KM]B$/);
    assert.match((t.total.tooltip as vscode.MarkdownString).value, /\*\*The site as it runs\*\*/);
    assert.deepEqual(t.children.map((i) => i.label), ['Activation', 'Homepage', 'Admin', 'Measured as a site']);
    assert.match(String(t.children[1].description), /^as it runs [+±−-]?[\d.]+ ms · .* · sum of the parts [+±−-]?[\d.]+ ms · /);
    assert.match(String(t.children[3].description), /^(MariaDB|MySQL|SQLite) [\d.]+ · \d{4}-\d\d-\d\d · \d+ left out$/);
    assert.match(String(t.item('acme-shop-tweaks')?.description), /in this site [+±−-]?[\d.]+ ms(?: \(within noise\))? · alone [+±−-]?[\d.]+ ms(?: \(within noise\))?$/);
    assert.match(String(t.item('acme-loader')?.description), /in this site [+±−-]?[\d.]+ ms(?: \(within noise\))? · alone [+±−-]?[\d.]+ ms(?: \(within noise\))?$/, 'a must-use plugin is measured apart too');

    const uri = workspaceFile(ACME);
    const hover = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, await positionOf(uri, 'Acme Shop Tweaks')));
    assert.match(hover, /\*\*In this site\*\* · in this site [+±−-]?[\d.]+ ms(?: \(within noise\))? · alone [+±−-]?[\d.]+ ms(?: \(within noise\))?/);
    assert.match(hover, /what removing it would save/);

    await vscode.commands.executeCommand('wpBench.showSiteReport');
    const html = (await waitFor('the site report', () => a.glancePanel('wpBench.siteReport')))!.html;
    assert.match(html, /<h2>The site as it runs<\/h2>/);
    assert.match(html, /Acme Shop Tweaks <code>acme-shop-tweaks<\/code><\/th><td><span class="fig">\+[\d.]+ ms<\/span>/);
  });

  it('an edit of a member makes the site measurement stale, in the tree and the hover', async () => {
    const a = await api();
    const uri = workspaceFile(ACME);
    const doc = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, doc.positionAt(doc.getText().length), '\n// edited after the site run\n');
    await vscode.workspace.applyEdit(edit);
    await doc.save();
    await waitFor('stale after the save', () => a.bench.siteResult()?.stale);
    assert.equal(a.bench.siteResult()?.stale, 'plugin acme-shop-tweaks changed since');
    const t = await treeItems();
    assert.match(String(t.total.description), /\(stale\)$/);
    assert.match(String(t.children[3].description), /stale: plugin acme-shop-tweaks changed since$/);
  });
});
