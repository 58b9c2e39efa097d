// What WordPress loads with the component: a child theme's parent beside it, a must-use plugin from mu-plugins
// (header or not, a loader and the sub-folders it requires). Detection only: nothing is installed or started.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { componentHash } from '../../../../src/core/measure/record/cache';
import { ComponentLoadingError, ComponentNotFoundError, ParentThemeMissingError, detectComponent, loadingLine } from '../../../../src/core/measure/component/component';
import { MeasureError, measure } from '../../../../src/core/measure/run/engine';
import { hashOfPath } from '../../../../src/core/session/localResults';

describe('measure: components as WordPress loads them', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-loading-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });
  const write = async (rel: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), text);
  };
  const child = (template: string) => write('themes/kid/style.css', `/*\nTheme Name: Kid\nTemplate: ${template}\nVersion: 0.1\n*/`);

  describe('a child theme', () => {
    it('records its parent found beside it (Template header), and the progress line names it', async () => {
      await child('big-parent');
      await write('themes/big-parent/style.css', '/*\nTheme Name: Big Parent\nVersion: 1.2\n*/');
      const c = await detectComponent(path.join(dir, 'themes', 'kid'));
      assert.deepEqual(c.parent, { slug: 'big-parent', name: 'Big Parent', version: '1.2', source: path.join(dir, 'themes', 'big-parent') });
      assert.equal(loadingLine(c), `measuring child theme Kid with its parent Big Parent 1.2 (from ${path.join(dir, 'themes', 'big-parent')})`);
    });

    it('a theme whose Template is its own folder is no child theme', async () => {
      await write('themes/solo/style.css', '/*\nTheme Name: Solo\nTemplate: solo\n*/');
      const c = await detectComponent(path.join(dir, 'themes', 'solo'));
      assert.equal(c.parent, null);
      assert.equal(loadingLine(c), undefined);
    });

    it('a missing parent is its own error, saying what to do', async () => {
      await child('twentytwentythree');
      await assert.rejects(detectComponent(path.join(dir, 'themes', 'kid')), (e: unknown) => {
        assert.ok(e instanceof ParentThemeMissingError && e instanceof ComponentNotFoundError);
        assert.match(e.message, /child theme "Kid" needs its parent theme "twentytwentythree" \(its Template: header\), which is not beside it in /);
        assert.ok(e.message.includes(path.join(dir, 'themes')), e.message);
        assert.match(e.message, /put the parent theme's folder there/);
        return true;
      });
    });

    it('a parent folder that is no theme, or a Template that is a path: the same error, nothing looked up outside', async () => {
      await child('empty-parent');
      await write('themes/empty-parent/readme.txt', 'no style.css');
      await assert.rejects(detectComponent(path.join(dir, 'themes', 'kid')), (e: unknown) => e instanceof ParentThemeMissingError && /no style\.css with a "Theme Name:" header/.test(e.message));
      await child('../outside');
      await write('outside/style.css', '/*\nTheme Name: Outside\n*/');
      await assert.rejects(detectComponent(path.join(dir, 'themes', 'kid')), (e: unknown) => e instanceof ParentThemeMissingError && /"\.\.\/outside".*not a folder name/.test(e.message));
    });

    it('measure(): a missing parent exits 2 before anything is installed (no WordPress, PHP or temp folder needed)', async () => {
      await child('twentytwentythree');
      const made: unknown[] = [];
      await assert.rejects(
        measure({ path: path.join(dir, 'themes', 'kid'), env: { PATH: '' }, cwd: dir, php: '/nonexistent/php', noCache: true, onResource: (r) => made.push(r) }),
        (e: unknown) => e instanceof MeasureError && e.exitCode === 2 && /needs its parent theme "twentytwentythree"/.test(e.message) && !/--wordpress|--php/.test(e.message),
      );
      assert.deepEqual(made, []);
    });

    it('--baseline-ref: a snapshot of the child alone takes its parent from beside the working tree\'s child, never from beside the snapshot', async () => {
      await child('big-parent');
      await write('themes/big-parent/style.css', '/*\nTheme Name: Big Parent\nVersion: 1.2\n*/');
      await write('snap/root/style.css', '/*\nTheme Name: Kid\nTemplate: big-parent\n*/');
      await write('snap/big-parent/style.css', '/*\nTheme Name: Decoy beside the snapshot\n*/');
      const current = await detectComponent(path.join(dir, 'themes', 'kid'));
      const ref = await detectComponent(path.join(dir, 'snap', 'root'), undefined, { like: current });
      assert.equal(ref.parent?.source, path.join(dir, 'themes', 'big-parent'));
      assert.equal(ref.parent?.name, 'Big Parent');
    });

    it('the editor\'s hash covers the parent: a change there makes the record stale', async () => {
      await child('big-parent');
      await write('themes/big-parent/style.css', '/*\nTheme Name: Big Parent\n*/');
      const h1 = await hashOfPath(path.join(dir, 'themes', 'kid'));
      await write('themes/big-parent/functions.php', '<?php // changed');
      const h2 = await hashOfPath(path.join(dir, 'themes', 'kid'));
      assert.ok(h1 && h2);
      assert.notEqual(h1, h2);
      // The parent gone: the editor says so, not "holds no plugin or theme any more".
      await fs.rm(path.join(dir, 'themes', 'big-parent'), { recursive: true });
      await assert.rejects(hashOfPath(path.join(dir, 'themes', 'kid')), ParentThemeMissingError);
    });
  });

  describe('a must-use plugin', () => {
    it('a .php file of a mu-plugins folder with a header: must-use, named by its header, slugged by its file', async () => {
      await write('mu-plugins/site-tweaks.php', '<?php\n/*\n * Plugin Name: Site Tweaks\n * Version: 2.1\n */');
      await write('mu-plugins/other.php', '<?php\n/* Plugin Name: Other */');
      const c = await detectComponent(path.join(dir, 'mu-plugins', 'site-tweaks.php'));
      assert.deepEqual(
        [c.kind, c.mustUse, c.slug, c.name, c.version, c.singleFile, c.source, c.mainFile, c.muFolders],
        ['plugin', true, 'site-tweaks', 'Site Tweaks', '2.1', true, path.join(dir, 'mu-plugins', 'site-tweaks.php'), 'site-tweaks.php', []],
      );
      assert.match(loadingLine(c) ?? '', /must-use plugin Site Tweaks \(site-tweaks\.php\) as WordPress loads it.*no activation/);
      // A loader with its folders says which.
      await write('mu-plugins/acme/acme.php', '<?php');
      await write('mu-plugins/load.php', "<?php\nrequire __DIR__ . '/acme/acme.php';");
      assert.match(loadingLine(await detectComponent(path.join(dir, 'mu-plugins', 'load.php'))) ?? '', /^measuring must-use plugin load\.php \(load\.php with acme\/\) as WordPress loads it/);
    });

    it('without a header: measured all the same, named by its file name as get_mu_plugins() names it', async () => {
      await write('mu-plugins/no-header.php', '<?php\nadd_filter("xmlrpc_enabled", "__return_false");');
      const c = await detectComponent(path.join(dir, 'mu-plugins', 'no-header.php'));
      assert.deepEqual([c.mustUse, c.slug, c.name, c.version], [true, 'no-header', 'no-header.php', null]);
    });

    it('a loader given as PATH takes the sub-folders its strings name (not the others, not a link out of mu-plugins)', async () => {
      await write(
        'mu-plugins/load.php',
        "<?php\nrequire __DIR__ . '/acme/acme.php';\nrequire_once WPMU_PLUGIN_DIR . \"/lib/boot.php\";\nload_plugin_textdomain('unrelated');\n// require __DIR__ . '/commented/x.php';\nrequire __DIR__ . '/escape/x.php';",
      );
      for (const f of ['acme/acme.php', 'lib/boot.php', 'unrelated/x.php', 'commented/x.php', 'not-named/x.php']) await write(`mu-plugins/${f}`, '<?php');
      await write('elsewhere/x.php', '<?php');
      await fs.symlink(path.join(dir, 'elsewhere'), path.join(dir, 'mu-plugins', 'escape'));
      const c = await detectComponent(path.join(dir, 'mu-plugins', 'load.php'));
      assert.deepEqual([c.mustUse, c.slug, c.name, c.muFolders], [true, 'load', 'load.php', ['acme', 'lib']]);
      // The cache key covers the folders' files.
      const h1 = await componentHash(c);
      await write('mu-plugins/acme/inc.php', '<?php // new');
      assert.notEqual(await componentHash(c), h1);
      const h2 = await componentHash(c);
      await write('mu-plugins/not-named/y.php', '<?php // not loaded');
      assert.equal(await componentHash(c), h2);
    });

    it('a sub-folder given as PATH (or a file in it): measured with the one top-level file that loads it', async () => {
      await write('mu-plugins/acme-loader.php', "<?php\n/* Plugin Name: Acme Loader */\nrequire __DIR__ . '/acme/acme.php';");
      await write('mu-plugins/plain.php', '<?php // loads nothing');
      await write('mu-plugins/acme/acme.php', '<?php\n/*\n * Plugin Name: Acme\n * Version: 3.4\n */');
      for (const p of [path.join(dir, 'mu-plugins', 'acme'), path.join(dir, 'mu-plugins', 'acme', 'acme.php')]) {
        const c = await detectComponent(p);
        assert.deepEqual(
          [c.kind, c.mustUse, c.slug, c.name, c.version, c.source, c.mainFile, c.muFolders, c.muScope],
          ['plugin', true, 'acme', 'Acme', '3.4', path.join(dir, 'mu-plugins', 'acme-loader.php'), 'acme-loader.php', ['acme'], 'acme'],
          p,
        );
      }
    });

    it('a sub-folder without exactly one loader: an error naming what to pass', async () => {
      await write('mu-plugins/acme/acme.php', '<?php\n/* Plugin Name: Acme */');
      await write('mu-plugins/plain.php', '<?php // loads nothing');
      await assert.rejects(detectComponent(path.join(dir, 'mu-plugins', 'acme')), (e: unknown) => {
        assert.ok(e instanceof ComponentLoadingError && e instanceof ComponentNotFoundError);
        assert.match(e.message, /WordPress never loads by itself, and no top-level \.php file there loads it.*pass the file that loads it \(its loader\)/);
        return true;
      });
      await write('mu-plugins/a-loader.php', "<?php\nrequire __DIR__ . '/acme/acme.php';");
      await write('mu-plugins/b-loader.php', "<?php\ninclude_once __DIR__ . '/acme/acme.php';");
      await assert.rejects(detectComponent(path.join(dir, 'mu-plugins', 'acme')), (e: unknown) => {
        assert.ok(e instanceof ComponentNotFoundError);
        assert.match(e.message, /loaded by 2 top-level files .*\(a-loader\.php, b-loader\.php\): pass the loader to measure, e\.g\. .*a-loader\.php/);
        return true;
      });
      await assert.rejects(measure({ path: path.join(dir, 'mu-plugins', 'acme'), env: { PATH: '' }, cwd: dir, noCache: true }), (e: unknown) => e instanceof MeasureError && e.exitCode === 2);
    });

    it('--baseline-ref: a snapshot of the mu-plugins folder (not named mu-plugins) is read as a must-use plugin with the same scope', async () => {
      await write('mu-plugins/acme-loader.php', "<?php\nrequire __DIR__ . '/acme/acme.php';");
      await write('mu-plugins/acme/acme.php', '<?php\n/* Plugin Name: Acme */');
      await write('snap/acme-loader.php', "<?php\nrequire __DIR__ . '/acme/acme.php';");
      await write('snap/acme/acme.php', '<?php // the REF version, no header');
      const current = await detectComponent(path.join(dir, 'mu-plugins', 'acme'));
      const ref = await detectComponent(path.join(dir, 'snap', 'acme-loader.php'), undefined, { like: current });
      assert.deepEqual([ref.mustUse, ref.source, ref.muFolders, ref.muScope], [true, path.join(dir, 'snap', 'acme-loader.php'), ['acme'], 'acme']);
    });

    it('an ordinary single-file plugin elsewhere is no must-use plugin', async () => {
      await write('plugins/hello.php', '<?php\n/* Plugin Name: Hello */');
      await write('plugins/other.php', '<?php\n/* Plugin Name: Other */');
      const c = await detectComponent(path.join(dir, 'plugins', 'hello.php'));
      assert.equal(c.mustUse, undefined);
    });
  });
});
