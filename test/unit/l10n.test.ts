// Localisation: every user-facing string of the extension goes through l10n.t (the bundle has an entry for it), the
// manifest's strings come from package.nls.json, and the core's text really is translated when a translator is set.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parseRecord } from '../../src/core/api/record';
import { errors } from '../../src/core/api/errors';
import { formatMessage, l10n, setTranslator } from '../../src/core/l10n';
import type { LookupOutcome } from '../../src/core/lookup/lookupService';
import { hoverMarkdown, lookupHtml, summaryText } from '../../src/core/present/outcome';
import { sampleBody } from './helpers/samples';

const ROOT = path.resolve(__dirname, '..', '..');
const readJson = (f: string) => JSON.parse(fs.readFileSync(path.join(ROOT, f), 'utf8'));

describe('localisation', () => {
  it('l10n/bundle.l10n.json has an entry for every l10n.t message, and no UI text bypasses l10n.t', async () => {
    const { extract, uiSources } = await import('../../scripts/l10n.mjs');
    const files: string[] = uiSources();
    assert.ok(files.includes('src/vscode/commands.ts') && files.includes('src/core/present/outcome.ts') && files.includes('src/core/api/errors.ts'), files.join());
    const { bundle, bare, dynamic } = extract(files);
    assert.deepEqual(bare, [], 'text outside l10n.t (wrap it, or mark a non-UI literal with l10n-ignore)');
    assert.deepEqual(dynamic, [], 'l10n.t needs a literal message so it can be extracted');
    const committed = readJson('l10n/bundle.l10n.json');
    const missing = Object.keys(bundle).filter((m) => !(m in committed));
    const unused = Object.keys(committed).filter((m) => !(m in bundle));
    assert.deepEqual(missing, [], 'messages without an entry in l10n/bundle.l10n.json: run node scripts/l10n.mjs');
    assert.deepEqual(unused, [], 'entries no code uses any more: run node scripts/l10n.mjs');
    assert.ok(Object.keys(bundle).length > 150, `only ${Object.keys(bundle).length} messages found`);
  });

  it('the checker catches a new hard-coded message (it can fail)', async () => {
    const { scanFile } = await import('../../scripts/l10n.mjs');
    // Inside the repository (the checker takes paths relative to it); out/ does not exist in a fresh clone.
    fs.mkdirSync(path.join(ROOT, 'out'), { recursive: true });
    const dir = fs.mkdtempSync(path.join(ROOT, 'out', 'l10n-'));
    try {
      const file = path.join(dir, 'probe.ts');
      fs.writeFileSync(file, "import * as vscode from 'vscode';\nvoid vscode.window.showInformationMessage('WP Bench: something happened');\nvoid vscode.l10n.t(`x ${1}`);\nconst id = 'wpBench.refresh';\n");
      const r = scanFile(path.relative(ROOT, file));
      assert.deepEqual(r.bare.map((b: { text: string }) => b.text), ['WP Bench: something happened']);
      assert.equal(r.dynamic.length, 1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the manifest: every user-facing field is a %key% with an entry in package.nls.json, and no entry is unused', () => {
    const pkg = readJson('package.json');
    const nls = readJson('package.nls.json');
    const raw = fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8');
    const keys = [...raw.matchAll(/"%([^"%]+)%"/g)].map((m) => m[1]);
    assert.deepEqual(keys.filter((k) => !(k in nls)), [], 'placeholders without an entry');
    assert.deepEqual(Object.keys(nls).filter((k) => !keys.includes(k)), [], 'entries nothing uses');
    assert.equal(pkg.l10n, './l10n');
    const literal: string[] = [];
    const check = (where: string, v: unknown) => {
      if (typeof v === 'string' && !/^%[^%]+%$/.test(v)) literal.push(`${where}: ${v.slice(0, 40)}`);
    };
    check('displayName', pkg.displayName);
    check('description', pkg.description);
    const c = pkg.contributes;
    for (const cmd of c.commands) (check(cmd.command, cmd.title), check(`${cmd.command} category`, cmd.category));
    for (const [name, prop] of Object.entries<Record<string, unknown>>(c.configuration.properties)) {
      for (const f of ['description', 'markdownDescription', 'deprecationMessage']) check(`${name}.${f}`, prop[f]);
      for (const f of ['enumDescriptions', 'markdownEnumDescriptions']) for (const d of (prop[f] as unknown[]) ?? []) check(`${name}.${f}`, d);
    }
    for (const list of Object.values<{ id: string; name?: string; title?: string }[]>(c.views)) for (const v of list) check(v.id, v.name);
    for (const list of Object.values<{ id: string; title: string }[]>(c.viewsContainers)) for (const v of list) check(v.id, v.title);
    for (const w of c.viewsWelcome ?? []) check(`viewsWelcome ${w.view}`, w.contents);
    for (const w of c.walkthroughs) {
      check(w.id, w.title);
      check(w.id, w.description);
      for (const s of w.steps) (check(s.id, s.title), check(s.id, s.description), check(s.id, s.media?.altText));
    }
    assert.deepEqual(literal, []);
  });

  it('the packaged extension carries the bundles (.vscodeignore lets l10n/ and package.nls.json in)', () => {
    const ignore = fs.readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8');
    assert.match(ignore, /^!l10n\/\*\.json$/m);
    assert.match(ignore, /^!package\.nls\*\.json$/m);
  });

  describe('with a translator plugged in (as the extension does with vscode.l10n.t)', () => {
    const pseudo = (message: string, ...args: Array<string | number | boolean>) => `⟦${formatMessage(message, ...args)}⟧`;
    beforeEach(() => setTranslator(pseudo));
    afterEach(() => setTranslator());

    const outcome = (): LookupOutcome => ({ kind: 'plugin', slug: 'akismet', result: parseRecord(sampleBody({ slug: 'akismet' }), 'plugin', 'akismet'), stale: true, fromCache: true, fetchedAt: 0 });

    it('hover, panel, tree text and API errors come out translated', () => {
      const md = hoverMarkdown('plugin', 'akismet', outcome(), { now: 3_600_000 * 5 });
      for (const s of ['⟦Grade **', '⟦Activation⟧', '⟦Homepage⟧', '⟦Admin⟧', '⟦Context⟧', '⟦Memory⟧', '⟦⚠ Stale: fetched ⟦5 h ago⟧⟧']) assert.ok(md.includes(s), `${s} in\n${md}`);
      const html = lookupHtml('plugin', 'akismet', outcome(), 3_600_000 * 5);
      assert.match(html, /<caption>⟦Extra cost when it is active, by context⟧<\/caption>/);
      assert.match(summaryText(outcome()), /^⟦.* \(stale\)⟧$/);
      assert.match(errors.invalidKey().message, /^⟦The API key was rejected \(401\)/);
    });

    it('English again without one (the CLI never sets it)', () => {
      setTranslator();
      assert.equal(l10n.t('{0} of {1}', 1, 2), '1 of 2');
      assert.equal(l10n.t('{1} before {0}', 'a', 'b'), 'b before a');
      assert.equal(l10n.t('kept {2}', 'a'), 'kept {2}');
    });
  });
});
