// A repository that is a collection of themes or plugins (src/core/scan/collection.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { scanWorkspace } from '../../../src/core/scan';
import { find, pluginPhp, put, tmp } from '../helpers/scanTree';

describe('scan: collections (collection.ts)', () => {
  let root: string;
  beforeEach(() => (root = tmp()));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('a repository that is a collection of themes or plugins: each top-level folder with a headed style.css or <folder>.php', async () => {
    put(root, 'README.md', '# Themes: clone into wp-content/themes');
    put(root, 'atlas/style.css', '/*\nTheme Name: Atlas\nTemplate: twentytwentythree\nVersion: 1.0.2\n*/');
    put(root, 'poetry/style.css', '/*\nTheme Name: Poetry\n*/');
    put(root, 'poetry/templates/index.html', '<!-- wp:post-content /-->');
    put(root, 'trunk/style.css', '/*\nTheme Name: My Theme\nText Domain: my-theme\n*/');
    put(root, 'acme/acme.php', pluginPhp('Acme'));
    put(root, 'docs/style.css', 'body { color: red }');
    put(root, 'src/helpers.php', pluginPhp('Not a plugin folder: src/src.php is the only file read'));
    put(root, 'tests/fixture-theme/style.css', '/*\nTheme Name: Fixture\n*/');
    const r = await scanWorkspace(root);
    assert.deepEqual(r.components.map((c) => `${c.kind}:${c.slug}:${c.version ?? '-'}`), [
      'plugin:acme:-', 'theme:atlas:1.0.2', 'theme:my-theme:-', 'theme:poetry:-', 'theme:twentytwentythree:-',
    ]);
    assert.deepEqual(find(r, 'theme', 'twentytwentythree')!.parentOf, ['atlas']);
    assert.deepEqual(find(r, 'theme', 'atlas')!.locations.map((l) => `${l.file}:${l.line}:${l.source}`), ['atlas/style.css:2:theme-header']);
    assert.deepEqual(r.problems, []);
  });
});
