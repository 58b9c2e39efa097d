import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DetectedComponent, ScanResult } from '../../src/core/model';
import { mergeComponents, scanWorkspace } from '../../src/core/scan';
import { buildEdgeCaseSite } from '../wp-compare/edge-fixture';

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'wpbench-scan-'));
}
function put(root: string, rel: string, content: string | Buffer = ''): void {
  const f = path.join(root, rel);
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, content);
}
const pluginPhp = (name: string, extra = '') => `<?php\n/**\n * Plugin Name: ${name}\n${extra} */\n`;
const find = (r: ScanResult, kind: string, slug: string) => r.components.find((c) => c.kind === kind && c.slug === slug);
const slugs = (r: ScanResult, kind: string) => r.components.filter((c) => c.kind === kind).map((c) => c.slug);

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

describe('scan: content roots and config files', () => {
  let root: string;
  beforeEach(() => (root = tmp()));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('finds every wp-content, Bedrock web/app and installer-paths folders; skips vendor and node_modules', async () => {
    put(root, 'sites/one/wp-content/plugins/one/one.php', pluginPhp('One'));
    put(root, 'web/app/plugins/bedrock-plugin/bedrock-plugin.php', pluginPhp('Bedrock Plugin'));
    put(root, 'web/app/mu-plugins/bedrock-autoloader.php', pluginPhp('Bedrock Autoloader'));
    put(root, 'web/app/themes/bedrock-theme/style.css', '/* Theme Name: Bedrock Theme */');
    put(root, 'custom/place/custom-plugin/custom-plugin.php', pluginPhp('Custom'));
    put(root, 'vendor/wp-content/plugins/hidden-vendor/hidden-vendor.php', pluginPhp('Vendor'));
    put(root, 'node_modules/x/wp-content/plugins/nm/nm.php', pluginPhp('NM'));
    put(root, 'bower_components/wp-content/plugins/bc/bc.php', pluginPhp('BC'));
    put(root, 'vendor/composer.json', JSON.stringify({ require: { 'wpackagist-plugin/from-vendor': '*' } }));
    put(root, 'composer.json', JSON.stringify({ require: { 'wpackagist-plugin/bedrock-plugin': '*' }, extra: { 'installer-paths': { 'custom/place/{$name}/': ['type:wordpress-plugin'] } } }, null, 2));
    put(root, 'composer.lock', JSON.stringify({ packages: [{ name: 'wpackagist-plugin/bedrock-plugin', version: '2.0.1' }] }, null, 2));
    put(root, 'sub/project/composer.json', JSON.stringify({ 'require-dev': { 'wp-theme/sub-theme': '*' } }));
    put(root, '.wp-env.json', JSON.stringify({ plugins: ['./env-plugin'] }));
    put(root, 'env-plugin/env-plugin.php', pluginPhp('Env Plugin', ' * Version: 0.3.0\n'));
    const r = await scanWorkspace(root);
    assert.deepEqual(r.components.map((c) => `${c.kind}:${c.slug}`), [
      'plugin:bedrock-autoloader', 'plugin:bedrock-plugin', 'plugin:custom-plugin', 'plugin:env-plugin', 'plugin:one', 'theme:bedrock-theme', 'theme:sub-theme',
    ]);
    const bp = find(r, 'plugin', 'bedrock-plugin')!;
    assert.equal(bp.version, '2.0.1'); // composer.lock wins
    assert.equal(bp.name, 'Bedrock Plugin');
    assert.deepEqual(bp.locations.map((l) => l.source), ['composer.json', 'composer.lock', 'plugin-header']);
    assert.deepEqual(r.problems, []);
  });

  it('a folder with plugins/ and themes/ that holds neither (TinyMCE in a core copy, an API endpoint) is no content root: no broken-theme noise', async () => {
    put(root, 'www/wordpress/wp-includes/js/tinymce/plugins/lists/plugin.js', 'tinymce.PluginManager.add();');
    put(root, 'www/wordpress/wp-includes/js/tinymce/themes/inlite/theme.js', '');
    put(root, 'www/wordpress/wp-includes/version.php', "<?php\n$wp_version = '6.8';\n");
    put(root, 'www/wordpress/wp-admin/index.php', '<?php\n');
    put(root, 'www/wp-content/plugins/real/real.php', pluginPhp('Real'));
    put(root, 'api/public_html/translations/plugins/1.0/index.php', '<?php\n// the translations API\n');
    put(root, 'api/public_html/translations/themes/1.0/index.php', '<?php\n');
    put(root, 'api/public_html/translations/themes/1.0/.wp-env.json', JSON.stringify({ plugins: ['https://downloads.wordpress.org/plugin/query-monitor.zip'] }));
    const r = await scanWorkspace(root);
    assert.deepEqual(r.components.map((c) => `${c.kind}:${c.slug}`), ['plugin:query-monitor', 'plugin:real']);
    assert.deepEqual(r.problems, [], 'config files under a non-root are still read, and nothing is a broken theme');
  });

  it('a folder with plugins/ and themes/ holding real items is a content root (a VIP-style site folder)', async () => {
    put(root, 'sites/client/plugins/acme/acme.php', pluginPhp('Acme'));
    put(root, 'sites/client/themes/acme-theme/style.css', '/*\nTheme Name: Acme Theme\n*/');
    put(root, 'sites/client/themes/broken/readme.txt', 'no style.css');
    const r = await scanWorkspace(root);
    assert.deepEqual(r.components.map((c) => `${c.kind}:${c.slug}`), ['plugin:acme', 'theme:acme-theme']);
    assert.equal(r.problems.length, 1);
    assert.match(r.problems[0].message, /broken|style\.css/);
  });

  it('test fixtures are not the site: no content root under tests/ or fixtures/, but their config files are read', async () => {
    put(root, 'tests/phpunit/data/plugins/best-plugin/best-plugin.php', pluginPhp('Best Plugin'));
    put(root, 'tests/phpunit/data/themes/best-theme/style.css', '/*\nTheme Name: Best Theme\n*/');
    put(root, 'tests/e2e/wp-content/plugins/fx/fx.php', pluginPhp('Fixture'));
    put(root, 'packages/a/fixtures/wp-content/themes/t/style.css', '/*\nTheme Name: T\n*/');
    put(root, 'tests/e2e/.wp-env.json', JSON.stringify({ plugins: ['https://downloads.wordpress.org/plugin/query-monitor.3.20.0.zip'] }));
    const r = await scanWorkspace(root);
    assert.deepEqual(r.components.map((c) => `${c.kind}:${c.slug}`), ['plugin:query-monitor']);
    assert.deepEqual(r.problems, []);
  });

  it('.wp-env.json local sources: name and version from their headers; an Update URI elsewhere is not looked up; a path not there yet keeps the entry', async () => {
    put(root, 'packages/auto-sizes/auto-sizes.php', pluginPhp('Enhanced Responsive Images', ' * Version: 1.3.0\n * Text Domain: auto-sizes\n'));
    put(root, 'packages/private-tool/main.php', pluginPhp('Private Tool', ' * Update URI: https://example.com/private-tool\n'));
    put(root, 'tests/test-plugins/fake-log-messages.php', pluginPhp('Fake Log Messages', ' * Version: 1.0.0\n'));
    put(root, 'theme-src/acme-block/style.css', '/*\nTheme Name: Acme Block\nVersion: 2.1\n*/');
    put(root, '.wp-env.json', JSON.stringify({
      plugins: ['./packages/auto-sizes', './packages/private-tool', './build/not-built-yet'],
      themes: ['./theme-src/acme-block'],
      mappings: { 'wp-content/mu-plugins/fake-log-messages.php': './tests/test-plugins/fake-log-messages.php' },
    }, null, 2));
    const r = await scanWorkspace(root);
    const show = (slug: string, kind = 'plugin') => {
      const c = find(r, kind, slug)!;
      return [c.name, c.version, c.lookup];
    };
    assert.deepEqual(show('auto-sizes'), ['Enhanced Responsive Images', '1.3.0', 'yes']);
    assert.deepEqual(show('private-tool'), ['Private Tool', null, 'update-uri']);
    assert.deepEqual(show('fake-log-messages'), ['Fake Log Messages', '1.0.0', 'not-from-wordpress-org']);
    assert.deepEqual(show('acme-block', 'theme'), ['Acme Block', '2.1', 'yes']);
    assert.deepEqual(show('not-built-yet'), [null, null, 'yes']);
    assert.deepEqual(r.problems, [], 'a path not built yet is no problem: the entry stands as written');
  });

  it('a repository that is a collection of themes or plugins: each top-level folder with a headed style.css or <folder>.php', async () => {
    put(root, 'README.md', '# Themes: clone into wp-content/themes');
    put(root, 'atlas/style.css', '/*\nTheme Name: Atlas\nTemplate: twentytwentythree\nVersion: 1.0.2\n*/');
    put(root, 'poetry/style.css', '/*\nTheme Name: Poetry\n*/');
    put(root, 'poetry/templates/index.html', '<!-- wp:post-content /-->');
    put(root, 'trunk/style.css', '/*\nTheme Name: My Theme\nText Domain: my-theme\n*/');
    put(root, 'acme/acme.php', pluginPhp('Acme'));
    put(root, 'docs/style.css', 'body { color: red }');
    put(root, 'src/helpers.php', pluginPhp('Not a plugin folder: src/src.php is the only file read'));
    put(root, 'tests/fixture-theme/style.css', '/*\nTheme Name: Fixture\n*/');
    const r = await scanWorkspace(root);
    assert.deepEqual(r.components.map((c) => `${c.kind}:${c.slug}:${c.version ?? '-'}`), [
      'plugin:acme:-', 'theme:atlas:1.0.2', 'theme:my-theme:-', 'theme:poetry:-', 'theme:twentytwentythree:-',
    ]);
    assert.deepEqual(find(r, 'theme', 'twentytwentythree')!.parentOf, ['atlas']);
    assert.deepEqual(find(r, 'theme', 'atlas')!.locations.map((l) => `${l.file}:${l.line}:${l.source}`), ['atlas/style.css:2:theme-header']);
    assert.deepEqual(r.problems, []);
  });

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

  it('a plugins/+themes/ folder linking to role folders scanned elsewhere is not walked into the plugins (no phantom from their composer.json)', async () => {
    put(root, 'wp-content/plugins/foo/foo.php', pluginPhp('Foo'));
    put(root, 'wp-content/plugins/foo/composer.json', JSON.stringify({ 'require-dev': { 'wpackagist-plugin/query-monitor': '*' } }));
    put(root, 'wp-content/themes/t1/style.css', '/*\nTheme Name: T1\n*/');
    for (const deep of ['public', 'a/b/c/public']) {
      fs.mkdirSync(path.join(root, deep), { recursive: true });
      for (const role of ['plugins', 'themes']) fs.symlinkSync(path.join(root, 'wp-content', role), path.join(root, deep, role));
    }
    for (const io of ['sliced', 'async'] as const) {
      const r = await scanWorkspace(root, { io });
      assert.deepEqual(r.components.map((c) => `${c.kind}:${c.slug}`), ['plugin:foo', 'theme:t1'], io);
      assert.equal(find(r, 'plugin', 'foo')!.locations.length, 1, io);
    }
  });

  it('a folder that is not a content root still says which file could not be read', async () => {
    put(root, 'site/themes/.keep', '');
    fs.mkdirSync(path.join(root, 'site/plugins'), { recursive: true });
    fs.symlinkSync('/nonexistent/x.php', path.join(root, 'site/plugins/broken.php'));
    const r = await scanWorkspace(root);
    assert.deepEqual(r.components, []);
    assert.equal(r.problems.length, 1);
    assert.match(r.problems[0].message, /broken\.php could not be read/);
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

  it('treats the root itself as a content root', async () => {
    put(root, 'plugins/p/p.php', pluginPhp('P'));
    put(root, 'themes/t/style.css', '/*\nTheme Name: T\n*/');
    const r = await scanWorkspace(root);
    assert.deepEqual(r.components.map((c) => `${c.kind}:${c.slug}:${c.locations[0].file}`), ['plugin:p:plugins/p/p.php', 'theme:t:themes/t/style.css']);
  });

  it('reports malformed composer.json and keeps scanning', async () => {
    put(root, 'composer.json', '{\n  "require": {\n    "wpackagist-plugin/akismet": \n');
    put(root, 'wp-content/plugins/ok/ok.php', pluginPhp('OK'));
    const r = await scanWorkspace(root);
    assert.equal(r.problems.length, 1);
    assert.equal(r.problems[0].file, 'composer.json');
    assert.ok(find(r, 'plugin', 'ok'));
  });

  it('follows symlinks once and survives symlink loops', async () => {
    put(root, 'site/wp-content/plugins/real/real.php', pluginPhp('Real'));
    fs.symlinkSync(root, path.join(root, 'site', 'loop'));
    fs.symlinkSync(path.join(root, 'site'), path.join(root, 'site', 'wp-content', 'plugins', 'real', 'up'));
    fs.symlinkSync('missing-target', path.join(root, 'dangling'));
    fs.mkdirSync(path.join(root, 'a'));
    fs.symlinkSync(path.join(root, 'b'), path.join(root, 'a', 'to-b'));
    fs.mkdirSync(path.join(root, 'b'));
    fs.symlinkSync(path.join(root, 'a'), path.join(root, 'b', 'to-a'));
    const r = await scanWorkspace(root);
    assert.deepEqual(r.components.map((c) => c.slug), ['real']);
    assert.equal(r.components[0].locations.length, 1);
  });

  it('stops at maxFiles with a problem, and finishes a big tree quickly', async function () {
    this.timeout(60000);
    for (let i = 0; i < 200; i++) {
      const d = path.join(root, 'big', `d${i}`);
      fs.mkdirSync(d, { recursive: true });
      for (let j = 0; j < 100; j++) fs.writeFileSync(path.join(d, `f${j}.txt`), '');
    }
    put(root, 'wp-content/plugins/p/p.php', pluginPhp('P'));
    const small = await scanWorkspace(root, { maxFiles: 1000 });
    assert.ok(small.problems.some((p) => /maxFiles/.test(p.message)));
    assert.ok(small.stats.dirsRead < 50);
    const t = Date.now();
    const full = await scanWorkspace(root);
    assert.ok(Date.now() - t < 10000);
    assert.ok(find(full, 'plugin', 'p'));
    assert.deepEqual(full.problems, []);
    // root, big, big/d*, wp-content, wp-content/plugins (plugins/p is not listed: its headed p.php settles it)
    assert.equal(full.stats.dirsRead, 1 + 1 + 200 + 1 + 1);
  });

  it('can be aborted', async () => {
    put(root, 'wp-content/plugins/p/p.php', pluginPhp('P'));
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(scanWorkspace(root, { signal: ac.signal }));
  });
});

describe('scan: mergeComponents', () => {
  const loc = (file: string, line: number, source: DetectedComponent['locations'][0]['source']) => ({ file, line, column: 1, length: 1, source });
  it('merges kind+slug, lock version beats header version, header name wins, locations sorted', () => {
    const merged = mergeComponents([
      { kind: 'plugin', slug: 'b', name: null, version: null, locations: [loc('composer.json', 5, 'composer.json')] },
      { kind: 'plugin', slug: 'b', name: 'B Plugin', version: '1.0', locations: [loc('wp-content/plugins/b/b.php', 3, 'plugin-header')], possibleFork: true },
      { kind: 'plugin', slug: 'b', name: null, version: '1.2.0', locations: [loc('composer.lock', 9, 'composer.lock')] },
      { kind: 'theme', slug: 'a', name: null, version: null, locations: [loc('x/style.css', 2, 'theme-header')], parentOf: ['z'] },
      { kind: 'plugin', slug: 'a', name: null, version: null, locations: [loc('composer.json', 4, 'composer.json'), loc('composer.json', 4, 'composer.json')] },
      { kind: 'theme', slug: 'a', name: 'A', version: '3', locations: [loc('a/style.css', 2, 'theme-header')], parentOf: ['y'], blockTheme: true },
    ]);
    assert.deepEqual(merged.map((c) => `${c.kind}:${c.slug}`), ['plugin:a', 'plugin:b', 'theme:a']);
    assert.equal(merged[0].locations.length, 1);
    assert.equal(merged[1].version, '1.2.0');
    assert.equal(merged[1].name, 'B Plugin');
    assert.equal(merged[1].possibleFork, true);
    assert.deepEqual(merged[1].locations.map((l) => l.file), ['composer.json', 'composer.lock', 'wp-content/plugins/b/b.php']);
    assert.deepEqual(merged[2].parentOf, ['y', 'z']);
    assert.equal(merged[2].blockTheme, true);
    assert.equal(merged[2].name, 'A');
  });

  it('two copies of one theme with different versions: the first by file wins, whatever order they arrive in', () => {
    const copies: DetectedComponent[] = [
      { kind: 'theme', slug: 'twentytwentytwo', name: 'Twenty Twenty-Two', version: '1.7', locations: [loc('builds/wp-6.5/wp-content/themes/twentytwentytwo/style.css', 2, 'theme-header')] },
      { kind: 'theme', slug: 'twentytwentytwo', name: 'Twenty Twenty-Two (old)', version: '1.5', locations: [loc('builds/wp-6.3/wp-content/themes/twentytwentytwo/style.css', 2, 'theme-header')] },
      { kind: 'theme', slug: 'twentytwentytwo', name: 'Twenty Twenty-Two', version: '1.6', locations: [loc('builds/wp-6.4/wp-content/themes/twentytwentytwo/style.css', 2, 'theme-header')] },
    ];
    const orders = [[0, 1, 2], [2, 1, 0], [1, 2, 0], [2, 0, 1]];
    for (const order of orders) {
      const [m] = mergeComponents(order.map((i) => copies[i]));
      assert.deepEqual([m.version, m.name], ['1.5', 'Twenty Twenty-Two (old)'], order.join());
    }
  });
});
