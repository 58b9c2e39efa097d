// Issue 21, versions and declarations: what the scanner tells about versions, VIP loader calls, mu-plugins
// sub-folders and entries it cannot use. Fixtures are written here, modelled on real sites' files.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ScanResult } from '../../../src/core/model';
import { parseWpEnv, scanWorkspace } from '../../../src/core/scan';
import { runCli } from '../../../src/cli/index';
import { componentHover } from '../../../src/core/session/surfaces';
import { loadedSubFolders, phpTokens, vipLoadPluginCalls } from '../../../src/core/scan/php';

const pluginPhp = (name: string, extra = '') => `<?php\n/**\n * Plugin Name: ${name}\n${extra} */\n`;
const find = (r: ScanResult, kind: string, slug: string) => r.components.find((c) => c.kind === kind && c.slug === slug);
const keys = (r: ScanResult) => r.components.map((c) => `${c.kind}:${c.slug}`);

describe('scan: versions and declarations (issue 21)', () => {
  let root: string;
  const put = (rel: string, content: string) => {
    const f = path.join(root, rel);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, content);
  };
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'wpbench-decl-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  describe('.wp-env.json theme archives keep their version (8)', () => {
    it('a mapping to a wordpress.org theme zip gives the theme that version, as the themes list does', () => {
      const text = JSON.stringify(
        {
          themes: ['https://downloads.wordpress.org/theme/twentytwentythree.1.5.zip'],
          mappings: {
            'wp-content/themes/twentytwentyfour': 'https://downloads.wordpress.org/theme/twentytwentyfour.1.0.zip',
            'wp-content/plugins/akismet': 'https://downloads.wordpress.org/plugin/akismet.5.3.zip',
            'wp-content/plugins/local': './local',
          },
        },
        null,
        2,
      );
      const r = parseWpEnv(text, '.wp-env.json');
      assert.deepEqual(
        r.components.map((c) => [c.kind, c.slug, c.version]),
        [['theme', 'twentytwentythree', '1.5'], ['theme', 'twentytwentyfour', '1.0'], ['plugin', 'akismet', '5.3'], ['plugin', 'local', null]],
      );
      assert.deepEqual(r.problems, []);
    });
  });

  describe('nothing skipped silently (7)', () => {
    it('a .wp-env.json that @wordpress/env refuses (wrong shapes) is a problem at the entry', () => {
      const bad = [
        ['[1, 2]', 1],
        ['{\n  "plugins": "https://downloads.wordpress.org/plugin/akismet.zip"\n}', 2],
        ['{\n  "themes": [\n    42\n  ]\n}', 3],
        ['{\n  "mappings": ["wp-content/plugins/x"]\n}', 2],
        ['{\n  "env": {\n    "tests": "yes"\n  }\n}', 3],
      ] as const;
      for (const [text, line] of bad) {
        const r = parseWpEnv(text, '.wp-env.json');
        assert.equal(r.problems.length, 1, `${text}: ${JSON.stringify(r.problems)}`);
        assert.equal(r.problems[0].line, line, text);
        assert.match(r.problems[0].message, /@wordpress\/env/);
      }
    });
    it('a .wp-env.json with a trailing comma or a comment: read, and a problem saying @wordpress/env refuses it (issue 29)', () => {
      const cases = [
        ['{\n  "plugins": [\n    "https://downloads.wordpress.org/plugin/akismet.zip",\n  ]\n}', 4, /a trailing comma/],
        ['{\n  "plugins": ["https://downloads.wordpress.org/plugin/akismet.zip"],\n}', 3, /a trailing comma/],
        ['{\n  // the shop\n  "plugins": ["https://downloads.wordpress.org/plugin/akismet.zip"]\n}', 2, /a comment/],
        ['{\n  "plugins": ["https://downloads.wordpress.org/plugin/akismet.zip"] /* pinned */\n}', 2, /a comment/],
      ] as const;
      for (const [text, line, what] of cases) {
        const r = parseWpEnv(text, '.wp-env.json');
        assert.deepEqual(r.components.map((c) => c.slug), ['akismet'], 'still read');
        assert.equal(r.problems.length, 1, `${text}: ${JSON.stringify(r.problems)}`);
        assert.equal(r.problems[0].line, line, text);
        assert.match(r.problems[0].message, what);
        assert.match(r.problems[0].message, /@wordpress\/env reads strict JSON and refuses this file/);
      }
      assert.deepEqual(parseWpEnv('{"plugins": ["https://downloads.wordpress.org/plugin/akismet.zip"]}', '.wp-env.json').problems, [], 'strict JSON: no problem');
    });
    it('a malformed .wp-env.json in a workspace is reported with the file', async () => {
      put('.wp-env.json', '{\n  "plugins": { "akismet": true }\n}\n');
      const r = await scanWorkspace(root);
      assert.deepEqual(r.problems.map((p) => [p.file, p.line]), [['.wp-env.json', 2]]);
    });
    it('a plugin folder (or theme folder) that is a symlink to a missing target is a problem', async () => {
      put('wp-content/plugins/real/real.php', pluginPhp('Real'));
      put('wp-content/themes/t/style.css', '/*\nTheme Name: T\n*/');
      fs.symlinkSync(path.join(root, 'gone-plugin'), path.join(root, 'wp-content/plugins/vanished'));
      fs.symlinkSync(path.join(root, 'gone-theme'), path.join(root, 'wp-content/themes/lost'));
      const r = await scanWorkspace(root);
      assert.deepEqual(keys(r), ['plugin:real', 'theme:t']);
      assert.deepEqual(
        r.problems.map((p) => p.file),
        ['wp-content/plugins/vanished', 'wp-content/themes/lost'],
      );
      for (const p of r.problems) assert.match(p.message, /symbolic link/);
    });
  });

  describe("VIP's wpcom_vip_load_plugin() calls declare plugins (5)", () => {
    // Modelled on VIP site repositories: the root is wp-content, client-mu-plugins/plugin-loader.php activates plugins
    // in code (the skeleton's own comments show the call and must not count).
    const loader = [
      '<?php',
      '/**',
      ' * Plugin Name: Plugin Loader',
      ' * Description: Loads the plugins of this site in code.',
      ' *',
      " * Example: wpcom_vip_load_plugin( 'plugin-name' );",
      ' */',
      '',
      "// wpcom_vip_load_plugin( 'commented-out' );",
      "wpcom_vip_load_plugin( 'liveblog' );",
      "\\wpcom_vip_load_plugin(\"jetpack-force-2fa/jetpack-force-2fa.php\");",
      "wpcom_vip_load_plugin( 'shared-thing', 'shared-plugins', true );",
      "wpcom_vip_load_plugin( 'msm-sitemap' ); # on every environment",
      "if ( 'production' === VIP_GO_APP_ENVIRONMENT ) {",
      "\twpcom_vip_load_plugin( $name );",
      '}',
      "echo 'wpcom_vip_load_plugin( \"in-a-string\" )';",
      '',
    ].join('\n');
    beforeEach(() => {
      put('plugins/msm-sitemap/msm-sitemap.php', pluginPhp('MSM Sitemap', ' * Version: 1.5.1\n'));
      put('themes/acme/style.css', '/*\nTheme Name: Acme\n*/');
      put('client-mu-plugins/plugin-loader.php', loader);
    });
    it('each call is a declaration with its own source, file and line, looked up like a wordpress.org slug', async () => {
      const r = await scanWorkspace(root);
      assert.deepEqual(keys(r), ['plugin:jetpack-force-2fa', 'plugin:liveblog', 'plugin:msm-sitemap', 'plugin:plugin-loader', 'plugin:shared-thing', 'theme:acme']);
      const live = find(r, 'plugin', 'liveblog')!;
      assert.deepEqual(live.locations, [{ file: 'client-mu-plugins/plugin-loader.php', line: 10, column: 25, length: 8, source: 'vip-load-plugin' }]);
      assert.equal(live.lookup, 'yes');
      assert.equal(live.mustUse, undefined);
      assert.deepEqual(find(r, 'plugin', 'jetpack-force-2fa')!.locations.map((l) => [l.line, l.column, l.length]), [[11, 25, 39]]);
      // In the repository too: the call is one more place, the header still gives name and version.
      const msm = find(r, 'plugin', 'msm-sitemap')!;
      assert.deepEqual(msm.locations.map((l) => `${l.file}:${l.line}:${l.source}`), ['client-mu-plugins/plugin-loader.php:13:vip-load-plugin', 'plugins/msm-sitemap/msm-sitemap.php:3:plugin-header']);
      assert.equal(msm.version, '1.5.1');
      // A computed argument cannot be named: said, as information.
      assert.deepEqual(r.problems.map((p) => [p.file, p.line, p.severity]), [['client-mu-plugins/plugin-loader.php', 15, 'info']]);
    });
    it('the call is read only in client-mu-plugins (VIP loads its top-level files)', async () => {
      put('wp-content/mu-plugins/other.php', loader);
      put('wp-content/plugins/x/x.php', pluginPhp('X'));
      fs.rmSync(path.join(root, 'client-mu-plugins'), { recursive: true });
      const r = await scanWorkspace(root);
      assert.ok(!keys(r).includes('plugin:liveblog'), keys(r).join(', '));
    });
  });

  describe('mu-plugins sub-folders only when something loads them (6)', () => {
    const sub = (folder: string) => put(`wp-content/mu-plugins/${folder}/${folder}.php`, pluginPhp(`Sub ${folder}`, ' * Version: 2.0\n'));
    it('no loader: an info problem at the header, not a component', async () => {
      sub('acme-tools');
      put('wp-content/mu-plugins/acme-lib/helpers.php', '<?php\nfunction acme() {}\n'); // a library: nothing to say
      put('wp-content/mu-plugins/notes.php', "<?php\n// require __DIR__ . '/acme-tools/acme-tools.php';\n");
      const r = await scanWorkspace(root);
      assert.deepEqual(keys(r), ['plugin:notes']);
      assert.equal(r.problems.length, 1, JSON.stringify(r.problems));
      assert.deepEqual([r.problems[0].file, r.problems[0].line, r.problems[0].severity], ['wp-content/mu-plugins/acme-tools/acme-tools.php', 3, 'info']);
      assert.match(r.problems[0].message, /not loaded unless a loader requires it/);
    });
    it("Bedrock's autoloader loads every sub-folder", async () => {
      put('web/app/mu-plugins/bedrock-autoloader.php', pluginPhp('Bedrock Autoloader', ' * Version: 1.0.3\n') + 'namespace Roots\\Bedrock;\n\nif (class_exists(Autoloader::class)) {\n    new Autoloader();\n}\n');
      put('web/app/mu-plugins/one/one.php', pluginPhp('One'));
      put('web/app/mu-plugins/two/main.php', pluginPhp('Two'));
      const r = await scanWorkspace(root);
      assert.deepEqual(keys(r), ['plugin:bedrock-autoloader', 'plugin:one', 'plugin:two']);
      assert.deepEqual(r.problems, []);
    });
    it("an autoloader file of another name is recognised by its code (Roots\\Bedrock\\Autoloader)", async () => {
      put('wp-content/mu-plugins/00-autoload.php', "<?php\nnew \\Roots\\Bedrock\\Autoloader();\n");
      sub('one');
      const r = await scanWorkspace(root);
      assert.deepEqual(keys(r), ['plugin:00-autoload', 'plugin:one']);
    });
    it('a top-level mu-plugin that requires the sub-folder (VIP, WordCamp) loads that one only', async () => {
      sub('blocks');
      sub('jetpack-tweaks');
      sub('unused');
      put('wp-content/mu-plugins/0-load.php', [
        '<?php',
        "require_once __DIR__ . '/blocks/blocks.php';",
        'foreach ( glob( __DIR__ . "/jetpack-tweaks" . \'/*.php\' ) as $plugin ) {',
        '\trequire_once( $plugin );',
        '}',
        '',
      ].join('\n'));
      const r = await scanWorkspace(root);
      assert.deepEqual(keys(r), ['plugin:0-load', 'plugin:blocks', 'plugin:jetpack-tweaks']);
      assert.equal(find(r, 'plugin', 'blocks')!.version, '2.0');
      assert.deepEqual(r.problems.map((p) => [p.file, p.severity]), [['wp-content/mu-plugins/unused/unused.php', 'info']]);
    });
    it('a glob over every sub-folder loads them all', async () => {
      sub('a');
      sub('b');
      put('wp-content/mu-plugins/loader.php', "<?php\nforeach ( glob( WPMU_PLUGIN_DIR . '/*/*.php' ) as $f ) { include $f; }\n");
      const r = await scanWorkspace(root);
      assert.deepEqual(keys(r), ['plugin:a', 'plugin:b', 'plugin:loader']);
    });
  });

  describe('the PHP reader (linear, no regular expressions)', () => {
    it('unterminated strings and comments end the text without throwing; inline HTML and ?> are left out', () => {
      assert.deepEqual(phpTokens("<?php wpcom_vip_load_plugin( 'a"), [
        { kind: 'word', value: 'wpcom_vip_load_plugin', offset: 6 },
        { kind: 'punct', value: '(', offset: 27 },
        { kind: 'string', value: 'a', offset: 29 },
      ]);
      assert.deepEqual(phpTokens('<?php /* never closed wpcom_vip_load_plugin("x")'), []);
      assert.deepEqual(vipLoadPluginCalls(phpTokens("<p>wpcom_vip_load_plugin('html')</p><?php // x ?>wpcom_vip_load_plugin('html2')<?= wpcom_vip_load_plugin('real') ?>")).map((c) => c.plugin), ['real']);
    });
    it('a definition or a method of the same name is not a call; a require in a comment loads nothing', () => {
      const t = phpTokens("<?php\nfunction wpcom_vip_load_plugin( $plugin = false ) {}\n$this->wpcom_vip_load_plugin( 'm' );\nFoo::wpcom_vip_load_plugin( 's' );\n# require __DIR__ . '/x/x.php';\n");
      assert.deepEqual(vipLoadPluginCalls(t), []);
      assert.deepEqual(loadedSubFolders(t), { all: false, folders: new Set() });
    });
    it('a megabyte of quotes, comment openers and words is read in one pass', () => {
      const hostile = '<?php ' + "'\\".repeat(200_000) + '/*'.repeat(100_000) + ' require '.repeat(50_000);
      const t = phpTokens(hostile);
      assert.equal(t.length, 1);
      assert.equal(t[0].kind, 'string');
    });
  });

  describe('the version a site runs wins, and a conflict is shown (4)', () => {
    // A WooCommerce extension: wp-env runs WooCommerce 9.4.2; Composer installs 8.9.3 into vendor/ for the tests only.
    const extension = () => {
      put('my-extension.php', pluginPhp('My Extension', ' * Version: 1.2.0\n * Text Domain: my-extension\n * Requires Plugins: woocommerce\n'));
      put('.wp-env.json', '{\n  "plugins": [\n    "https://downloads.wordpress.org/plugin/woocommerce.9.4.2.zip",\n    "."\n  ]\n}\n');
      put('composer.json', JSON.stringify({
        name: 'acme/my-extension',
        type: 'wordpress-plugin',
        repositories: [{ type: 'composer', url: 'https://wpackagist.org' }],
        'require-dev': { 'phpunit/phpunit': '^9.6', 'wpackagist-plugin/woocommerce': '8.9.3' },
        extra: { 'installer-paths': { 'vendor/{$vendor}/{$name}/': ['type:wordpress-plugin'] } },
      }, null, 4));
      put('composer.lock', JSON.stringify({
        packages: [],
        'packages-dev': [
          { name: 'composer/installers', version: 'v2.3.0', type: 'composer-plugin' },
          { name: 'phpunit/phpunit', version: '9.6.21', type: 'library' },
          { name: 'wpackagist-plugin/woocommerce', version: '8.9.3', type: 'wordpress-plugin', dist: { type: 'zip', url: 'https://downloads.wordpress.org/plugin/woocommerce.8.9.3.zip' } },
        ],
      }, null, 4));
    };
    it('a require-dev package installed into vendor/ is test tooling: listed from its Composer entries, never the version, said as info', async () => {
      extension();
      const r = await scanWorkspace(root);
      const wc = find(r, 'plugin', 'woocommerce')!;
      assert.equal(wc.version, '9.4.2', 'the version the site runs (wp-env), not the tests’ 8.9.3');
      assert.deepEqual(wc.locations.map((l) => l.source).sort(), ['composer.json', 'composer.lock', 'wp-env']);
      assert.equal(wc.versions, undefined, 'only one place the site runs');
      assert.equal(wc.testOnly, undefined, 'the site runs it too');
      assert.deepEqual(r.problems.map((p) => [p.file, p.severity]), [['composer.json', 'info'], ['composer.lock', 'info']]);
      assert.match(r.problems[0].message, /wpackagist-plugin\/woocommerce 8\.9\.3 is a require-dev package installed into vendor\/wpackagist-plugin\/woocommerce: test tooling\. Listed from this entry, never from its copy under vendor\//);
    });
    it('…and its copy under vendor/ (installed by composer install) is never read as a declaration', async () => {
      // As ElasticPress: a plugin repository whose tests install WooCommerce into vendor/{$name}/; nothing else runs it.
      put('composer.json', JSON.stringify({ name: 'acme/search', type: 'wordpress-plugin', 'require-dev': { 'wpackagist-plugin/woocommerce': 'dev-trunk' }, extra: { 'installer-paths': { 'vendor/{$name}/': ['type:wordpress-plugin'] } } }, null, 2));
      put('acme-search.php', '<?php\n/**\n * Plugin Name: Acme Search\n */\n');
      put('vendor/woocommerce/woocommerce.php', '<?php\n/**\n * Plugin Name: WooCommerce\n * Version: 8.0.0\n */\n');
      const r = await scanWorkspace(root);
      const wc = find(r, 'plugin', 'woocommerce')!;
      assert.deepEqual(wc.locations.map((l) => `${l.file}:${l.line}`), ['composer.json:5']);
      assert.equal(wc.version, null, 'not the copy’s 8.0.0');
      assert.equal(wc.testOnly, true);
    });
    it('a require-dev package installed into the plugins folder (a dev site runs it) is still the site\'s', async () => {
      put('composer.json', JSON.stringify({ 'require-dev': { 'wpackagist-plugin/query-monitor': '^3.16' } }, null, 2));
      put('composer.lock', JSON.stringify({ packages: [], 'packages-dev': [{ name: 'wpackagist-plugin/query-monitor', version: '3.16.4', type: 'wordpress-plugin' }] }, null, 2));
      const r = await scanWorkspace(root);
      assert.equal(find(r, 'plugin', 'query-monitor')!.version, '3.16.4');
      assert.deepEqual(r.problems, []);
    });
    it('two places the site runs disagree: both versions, each with where it is used (scan, scan --json, hover)', async () => {
      // Production installs 9.0.0 with Composer (web/app/plugins); the wp-env development site runs 9.4.2.
      put('composer.json', JSON.stringify({
        require: { 'wpackagist-plugin/woocommerce': '9.0.0' },
        extra: { 'installer-paths': { 'web/app/plugins/{$name}/': ['type:wordpress-plugin'] } },
      }, null, 2));
      put('composer.lock', JSON.stringify({ packages: [{ name: 'wpackagist-plugin/woocommerce', version: '9.0.0', type: 'wordpress-plugin' }], 'packages-dev': [] }, null, 2));
      put('.wp-env.json', '{\n  "plugins": [\n    "https://downloads.wordpress.org/plugin/woocommerce.9.4.2.zip"\n  ]\n}\n');
      const r = await scanWorkspace(root);
      const wc = find(r, 'plugin', 'woocommerce')!;
      assert.equal(wc.version, '9.0.0');
      assert.deepEqual(wc.versions, [
        { version: '9.0.0', source: 'composer.lock', file: 'composer.lock', line: 4 },
        { version: '9.4.2', source: 'wp-env', file: '.wp-env.json', line: 3 },
      ]);

      const out: string[] = [];
      assert.equal(await runCli(['scan', root], { out: (t) => out.push(t), err: () => undefined, env: {}, cwd: root }), 0);
      const text = out.join('\n');
      assert.match(text, /= 9\.0\.0\s+installed by Composer \(composer\.lock\)\s+composer\.lock:4/);
      assert.match(text, /≠ 9\.4\.2\s+installed by wp-env \(\.wp-env\.json\)\s+\.wp-env\.json:3/);
      const json: string[] = [];
      await runCli(['scan', root, '--json'], { out: (t) => json.push(t), err: () => undefined, env: {}, cwd: root });
      const listed = (JSON.parse(json.join('')) as { components: { slug: string; versions?: unknown[] }[] }).components.find((c) => c.slug === 'woocommerce')!;
      assert.equal(listed.versions?.length, 2);

      const session = { hasApiUrl: true, hasKey: true, trusted: false, isIgnored: () => false, outcome: () => undefined, localResult: () => undefined, siteResult: () => undefined };
      const hover = componentHover(session as never, { kind: 'plugin', slug: 'woocommerce', name: null, version: wc.version, locations: [{ file: path.join(root, 'composer.lock'), line: 4, column: 22, length: 29, source: 'composer.lock' }], possibleFork: false, wordpressOrgUri: false, mustUse: false, outsideWorkspace: false, lookup: 'yes', folders: [root], versions: wc.versions });
      assert.match(hover.replace(/\\(.)/g, '$1'), /^_Versions differ: 9\.0\.0 installed by Composer \(composer\.lock\), composer\.lock:4 \(shown\); 9\.4\.2 installed by wp-env \(\.wp-env\.json\), \.wp-env\.json:3\._$/m);
    });
  });
});
