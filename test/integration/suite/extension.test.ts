// The extension in a real VS Code, against the emulator, on test/fixtures/sample-site. Tests run in order.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { quotaStatus } from '../../../src/core/session/surfaces';
import type { Node } from '../../../src/vscode/tree';
import { API_URL, KEYS, api, hoverText, positionOf, usage, waitFor, workspaceFile, setApiUrl } from './util';

describe('WP Bench in VS Code', function () {
  this.timeout(60_000);

  before(async () => {
    assert.ok(API_URL, 'WPBENCH_TEST_API_URL must point at the emulator');
    await vscode.commands.executeCommand('wpBench.clearApiKey');
    assert.equal(await setApiUrl(API_URL), API_URL);
  });

  it('activates on startup with only registrations, and without loading undici', async () => {
    const ext = vscode.extensions.getExtension('wpbench.wp-bench');
    assert.ok(ext, 'installed');
    const a = await api();
    assert.ok(ext.isActive);
    assert.equal(ext.exports, undefined, 'activate() exports nothing another extension could use to reach the key or spend quota');
    assert.ok(a.activationMs < 1000, `activate() took ${a.activationMs} ms`);
    console.log(`activate() took ${a.activationMs.toFixed(2)} ms`);
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['wpBench.setApiKey', 'wpBench.setApiUrl', 'wpBench.clearApiKey', 'wpBench.lookupPlugin', 'wpBench.lookupTheme', 'wpBench.refresh', 'wpBench.showAccount', 'wpBench.clearCache', 'wpBench.openProfile']) {
      assert.ok(commands.includes(id), id);
    }
  });

  it('detects the sample site without a key, sends nothing, and asks for the key', async () => {
    const a = await api();
    await a.bench.rescan();
    const slugs = a.bench.components.map((c) => `${c.kind}:${c.slug}`).sort();
    for (const s of ['plugin:woocommerce', 'plugin:jetpack', 'plugin:acme-shop-tweaks', 'plugin:acme-loader', 'theme:astra', 'theme:acme-child', 'theme:twentytwentyfive', 'plugin:wp-super-cache']) {
      assert.ok(slugs.includes(s), `${s} detected: ${slugs.join(', ')}`);
    }
    assert.equal(a.bench.hasKey, false);
    assert.match(a.statusBar.item.text, /Set up WP Bench/);
    assert.equal(a.statusBar.item.backgroundColor, undefined, 'not set up yet is not a warning');
    assert.match(a.statusBar.item.accessibilityInformation?.label ?? '', /set the API key/);
    assert.deepEqual(a.tree.getChildren(), [], 'the tree is empty so the "Set API Key" welcome view shows');
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', workspaceFile('composer.json'), await positionOf(workspaceFile('composer.json'), 'wpackagist-plugin/woocommerce'));
    assert.match(hoverText(hovers), /No API key set/);
  });

  it('refuses a revoked (403) or invalid (401) key without saving it', async () => {
    const result = await vscode.commands.executeCommand<{ saved: boolean; error?: string }>('wpBench.setApiKey', KEYS.revoked);
    assert.deepEqual(result, { saved: false, tier: null, error: 'forbidden' });
    const invalid = await vscode.commands.executeCommand<{ saved: boolean; error?: string }>('wpBench.setApiKey', 'wpb_not_a_key_0000');
    assert.deepEqual(invalid, { saved: false, tier: null, error: 'invalid-key' }, '401 is refused too');
    assert.equal((await api()).bench.hasKey, false);
  });

  it('saves a valid key (validated with /me), then looks up each unique slug once', async () => {
    const before = await usage(KEYS.pro);
    const result = await vscode.commands.executeCommand<{ saved: boolean; tier: string }>('wpBench.setApiKey', KEYS.pro);
    assert.deepEqual(result, { saved: true, tier: 'pro' });
    const a = await api();
    await waitFor('lookups', () => a.bench.outcome('plugin', 'woocommerce')?.result && a.bench.state === 'idle');
    const unique = a.bench.activeEntries.filter((e) => e.lookup === 'yes').length;
    assert.equal((await usage(KEYS.pro)) - before, unique, 'exactly one counted request per unique slug');
    await a.bench.lookupAll();
    assert.equal((await usage(KEYS.pro)) - before, unique, 'cached slugs cost nothing');
    // "Update URI: false" in its header: a custom plugin, not the wordpress.org item; never looked up by itself.
    assert.equal(a.bench.outcome('plugin', 'acme-shop-tweaks'), undefined);
    const header = workspaceFile('wp-content/plugins/acme-shop-tweaks/acme-shop-tweaks.php');
    const hover = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', header, await positionOf(header, 'Acme Shop Tweaks')));
    assert.match(hover, /Not looked up\\?: its Update URI/);
    assert.match(hover, /\*\*Acme Shop Tweaks\*\*/);
  });

  it('hovers a composer.json entry with grade, contexts and "not measured"', async () => {
    const uri = workspaceFile('composer.json');
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, await positionOf(uri, 'wpackagist-plugin/woocommerce'));
    const text = hoverText(hovers);
    assert.match(text, /Grade \*\*D\*\*/);
    assert.match(text, /\| Activation \| [\d.]+ ms \| [\d.]+ (KB|MB) \| \d+ \|/);
    assert.match(text, /\| Homepage \|/);
    assert.match(text, /Open benchmark profile/);
    const classic = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, await positionOf(uri, 'wpackagist-plugin/classic-editor')));
    assert.match(classic, /\| Homepage \| not measured \| not measured \| not measured \|/);
    const header = workspaceFile('wp-content/themes/acme-child/style.css');
    const parent = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', header, await positionOf(header, 'astra')));
    assert.match(parent, /Grade/);
  });

  it('puts diagnostics with codes on the declaring ranges', async () => {
    const uri = workspaceFile('composer.json');
    const diags = await waitFor('diagnostics', () => {
      const d = vscode.languages.getDiagnostics(uri).filter((x) => x.source === 'WP Bench');
      return d.length >= 4 && d;
    });
    const byCode = (code: string) => diags.filter((d) => d.code === code);
    const doc = await vscode.workspace.openTextDocument(uri);
    const below = byCode('grade-below-threshold').map((d) => doc.getText(d.range));
    assert.ok(below.includes('wpackagist-plugin/woocommerce'), below.join());
    assert.ok(below.includes('wpackagist-plugin/jetpack'), below.join());
    assert.ok(!below.some((t) => t.includes('akismet')), 'grade A is not below C');
    assert.equal(byCode('grade-below-threshold')[0].severity, vscode.DiagnosticSeverity.Warning);
    assert.deepEqual(byCode('not-benchmarked').map((d) => doc.getText(d.range)), ['wpackagist-plugin/shibboleth']);
    assert.deepEqual(byCode('not-in-dataset').map((d) => doc.getText(d.range)), ['wpackagist-plugin/acme-internal-sso']);
    const fixes = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, byCode('grade-below-threshold')[0].range);
    const titles = fixes.map((f) => f.title);
    assert.ok(titles.some((t) => /Open the WP Bench profile/.test(t)), titles.join());
    assert.ok(titles.some((t) => /Ignore .* in this workspace/.test(t)), titles.join());
  });

  it('shows the tree: site total first, plugins worst first, three contexts each', async () => {
    const a = await api();
    const roots = a.tree.getChildren();
    assert.equal(roots[0].type, 'total');
    const total = a.tree.getTreeItem(roots[0]);
    assert.equal(total.label, 'Site total');
    assert.match(String(total.description), /ms TTFB/);
    const totals = a.tree.getChildren(roots[0]).map((n) => a.tree.getTreeItem(n));
    assert.deepEqual(totals.map((t) => t.label), ['Activation', 'Homepage', 'Admin', 'Counted']);
    assert.match(String(totals[3].description), /^\d+ from the benchmark API, 0 measured locally, \d+ unknown$/);
    assert.match(String(totals[1].description), /not measured/, 'classic-editor has no homepage measurement');
    const plugins = a.tree.getChildren(roots.find((n) => n.type === 'group' && n.kind === 'plugin'));
    const first = a.tree.getTreeItem(plugins[0]);
    assert.match(String(first.description), /^E/, `worst first: ${first.label} ${first.description}`);
    assert.match(first.accessibilityInformation?.label ?? '', /grade E, score [\d.]+/, 'the grade is spelt out for screen readers');
    const contexts = a.tree.getChildren(plugins[0] as Node);
    assert.equal(contexts.length, 3);
  });

  it('reads the team config .wp-bench.json: budgets in the tree, refused apiUrl reported, never used', async () => {
    const a = await api();
    const file = workspaceFile('.wp-bench.json');
    await vscode.workspace.fs.writeFile(file, Buffer.from(JSON.stringify({ minimumGrade: 'B', budgets: { homepage: { ttfbMs: 100 } }, apiUrl: 'https://evil.example/api' }, null, 2)));
    try {
      await a.bench.rescan();
      const total = a.tree.getTreeItem(a.tree.getChildren()[0]);
      assert.match(String(total.description), /^over budget \(1\)/, String(total.description));
      assert.equal(a.bench.config.apiUrl, API_URL, 'the team config cannot set the API address');
      const diags = vscode.languages.getDiagnostics(file).filter((d) => d.source === 'WP Bench');
      assert.ok(diags.some((d) => /apiUrl/.test(d.message)), diags.map((d) => d.message).join(' | '));
      assert.equal(a.bench.minimumGrade(), 'B', 'team minimum grade applies when the user has not set one');
      const composer = workspaceFile('composer.json');
      await waitFor('C graded as below B', () => vscode.languages.getDiagnostics(composer).some((d) => d.code === 'grade-below-threshold' && /Yoast|wordpress-seo/i.test(d.message)));
    } finally {
      await vscode.workspace.fs.delete(file);
      await a.bench.rescan();
    }
  });

  it('lists a non-wordpress.org folder without a request, and shows scan problems as diagnostics and a Problems node', async () => {
    const a = await api();
    const divi = workspaceFile('wp-content/themes/Divi/style.css');
    const blueprint = workspaceFile('demo.blueprint.json');
    await vscode.workspace.fs.writeFile(divi, Buffer.from('/*\nTheme Name: Divi\nVersion: 4.27.0\n*/\n'));
    await vscode.workspace.fs.writeFile(blueprint, Buffer.from('{\n  "plugins": ["https://example.com/custom.zip"],\n  "steps": [\n'));
    const before = await usage(KEYS.pro);
    try {
      await a.bench.rescan();
      const entry = a.bench.components.find((c) => c.kind === 'theme' && c.slug === 'Divi');
      assert.equal(entry?.lookup, 'not-a-wordpress-org-slug');
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', divi, await positionOf(divi, 'Divi'));
      assert.match(hoverText(hovers), /not a wordpress\\?\.org slug/);
      const themes = a.tree.getChildren(a.tree.getChildren().find((n) => n.type === 'group' && n.kind === 'theme'));
      const row = themes.map((n) => a.tree.getTreeItem(n)).find((t) => t.label === 'Divi');
      assert.equal(row?.description, 'not a wordpress.org slug');
      // The malformed blueprint: a warning where it is, and the tree's Problems node leads to it.
      const diags = await waitFor('blueprint diagnostics', () => {
        const d = vscode.languages.getDiagnostics(blueprint).filter((x) => x.source === 'WP Bench' && x.code === 'scan');
        return d.length ? d : undefined;
      });
      assert.ok(diags.some((d) => /Invalid JSON/.test(d.message)), diags.map((d) => d.message).join(' | '));
      const problems = a.tree.getChildren().find((n) => n.type === 'problems');
      assert.ok(problems, 'a Problems node in the tree');
      const items = a.tree.getChildren(problems).map((n) => a.tree.getTreeItem(n));
      assert.ok(items.some((i) => String(i.description).startsWith('demo.blueprint.json:')), items.map((i) => i.description).join(', '));
      await a.bench.lookupAll();
      assert.equal(await usage(KEYS.pro), before, 'nothing was sent for Divi');
    } finally {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(divi, '..'), { recursive: true });
      await vscode.workspace.fs.delete(blueprint);
      await a.bench.rescan();
    }
    assert.equal(a.tree.getChildren().find((n) => n.type === 'problems'), undefined, 'fixed files leave no problem behind');
  });

  it('exports the same Markdown and JSON report as wp-bench check', async () => {
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const md = await vscode.commands.executeCommand<string>('wpBench.exportReport', { format: 'markdown', path: `${folder}/report.md` });
    const text = Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.file(md))).toString('utf8');
    assert.match(text, /Site total/);
    assert.match(text, /\| Grade \| Plugin or theme \|/);
    assert.ok(text.indexOf('jetpack') < text.indexOf('akismet'), 'worst first');
    const json = await vscode.commands.executeCommand<string>('wpBench.exportReport', { format: 'json', path: `${folder}/report.json` });
    const report = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.file(json))).toString('utf8'));
    assert.equal(report.version, 1);
    assert.ok(report.components.length >= 10);
    assert.equal(typeof report.siteTotal.homepage.ttfbDeltaMs, 'number');
  });

  it('status bar shows used / limit from the rate-limit headers', async () => {
    const a = await api();
    const used = await usage(KEYS.pro);
    assert.match(a.statusBar.item.text, new RegExp(`${used.toLocaleString('en-US')} / 500,000`));
    assert.match(String(a.statusBar.item.tooltip), /pro/i);
  });

  it('re-parses composer.json while it is edited and fetches only the new slug', async () => {
    const a = await api();
    const uri = workspaceFile('composer.json');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const before = await usage(KEYS.pro);
    const anchor = '"wpackagist-plugin/woocommerce": "^9.4",';
    const at = doc.positionAt(doc.getText().indexOf(anchor) + anchor.length);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, at, '\n    "wpackagist-plugin/elementor": "^3.25",');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor('elementor looked up', () => a.bench.outcome('plugin', 'elementor')?.result);
    await waitFor('elementor diagnostic', () => vscode.languages.getDiagnostics(uri).some((d) => d.message.startsWith('Elementor') || /elementor/i.test(d.message)));
    assert.equal((await usage(KEYS.pro)) - before, 1, 'one request for the one new slug, not one per keystroke');
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('looks up a plugin from the palette into a webview with a strict CSP', async () => {
    const a = await api();
    const outcome = await vscode.commands.executeCommand<{ result?: { state: string } }>('wpBench.lookupPlugin', 'wordfence');
    assert.equal(outcome?.result?.state, 'benchmarked');
    const panel = a.lookupPanel();
    assert.ok(panel);
    assert.match(panel.html, /default-src 'none'/);
    assert.match(panel.html, /script-src 'nonce-[A-Za-z0-9+/=]+'/);
    assert.match(panel.html, /<table>/);
    assert.doesNotMatch(panel.html, /<script>(?!<\/script>)/, 'no inline script without a nonce');
    const bad = await vscode.commands.executeCommand('wpBench.lookupPlugin', '../../v1/me');
    assert.equal(bad, undefined, 'a hostile slug is refused');
  });

  it('WP Bench: Set API Address given an argument (a link, another extension) asks first; dismissed, nothing changes', async () => {
    const a = await api();
    a.answerNext(undefined); // the user dismisses the question
    assert.equal(await vscode.commands.executeCommand('wpBench.setApiUrl', 'http://127.0.0.1:9/attacker'), undefined);
    assert.equal(a.bench.config.apiUrl, API_URL);
    assert.equal(vscode.workspace.getConfiguration('wpBench').inspect('apiUrl')?.globalValue, API_URL);
  });

  it('an application-scoped API address cannot be overridden by the workspace', async () => {
    const a = await api();
    // A cloned repository's .vscode/settings.json: written as a file (VS Code refuses the API write), with a
    // resource-scoped sentinel that tells when VS Code has read it.
    const file = workspaceFile('.vscode/settings.json');
    await vscode.workspace.fs.writeFile(file, Buffer.from(JSON.stringify({ 'wpBench.apiUrl': 'https://evil.example/api', 'wpBench.requests.maxPerScan': 7, 'wpBench.diagnostics.minimumGrade': 'A' })));
    try {
      await waitFor('the workspace settings file read', () => vscode.workspace.getConfiguration('wpBench').get('diagnostics.minimumGrade') === 'A');
      const seen = vscode.workspace.getConfiguration('wpBench').inspect<string>('apiUrl');
      console.log(`apiUrl as VS Code reports it: workspace=${seen?.workspaceValue} global=${seen?.globalValue}`);
      await a.bench.onSettingsChanged();
      assert.equal(a.bench.config.apiUrl, API_URL, 'the workspace value is never used');
      assert.equal(a.bench.minimumGrade(workspaceFile('composer.json').fsPath), 'A', 'resource-scoped settings do apply');
    } finally {
      await vscode.workspace.fs.delete(file);
      await waitFor('the workspace settings file forgotten', () => vscode.workspace.getConfiguration('wpBench').get('diagnostics.minimumGrade') === 'C');
      await a.bench.onSettingsChanged();
    }
  });

  it('a key revoked mid-session: 403 once, cached data stays visible and is marked stale', async () => {
    const a = await api();
    // Save the revoked key the way a key revoked after saving would look: without validation (no API address).
    await vscode.workspace.getConfiguration('wpBench').update('apiUrl', '', vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('wpBench.setApiKey', KEYS.revoked);
    await vscode.workspace.getConfiguration('wpBench').update('apiUrl', API_URL, vscode.ConfigurationTarget.Global);
    await waitFor('client rebuilt', () => a.bench.hasApiUrl && a.bench.hasKey);
    const outcome = await a.bench.lookupOne('plugin', 'woocommerce', true);
    assert.equal(outcome.error?.kind, 'forbidden');
    assert.match(outcome.error?.message ?? '', /revoked or suspended/);
    assert.equal(outcome.result?.state, 'benchmarked', 'the cached answer stays visible');
    assert.equal(outcome.stale, true, 'and is marked stale');
    const hover = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', workspaceFile('composer.json'), await positionOf(workspaceFile('composer.json'), 'wpackagist-plugin/woocommerce')));
    assert.match(hover, /Grade \*\*D\*\*/);
    assert.match(hover, /Stale: fetched/);
    await a.bench.lookupAll({ force: true });
    assert.equal(a.bench.notificationsShown.forbidden, 1, 'the key problem is shown once for the whole scan');
  });

  it('asks before a scan sends more requests than wpBench.requests.maxPerScan, and sends none meanwhile', async () => {
    const a = await api();
    await vscode.commands.executeCommand('wpBench.setApiKey', KEYS.pro);
    // The key change looks up what the revoked key could not; let it finish before the limit changes.
    await waitFor('the new key settled', () => a.bench.hasKey && a.bench.state === 'idle');
    await vscode.workspace.getConfiguration('wpBench').update('requests.maxPerScan', 3, vscode.ConfigurationTarget.Global);
    await waitFor('the new limit read', () => a.bench.config.maxPerScan === 3 && a.bench.state === 'idle');
    try {
      await vscode.commands.executeCommand('wpBench.clearCache');
      const before = await usage(KEYS.pro);
      await vscode.commands.executeCommand('wpBench.refresh');
      await waitFor('the consent question', () => a.bench.pendingConsent === 'limit');
      assert.equal(await usage(KEYS.pro), before, 'nothing is sent without consent');
    } finally {
      await vscode.workspace.getConfiguration('wpBench').update('requests.maxPerScan', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('API strings with markdown, HTML, command: and javascript: links stay inert in hover, tree and webview', async () => {
    const http = await import('node:http');
    const evil = '[run](command:workbench.action.quit) <img src=x onerror="alert(1)"> <script>alert(2)</script> **x**';
    const server = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9', 'x-ratelimit-reset': '3600' });
      res.end(JSON.stringify({
        slug: 'evil-plugin', type: 'plugin', name: evil, benchmarked: true, benchmarked_at: evil,
        speed_score: { grade: 'F', numeric: 1 },
        contexts: { activation: { ttfb_delta_ms: 1, memory_delta_kb: 1, queries_delta: 1 }, homepage: null, admin: null },
        metadata: { active_installs: 1, rating: 1 }, links: { profile: 'javascript:alert(3)' },
      }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const a = await api();
    const port = (server.address() as { port: number }).port;
    try {
      await vscode.workspace.getConfiguration('wpBench').update('apiUrl', `http://127.0.0.1:${port}/api`, vscode.ConfigurationTarget.Global);
      await waitFor('client on the hostile server', () => a.bench.config.apiUrl.includes(String(port)));
      await vscode.commands.executeCommand('wpBench.setApiKey', KEYS.pro);
      const outcome = await vscode.commands.executeCommand<{ result?: { state: string } }>('wpBench.lookupPlugin', 'evil-plugin');
      assert.equal(outcome?.result?.state, 'benchmarked');
      const html = a.lookupPanel()!.html;
      const body = html.slice(html.indexOf('<main>'), html.indexOf('</main>'));
      assert.doesNotMatch(body, /<img|<script|onerror="/, 'no live markup from the API in the webview');
      assert.doesNotMatch(html, /javascript:/);
      assert.doesNotMatch(html, /id="open-profile"/, 'no profile button for a javascript: link');
      const { hoverMarkdown } = await import('../../../src/core/present/outcome');
      const md = hoverMarkdown('plugin', 'evil-plugin', a.bench.lookups.peek('plugin', 'evil-plugin'));
      // An escaped `\]` closes no link: only an unescaped `](command:` would be one.
      assert.doesNotMatch(md, /(?<!\\)\]\(command:/);
      assert.doesNotMatch(md, /(?<!\\)<img/);
    } finally {
      server.close();
      await vscode.workspace.getConfiguration('wpBench').update('apiUrl', API_URL, vscode.ConfigurationTarget.Global);
      await waitFor('client back on the emulator', () => a.bench.config.apiUrl === API_URL);
      await waitFor('lookups finished', () => a.bench.state === 'idle');
    }
  });

  it("behind VS Code's http.proxy: a loopback API address is asked directly, the proxy receives nothing (no key in clear text)", async () => {
    const a = await api();
    await vscode.commands.executeCommand('wpBench.setApiKey', KEYS.pro); // saved for the emulator's origin
    const http = await import('node:http');
    const seen: string[] = []; // every CONNECT target and plain request the proxy receives
    const proxy = http.createServer((q, r) => {
      seen.push(`${q.method} ${q.url} ${q.headers.authorization ?? ''}`);
      r.end();
    });
    proxy.on('connect', (req, client: import('node:net').Socket) => {
      seen.push(`CONNECT ${req.url ?? ''}`);
      client.destroy();
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    const port = (proxy.address() as { port: number }).port;
    const http_ = vscode.workspace.getConfiguration('http');
    try {
      await http_.update('proxy', `http://127.0.0.1:${port}`, vscode.ConfigurationTarget.Global);
      await waitFor('the proxy setting read', () => a.bench.config.proxy?.proxy === `http://127.0.0.1:${port}`);
      const outcome = await a.bench.lookupOne('plugin', 'akismet', true);
      assert.equal(outcome.error, undefined, outcome.error?.message);
      assert.equal(outcome.fromCache, false, 'answered by the API itself');
      const apiHost = new URL(API_URL).host;
      // VS Code itself may use the proxy for its own requests (JSON schemas); none of them is ours.
      assert.ok(seen.every((s) => !s.includes(apiHost) && !s.includes('Bearer')), JSON.stringify(seen));
    } finally {
      await http_.update('proxy', undefined, vscode.ConfigurationTarget.Global);
      await waitFor('the proxy setting gone', () => a.bench.config.proxy?.proxy === undefined);
      proxy.close();
    }
  });

  it('429: the status bar turns to an error state and no further lookups are sent until the reset', async () => {
    const a = await api();
    // The previous test's settings changes and their lookups have finished (a condition, not a pause).
    await a.bench.whenSettled();
    await vscode.commands.executeCommand('wpBench.clearCache');
    const applied = a.bench.keyChangesApplied;
    const echoes = a.keys.echoes;
    await vscode.commands.executeCommand('wpBench.setApiKey', KEYS.almostExhausted);
    await waitFor('quota exhausted', () => a.bench.blockedUntil !== null, 30_000);
    // SecretStorage reports the write back to us; that echo must not apply the key a second time (a second
    // application forgot the 429 and sent again: two notifications, in CI on VS Code 1.100.3).
    await waitFor('SecretStorage echo of the write', () => a.keys.echoes > echoes);
    await a.bench.whenSettled();
    assert.equal(a.bench.keyChangesApplied, applied + 1, 'one write of the key, one key change');
    const used = await usage(KEYS.almostExhausted);
    assert.equal(quotaStatus(a.bench).level, 'error');
    assert.ok(a.statusBar.item.backgroundColor, 'error background');
    assert.match(a.statusBar.item.text, /quota used up/);
    await vscode.commands.executeCommand('wpBench.refresh');
    await vscode.commands.executeCommand('wpBench.lookupPlugin', 'redirection');
    assert.equal(await usage(KEYS.almostExhausted), used, 'nothing more is counted after the 429');
    const account = await vscode.commands.executeCommand<{ remaining: number }>('wpBench.showAccount');
    assert.equal(account.remaining, 0, '/me still works');
    await a.bench.lookupAll({ force: true });
    assert.equal(a.bench.notificationsShown['quota-exceeded'], 1, 'one notification per reset period, not one per slug');
  });

  after(async () => {
    await vscode.commands.executeCommand('wpBench.setApiKey', KEYS.pro);
  });
});
