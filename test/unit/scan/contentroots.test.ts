// Content roots (src/core/scan/contentroots.ts): wp-content, web/app, a folder holding two role folders, never under tests/.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { scanWorkspace } from '../../../src/core/scan';
import { contentRootKind } from '../../../src/core/scan/contentroots';
import { find, pluginPhp, put, tmp } from '../helpers/scanTree';

describe('scan: content roots (contentroots.ts)', () => {
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

  it('treats the root itself as a content root', async () => {
    put(root, 'plugins/p/p.php', pluginPhp('P'));
    put(root, 'themes/t/style.css', '/*\nTheme Name: T\n*/');
    const r = await scanWorkspace(root);
    assert.deepEqual(r.components.map((c) => `${c.kind}:${c.slug}:${c.locations[0].file}`), ['plugin:p:plugins/p/p.php', 'theme:t:themes/t/style.css']);
  });
});

describe('scan: what makes a content root (contentroots.ts)', () => {
  const dirent = (name: string) => ({ name, isDirectory: () => true, isSymbolicLink: () => false }) as fs.Dirent;
  it("by name (wp-content, web/app), by shape (two of plugins/, themes/, mu-plugins/ or client-mu-plugins/), or not at all", () => {
    assert.equal(contentRootKind(path.join('x', 'wp-content'), []), 'named');
    assert.equal(contentRootKind(path.join('x', 'web', 'app'), []), 'named');
    assert.equal(contentRootKind(path.join('x', 'app'), [dirent('plugins')]), null);
    assert.equal(contentRootKind('site', [dirent('plugins'), dirent('client-mu-plugins')]), 'shape');
    assert.equal(contentRootKind('site', [dirent('mu-plugins'), dirent('client-mu-plugins')]), null);
  });
});
