// Detection rules from real WordPress codebases (issue: "every plugin and theme a site runs, from every place
// it is declared"). Fixtures are ours, modelled on what public repositories do: Bedrock sites with premium
// packages, agency monorepos, WordPress VIP repositories, plugin and theme repositories, Playground blueprints.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DetectedComponent, ScanResult } from '../../../src/core/model';
import { analyzeComposer, parseBlueprint, parseDeclarationDocument, scanWorkspace, selfSlug, wpEnvSource } from '../../../src/core/scan';

let root: string;
function put(rel: string, content: string | Buffer = ''): void {
  const f = path.join(root, rel);
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, content);
}
const json = (v: unknown) => JSON.stringify(v, null, 4);
const pluginPhp = (name: string, extra = '') => `<?php\n/**\n * Plugin Name: ${name}\n${extra} */\n`;
const keys = (r: { components: DetectedComponent[] }) => r.components.map((c) => `${c.kind}:${c.slug}`);
const find = (r: ScanResult, kind: string, slug: string) => r.components.find((c) => c.kind === kind && c.slug === slug);
/** The text a location points at. */
const at = (file: string, l: { line: number; column: number; length: number }) =>
  fs.readFileSync(path.join(root, file), 'utf8').split('\n')[l.line - 1].substr(l.column - 1, l.length);

// Some tests move `root` into a sub-folder: the temp folder itself is what is removed.
let tmpRoot: string;
beforeEach(() => (root = tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'wpbench-real-'))));
afterEach(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));

