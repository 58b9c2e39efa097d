// scanWorkspace() end to end (src/core/scan/workspace.ts, the orchestrator): the edge-case site, and what the root's
// own .wp-env.json changes once every source is read. Each source's rules are tested beside it (scan-plugins,
// scan-themes, scan-muplugins, scan-contentroots, scan-walk, scan-self, scan-collection, scan-declaration-files).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScanResult } from '../../../src/core/model';
import { scanWorkspace } from '../../../src/core/scan';
import { buildEdgeCaseSite } from '../../wp-compare/edge-fixture';
import { find, pluginPhp, put, slugs, tmp } from '../helpers/scanTree';

describe('scan: workspace walk (edge-case site)', () => {
  let root: string;
  let r: ScanResult;
  before(async () => {
    root = tmp();
    buildEdgeCaseSite(root);
    r = await scanWorkspace(root);
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('lists plugins as get_plugins() does (top level + one level, headed files only)', () => {
    // Names that are not wordpress.org slugs are listed as WordPress lists them (never looked up).
    assert.deepEqual(slugs(r, 'plugin'), [
      '.dot-mu', 'My_Plugin', 'at-sign', 'bedrock-autoloader', 'bom-plugin', 'cr-only', 'crlf-plugin', 'cut-off', 'folder.php', 'fork', 'hello-dolly', 'latin1', 'linked-plugin',
      'loader', 'multi', 'no-version', 'noheader', 'php-close', 'same-line', 'shouty', 'single-file', 'sub', 'tabbed',
      'utf8-name', 'wporg-uri',
    ]);
  });
  it('hello.php is hello-dolly; versions come from the Version header', () => {
    const h = find(r, 'plugin', 'hello-dolly')!;
    assert.equal(h.name, 'Hello Dolly');
    assert.equal(h.version, '1.7.2');
    assert.deepEqual(h.locations, [{ file: 'wp-content/plugins/hello.php', line: 3, column: 17, length: 11, source: 'plugin-header' }]);
    assert.equal(find(r, 'plugin', 'no-version')!.version, null);
  });
  it('several headed files in one folder are one slug named by <folder>.php', () => {
    const m = find(r, 'plugin', 'multi')!;
    assert.equal(m.name, 'Multi Main');
    assert.equal(m.version, '1.1');
  });
  it('reads every headed file with allPluginFiles', async () => {
    const all = await scanWorkspace(root, { allPluginFiles: true });
    assert.deepEqual(
      find(all, 'plugin', 'multi')!.locations.map((l) => l.file),
      ['wp-content/plugins/multi/alpha.php', 'wp-content/plugins/multi/multi.php', 'wp-content/plugins/multi/zeta.php'],
    );
    assert.deepEqual(all.components.map((c) => c.slug), r.components.map((c) => c.slug));
  });
  it('Update URI away from wordpress.org marks a possible fork', () => {
    assert.equal(find(r, 'plugin', 'fork')!.possibleFork, true);
    assert.equal(find(r, 'plugin', 'wporg-uri')!.possibleFork, undefined);
  });
  it("mu-plugins: top-level *.php, header optional, tiny index.php skipped; a sub-folder with a headed file, as Bedrock's autoloader loads it", () => {
    const n = find(r, 'plugin', 'noheader')!;
    assert.equal(n.name, 'noheader.php');
    assert.deepEqual(n.locations, [{ file: 'wp-content/mu-plugins/noheader.php', line: 1, column: 1, length: 0, source: 'mu-plugin' }]);
    assert.equal(find(r, 'plugin', 'loader')!.locations[0].source, 'mu-plugin');
    assert.equal(find(r, 'plugin', 'inner'), undefined);
    const sub = find(r, 'plugin', 'sub')!;
    assert.deepEqual([sub.name, sub.mustUse, sub.locations.map((l) => `${l.file}:${l.source}`)], ['MU Inner', true, ['wp-content/mu-plugins/sub/inner.php:mu-plugin']]);
    assert.equal(find(r, 'plugin', 'index'), undefined);
  });
  it('themes: style.css folders, one level of grouping, parents, block themes', () => {
    assert.deepEqual(slugs(r, 'theme'), ['.dotnested', 'block', 'child', 'classic', 'crlf-theme', 'missing-parent', 'nested-a', 'nested-b', 'noname', 'orphan-child']);
    assert.equal(find(r, 'theme', 'block')!.blockTheme, true);
    assert.equal(find(r, 'theme', 'classic')!.blockTheme, undefined);
    assert.equal(find(r, 'theme', 'noname')!.name, null);
    assert.equal(find(r, 'theme', 'child')!.parent, 'classic');
    const classic = find(r, 'theme', 'classic')!;
    assert.deepEqual(classic.parentOf, ['child']);
    assert.equal(classic.name, 'Classic');
    // An installed parent is that theme; the child's Template line is one more place to hover it.
    assert.deepEqual(classic.locations.map((l) => [l.file, l.line, l.source]), [
      ['wp-content/themes/child/style.css', 3, 'theme-parent'],
      ['wp-content/themes/classic/style.css', 2, 'theme-header'],
    ]);
    // A parent that is not in the repository keeps only the child's Template line, source theme-parent.
    const missing = find(r, 'theme', 'missing-parent')!;
    assert.equal(missing.name, null);
    assert.deepEqual(missing.locations, [{ file: 'wp-content/themes/orphan-child/style.css', line: 3, column: 11, length: 14, source: 'theme-parent' }]);
    assert.equal(missing.lookup, 'yes');
    assert.deepEqual(find(r, 'theme', 'nested-b')!.locations[0], { file: 'wp-content/themes/group/nested-b/style.css', line: 2, column: 13, length: 8, source: 'theme-header' });
  });
  it('names that are not wordpress.org slugs are listed and never looked up', () => {
    for (const [kind, slug] of [['plugin', '.dot-mu'], ['plugin', 'My_Plugin'], ['plugin', 'folder.php'], ['theme', '.dotnested']]) {
      assert.equal(find(r, kind, slug)?.lookup, 'not-a-wordpress-org-slug', slug);
    }
    assert.deepEqual(r.problems.filter((p) => p.slug !== undefined), []);
    for (const c of r.components) {
      if (c.lookup === 'yes') assert.match(c.slug, /^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    }
  });
  it('output is sorted, paths are relative with forward slashes', () => {
    const keys = r.components.map((c) => `${c.kind}:${c.slug}`);
    assert.deepEqual(keys, [...keys].sort());
    for (const c of r.components) {
      for (const l of c.locations) assert.ok(!path.isAbsolute(l.file) && !l.file.includes('\\') && l.line >= 1 && l.column >= 1, l.file);
    }
  });
  it('never reads more than 8 KiB of a plugin or theme file', () => {
    assert.ok(r.stats.filesOpened > 0 && r.stats.dirsRead > 0);
    assert.ok(r.stats.bytesRead <= r.stats.filesOpened * 8192, JSON.stringify(r.stats));
  });
  it("the 'async' I/O mode gives the same result", async () => {
    const a = await scanWorkspace(root, { io: 'async', concurrency: 8 });
    assert.deepEqual(a.components, r.components);
    assert.deepEqual(a.problems, r.problems);
  });
});

describe('scan: the root\'s own .wp-env.json (workspace.ts: a root mounted as a folder, an install name for ".")', () => {
  let root: string;
  beforeEach(() => (root = tmp()));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('.wp-env.json mapping a whole mu-plugins or themes folder: what it holds is listed; a root mapped so is not one plugin', async () => {
    put(root, '000-init.php', `${pluginPhp('Init')}require_once __DIR__ . '/search/search.php';\n`); // vip-go-mu-plugins loads its sub-folders so
    put(root, 'helpers.php', '<?php\nfunction h() {}\n');
    put(root, 'search/search.php', pluginPhp('Search', ' * Version: 0.1.0\n'));
    put(root, 'e2e/themes/fixture-theme/style.css', '/*\nTheme Name: Fixture Theme\n*/');
    put(root, '.wp-env.json', JSON.stringify({ mappings: { 'wp-content/mu-plugins': '.', '/wp-content/themes': './e2e/themes/' } }, null, 2));
    const r = await scanWorkspace(root);
    assert.deepEqual(r.components.map((c) => `${c.kind}:${c.slug}:${c.lookup}`), [
      'plugin:000-init:not-from-wordpress-org', 'plugin:helpers:not-from-wordpress-org', 'plugin:search:not-from-wordpress-org', 'theme:fixture-theme:yes',
    ]);
    assert.equal(find(r, 'plugin', 'search')!.version, '0.1.0');
    assert.deepEqual(r.problems, []);
  });

  it('a root mapped as mu-plugins with only folder plugins: they stay must-use (not looked up), not a collection', async () => {
    put(root, 'loader.php', '<?php\nforeach (glob(__DIR__ . "/*/*.php") as $f) require $f;\n');
    put(root, 'foo/foo.php', pluginPhp('Foo', ' * Version: 1.0\n'));
    put(root, 'bar/bar.php', pluginPhp('Bar'));
    put(root, '.wp-env.json', JSON.stringify({ mappings: { 'wp-content/mu-plugins': '.' } }));
    const r = await scanWorkspace(root);
    assert.deepEqual(r.components.map((c) => `${c.slug}:${c.mustUse === true}:${c.lookup}`), [
      'bar:true:not-from-wordpress-org', 'foo:true:not-from-wordpress-org', 'loader:true:not-from-wordpress-org',
    ]);
  });

  it('the root\'s .wp-env.json installing "." under a name gives the root that slug (WordPress/performance: not the Text Domain of a real plugin beside it)', async () => {
    put(root, 'performance.php', pluginPhp('Performance monorepo (not a real plugin)', ' * Text Domain: performance-lab\n'));
    put(root, 'plugins/performance-lab/load.php', pluginPhp('Performance Lab', ' * Version: 3.5.1\n * Text Domain: performance-lab\n'));
    const mappings = { '/wp-content/plugins/performance': '.' };
    put(root, '.wp-env.json', JSON.stringify({ plugins: ['.', './plugins/performance-lab'], mappings, env: { tests: { mappings } } }, null, 2));
    const r = await scanWorkspace(root);
    assert.deepEqual(r.components.map((c) => `${c.slug}|${c.name}|${c.version ?? '-'}`), [
      'performance|Performance monorepo (not a real plugin)|-',
      'performance-lab|Performance Lab|3.5.1',
    ]);
    assert.deepEqual(find(r, 'plugin', 'performance')!.locations.map((l) => `${l.file}:${l.line}`), ['.wp-env.json:3', '.wp-env.json:7', '.wp-env.json:12', 'performance.php:3']);
  });

  it('an install name for "." renames neither a collection\'s items nor an item a wordpress.org URI names', async () => {
    put(root, 'a/a.php', pluginPhp('A'));
    put(root, 'b/b.php', pluginPhp('B'));
    put(root, '.wp-env.json', JSON.stringify({ mappings: { 'wp-content/plugins/coll': '.' } }));
    const r = await scanWorkspace(root);
    assert.deepEqual(r.components.map((c) => c.slug), ['a', 'b', 'coll']);
    const other = tmp();
    try {
      put(other, 'foo.php', pluginPhp('Foo', ' * Update URI: https://wordpress.org/plugins/foo/\n'));
      put(other, '.wp-env.json', JSON.stringify({ mappings: { 'wp-content/plugins/foo-dev': '.' } }));
      const r2 = await scanWorkspace(other);
      assert.deepEqual(r2.components.map((c) => `${c.slug}:${c.lookup}`), ['foo:yes', 'foo-dev:yes']);
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});
