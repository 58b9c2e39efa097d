// Themes folders (src/core/scan/themes.ts): search_theme_directories() and WP_Theme's header rules.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { scanWorkspace } from '../../../src/core/scan';
import { find, put, slugs, tmp } from '../helpers/scanTree';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { tmpDir } from '../helpers/cliRun';

describe('scan: themes folders (themes.ts)', () => {
  let root: string;
  beforeEach(() => (root = tmp()));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('a folder with style.css is a theme, a group holds themes one level down, never two', async () => {
    put(root, 'wp-content/themes/plain/style.css', '/*\nTheme Name: Plain\nVersion: 1.2\n*/');
    put(root, 'wp-content/themes/group/inner/style.css', '/*\nTheme Name: Inner\n*/');
    put(root, 'wp-content/themes/group2/a/b/style.css', '/*\nTheme Name: Too deep\n*/');
    put(root, 'wp-content/themes/CVS/style.css', '/*\nTheme Name: CVS\n*/');
    const r = await scanWorkspace(root);
    assert.deepEqual(slugs(r, 'theme'), ['inner', 'plain']);
    assert.equal(find(r, 'theme', 'plain')!.version, '1.2');
    assert.equal(find(r, 'theme', 'inner')!.locations[0].file, 'wp-content/themes/group/inner/style.css');
    // group2 has no style.css at any level WordPress looks at: a broken theme, said as a warning
    assert.deepEqual(r.problems.map((p) => [p.file, p.severity ?? 'warning']), [['wp-content/themes/group2', 'warning']]);
  });

  it('templates/index.html makes a block theme; a Template line names the parent, listed even when not installed', async () => {
    put(root, 'wp-content/themes/blocky/style.css', '/*\nTheme Name: Blocky\n*/');
    put(root, 'wp-content/themes/blocky/templates/index.html', '<!-- wp:post-content /-->');
    put(root, 'wp-content/themes/kid/style.css', '/*\nTheme Name: Kid\nTemplate: absent-parent\n*/');
    const r = await scanWorkspace(root);
    assert.equal(find(r, 'theme', 'blocky')!.blockTheme, true);
    assert.equal(find(r, 'theme', 'kid')!.parent, 'absent-parent');
    const parent = find(r, 'theme', 'absent-parent')!;
    assert.deepEqual([parent.name, parent.parentOf, parent.locations.map((l) => `${l.file}:${l.line}:${l.source}`)], [null, ['kid'], ['wp-content/themes/kid/style.css:3:theme-parent']]);
  });

  it('a theme naming itself as Template has no parent', async () => {
    put(root, 'wp-content/themes/self/style.css', '/*\nTheme Name: Self\nTemplate: self\n*/');
    const r = await scanWorkspace(root);
    assert.deepEqual(r.components.map((c) => `${c.slug}:${c.parent ?? '-'}`), ['self:-']);
  });

  const plugin = (name: string) => `<?php\n/*\nPlugin Name: ${name}\nVersion: 1.0\n*/\n`;
  it('the scan says a theme folder without style.css as a warning (it leaves a theme uncounted)', async () => {
    const dir = await tmpDir('wpb-rv-theme-');
    await fsp.mkdir(path.join(dir, 'wp-content', 'themes', 'empty'), { recursive: true });
    await fsp.mkdir(path.join(dir, 'wp-content', 'plugins', 'akismet'), { recursive: true });
    await fsp.writeFile(path.join(dir, 'wp-content', 'plugins', 'akismet', 'akismet.php'), plugin('Akismet'));
    const r = await scanWorkspace(dir);
    assert.deepEqual(r.problems.map((p) => [p.file, p.severity ?? 'warning']), [['wp-content/themes/empty', 'warning']]);
  });
});