describe('scan: Composer packages of any vendor', () => {
  // A Bedrock site with premium plugins from private repositories, agency packages and Packagist mirrors.
  const composerJson = {
    name: 'acme/site',
    type: 'project',
    repositories: [{ type: 'composer', url: 'https://wpackagist.org' }, { type: 'composer', url: 'https://composer.gravity.io' }],
    require: {
      php: '>=8.1',
      'roots/wordpress': '^6.6',
      'wpackagist-plugin/akismet': '^5.3',
      'gravityforms/gravityforms': '^2.8',
      'wp-media/wp-rocket': '^3.16',
      'humanmade/s3-uploads': '^3.0',
      'johnbillion/query-monitor': '^3.16',
      'yoast/duplicate-post': '^4.5',
      'wordpress-plugin/bbpress': '^2.6',
      'alleyinteractive/wordpress-fieldmanager': '^1.6',
      'acme/site-core': '*',
      'acme/private-theme': '*',
      'symfony/polyfill-php80': '^1.30',
    },
    'require-dev': { 'wpackagist-plugin/debug-bar': '*' },
    extra: {
      'installer-paths': {
        'web/app/plugins/fieldmanager/': ['alleyinteractive/wordpress-fieldmanager'],
        'web/app/mu-plugins/{$name}/': ['type:wordpress-muplugin'],
        'web/app/plugins/{$name}/': ['type:wordpress-plugin'],
        'web/app/themes/{$name}/': ['type:wordpress-theme', 'acme/private-theme'],
      },
      'wordpress-install-dir': 'web/wp',
    },
  };
  const pkg = (name: string, version: string, type: string, extra?: object) => ({ name, version, type, dist: { type: 'zip', url: `https://example.invalid/${name}.zip` }, ...(extra ? { extra } : {}) });
  const composerLock = {
    packages: [
      pkg('roots/wordpress-no-content', '6.6.2', 'wordpress-core'),
      pkg('wpackagist-plugin/akismet', '5.3.3', 'wordpress-plugin'),
      pkg('gravityforms/gravityforms', '2.8.17', 'wordpress-plugin'),
      pkg('wp-media/wp-rocket', '3.16.4', 'wordpress-plugin'),
      pkg('humanmade/s3-uploads', '3.0.7', 'wordpress-muplugin'),
      pkg('johnbillion/query-monitor', '3.16.4', 'wordpress-plugin'),
      pkg('yoast/duplicate-post', '4.5', 'wordpress-plugin'),
      pkg('wordpress-plugin/bbpress', '2.6.11', 'wordpress-plugin'),
      pkg('alleyinteractive/wordpress-fieldmanager', '1.6.0', 'wordpress-plugin'),
      pkg('acme/site-core', 'dev-main', 'wordpress-muplugin', { 'installer-name': 'acme-core' }),
      pkg('acme/private-theme', '2.0.0', 'wordpress-theme'),
      pkg('symfony/polyfill-php80', 'v1.30.0', 'library'),
      pkg('composer/installers', 'v2.3.0', 'composer-plugin'),
    ],
    'packages-dev': [pkg('wpackagist-plugin/debug-bar', '1.1.6', 'wordpress-plugin')],
  };

  it('lists every package of a WordPress type, slugged by the folder it installs into, at its line in each file', async () => {
    put('composer.json', json(composerJson));
    put('composer.lock', json(composerLock));
    // Core's own content, installed by Composer into extra.wordpress-install-dir: not the site's.
    put('web/wp/wp-content/plugins/akismet/akismet.php', pluginPhp('Akismet Anti-spam'));
    put('web/wp/wp-content/plugins/hello.php', pluginPhp('Hello Dolly'));
    put('web/wp/wp-content/themes/twentytwentyfour/style.css', '/*\nTheme Name: Twenty Twenty-Four\n*/');
    put('web/app/mu-plugins/bedrock-autoloader.php', pluginPhp('Bedrock Autoloader'));
    const r = await scanWorkspace(root);
    assert.deepEqual(keys(r), [
      'plugin:acme-core', 'plugin:akismet', 'plugin:bbpress', 'plugin:bedrock-autoloader', 'plugin:debug-bar', 'plugin:duplicate-post',
      'plugin:fieldmanager', 'plugin:gravityforms', 'plugin:query-monitor', 'plugin:s3-uploads', 'plugin:wp-rocket', 'theme:private-theme',
    ]);
    assert.deepEqual(r.problems, []);
    const gf = find(r, 'plugin', 'gravityforms')!;
    assert.equal(gf.version, '2.8.17');
    assert.deepEqual(gf.locations.map((l) => [l.file, l.source, at(l.file, l)]), [
      ['composer.json', 'composer.json', 'gravityforms/gravityforms'],
      ['composer.lock', 'composer.lock', 'gravityforms/gravityforms'],
    ]);
    // installer-paths: an explicit package name wins over type: when written first; installer-name renames.
    assert.equal(find(r, 'plugin', 'fieldmanager')!.version, '1.6.0');
    assert.equal(find(r, 'plugin', 'acme-core')!.version, 'dev-main');
    // Declared by Composer: looked up, whatever the vendor (query-monitor is the wordpress.org item)…
    assert.equal(find(r, 'plugin', 'query-monitor')!.lookup, 'yes');
    // …but a must-use package from elsewhere is the site's (or agency's) own code.
    assert.equal(find(r, 'plugin', 's3-uploads')!.lookup, 'not-from-wordpress-org');
    assert.equal(find(r, 'plugin', 'acme-core')!.lookup, 'not-from-wordpress-org');
    // The mu-plugin loader on disk is the site's own code: listed, never looked up.
    assert.equal(find(r, 'plugin', 'bedrock-autoloader')!.lookup, 'not-from-wordpress-org');
  });

  it('without a lock, only prefixes and names given in installer-paths tell the type', () => {
    const r = analyzeComposer({ text: json(composerJson), file: 'composer.json' }, null);
    assert.deepEqual(keys(r), ['plugin:akismet', 'theme:private-theme', 'plugin:debug-bar']);
    assert.equal(r.coreDir, 'web/wp');
  });

  it('core packages put their content in wordpress/ by default; a path leaving the repository is a problem', async () => {
    put('composer.json', json({ require: { 'johnpbloch/wordpress': '*', 'acme/outside': '*' }, extra: { 'installer-paths': { '../shared/{$name}/': ['acme/outside'] } } }));
    put('composer.lock', json({ packages: [{ name: 'acme/outside', version: '1.0.0', type: 'wordpress-plugin' }] }));
    put('wordpress/wp-content/plugins/akismet/akismet.php', pluginPhp('Akismet'));
    const r = await scanWorkspace(root);
    assert.deepEqual(keys(r), []);
    assert.ok(r.problems.some((p) => p.file === 'composer.lock' && /outside the repository/.test(p.message)), JSON.stringify(r.problems));
  });

  it('a `..` that stays inside the repository is followed: only a path that climbs above the root is refused', () => {
    const starter = json({ require: { 'wpackagist-plugin/safe-svg': '^2' }, extra: { 'installer-paths': { '../../plugins/{$name}': ['type:wordpress-plugin'] } } });
    const inside = analyzeComposer({ text: starter, file: 'wp-content/themes/starter/composer.json' }, null);
    assert.deepEqual([keys(inside), inside.problems], [['plugin:safe-svg'], []]);
    // From the theme's own folder: `../starter/plugins/x` comes back into the theme (never loaded), `../../plugins` leaves it.
    const back = json({ require: { 'wpackagist-plugin/back-in': '*', 'wpackagist-plugin/out': '*' }, extra: { 'installer-paths': { '../starter/plugins/{$name}': ['wpackagist-plugin/back-in'], '../../plugins/{$name}': ['wpackagist-plugin/out'] } } });
    assert.deepEqual(keys(analyzeComposer({ text: back, file: 'wp-content/themes/starter/composer.json' }, null, undefined, { ownFolder: true })), ['plugin:out']);
    const above = analyzeComposer({ text: starter, file: 'site/composer.json' }, null);
    assert.deepEqual(keys(above), []);
    assert.match(above.problems[0]?.message ?? '', /would install outside the repository \("\.\.\/\.\.\/plugins\/safe-svg"\)/);
  });

  it("an installed theme's own composer.json: the packages it installs out of its folder are the site's, the rest are not", async () => {
    put('wp-content/themes/starter/style.css', '/*\nTheme Name: Starter\n*/');
    put(
      'wp-content/themes/starter/composer.json',
      json({
        require: { 'wpackagist-plugin/safe-svg': '^2', 'wpackagist-plugin/wordfence': '^8', 'roots/acorn': '^4' },
        'require-dev': { 'wpackagist-plugin/query-monitor': '^3' },
        extra: { 'installer-paths': { '../../plugins/{$name}': ['wpackagist-plugin/safe-svg', 'wpackagist-plugin/wordfence'] } },
      }),
    );
    put('wp-content/plugins/safe-svg/safe-svg.php', pluginPhp('Safe SVG'));
    const r = await scanWorkspace(root);
    // query-monitor would land in wp-content/themes/starter/wp-content/plugins/: WordPress never loads it.
    assert.deepEqual(keys(r).sort(), ['plugin:safe-svg', 'plugin:wordfence', 'theme:starter']);
    const svg = find(r, 'plugin', 'safe-svg')!;
    assert.deepEqual(svg.locations.map((l) => `${l.file}:${l.source}`).sort(), ['wp-content/plugins/safe-svg/safe-svg.php:plugin-header', 'wp-content/themes/starter/composer.json:composer.json']);
    assert.equal(find(r, 'plugin', 'wordfence')!.locations[0].file, 'wp-content/themes/starter/composer.json');
    assert.deepEqual(r.problems, []);
    // The editor parses that file as the scan did while it is edited (the session passes ownFolder for these).
    assert.deepEqual(r.ownComposerFiles, ['wp-content/themes/starter/composer.json']);
    const file = path.join(root, 'wp-content/themes/starter/composer.json');
    const live = await parseDeclarationDocument(file, fs.readFileSync(file, 'utf8'), 'wp-content/themes/starter/composer.json', { ownFolder: true });
    assert.deepEqual(keys(live!).sort(), ['plugin:safe-svg', 'plugin:wordfence']);
    const whole = await parseDeclarationDocument(file, fs.readFileSync(file, 'utf8'), 'wp-content/themes/starter/composer.json');
    assert.deepEqual(keys(whole!).sort(), ['plugin:query-monitor', 'plugin:safe-svg', 'plugin:wordfence'], 'a site composer.json counts every package');
  });

  it("a theme's composer.json is never read through a link out of the workspace (the file, or the theme folder)", async function () {
    if (process.platform === 'win32') this.skip();
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-outside-'));
    try {
      const declares = json({ require: { 'wpackagist-plugin/secret-plugin': '*' }, extra: { 'installer-paths': { '../../plugins/{$name}': ['type:wordpress-plugin'] } } });
      fs.writeFileSync(path.join(outside, 'composer.json'), declares);
      fs.mkdirSync(path.join(outside, 'client-theme'));
      fs.writeFileSync(path.join(outside, 'client-theme', 'style.css'), '/*\nTheme Name: Client\n*/');
      fs.writeFileSync(path.join(outside, 'client-theme', 'composer.json'), declares);
      put('wp-content/themes/inside/style.css', '/*\nTheme Name: Inside\n*/');
      fs.symlinkSync(path.join(outside, 'composer.json'), path.join(root, 'wp-content/themes/inside/composer.json'));
      fs.symlinkSync(path.join(outside, 'client-theme'), path.join(root, 'wp-content/themes/client-theme'));
      const r = await scanWorkspace(root);
      assert.equal(find(r, 'plugin', 'secret-plugin'), undefined, 'nothing declared outside the workspace is listed');
      assert.deepEqual(r.problems.filter((p) => /symbolic link to a file outside the workspace/.test(p.message)).map((p) => p.file), ['wp-content/themes/inside/composer.json']);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('a 150,000-entry composer.json neither overflows the stack nor costs the folder its other components', async function () {
    this.timeout(30000);
    const require: Record<string, string> = {};
    for (let i = 0; i < 150_000; i++) require[`wpackagist-plugin/p${i}`] = '*';
    put('composer.json', JSON.stringify({ require }));
    put('wp-content/plugins/kept/kept.php', pluginPhp('Kept'));
    const r = await scanWorkspace(root);
    assert.equal(r.components.length, 150_001);
    assert.ok(find(r, 'plugin', 'kept'));
  });
});

describe('scan: any folder name, as WordPress lists it', () => {
  it('lists Divi, LayerSlider, "theme with spaces" and "block_theme-[1.0.0]", never looked up', async () => {
    put('wp-content/themes/Divi/style.css', '/*\nTheme Name: Divi\nVersion: 4.27.0\n*/');
    put('wp-content/themes/theme with spaces/style.css', '/*\nTheme Name: Theme with Spaces\n*/');
    put('wp-content/themes/block_theme-[1.0.0]/style.css', '/*\nTheme Name: Block Theme [1.0.0]\n*/');
    put('wp-content/themes/block_theme-[1.0.0]/templates/index.html', '');
    put('wp-content/themes/divi-child/style.css', '/*\nTheme Name: Divi Child\nTemplate: Divi\n*/');
    put('wp-content/plugins/LayerSlider/layerslider.php', pluginPhp('LayerSlider WP', ' * Version: 7.11.0\n'));
    put('wp-content/plugins/akismet/akismet.php', pluginPhp('Akismet'));
    put('wp-content/themes/no-style/index.php', '<?php');
    const r = await scanWorkspace(root);
    assert.deepEqual(keys(r), ['plugin:LayerSlider', 'plugin:akismet', 'theme:Divi', 'theme:block_theme-[1.0.0]', 'theme:divi-child', 'theme:theme with spaces']);
    for (const k of ['plugin:LayerSlider', 'theme:Divi', 'theme:block_theme-[1.0.0]', 'theme:theme with spaces']) {
      assert.equal(r.components.find((c) => `${c.kind}:${c.slug}` === k)!.lookup, 'not-a-wordpress-org-slug', k);
    }
    assert.equal(find(r, 'plugin', 'LayerSlider')!.version, '7.11.0');
    assert.equal(find(r, 'theme', 'block_theme-[1.0.0]')!.blockTheme, true);
    // The child's Template line is one more place of the installed parent.
    assert.equal(find(r, 'theme', 'divi-child')!.parent, 'Divi');
    assert.deepEqual(find(r, 'theme', 'Divi')!.locations.map((l) => [l.file, l.source]), [
      ['wp-content/themes/Divi/style.css', 'theme-header'],
      ['wp-content/themes/divi-child/style.css', 'theme-parent'],
    ]);
    // A theme folder without style.css is said, not skipped silently.
    assert.deepEqual(r.problems.map((p) => [p.file, p.severity]), [['wp-content/themes/no-style', undefined]], 'a warning: it leaves a theme uncounted');
  });
});

describe('scan: the plugin or theme under development', () => {
  it('a plugin repository is a component, slugged by its wordpress.org URI, then Text Domain, then folder', async () => {
    root = path.join(root, 'Co-Authors-Plus');
    put('co-authors-plus.php', pluginPhp('Co-Authors Plus', ' * Plugin URI: https://wordpress.org/plugins/co-authors-plus/\n * Version: 3.6.1\n * Text Domain: co-authors-plus\n'));
    put('php/class-coauthors-guest-authors.php', pluginPhp('Not a plugin: too deep'));
    put('vendor/woocommerce/action-scheduler/action-scheduler.php', pluginPhp('Action Scheduler'));
    const r = await scanWorkspace(root);
    assert.deepEqual(keys(r), ['plugin:co-authors-plus']);
    const c = r.components[0];
    assert.equal(c.version, '3.6.1');
    assert.deepEqual(c.locations, [{ file: 'co-authors-plus.php', line: 3, column: 17, length: 15, source: 'plugin-header' }]);
    assert.equal(c.lookup, 'yes');
  });

  it('selfSlug: URI, then Text Domain, then the lower-cased folder name, else the folder name as it is', () => {
    assert.equal(selfSlug('plugin', 'ElasticPress', { uri: 'https://www.elasticpress.io', textDomain: 'elasticpress' }), 'elasticpress');
    assert.equal(selfSlug('plugin', 'x', { updateUri: 'https://wordpress.org/plugins/woocommerce/', textDomain: 'other' }), 'woocommerce');
    assert.equal(selfSlug('theme', 'Twentig', { uri: 'https://wordpress.org/themes/twentig' }), 'twentig');
    assert.equal(selfSlug('plugin', 'ElasticPress', {}), 'elasticpress');
    assert.equal(selfSlug('plugin', 'My_Plugin', { textDomain: 'My Plugin' }), 'My_Plugin');
  });

  it('a theme repository is a component, and its parent is one too (not in this repository)', async () => {
    root = path.join(root, 'acme-child');
    put('style.css', '/*\nTheme Name: Acme Child\nTemplate: twentytwentyfive\nText Domain: acme-child\nVersion: 2.1.0\n*/');
    put('functions.php', '<?php // child theme');
    const r = await scanWorkspace(root);
    assert.deepEqual(keys(r), ['theme:acme-child', 'theme:twentytwentyfive']);
    assert.equal(find(r, 'theme', 'acme-child')!.parent, 'twentytwentyfive');
    assert.deepEqual(find(r, 'theme', 'twentytwentyfive')!.locations, [{ file: 'style.css', line: 3, column: 11, length: 16, source: 'theme-parent' }]);
  });
});

describe('scan: .wp-env.json anywhere, blueprints, content roots', () => {
  it('"." in a folder named with capitals takes the slug from the headers', async () => {
    root = path.join(root, 'ElasticPress');
    put('elasticpress.php', pluginPhp('ElasticPress', ' * Text Domain: elasticpress\n * Version: 5.1.3\n'));
    put('.wp-env.json', json({ plugins: ['.', 'https://downloads.wordpress.org/plugin/woocommerce.9.3.3.zip', 'https://github.com/WP-API/Basic-Auth/archive/master.zip'] }));
    const r = await scanWorkspace(root);
    // wp-env unpacks a GitHub archive into a folder named after the repository: WordPress's slug is "Basic-Auth".
    assert.deepEqual(keys(r), ['plugin:Basic-Auth', 'plugin:elasticpress', 'plugin:woocommerce']);
    assert.equal(find(r, 'plugin', 'Basic-Auth')!.lookup, 'not-a-wordpress-org-slug');
    assert.deepEqual(find(r, 'plugin', 'elasticpress')!.locations.map((l) => l.source), ['.wp-env.json', 'elasticpress.php'].map((f) => (f === '.wp-env.json' ? 'wp-env' : 'plugin-header')));
    assert.equal(find(r, 'plugin', 'woocommerce')!.version, '9.3.3');
  });

  it('source strings: zip versions kept, GitHub archives give the repository, theme groups give the theme', () => {
    assert.deepEqual(wpEnvSource('https://downloads.wordpress.org/theme/twentytwentyone.1.7.zip'), { slug: 'twentytwentyone', version: '1.7' });
    assert.deepEqual(wpEnvSource('https://github.com/WP-API/Basic-Auth/archive/master.zip'), { slug: 'Basic-Auth', version: null });
    assert.deepEqual(wpEnvSource('https://codeload.github.com/WordPress/gutenberg/zip/refs/heads/trunk'), { slug: 'gutenberg', version: null });
    assert.deepEqual(wpEnvSource('https://example.com/dl/my-plugin.2.0.1.zip'), { slug: 'my-plugin', version: '2.0.1' });
  });

  it('a monorepo: plugins/ of packages is walked, each package .wp-env.json read; not inside installed plugins', async () => {
    put('plugins/woocommerce/woocommerce.php', pluginPhp('WooCommerce', ' * Text Domain: woocommerce\n'));
    put('plugins/woocommerce/.wp-env.json', json({
      plugins: ['.', 'https://downloads.wordpress.org/plugin/akismet.zip', 'WordPress/gutenberg'],
      themes: ['https://downloads.wordpress.org/theme/twentynineteen.zip'],
      mappings: { 'wp-content/themes/gutenberg-test-themes/twentytwentyone': 'https://downloads.wordpress.org/theme/twentytwentyone.1.7.zip' },
    }));
    put('packages/js/components/package.json', '{}');
    put('site/wp-content/plugins/installed/installed.php', pluginPhp('Installed'));
    put('site/wp-content/plugins/installed/.wp-env.json', json({ plugins: ['https://downloads.wordpress.org/plugin/not-the-sites.zip'] }));
    const r = await scanWorkspace(root);
    assert.deepEqual(keys(r), ['plugin:akismet', 'plugin:gutenberg', 'plugin:installed', 'plugin:woocommerce', 'theme:twentynineteen', 'theme:twentytwentyone']);
    assert.equal(find(r, 'theme', 'twentytwentyone')!.version, '1.7', 'the zip a mapping installs names its version');
  });

  it('a WordPress VIP repository: the root is wp-content, client-mu-plugins loaded like mu-plugins', async () => {
    put('plugins/jetpack/jetpack.php', pluginPhp('Jetpack'));
    put('themes/acme/style.css', '/*\nTheme Name: Acme\n*/');
    put('client-mu-plugins/plugin-loader.php', pluginPhp('Plugin Loader'));
    put('client-mu-plugins/.hidden.php', '<?php // dot-named: get_mu_plugins() lists it');
    put('vip-config/vip-config.php', '<?php');
    const r = await scanWorkspace(root);
    assert.deepEqual(keys(r), ['plugin:.hidden', 'plugin:jetpack', 'plugin:plugin-loader', 'theme:acme']);
    assert.equal(find(r, 'plugin', '.hidden')!.lookup, 'not-a-wordpress-org-slug');
    assert.equal(find(r, 'plugin', 'plugin-loader')!.lookup, 'not-from-wordpress-org');
  });

  it('mu-plugins are looked up only on wordpress.org evidence', async () => {
    put('wp-content/mu-plugins/loader.php', pluginPhp('Loader'));
    put('wp-content/mu-plugins/wp-crontrol.php', pluginPhp('WP Crontrol', ' * Plugin URI: https://wordpress.org/plugins/wp-crontrol/\n'));
    put('wp-content/mu-plugins/query-monitor.php', pluginPhp('QM loader'));
    put('.wp-env.json', json({
      plugins: ['https://downloads.wordpress.org/plugin/query-monitor.zip'],
      // As wordpress.org's own sites do: a local file mapped into mu-plugins is the site's code.
      mappings: { 'wp-content/mu-plugins/0-sandbox.php': './env/0-sandbox.php', 'wp-content/mu-plugins/user-switching': 'https://downloads.wordpress.org/plugin/user-switching.zip' },
    }));
    const r = await scanWorkspace(root);
    assert.deepEqual(r.components.map((c) => [c.slug, c.lookup]), [
      ['0-sandbox', 'not-from-wordpress-org'], ['loader', 'not-from-wordpress-org'], ['query-monitor', 'yes'], ['user-switching', 'yes'], ['wp-crontrol', 'yes'],
    ]);
  });

  it('a header-less file mapped into mu-plugins is named by its file name there, as get_mu_plugins() lists it', async () => {
    put('env/0-sandbox.php', '<?php\nadd_filter( "x", "__return_true" );\n');
    put('.wp-env.json', json({ mappings: { 'wp-content/mu-plugins/sandbox.php': './env/0-sandbox.php' } }));
    const r = await scanWorkspace(root);
    assert.deepEqual(r.components.map((c) => [c.slug, c.name, c.mustUse]), [['sandbox', 'sandbox.php', true]]);
  });

  it('blueprints: the plugins shorthand and install steps naming wordpress.org items, at their line', async () => {
    put('.wordpress-org/blueprints/blueprint.json', json({
      landingPage: '/wp-admin/',
      plugins: ['classic-editor', 'https://example.com/custom.zip'],
      steps: [
        { step: 'installPlugin', pluginData: { resource: 'wordpress.org/plugins', slug: 'gutenberg' } },
        { step: 'installTheme', themeZipFile: { resource: 'wordpress.org/themes', slug: 'twentytwentyfour' } },
        { step: 'installPlugin', pluginData: { resource: 'url', url: 'https://example.com/p.zip' } },
        // Code the blueprint writes itself (a demo mu-plugin, a bundled theme): said, never looked up.
        { step: 'writeFile', path: '/wordpress/wp-content/mu-plugins/0-demo.php', data: '<?php // demo' },
        { step: 'writeFiles', writeToPath: '/wordpress/wp-content/themes/stylish-press', filesTree: { resource: 'literal:directory', name: 'x', files: {} } },
        { step: 'writeFile', path: '/wordpress/wp-content/themes/stylish-press/style.css', data: '/* Theme Name: Stylish */' },
        { step: 'writeFile', path: '/wordpress/wp-config-extra.php', data: '' },
        // Into a plugin this blueprint installs from wordpress.org: part of that item, no note.
        { step: 'writeFile', path: '/wordpress/wp-content/plugins/gutenberg/extra.php', data: '' },
        { step: 'writeFiles', writeToPath: '/wordpress/wp-content/plugins/', filesTree: { resource: 'literal:directory', name: 'x', files: {} } },
      ],
    }));
    const r = await scanWorkspace(root);
    assert.deepEqual(keys(r), ['plugin:classic-editor', 'plugin:gutenberg', 'theme:twentytwentyfour']);
    const file = '.wordpress-org/blueprints/blueprint.json';
    for (const c of r.components) assert.deepEqual([c.locations[0].source, at(file, c.locations[0])], ['blueprint', c.slug]);
    // What is not a wordpress.org item is said, never counted.
    assert.equal(r.problems.length, 5, JSON.stringify(r.problems));
    assert.ok(r.problems.every((p) => p.file === file));
    const written = r.problems.filter((p) => /Blueprint writes/.test(p.message)).map((p) => [p.message, p.severity]);
    assert.deepEqual(written, [
      ['Blueprint writes a must-use plugin ("0-demo.php") from its own files: not a wordpress.org item; WP Bench cannot look it up', 'info'],
      ['Blueprint writes a theme ("stylish-press") from its own files: not a wordpress.org item; WP Bench cannot look it up', 'info'],
      ['Blueprint writes plugins from its own files: not wordpress.org items; WP Bench cannot look them up', 'info'],
    ]);
    assert.deepEqual(parseBlueprint('{"steps": [', 'b.json').problems.length, 1);
  });
});

describe('scan: files that are not regular files', () => {
  it('a FIFO named composer.json, .wp-env.json or a plugin file is reported, never opened, and the scan ends', async function () {
    if (process.platform === 'win32') this.skip();
    put('wp-content/plugins/ok/ok.php', pluginPhp('OK'));
    fs.mkdirSync(path.join(root, 'wp-content/plugins/fifo'), { recursive: true });
    for (const f of ['composer.json', '.wp-env.json', 'wp-content/plugins/fifo/fifo.php']) {
      assert.equal(spawnSync('mkfifo', [path.join(root, f)]).status, 0);
    }
    fs.symlinkSync(path.join(root, 'composer.json'), path.join(root, 'wp-content', 'composer.lock'));
    const r = await scanWorkspace(root);
    assert.deepEqual(keys(r), ['plugin:ok']);
    const messages = r.problems.map((p) => `${p.file}: ${p.message}`);
    assert.ok(messages.some((m) => /^composer\.json: composer\.json is a FIFO/.test(m)), messages.join('\n'));
    assert.ok(messages.some((m) => /^\.wp-env\.json: .*FIFO/.test(m)), messages.join('\n'));
    assert.ok(messages.some((m) => /^wp-content\/plugins\/fifo\/fifo\.php: .*FIFO/.test(m)), messages.join('\n'));
  });

  it('an edited composer.json takes package types from the composer.lock beside it', async () => {
    put('composer.lock', json({ packages: [{ name: 'gravityforms/gravityforms', version: '2.8.17', type: 'wordpress-plugin' }] }));
    const text = json({ require: { 'gravityforms/gravityforms': '^2.8', 'wpackagist-plugin/akismet': '*' } });
    const r = await parseDeclarationDocument(path.join(root, 'composer.json'), text, 'composer.json');
    assert.deepEqual(keys(r!), ['plugin:gravityforms', 'plugin:akismet']);
  });
});
