// The walk and its bounds (src/core/scan/walk.ts, bounds.ts): links followed once, loops, maxFiles, abort.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { scanWorkspace } from '../../../src/core/scan';
import { insideRealRoot } from '../../../src/core/scan/bounds';
import { find, pluginPhp, put, tmp } from '../helpers/scanTree';
import { promises as fsp } from 'node:fs';
import { cli, removeTmpDirs, tmpDir } from '../helpers/cliRun';
import { sampleBody } from '../helpers/samples';
import { json, startTestServer } from '../helpers/testServer';

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

describe('scan: symbolic links never lead the workspace walk out of the workspace', function () {
  this.timeout(30_000);
  after(removeTmpDirs);
  const plugin = (name: string) => `<?php\n/*\nPlugin Name: ${name}\nVersion: 1.0\n*/\n`;

  it('rootlink -> / is not walked: a handful of folders read, nothing from the rest of the disk', async () => {
    const dir = await tmpDir('wpb-h3-root-');
    await fsp.mkdir(path.join(dir, 'wp-content', 'plugins', 'akismet'), { recursive: true });
    await fsp.writeFile(path.join(dir, 'wp-content', 'plugins', 'akismet', 'akismet.php'), plugin('Akismet'));
    await fsp.symlink('/', path.join(dir, 'rootlink'));
    // The bound keeps the run short on the code before the fix, which walked on into the disk.
    const r = await scanWorkspace(dir, { maxFiles: 5000 });
    assert.ok(r.stats.dirsRead < 10, `${r.stats.dirsRead} folders read`);
    assert.deepEqual(r.components.map((c) => c.slug), ['akismet']);
    assert.ok(r.problems.every((p) => !p.file.startsWith('rootlink/')), JSON.stringify(r.problems.slice(0, 3)));
    assert.ok(r.problems.some((p) => p.file === 'rootlink' && /a folder outside the workspace; not walked/.test(p.message)));
  });

  it('vendor-link -> ../outside: the plugin outside is neither listed nor sent; a composer.json linked outside is not read', async () => {
    const base = await tmpDir('wpb-h3-out-');
    const dir = path.join(base, 'repo');
    const outside = path.join(base, 'outside');
    await fsp.mkdir(path.join(outside, 'wp-content', 'plugins', 'private-client-plugin'), { recursive: true });
    await fsp.writeFile(path.join(outside, 'wp-content', 'plugins', 'private-client-plugin', 'private-client-plugin.php'), plugin('Private'));
    await fsp.writeFile(path.join(outside, 'composer.json'), JSON.stringify({ require: { 'wpackagist-plugin/private-composer-plugin': '*' } }));
    await fsp.mkdir(path.join(dir, 'sub'), { recursive: true });
    await fsp.symlink('../outside', path.join(dir, 'vendor-link'));
    await fsp.symlink('../../outside/composer.json', path.join(dir, 'sub', 'composer.json'));
    const r = await scanWorkspace(dir);
    assert.deepEqual(r.components, []);
    assert.ok(r.problems.some((p) => p.file === 'sub/composer.json' && /a file outside the workspace; not read/.test(p.message)), JSON.stringify(r.problems));
  });

  it('a plugin or theme folder linked from outside is read as WordPress reads it, flagged, and never looked up unasked', async () => {
    const base = await tmpDir('wpb-h3-link-');
    const dir = path.join(base, 'repo');
    const shared = path.join(base, 'shared');
    await fsp.mkdir(path.join(shared, 'private-plugin'), { recursive: true });
    await fsp.writeFile(path.join(shared, 'private-plugin', 'private-plugin.php'), plugin('Private Plugin'));
    await fsp.mkdir(path.join(shared, 'private-theme'), { recursive: true });
    await fsp.writeFile(path.join(shared, 'private-theme', 'style.css'), '/*\nTheme Name: Private Theme\nTemplate: private-parent\n*/\n');
    await fsp.mkdir(path.join(dir, 'src', 'inside-plugin'), { recursive: true });
    await fsp.writeFile(path.join(dir, 'src', 'inside-plugin', 'inside-plugin.php'), plugin('Inside'));
    await fsp.mkdir(path.join(dir, 'wp-content', 'plugins'), { recursive: true });
    await fsp.mkdir(path.join(dir, 'wp-content', 'themes'), { recursive: true });
    await fsp.symlink('../../../shared/private-plugin', path.join(dir, 'wp-content', 'plugins', 'private-plugin'));
    await fsp.symlink('../../src/inside-plugin', path.join(dir, 'wp-content', 'plugins', 'inside-plugin'));
    await fsp.symlink('../../../shared/private-theme', path.join(dir, 'wp-content', 'themes', 'private-theme'));

    const r = await scanWorkspace(dir);
    const lookup = Object.fromEntries(r.components.map((c) => [`${c.kind}/${c.slug}`, c.lookup]));
    assert.deepEqual(lookup, {
      'plugin/inside-plugin': 'yes',
      'plugin/private-plugin': 'outside-workspace',
      'theme/private-parent': 'outside-workspace',
      'theme/private-theme': 'outside-workspace',
    });
    assert.equal(r.components.find((c) => c.slug === 'private-plugin')?.name, 'Private Plugin', 'read as WordPress reads it');
    assert.ok(r.problems.some((p) => p.file === 'wp-content/plugins/private-plugin/private-plugin.php' && /symbolic link to a folder outside the workspace/.test(p.message)));

    // check: only the plugin the workspace holds is sent; the others are reported as not looked up.
    const server = await startTestServer();
    try {
      server.handle((req, res) => json(res, 200, sampleBody({ slug: (req.url ?? '').split('/').pop() }), { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9', 'x-ratelimit-reset': '3600' }));
      const env = { WPBENCH_API_URL: server.url, WPBENCH_API_KEY: 'k', WPBENCH_CACHE_DIR: await tmpDir('wpb-h3-cache-') };
      const c = await cli(['check', '.', '--fail-on', 'none'], env, dir);
      assert.equal(c.code, 0, c.err);
      assert.deepEqual(server.requests.map((q) => q.path), ['/api/v1/plugins/inside-plugin']);
      assert.match(c.out, /not looked up \(outside the workspace\)/);
    } finally {
      await server.close();
    }
  });
});
