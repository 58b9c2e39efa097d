// mergeComponents and principalLocation (src/core/scan/merge.ts).
import * as assert from 'node:assert/strict';
import type { DetectedComponent, LocationSource } from '../../../src/core/model';
import { mergeComponents, principalLocation } from '../../../src/core/scan';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { scanWorkspace } from '../../../src/core/scan';
import { removeTmpDirs, tmpDir } from '../helpers/cliRun';

describe('scan: mergeComponents', () => {
  const loc = (file: string, line: number, source: DetectedComponent['locations'][0]['source']) => ({ file, line, column: 1, length: 1, source });
  it('merges kind+slug, lock version beats header version, header name wins, locations sorted', () => {
    const merged = mergeComponents([
      { kind: 'plugin', slug: 'b', name: null, version: null, locations: [loc('composer.json', 5, 'composer.json')] },
      { kind: 'plugin', slug: 'b', name: 'B Plugin', version: '1.0', locations: [loc('wp-content/plugins/b/b.php', 3, 'plugin-header')], possibleFork: true },
      { kind: 'plugin', slug: 'b', name: null, version: '1.2.0', locations: [loc('composer.lock', 9, 'composer.lock')] },
      { kind: 'theme', slug: 'a', name: null, version: null, locations: [loc('x/style.css', 2, 'theme-header')], parentOf: ['z'] },
      { kind: 'plugin', slug: 'a', name: null, version: null, locations: [loc('composer.json', 4, 'composer.json'), loc('composer.json', 4, 'composer.json')] },
      { kind: 'theme', slug: 'a', name: 'A', version: '3', locations: [loc('a/style.css', 2, 'theme-header')], parentOf: ['y'], blockTheme: true },
    ]);
    assert.deepEqual(merged.map((c) => `${c.kind}:${c.slug}`), ['plugin:a', 'plugin:b', 'theme:a']);
    assert.equal(merged[0].locations.length, 1);
    assert.equal(merged[1].version, '1.2.0');
    assert.equal(merged[1].name, 'B Plugin');
    assert.equal(merged[1].possibleFork, true);
    assert.deepEqual(merged[1].locations.map((l) => l.file), ['composer.json', 'composer.lock', 'wp-content/plugins/b/b.php']);
    assert.deepEqual(merged[2].parentOf, ['y', 'z']);
    assert.equal(merged[2].blockTheme, true);
    assert.equal(merged[2].name, 'A');
  });

  it('two copies of one theme with different versions: the first by file wins, whatever order they arrive in', () => {
    const copies: DetectedComponent[] = [
      { kind: 'theme', slug: 'twentytwentytwo', name: 'Twenty Twenty-Two', version: '1.7', locations: [loc('builds/wp-6.5/wp-content/themes/twentytwentytwo/style.css', 2, 'theme-header')] },
      { kind: 'theme', slug: 'twentytwentytwo', name: 'Twenty Twenty-Two (old)', version: '1.5', locations: [loc('builds/wp-6.3/wp-content/themes/twentytwentytwo/style.css', 2, 'theme-header')] },
      { kind: 'theme', slug: 'twentytwentytwo', name: 'Twenty Twenty-Two', version: '1.6', locations: [loc('builds/wp-6.4/wp-content/themes/twentytwentytwo/style.css', 2, 'theme-header')] },
    ];
    const orders = [[0, 1, 2], [2, 1, 0], [1, 2, 0], [2, 0, 1]];
    for (const order of orders) {
      const [m] = mergeComponents(order.map((i) => copies[i]));
      assert.deepEqual([m.version, m.name], ['1.5', 'Twenty Twenty-Two (old)'], order.join());
    }
  });
});

describe('scan: principalLocation (the place that stands for a component)', () => {
  const at = (file: string, source: LocationSource) => ({ file, line: 1, column: 1, length: 1, source });
  it("the component's own header first, then composer.json, composer.lock, .wp-env.json, VIP, a blueprint, a Template line", () => {
    // A plugin repository: its blueprint under .github sorts first by file, but the plugin file stands for it.
    assert.equal(principalLocation([at('.github/scripts/blueprint.json', 'blueprint'), at('gatherpress.php', 'plugin-header')])?.file, 'gatherpress.php');
    // An installed parent theme: its own style.css, not the child's Template line.
    assert.equal(principalLocation([at('themes/rey-child/style.css', 'theme-parent'), at('themes/rey/style.css', 'theme-header')])?.file, 'themes/rey/style.css');
    assert.equal(principalLocation([at('blueprint.json', 'blueprint'), at('composer.lock', 'composer.lock'), at('composer.json', 'composer.json')])?.file, 'composer.json');
    assert.equal(principalLocation([at('a/composer.json', 'composer.json'), at('b/composer.json', 'composer.json')])?.file, 'a/composer.json', 'within a source, the first');
    assert.equal(principalLocation([]), undefined);
  });
});

describe('scan: the outside-workspace note only for what stays flagged after the merge', () => {
  after(removeTmpDirs);
  const plugin = (name: string) => `<?php\n/*\nPlugin Name: ${name}\nVersion: 1.0\n*/\n`;
  it('a plugin linked from outside that composer.json also declares is looked up, and no note says otherwise', async () => {
    const base = await tmpDir('wpb-rv-merge-');
    const dir = path.join(base, 'repo');
    await fs.mkdir(path.join(base, 'shared', 'shared-plugin'), { recursive: true });
    await fs.writeFile(path.join(base, 'shared', 'shared-plugin', 'shared-plugin.php'), plugin('Shared'));
    await fs.mkdir(path.join(dir, 'wp-content', 'plugins'), { recursive: true });
    await fs.mkdir(path.join(dir, 'wp-content', 'themes'), { recursive: true });
    await fs.symlink('../../../shared/shared-plugin', path.join(dir, 'wp-content', 'plugins', 'shared-plugin'));
    await fs.writeFile(path.join(dir, 'composer.json'), JSON.stringify({ require: { 'wpackagist-plugin/shared-plugin': '^1.0' } }));
    const r = await scanWorkspace(dir);
    assert.equal(r.components.find((c) => c.slug === 'shared-plugin')?.lookup, 'yes');
    assert.deepEqual(r.problems.filter((p) => /not looked up unless you ask/.test(p.message)), []);
  });
});
