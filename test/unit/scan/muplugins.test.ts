// mu-plugins folders (src/core/scan/muplugins.ts): get_mu_plugins() and the loaders that load sub-folders. The
// loader and VIP cases modelled on real sites are in scan-declarations.test.ts (issue 21).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { scanWorkspace } from '../../../src/core/scan';
import { find, pluginPhp, put, slugs, tmp } from '../helpers/scanTree';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { removeTmpDirs, tmpDir } from '../helpers/cliRun';

describe('scan: mu-plugins folders (muplugins.ts)', () => {
  let root: string;
  beforeEach(() => (root = tmp()));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('every top-level *.php, `.`-names included, header or not; an index.php of at most 30 bytes is skipped', async () => {
    put(root, 'wp-content/mu-plugins/headed.php', pluginPhp('Headed', ' * Version: 3\n'));
    put(root, 'wp-content/mu-plugins/bare.php', '<?php add_action("init", "f");');
    put(root, 'wp-content/mu-plugins/.dot.php', '<?php');
    put(root, 'wp-content/mu-plugins/index.php', '<?php // Silence is golden.');
    put(root, 'wp-content/mu-plugins/notes.txt', 'not php');
    const r = await scanWorkspace(root);
    assert.deepEqual(slugs(r, 'plugin'), ['.dot', 'bare', 'headed']);
    assert.ok(r.components.every((c) => c.mustUse === true));
    assert.deepEqual([find(r, 'plugin', 'bare')!.name, find(r, 'plugin', 'headed')!.version], ['bare.php', '3']);
  });

  it('a headed sub-folder no top-level file loads is a note, not a plugin; one a require names is a must-use plugin', async () => {
    put(root, 'wp-content/mu-plugins/alone/alone.php', pluginPhp('Alone'));
    const r1 = await scanWorkspace(root);
    assert.deepEqual(r1.components, []);
    assert.deepEqual(r1.problems.map((p) => [p.file, p.severity]), [['wp-content/mu-plugins/alone/alone.php', 'info']]);
    put(root, 'wp-content/mu-plugins/load.php', "<?php\nrequire __DIR__ . '/alone/alone.php';\n");
    const r2 = await scanWorkspace(root);
    assert.deepEqual(r2.components.map((c) => `${c.slug}:${c.mustUse}`), ['alone:true', 'load:true']);
    assert.deepEqual(r2.problems, []);
  });
});

