// What PATH is, shape by shape, as WordPress finds plugins (get_plugins(): the top-level PHP files of each folder of
// wp-content/plugins, and the PHP files directly in it): a folder plugin is its whole folder whatever its main file is
// called, given by the folder or by that file; a single-file plugin is a PHP file directly in plugins/ (or a lone file);
// a must-use plugin a file of mu-plugins/. And the --site inventory, which passes the scan's main file. Detection
// only: nothing is installed or started.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { detectComponent, requiredPlugins } from '../../../../src/core/measure/component/component';
import { componentHash } from '../../../../src/core/measure/record/cache';
import { installedAt } from '../../../../src/core/measure/siteRun/siteRun';
import { scanWorkspace } from '../../../../src/core/scan/workspace';

describe('measure: components found as WordPress finds them', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-shapes-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });
  const write = async (rel: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), text);
  };
  const header = (name: string, extra = '') => `<?php\n/**\n * Plugin Name: ${name}\n * Version: 1.0\n${extra} */\n`;
  const plugins = (...rel: string[]) => path.join(dir, 'wp-content', 'plugins', ...rel);
  /** [singleFile, source, slug, mainFile] of what PATH is */
  const shape = async (p: string) => {
    const c = await detectComponent(p);
    return [c.singleFile, c.source, c.slug, c.mainFile];
  };

  it('folder/folder.php: the folder, by folder and by main file', async () => {
    await write('wp-content/plugins/acme/acme.php', header('Acme'));
    await write('wp-content/plugins/acme/inc/a.php', '<?php');
    for (const p of [plugins('acme'), plugins('acme', 'acme.php')]) assert.deepEqual(await shape(p), [false, plugins('acme'), 'acme', 'acme.php'], p);
  });

  it('folder/index.php with its code in sub-folders (FacetWP): the folder, by folder and by main file', async () => {
    await write('wp-content/plugins/facet/index.php', `${header('Facet')}include __DIR__ . '/includes/class-init.php';\n`);
    await write('wp-content/plugins/facet/includes/class-init.php', '<?php class Facet_Init {}');
    await write('wp-content/plugins/facet/assets/js/front.js', '1');
    for (const p of [plugins('facet'), plugins('facet', 'index.php')]) assert.deepEqual(await shape(p), [false, plugins('facet'), 'facet', 'index.php'], p);
  });

  it('folder/index.php alone in its folder of plugins/: still the folder (plugins/facet/index.php is how WordPress names it)', async () => {
    await write('wp-content/plugins/facet/index.php', header('Facet'));
    assert.deepEqual(await shape(plugins('facet', 'index.php')), [false, plugins('facet'), 'facet', 'index.php']);
  });

  it('folder/other-name.php, and a folder with a second headed file (Transposh): the folder, with the file given as its main file', async () => {
    await write('wp-content/plugins/transposh-translation-filter-for-wordpress/transposh.php', header('Transposh'));
    await write('wp-content/plugins/transposh-translation-filter-for-wordpress/wp/widget.php', '<?php');
    const t = plugins('transposh-translation-filter-for-wordpress');
    assert.deepEqual(await shape(path.join(t, 'transposh.php')), [false, t, 'transposh-translation-filter-for-wordpress', 'transposh.php']);
    await write('wp-content/plugins/transposh-translation-filter-for-wordpress/transposh-admin.php', header('Transposh admin helper'));
    assert.deepEqual(await shape(path.join(t, 'transposh.php')), [false, t, 'transposh-translation-filter-for-wordpress', 'transposh.php']);
  });

  it('a folder with several headed files, given as the folder: <folder>.php is the main file, as the scan names it', async () => {
    await write('wp-content/plugins/acme/a-helper.php', header('Acme helper'));
    await write('wp-content/plugins/acme/acme.php', header('Acme'));
    const c = await detectComponent(plugins('acme'));
    assert.deepEqual([c.mainFile, c.name], ['acme.php', 'Acme']);
  });

  it('a single-file plugin: only a PHP file directly in plugins/, beside folders and other plugins', async () => {
    await write('wp-content/plugins/hello.php', header('Hello'));
    await write('wp-content/plugins/x.php', header('X'));
    await write('wp-content/plugins/acme/acme.php', header('Acme'));
    assert.deepEqual(await shape(plugins('x.php')), [true, plugins('x.php'), 'x', 'x.php']);
    assert.deepEqual(await shape(plugins('hello.php')), [true, plugins('hello.php'), 'hello-dolly', 'hello.php']);
  });

  it('a lone PHP file outside any plugins folder: a single-file plugin, as before', async () => {
    await write('downloads/snippet.php', header('Snippet'));
    assert.deepEqual(await shape(path.join(dir, 'downloads', 'snippet.php')), [true, path.join(dir, 'downloads', 'snippet.php'), 'snippet', 'snippet.php']);
  });

  it('a must-use plugin: the file of mu-plugins/, never its folder', async () => {
    await write('wp-content/mu-plugins/site-tweaks.php', header('Site tweaks'));
    await write('wp-content/mu-plugins/other.php', '<?php');
    const c = await detectComponent(path.join(dir, 'wp-content', 'mu-plugins', 'site-tweaks.php'));
    assert.deepEqual([c.mustUse, c.singleFile, c.source, c.slug], [true, true, path.join(dir, 'wp-content', 'mu-plugins', 'site-tweaks.php'), 'site-tweaks']);
  });

  it('the same files, the same hash, whether given by folder or by main file (the editor\'s stale marks, the cache)', async () => {
    await write('wp-content/plugins/facet/index.php', header('Facet'));
    await write('wp-content/plugins/facet/includes/a.php', '<?php');
    const byFile = await componentHash(await detectComponent(plugins('facet', 'index.php')));
    assert.equal(byFile, await componentHash(await detectComponent(plugins('facet'))));
    await write('wp-content/plugins/facet/includes/a.php', '<?php // changed');
    assert.notEqual(await componentHash(await detectComponent(plugins('facet', 'index.php'))), byFile, 'a change in a sub-folder changes the hash');
  });

  it('--baseline-ref: a snapshot is read like the working tree\'s copy (a folder plugin\'s main file; a single file among other files)', async () => {
    await write('wp-content/plugins/acme/acme.php', header('Acme'));
    await write('wp-content/plugins/acme/a-helper.php', header('Acme helper'));
    await write('snap-folder/acme.php', header('Acme'));
    await write('snap-folder/a-helper.php', header('Acme helper'));
    const folder = await detectComponent(plugins('acme', 'acme.php'));
    const ref = await detectComponent(path.join(dir, 'snap-folder'), undefined, { like: folder });
    assert.deepEqual([ref.singleFile, ref.mainFile], [false, 'acme.php']);
    // A single file's REF snapshot is its folder (plugins/ at REF, extracted into a folder of another name).
    await write('wp-content/plugins/x.php', header('X'));
    await write('snap-plugins/x.php', header('X'));
    await write('snap-plugins/other/other.php', header('Other'));
    const single = await detectComponent(plugins('x.php'));
    const refSingle = await detectComponent(path.join(dir, 'snap-plugins', 'x.php'), undefined, { like: single });
    assert.deepEqual([refSingle.singleFile, refSingle.source], [true, path.join(dir, 'snap-plugins', 'x.php')]);
  });

  it('--site: each installed plugin of the scan is detected whole (folder plugins whatever their main file, single files alone)', async () => {
    await write('wp-content/plugins/facet/index.php', header('Facet'));
    await write('wp-content/plugins/facet/includes/a.php', '<?php');
    await write('wp-content/plugins/transposh/transposh.php', header('Transposh'));
    await write('wp-content/plugins/transposh/transposh-admin.php', header('Transposh admin helper'));
    await write('wp-content/plugins/solo.php', header('Solo'));
    await write('wp-content/mu-plugins/tweaks.php', header('Tweaks'));
    await write('wp-content/themes/t/style.css', '/*\nTheme Name: T\n*/');
    const scan = await scanWorkspace(dir);
    const found: Record<string, [boolean, string]> = {};
    for (const d of scan.components) {
      const at = installedAt(dir, d);
      if (!at) continue;
      const c = await detectComponent(at);
      found[d.slug] = [c.singleFile, path.relative(dir, c.source)];
    }
    assert.deepEqual(found, {
      facet: [false, 'wp-content/plugins/facet'],
      transposh: [false, 'wp-content/plugins/transposh'],
      solo: [true, 'wp-content/plugins/solo.php'],
      tweaks: [true, 'wp-content/mu-plugins/tweaks.php'],
      t: [false, 'wp-content/themes/t'],
    });
  });

  it('Requires Plugins (WordPress 6.5+): the parents an add-on needs, as WordPress reads the header (wordpress.org slugs, sorted, once)', async () => {
    await write('wp-content/plugins/addon/addon.php', header('Add-on', ' * Requires Plugins: woocommerce, Not A Slug, advanced-custom-fields ,woocommerce\n'));
    await write('wp-content/plugins/plain/plain.php', header('Plain'));
    assert.deepEqual((await detectComponent(plugins('addon'))).requires, ['advanced-custom-fields', 'woocommerce']);
    assert.equal((await detectComponent(plugins('plain'))).requires, undefined);
    assert.deepEqual(requiredPlugins(' b ,a,, a , B/C '), ['a', 'b']);
  });
});
