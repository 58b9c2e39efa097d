// mu-plugins folders (src/core/scan/muplugins.ts): get_mu_plugins() and the loaders that load sub-folders. The
// loader and VIP cases modelled on real sites are in scan-declarations.test.ts (issue 21).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { scanWorkspace } from '../../../src/core/scan';
import { find, pluginPhp, put, slugs, tmp } from '../helpers/scanTree';

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