describe('scan: mu-plugins inside and outside the workspace, installed by hand or by Composer', function () {
  this.timeout(30_000);
  after(removeTmpDirs);
  const plugin = (name: string) => `<?php\n/*\nPlugin Name: ${name}\nVersion: 1.0\n*/\n`;
  const LOADER = "<?php\nwpcom_vip_load_plugin( 'secret-client-plugin' );\n";

  describe('a VIP loader outside the workspace declares plugins that are never looked up unasked', () => {
    it('client-mu-plugins linked to a folder outside: its wpcom_vip_load_plugin() plugin is flagged outside-workspace', async () => {
      const base = await tmpDir('wpb-rv-vip-');
      const dir = path.join(base, 'repo');
      await fsp.mkdir(path.join(base, 'outside'), { recursive: true });
      await fsp.writeFile(path.join(base, 'outside', 'plugin-loader.php'), LOADER);
      await fsp.mkdir(path.join(dir, 'plugins', 'akismet'), { recursive: true });
      await fsp.writeFile(path.join(dir, 'plugins', 'akismet', 'akismet.php'), plugin('Akismet'));
      await fsp.mkdir(path.join(dir, 'themes'), { recursive: true });
      await fsp.symlink('../outside', path.join(dir, 'client-mu-plugins'));
      const r = await scanWorkspace(dir);
      const secret = r.components.find((c) => c.slug === 'secret-client-plugin');
      assert.ok(secret, JSON.stringify(r.components.map((c) => c.slug)));
      assert.equal(secret.lookup, 'outside-workspace');
      assert.ok(r.problems.some((p) => /secret-client-plugin.*outside the workspace/.test(p.message)), JSON.stringify(r.problems));
      assert.equal(r.components.find((c) => c.slug === 'akismet')?.lookup, 'yes');
    });

    it('only client-mu-plugins/plugin-loader.php linked to a file outside: flagged as well; a loader inside is looked up', async () => {
      const base = await tmpDir('wpb-rv-vip2-');
      const dir = path.join(base, 'repo');
      await fsp.mkdir(path.join(base, 'outside'), { recursive: true });
      await fsp.writeFile(path.join(base, 'outside', 'loader.php'), LOADER);
      await fsp.mkdir(path.join(dir, 'client-mu-plugins'), { recursive: true });
      await fsp.mkdir(path.join(dir, 'plugins'), { recursive: true });
      await fsp.mkdir(path.join(dir, 'themes'), { recursive: true });
      await fsp.symlink('../../outside/loader.php', path.join(dir, 'client-mu-plugins', 'plugin-loader.php'));
      await fsp.writeFile(path.join(dir, 'client-mu-plugins', 'inside-loader.php'), "<?php\nwpcom_vip_load_plugin( 'liveblog' );\n");
      const r = await scanWorkspace(dir);
      const lookup = Object.fromEntries(r.components.map((c) => [c.slug, c.lookup]));
      assert.equal(lookup['secret-client-plugin'], 'outside-workspace', JSON.stringify(lookup));
      assert.equal(lookup['liveblog'], 'yes');
    });
  });

  describe('an mu-plugins sub-folder that Composer installs keeps its header, and no note says "not listed"', () => {
    it('a wordpress-muplugin package in web/app/mu-plugins/acme-tools/ (no autoloader): its name and version are listed', async () => {
      const dir = await tmpDir('wpb-rv-mu-');
      await fsp.writeFile(
        path.join(dir, 'composer.json'),
        JSON.stringify({ require: { 'acme/acme-tools': '^2.0' }, extra: { 'installer-paths': { 'web/app/mu-plugins/{$name}/': ['type:wordpress-muplugin'], 'web/app/plugins/{$name}/': ['type:wordpress-plugin'] } } }),
      );
      await fsp.writeFile(path.join(dir, 'composer.lock'), JSON.stringify({ packages: [{ name: 'acme/acme-tools', version: '2.1.0', type: 'wordpress-muplugin' }], 'packages-dev': [] }));
      await fsp.mkdir(path.join(dir, 'web', 'app', 'mu-plugins', 'acme-tools'), { recursive: true });
      await fsp.mkdir(path.join(dir, 'web', 'app', 'plugins'), { recursive: true });
      await fsp.mkdir(path.join(dir, 'web', 'app', 'themes'), { recursive: true });
      await fsp.writeFile(path.join(dir, 'web', 'app', 'mu-plugins', 'acme-tools', 'acme-tools.php'), '<?php\n/*\nPlugin Name: Acme Tools\nVersion: 2.1.0\n*/\n');
      const r = await scanWorkspace(dir);
      const acme = r.components.find((c) => c.slug === 'acme-tools');
      assert.ok(acme, JSON.stringify(r.components));
      assert.equal(acme.name, 'Acme Tools');
      assert.equal(acme.version, '2.1.0');
      assert.ok(acme.locations.some((l) => l.file === 'web/app/mu-plugins/acme-tools/acme-tools.php'), JSON.stringify(acme.locations));
      const notes = r.problems.filter((p) => p.file === 'web/app/mu-plugins/acme-tools/acme-tools.php');
      assert.equal(notes.length, 1, JSON.stringify(r.problems));
      assert.doesNotMatch(notes[0].message, /not listed/);
      assert.match(notes[0].message, /installed by Composer.*loader/);
    });
  });
});
