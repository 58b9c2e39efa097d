import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { componentHash } from '../../../../src/core/measure/record/cache';
import { ComponentNotFoundError, detectComponent } from '../../../../src/core/measure/component/component';
import { coreCandidates, isCore, phpVersionOk, scrubbedEnv } from '../../../../src/core/measure/machine/environment';

describe('measure: what PATH is', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-detect-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });
  const write = async (rel: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), text);
  };

  it('a plugin folder: its top-level PHP file with a Plugin Name header is the main file', async () => {
    await write('my-plugin/includes.php', '<?php // no header');
    await write('my-plugin/my-plugin.php', '<?php\n/*\n * Plugin Name: My Plugin\n * Version: 2.0\n */');
    const c = await detectComponent(path.join(dir, 'my-plugin'));
    assert.deepEqual([c.kind, c.slug, c.name, c.version, c.mainFile, c.singleFile], ['plugin', 'my-plugin', 'My Plugin', '2.0', 'my-plugin.php', false]);
  });

  it('a plugin\'s main PHP file: the folder is measured', async () => {
    await write('acf-pro/acf.php', '<?php\n/* Plugin Name: ACF */');
    await write('acf-pro/inc.php', '<?php');
    const c = await detectComponent(path.join(dir, 'acf-pro', 'acf.php'));
    assert.equal(c.source, path.join(dir, 'acf-pro'));
    assert.equal(c.slug, 'acf-pro');
    assert.equal(c.singleFile, false);
    assert.equal(c.mainFile, 'acf.php');
  });

  it('a single-file plugin among others (wp-content/plugins/hello.php): only that file', async () => {
    await write('plugins/hello.php', '<?php\n/* Plugin Name: Hello */');
    await write('plugins/other.php', '<?php\n/* Plugin Name: Other */');
    const c = await detectComponent(path.join(dir, 'plugins', 'hello.php'));
    assert.equal(c.singleFile, true);
    assert.equal(c.source, path.join(dir, 'plugins', 'hello.php'));
    assert.equal(c.slug, 'hello-dolly', 'WordPress.org names hello.php hello-dolly');
  });

  it('a theme folder: style.css with Theme Name (and Template for a child theme, its parent beside it)', async () => {
    await write('child/style.css', '/*\nTheme Name: Child\nTemplate: parent\nVersion: 1\n*/');
    await write('parent/style.css', '/*\nTheme Name: Parent\n*/');
    const c = await detectComponent(path.join(dir, 'child'));
    assert.deepEqual([c.kind, c.slug, c.name, c.template, c.parent?.slug], ['theme', 'child', 'Child', 'parent', 'parent']);
  });

  it('no header, a missing path or a non-PHP file: a ComponentNotFoundError saying what was looked for', async () => {
    await write('empty/readme.txt', 'hi');
    await write('plain.php', '<?php echo 1;');
    await write('notes.txt', 'Plugin Name: nope');
    for (const p of ['empty', 'missing', 'plain.php', 'notes.txt']) {
      await assert.rejects(detectComponent(path.join(dir, p)), (e: unknown) => e instanceof ComponentNotFoundError && /looked for|does not exist|header|not a PHP file/.test(e.message), p);
    }
  });

  it('warns when composer.json requires run-time packages but there is no vendor/ (a source checkout)', async () => {
    await write('qm/qm.php', '<?php\n/* Plugin Name: QM */');
    await write('qm/composer.json', JSON.stringify({ require: { php: '>=7.4', 'ext-json': '*', 'composer/installers': '^2', 'acme/forms': '^2.0' } }));
    const w = (await detectComponent(path.join(dir, 'qm'))).warnings?.[0] ?? '';
    assert.match(w, /composer\.json requires acme\/forms but there is no vendor\//);
    await fs.mkdir(path.join(dir, 'qm', 'vendor'));
    assert.equal((await detectComponent(path.join(dir, 'qm'))).warnings, undefined);
  });

  it('no warning when composer.json holds only dev tools (require-dev) or the platform; an unreadable one still warns', async () => {
    await write('th/th.php', '<?php\n/* Plugin Name: TH */');
    await write('th/composer.json', JSON.stringify({ require: { php: '>=8.0' }, 'require-dev': { 'phpunit/phpunit': '^9', 'wp-coding-standards/wpcs': '^3' } }));
    assert.equal((await detectComponent(path.join(dir, 'th'))).warnings, undefined);
    // A classmap of its own (as Query Monitor has) needs vendor/autoload.php even with nothing to install.
    await write('th/composer.json', JSON.stringify({ require: { php: '>=7.4', 'composer/installers': '^2' }, autoload: { classmap: ['classes'] } }));
    assert.match((await detectComponent(path.join(dir, 'th'))).warnings?.[0] ?? '', /requires its own autoloader \(classmap\) but there is no vendor\//);
    await write('th/composer.json', '{ not json');
    assert.match((await detectComponent(path.join(dir, 'th'))).warnings?.[0] ?? '', /composer\.json \(not readable as JSON\) but there is no vendor\//);
  });

  it('the cache hash changes with any file, not with .git or node_modules', async () => {
    await write('p/p.php', '<?php\n/* Plugin Name: P */');
    const c = await detectComponent(path.join(dir, 'p'));
    const h1 = await componentHash(c);
    await write('p/.git/HEAD', 'ref');
    await write('p/node_modules/x.js', '1');
    assert.equal(await componentHash(c), h1);
    await write('p/inc/a.php', '<?php');
    assert.notEqual(await componentHash(c), h1);
  });
});

describe('measure: the machine', () => {
  it('a core copy in the workspace comes first (Bedrock web/wp), Debian\'s last', async () => {
    const ws = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-ws-'));
    try {
      const wp = path.join(ws, 'web', 'wp');
      await fs.mkdir(path.join(wp, 'wp-includes'), { recursive: true });
      await fs.mkdir(path.join(wp, 'wp-admin', 'includes'), { recursive: true });
      for (const f of ['wp-includes/version.php', 'wp-settings.php', 'wp-admin/includes/upgrade.php']) await fs.writeFile(path.join(wp, f), '<?php');
      const found = coreCandidates(ws).find(isCore);
      assert.equal(found, wp);
      assert.equal(coreCandidates(ws).at(-1), '/usr/share/wordpress');
    } finally {
      await fs.rm(ws, { recursive: true, force: true });
    }
  });
  it('a plugin of a site measured from elsewhere runs on that site\'s own WordPress (the site\'s root, or Bedrock\'s web/wp)', async () => {
    const top = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-near-'));
    try {
      const core = async (dir: string) => {
        await fs.mkdir(path.join(dir, 'wp-includes'), { recursive: true });
        await fs.mkdir(path.join(dir, 'wp-admin', 'includes'), { recursive: true });
        for (const f of ['wp-includes/version.php', 'wp-settings.php', 'wp-admin/includes/upgrade.php']) await fs.writeFile(path.join(dir, f), '<?php');
      };
      await core(path.join(top, 'site'));
      await core(path.join(top, 'bedrock', 'web', 'wp'));
      const elsewhere = path.join(top, 'elsewhere');
      await fs.mkdir(elsewhere);
      assert.equal(coreCandidates(elsewhere, path.join(top, 'site', 'wp-content', 'plugins', 'filebird')).find(isCore), path.join(top, 'site'));
      assert.equal(coreCandidates(elsewhere, path.join(top, 'bedrock', 'web', 'app', 'plugins', 'acme')).find(isCore), path.join(top, 'bedrock', 'web', 'wp'));
      // The workspace's own core still comes first.
      await core(path.join(elsewhere, 'wp'));
      assert.equal(coreCandidates(elsewhere, path.join(top, 'site', 'wp-content', 'plugins', 'filebird')).find(isCore), path.join(elsewhere, 'wp'));
    } finally {
      await fs.rm(top, { recursive: true, force: true });
    }
  });
  it('PHP 7.4 or newer', () => {
    assert.deepEqual(['7.3.33', '7.4.0', '8.0.1', '8.2.36', '5.6.40'].map(phpVersionOk), [false, true, true, true, false]);
  });
  it('PHP gets no variable of the caller but PATH: no API key, no token', () => {
    const env = scrubbedEnv({ PATH: '/usr/bin', WPBENCH_API_KEY: 'k', GITHUB_TOKEN: 't', AWS_SECRET_ACCESS_KEY: 's', HOME: '/root' }, '/tmp/x');
    assert.deepEqual(Object.keys(env).sort(), ['HOME', 'LANG', 'LC_ALL', 'PATH', 'TMPDIR', 'TZ']);
    assert.equal(env.HOME, '/tmp/x');
  });
});
