// Plugins folders (src/core/scan/plugins.ts): get_plugins() for one folder, and the `<folder>/<folder>.php` fast path.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { scanWorkspace } from '../../../src/core/scan';
import { find, pluginPhp, put, slugs, tmp } from '../helpers/scanTree';

describe('scan: plugins folders (plugins.ts)', () => {
  let root: string;
  beforeEach(() => (root = tmp()));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('top-level files and files one folder down, never deeper; headerless and `.`-named ones are not plugins', async () => {
    put(root, 'wp-content/plugins/single.php', pluginPhp('Single'));
    put(root, 'wp-content/plugins/readme.php', '<?php // no header');
    put(root, 'wp-content/plugins/.hidden.php', pluginPhp('Hidden'));
    put(root, 'wp-content/plugins/.dot/dot.php', pluginPhp('Dot'));
    put(root, 'wp-content/plugins/deep/inc/deep.php', pluginPhp('Too deep'));
    put(root, 'wp-content/plugins/other/main.php', pluginPhp('Other', ' * Version: 2.0\n'));
    const r = await scanWorkspace(root);
    assert.deepEqual(slugs(r, 'plugin'), ['other', 'single']);
    assert.deepEqual([find(r, 'plugin', 'other')!.name, find(r, 'plugin', 'other')!.version], ['Other', '2.0']);
    assert.deepEqual(find(r, 'plugin', 'other')!.locations.map((l) => `${l.file}:${l.line}:${l.source}`), ['wp-content/plugins/other/main.php:3:plugin-header']);
  });

  it('a headed <folder>.php settles the folder without listing it; with allPluginFiles every headed file is a location', async () => {
    put(root, 'wp-content/plugins/p/p.php', pluginPhp('P'));
    put(root, 'wp-content/plugins/p/extra.php', pluginPhp('P extra'));
    const fast = await scanWorkspace(root);
    // root, wp-content, wp-content/plugins: plugins/p is never listed
    assert.equal(fast.stats.dirsRead, 3);
    assert.deepEqual(find(fast, 'plugin', 'p')!.locations.map((l) => l.file), ['wp-content/plugins/p/p.php']);
    const all = await scanWorkspace(root, { allPluginFiles: true });
    assert.deepEqual(find(all, 'plugin', 'p')!.locations.map((l) => l.file), ['wp-content/plugins/p/extra.php', 'wp-content/plugins/p/p.php']);
    assert.equal(find(all, 'plugin', 'p')!.name, 'P');
  });

  it('a <folder>.php without a header: the folder is listed and the first headed file by name gives name and version', async () => {
    put(root, 'wp-content/plugins/q/q.php', '<?php // bootstrap only');
    put(root, 'wp-content/plugins/q/b.php', pluginPhp('Q b', ' * Version: 2\n'));
    put(root, 'wp-content/plugins/q/a.php', pluginPhp('Q a', ' * Version: 1\n'));
    const r = await scanWorkspace(root);
    const q = find(r, 'plugin', 'q')!;
    assert.deepEqual([q.name, q.version, q.locations.length], ['Q a', '1', 2]);
  });

  it('a plugin named "0" is not a plugin (PHP empty())', async () => {
    put(root, 'wp-content/plugins/zero/zero.php', '<?php\n/*\nPlugin Name: 0\n*/\n');
    const r = await scanWorkspace(root);
    assert.deepEqual(slugs(r, 'plugin'), []);
  });
});
