// The repository itself (src/core/scan/self.ts): a plugin or theme under development at the root, and `.` of a
// .wp-env.json (selfSlugsOf).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { scanWorkspace, selfSlugsOf } from '../../../src/core/scan';
import { pluginPhp, put, tmp } from '../helpers/scanTree';

describe('scan: the repository itself (self.ts)', () => {
  let root: string;
  beforeEach(() => (root = tmp()));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('a root with a headed top-level *.php is one plugin, slugged by its wordpress.org URI over the folder name', async () => {
    put(root, 'main.php', pluginPhp('My Plugin', ' * Plugin URI: https://wordpress.org/plugins/my-plugin/\n * Version: 1.0\n'));
    put(root, 'inc/other.php', pluginPhp('Not read: one level down'));
    const r = await scanWorkspace(root);
    assert.deepEqual(r.components.map((c) => `${c.kind}:${c.slug}:${c.version}:${c.locations.map((l) => l.file).join(',')}`), ['plugin:my-plugin:1.0:main.php']);
    assert.equal((await selfSlugsOf(root)).plugin, 'my-plugin');
  });

  it('a root with a headed style.css is one theme; its Template names the parent', async () => {
    put(root, 'style.css', '/*\nTheme Name: Kid\nText Domain: kid-theme\nTemplate: twentytwentyfive\n*/');
    const r = await scanWorkspace(root);
    assert.deepEqual(r.components.map((c) => `${c.kind}:${c.slug}:${c.parent ?? '-'}:${(c.parentOf ?? []).join(',') || '-'}`), ['theme:kid-theme:twentytwentyfive:-', 'theme:twentytwentyfive:-:kid-theme']);
  });
});

