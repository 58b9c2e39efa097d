// The walk and its bounds (src/core/scan/walk.ts, bounds.ts): links followed once, loops, maxFiles, abort.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { scanWorkspace } from '../../../src/core/scan';
import { insideRealRoot } from '../../../src/core/scan/bounds';
import { find, pluginPhp, put, tmp } from '../helpers/scanTree';

describe('scan: the walk and its bounds (walk.ts, bounds.ts)', () => {
  let root: string;
  beforeEach(() => (root = tmp()));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('follows symlinks once and survives symlink loops', async () => {
    put(root, 'site/wp-content/plugins/real/real.php', pluginPhp('Real'));
    fs.symlinkSync(root, path.join(root, 'site', 'loop'));
    fs.symlinkSync(path.join(root, 'site'), path.join(root, 'site', 'wp-content', 'plugins', 'real', 'up'));
    fs.symlinkSync('missing-target', path.join(root, 'dangling'));
    fs.mkdirSync(path.join(root, 'a'));
    fs.symlinkSync(path.join(root, 'b'), path.join(root, 'a', 'to-b'));
    fs.mkdirSync(path.join(root, 'b'));
    fs.symlinkSync(path.join(root, 'a'), path.join(root, 'b', 'to-a'));
    const r = await scanWorkspace(root);
    assert.deepEqual(r.components.map((c) => c.slug), ['real']);
    assert.equal(r.components[0].locations.length, 1);
  });

  it('stops at maxFiles with a problem, and finishes a big tree quickly', async function () {
    this.timeout(60000);
    for (let i = 0; i < 200; i++) {
      const d = path.join(root, 'big', `d${i}`);
      fs.mkdirSync(d, { recursive: true });
      for (let j = 0; j < 100; j++) fs.writeFileSync(path.join(d, `f${j}.txt`), '');
    }
    put(root, 'wp-content/plugins/p/p.php', pluginPhp('P'));
    const small = await scanWorkspace(root, { maxFiles: 1000 });
    assert.ok(small.problems.some((p) => /maxFiles/.test(p.message)));
    assert.ok(small.stats.dirsRead < 50);
    const t = Date.now();
    const full = await scanWorkspace(root);
    assert.ok(Date.now() - t < 10000);
    assert.ok(find(full, 'plugin', 'p'));
    assert.deepEqual(full.problems, []);
    // root, big, big/d*, wp-content, wp-content/plugins (plugins/p is not listed: its headed p.php settles it)
    assert.equal(full.stats.dirsRead, 1 + 1 + 200 + 1 + 1);
  });

  it('can be aborted', async () => {
    put(root, 'wp-content/plugins/p/p.php', pluginPhp('P'));
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(scanWorkspace(root, { signal: ac.signal }));
  });
});

describe('scan: bounds by real path (bounds.ts)', () => {
  const ctx = (root: string) => ({ root, realRoot: root }) as Parameters<typeof insideRealRoot>[0];
  it('insideRealRoot: the root and what is under it; not a sibling that shares its prefix, nor its parent', () => {
    const c = ctx(path.resolve('/srv/site'));
    assert.equal(insideRealRoot(c, path.resolve('/srv/site')), true);
    assert.equal(insideRealRoot(c, path.resolve('/srv/site/wp-content/plugins')), true);
    assert.equal(insideRealRoot(c, path.resolve('/srv/site-other/x')), false);
    assert.equal(insideRealRoot(c, path.resolve('/srv')), false);
    assert.equal(insideRealRoot(c, path.resolve('/srv/site/..foo')), true);
  });
});

describe('scan: what the walk leaves out (walk.ts)', () => {
  let root: string;
  let outside: string;
  beforeEach(() => ((root = tmp()), (outside = tmp())));
  afterEach(() => [root, outside].forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it("bundled libraries and a core copy's own folders are not walked; a folder link to outside is a note, not walked", async () => {
    put(root, 'vendor/acme/lib/wp-content/plugins/v/v.php', pluginPhp('In vendor'));
    put(root, 'node_modules/x/wp-content/plugins/n/n.php', pluginPhp('In node_modules'));
    put(root, 'core/wp-admin/wp-content/plugins/a/a.php', pluginPhp('In wp-admin'));
    put(root, 'core/wp-includes/.keep');
    put(root, 'core/wp-content/plugins/site/site.php', pluginPhp('Site'));
    put(outside, 'wp-content/plugins/private/private.php', pluginPhp('Private'));
    fs.symlinkSync(outside, path.join(root, 'elsewhere'));
    const r = await scanWorkspace(root);
    assert.deepEqual(r.components.map((c) => c.slug), ['site']);
    assert.deepEqual(r.problems.map((p) => [p.file, p.severity]), [['elsewhere', 'info']]);
  });
});
