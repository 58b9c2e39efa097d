// At a glance, in a real VS Code: inline grades on declaring lines, the site report and the comparison webviews,
// and the HTML report written by Export Report.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { GlanceViewData } from '../../../src/core/report/glanceView';
import { API_URL, KEYS, api, setApiUrl, usage, waitFor, workspaceFile } from './util';

function viewData(html: string): GlanceViewData {
  const m = /<script type="application\/json" id="wpb-data">([\s\S]*?)<\/script>/.exec(html);
  assert.ok(m, 'the page carries its data');
  return JSON.parse(m[1]) as GlanceViewData;
}

describe('At a glance', function () {
  this.timeout(60_000);

  before(async () => {
    assert.equal(await setApiUrl(API_URL), API_URL);
    await vscode.commands.executeCommand('wpBench.setApiKey', KEYS.pro);
    const a = await api();
    await a.bench.lookupAll();
    await waitFor('woocommerce benchmarked', () => a.bench.outcome('plugin', 'woocommerce')?.result?.state === 'benchmarked');
  });

  it('inline grades: the grade and the homepage TTFB at the end of each declaring line, off and on with the toggle', async () => {
    const a = await api();
    const composer = workspaceFile('composer.json');
    const editor = await vscode.window.showTextDocument(composer);
    const file = composer.fsPath;
    const shown = await waitFor('annotations on composer.json', () => (a.inline.shown.get(file)?.size ? a.inline.shown.get(file) : undefined));
    const doc = editor.document;
    const lineOf = (needle: string) => doc.positionAt(doc.getText().indexOf(needle)).line;
    const woo = a.bench.outcome('plugin', 'woocommerce')!.result!;
    assert.equal(woo.state, 'benchmarked');
    assert.match(shown.get(lineOf('wpackagist-plugin/woocommerce')) ?? '', new RegExp(`^${woo.state === 'benchmarked' ? woo.record.grade!.replace('+', '\\+') : ''} · \\+[\\d.]+ ms homepage`));
    const texts = [...shown.values()];
    assert.ok(texts.every((t) => /^([A-F][+-]? · |not |ignored|lookup failed)/.test(t)), texts.join(' | '));

    assert.equal(await vscode.commands.executeCommand('wpBench.toggleInline'), false);
    await waitFor('annotations gone', () => !a.inline.shown.has(file));
    assert.equal(vscode.workspace.getConfiguration('wpBench').get('inline.enabled'), false);
    assert.equal(await vscode.commands.executeCommand('wpBench.toggleInline'), true);
    await waitFor('annotations back', () => a.inline.shown.get(file)?.size);
    await vscode.workspace.getConfiguration('wpBench').update('inline.context', 'admin', vscode.ConfigurationTarget.Global);
    await waitFor('the admin context', () => [...(a.inline.shown.get(file)?.values() ?? [])].some((t) => / admin$/.test(t)));
    await vscode.workspace.getConfiguration('wpBench').update('inline.context', undefined, vscode.ConfigurationTarget.Global);
  });

  it('the site report: a bar per measured component, largest first; the rest listed beside, never as zero', async () => {
    const a = await api();
    assert.equal(await vscode.commands.executeCommand('wpBench.showSiteReport'), true);
    const panel = await waitFor('site report panel', () => a.glancePanel('wpBench.siteReport'));
    const data = viewData(panel.html);
    assert.equal(data.mode, 'site');
    const chart = data.charts.homepage.ttfb;
    const j = a.bench.judgement();
    const measured = j.components.filter((v) => v.state === 'benchmarked' && v.contexts?.homepage);
    assert.equal(chart.bars.length, measured.length);
    assert.ok(chart.bars.length >= 5, `${chart.bars.length} bars`);
    for (let i = 1; i < chart.bars.length; i++) assert.ok(chart.bars[i - 1].value >= chart.bars[i].value, 'largest first');
    assert.ok(chart.bars.every((b) => b.value > 0), 'no bar drawn as zero');
    const unknownSlugs = chart.unknown.map((u) => u.slug);
    for (const v of j.components.filter((c) => c.state !== 'benchmarked')) assert.ok(unknownSlugs.includes(v.slug), `${v.slug} listed beside the chart`);
    assert.match(panel.html, /Content-Security-Policy" content="default-src 'none';[^"]*script-src 'nonce-/);
    assert.match(panel.html, /<script nonce="[^"]+" src="[^"]+dist\/webview\/chart\.js"><\/script>/);
    assert.equal(panel.html.match(/ src="/g)?.length, 1, 'one script, the bundled one: no CDN');
  });

  it('compare: two plugins side by side with the best of each row marked; more than 3 uncached asks first, and no sends when declined', async () => {
    const a = await api();
    const before = await usage(KEYS.pro);
    const result = await vscode.commands.executeCommand<{ slug: string; state: string }[]>('wpBench.comparePlugins', ['woocommerce', 'jetpack']);
    assert.deepEqual(result?.map((r) => r.slug), ['woocommerce', 'jetpack']);
    assert.equal(await usage(KEYS.pro), before, 'both cached: nothing sent');
    const panel = await waitFor('compare panel', () => a.glancePanel('wpBench.compare'));
    assert.match(panel.html, /<table class="compare">/);
    assert.match(panel.html, /<td class="best"><span aria-hidden="true">★ <\/span>/);
    assert.equal(viewData(panel.html).mode, 'compare');

    a.answerNext(undefined); // dismiss "4 of these are not cached…"
    const declined = await vscode.commands.executeCommand('wpBench.comparePlugins', ['hello-dolly', 'redirection', 'wordfence', 'duplicate-post']);
    assert.equal(declined, undefined);
    assert.equal(await usage(KEYS.pro), before, 'declined: nothing sent');
    assert.equal((await a.bench.uncached('plugin', ['hello-dolly', 'redirection', 'wordfence', 'duplicate-post'])).length, 4);

    const three = await vscode.commands.executeCommand<{ slug: string }[]>('wpBench.comparePlugins', ['woocommerce', 'hello-dolly', 'redirection']);
    assert.equal(three?.length, 3, 'two uncached: no question');
    assert.equal(await usage(KEYS.pro), before + 2, 'one request per uncached slug');
  });

  it('compare from the tree\'s multi-selection: the clicked item\'s kind, the selected items of that kind', async () => {
    const a = await api();
    const plugins = a.tree.getChildren({ type: 'group', kind: 'plugin' }).filter((n) => n.type === 'component' && n.entry.lookup === 'yes');
    const themes = a.tree.getChildren({ type: 'group', kind: 'theme' });
    assert.ok(plugins.length >= 2 && themes.length >= 1);
    const picked = [plugins[0], plugins[1], themes[0]];
    const result = await vscode.commands.executeCommand<{ slug: string }[]>('wpBench.compareSelected', picked[0], picked);
    const slugs = picked.slice(0, 2).map((n) => (n.type === 'component' ? n.entry.slug : ''));
    assert.deepEqual(result?.map((r) => r.slug), slugs);
    assert.match(a.glancePanel('wpBench.compare')?.html ?? '', new RegExp(`<code>${slugs[0]}</code>`));
  });

  it('Export Report as HTML: one self-contained file, a bar per measured component', async () => {
    const a = await api();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-html-'));
    const out = path.join(dir, 'report.html');
    assert.equal(await vscode.commands.executeCommand('wpBench.exportReport', { format: 'html', path: out }), out);
    const html = fs.readFileSync(out, 'utf8');
    fs.rmSync(dir, { recursive: true, force: true });
    const measured = a.bench.judgement().components.filter((v) => v.state === 'benchmarked' && v.contexts?.homepage).length;
    assert.equal(html.match(/<rect class="bar"/g)?.length, measured);
    assert.doesNotMatch(html, /<script/);
    assert.match(html, /Synthetic data/);
  });
});
