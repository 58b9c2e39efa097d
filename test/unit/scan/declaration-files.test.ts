// Declaration files found by the walk (src/core/scan/declarations.ts): .wp-env.json local sources, a malformed composer.json.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { scanWorkspace } from '../../../src/core/scan';
import { find, pluginPhp, put, tmp } from '../helpers/scanTree';

describe('scan: declaration files (declarations.ts)', () => {
  let root: string;
  beforeEach(() => (root = tmp()));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('.wp-env.json local sources: name and version from their headers; an Update URI elsewhere is not looked up; a path not there yet keeps the entry', async () => {
    put(root, 'packages/auto-sizes/auto-sizes.php', pluginPhp('Enhanced Responsive Images', ' * Version: 1.3.0\n * Text Domain: auto-sizes\n'));
    put(root, 'packages/private-tool/main.php', pluginPhp('Private Tool', ' * Update URI: https://example.com/private-tool\n'));
    put(root, 'tests/test-plugins/fake-log-messages.php', pluginPhp('Fake Log Messages', ' * Version: 1.0.0\n'));
    put(root, 'theme-src/acme-block/style.css', '/*\nTheme Name: Acme Block\nVersion: 2.1\n*/');
    put(root, '.wp-env.json', JSON.stringify({
      plugins: ['./packages/auto-sizes', './packages/private-tool', './build/not-built-yet'],
      themes: ['./theme-src/acme-block'],
      mappings: { 'wp-content/mu-plugins/fake-log-messages.php': './tests/test-plugins/fake-log-messages.php' },
    }, null, 2));
    const r = await scanWorkspace(root);
    const show = (slug: string, kind = 'plugin') => {
      const c = find(r, kind, slug)!;
      return [c.name, c.version, c.lookup];
    };
    assert.deepEqual(show('auto-sizes'), ['Enhanced Responsive Images', '1.3.0', 'yes']);
    assert.deepEqual(show('private-tool'), ['Private Tool', null, 'update-uri']);
    assert.deepEqual(show('fake-log-messages'), ['Fake Log Messages', '1.0.0', 'not-from-wordpress-org']);
    assert.deepEqual(show('acme-block', 'theme'), ['Acme Block', '2.1', 'yes']);
    assert.deepEqual(show('not-built-yet'), [null, null, 'yes']);
    assert.deepEqual(r.problems, [], 'a path not built yet is no problem: the entry stands as written');
  });

  it('reports malformed composer.json and keeps scanning', async () => {
    put(root, 'composer.json', '{\n  "require": {\n    "wpackagist-plugin/akismet": \n');
    put(root, 'wp-content/plugins/ok/ok.php', pluginPhp('OK'));
    const r = await scanWorkspace(root);
    assert.equal(r.problems.length, 1);
    assert.equal(r.problems[0].file, 'composer.json');
    assert.ok(find(r, 'plugin', 'ok'));
  });
});
