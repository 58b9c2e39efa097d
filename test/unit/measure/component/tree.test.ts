// The one walk over a component's files (src/core/measure/component/tree.ts) against hostile trees: link loops, links out of
// the component, FIFOs, links to devices, dangling links, caps and aborts. Copying, hashing, detection and the
// editor's hashing all go through it, so none of them may hang, loop or copy what lies outside the component.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { componentHash } from '../../../../src/core/measure/record/cache';
import { ComponentNotFoundError, detectComponent } from '../../../../src/core/measure/component/component';
import { buildSite, copyTree } from '../../../../src/core/measure/site/site';
import { MAX_TREE_BYTES, MAX_TREE_ENTRIES, TreeLimitError, isInside, skippedLine, skippedText, walkTree, type SkippedEntry } from '../../../../src/core/measure/component/tree';
import { hashOfPath } from '../../../../src/core/session/localResults';

const HEADER = '<?php\n/*\n * Plugin Name: Hostile\n * Version: 1.0\n */\n';
const posix = process.platform !== 'win32';

/** Every file under dir (relative, '/'-separated), with its contents; lstat only, never following a link. */
async function listing(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string, rel: string) => {
    for (const name of (await fs.readdir(d)).sort()) {
      const p = path.join(d, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = await fs.lstat(p);
      if (st.isDirectory()) await walk(p, r);
      else if (st.isFile()) out[r] = await fs.readFile(p, 'utf8');
      else out[r] = `<${st.isSymbolicLink() ? 'link' : 'special'}>`;
    }
  };
  await walk(dir, '');
  return out;
}

/** Rejects when p has not settled within ms (the test fails instead of hanging). */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout;
  return Promise.race([p, new Promise<T>((_, reject) => (t = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms))).finally(() => clearTimeout(t))]);
}

const whyOf = (skipped: SkippedEntry[]) => Object.fromEntries(skipped.map((s) => [s.rel, s.why]));

/** The hash as it was before the walk existed (readdir, sorted, every file), for a tree without links. */
async function oldHash(kind: string, source: string): Promise<string> {
  const SKIP = new Set(['.git', '.svn', '.hg', 'node_modules']);
  const h = createHash('sha256');
  h.update(`${kind}\0`);
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries = (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (SKIP.has(e.name)) continue;
      const abs = path.join(dir, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(abs, r);
      else if (e.isFile()) {
        const data = await fs.readFile(abs);
        h.update(r).update('\0').update(String(data.length)).update('\0').update(data);
      }
    }
  };
  await walk(source, '');
  return h.digest('hex');
}

(posix ? describe : describe.skip)('measure: the walk over a hostile component', function () {
  this.timeout(20_000);
  let dir: string;
  let comp: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-tree-'));
    comp = path.join(dir, 'hostile');
    await fs.mkdir(path.join(comp, 'inc'), { recursive: true });
    await fs.writeFile(path.join(comp, 'hostile.php'), HEADER);
    await fs.writeFile(path.join(comp, 'inc', 'a.php'), '<?php // a');
    await fs.writeFile(path.join(dir, 'secret.txt'), 'SECRET-KEY-MATERIAL');
    await fs.mkdir(path.join(dir, 'outside'));
    await fs.writeFile(path.join(dir, 'outside', 'id_rsa'), 'SECRET-KEY-MATERIAL');
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  /** Every kind of trouble at once. */
  async function makeHostile(): Promise<void> {
    await fs.symlink('.', path.join(comp, 'a')); // a loop to the component's own folder
    await fs.symlink('..', path.join(comp, 'b')); // out of it (its parent)
    await fs.symlink('..', path.join(comp, 'inc', 'back')); // a loop: inc/back is the component's folder again
    await fs.symlink('inc', path.join(comp, 'alias')); // inside: followed once
    execFileSync('mkfifo', [path.join(comp, 'fifo')]);
    await fs.symlink('fifo', path.join(comp, 'fifo-link'));
    await fs.symlink('/dev/zero', path.join(comp, 'zero'));
    await fs.symlink(path.join(dir, 'secret.txt'), path.join(comp, 'secret.php'));
    await fs.symlink('../outside', path.join(comp, 'ssh'));
    await fs.symlink('nowhere', path.join(comp, 'dangling'));
    await fs.symlink('self', path.join(comp, 'self'));
  }

  it('lists exactly the regular files to copy, and every other entry with its reason', async () => {
    await makeHostile();
    const tree = await within(walkTree(comp), 5000, 'the walk');
    assert.deepEqual(
      tree.files.map((f) => f.rel),
      ['alias/a.php', 'hostile.php', 'inc/a.php'],
    );
    assert.deepEqual(tree.dirs, ['alias', 'inc']);
    assert.deepEqual(whyOf(tree.skipped), {
      a: 'a link loop',
      'alias/back': 'a link loop',
      b: 'a link out of the component',
      dangling: 'a dangling link',
      fifo: 'a FIFO',
      'fifo-link': 'a link to a FIFO',
      'inc/back': 'a link loop',
      'secret.php': 'a link out of the component',
      self: 'a link loop',
      ssh: 'a link out of the component',
      zero: 'a link out of the component',
    });
    assert.equal(tree.skipped.find((s) => s.rel === 'a')?.link, '.');
    assert.equal(tree.root, await fs.realpath(comp));
  });

  it('copyTree copies the component without anything from outside it, and says what it left out', async () => {
    await makeHostile();
    const dst = path.join(dir, 'site', 'hostile');
    const skipped = await within(copyTree(comp, dst), 5000, 'the copy');
    assert.deepEqual(await listing(dst), { 'alias/a.php': '<?php // a', 'hostile.php': HEADER, 'inc/a.php': '<?php // a' });
    assert.equal(skipped.length, 11);
    const line = skippedLine('the component', skipped);
    assert.match(line, /^skipped 11 entries of the component: a -> \. \(a link loop\), alias\/back -> \.\. \(a link loop\), b -> \.\. \(a link out of the component\), dangling -> nowhere \(a dangling link\), fifo \(a FIFO\), and 6 more$/);
  });

  it('a link to a device inside a followed link out (followOutside, as for WordPress core) is still never opened', async () => {
    await fs.mkdir(path.join(dir, 'dev-holder'));
    await fs.symlink('/dev/zero', path.join(dir, 'dev-holder', 'zero'));
    await fs.symlink('../dev-holder', path.join(comp, 'holder'));
    await fs.symlink('../outside', path.join(comp, 'ssh'));
    const tree = await within(walkTree(comp, { followOutside: true }), 5000, 'the walk');
    assert.deepEqual(tree.files.map((f) => f.rel), ['hostile.php', 'inc/a.php', 'ssh/id_rsa']);
    assert.deepEqual(whyOf(tree.skipped), { 'holder/zero': 'a link to a device' });
  });

  it('componentHash ends, is stable, ignores what lies outside and changes with the component', async () => {
    await makeHostile();
    const c = { kind: 'plugin' as const, source: comp, singleFile: false };
    let skipped: SkippedEntry[] = [];
    const h1 = await within(componentHash(c, { onSkipped: (s) => (skipped = s) }), 5000, 'the hash');
    assert.equal(skipped.length, 11);
    assert.equal(await componentHash(c), h1, 'stable');
    await fs.writeFile(path.join(dir, 'secret.txt'), 'OTHER SECRET');
    await fs.writeFile(path.join(dir, 'outside', 'id_rsa'), 'OTHER SECRET');
    assert.equal(await componentHash(c), h1, 'what lies outside is not hashed');
    await fs.writeFile(path.join(comp, 'inc', 'a.php'), '<?php // changed');
    assert.notEqual(await componentHash(c), h1);
  });

  it('componentHash of a tree without links is the hash it always was (stored results stay fresh)', async () => {
    await fs.mkdir(path.join(comp, 'inc', 'deep', 'er'), { recursive: true });
    await fs.writeFile(path.join(comp, 'inc', 'deep', 'er', 'z.php'), 'z'.repeat(5 * 1024 * 1024)); // read in chunks
    await fs.writeFile(path.join(comp, 'B.php'), '<?php');
    await fs.writeFile(path.join(comp, 'empty.txt'), '');
    await fs.mkdir(path.join(comp, 'node_modules', 'x'), { recursive: true });
    await fs.writeFile(path.join(comp, 'node_modules', 'x', 'i.js'), '1');
    for (let i = 0; i < 30; i++) await fs.writeFile(path.join(comp, 'inc', `f${i}.php`), `<?php // ${i}`);
    const c = { kind: 'plugin' as const, source: comp, singleFile: false };
    assert.equal(await componentHash(c), await oldHash('plugin', comp));
    assert.equal(await componentHash(c, { concurrency: 1 }), await oldHash('plugin', comp));
  });

  it('a link inside the component is hashed as its target\'s contents (as it is copied)', async () => {
    const c = { kind: 'plugin' as const, source: comp, singleFile: false };
    await fs.mkdir(path.join(dir, 'plain', 'alias'), { recursive: true });
    await fs.mkdir(path.join(dir, 'plain', 'inc'), { recursive: true });
    await fs.writeFile(path.join(dir, 'plain', 'hostile.php'), HEADER);
    for (const d of ['alias', 'inc']) await fs.writeFile(path.join(dir, 'plain', d, 'a.php'), '<?php // a');
    await fs.symlink('inc', path.join(comp, 'alias'));
    assert.equal(await componentHash(c), await componentHash({ ...c, source: path.join(dir, 'plain') }));
  });

  it('detection never opens a FIFO or a device, and never takes a main file from outside the folder', async () => {
    // A FIFO and a link to /dev/zero named like PHP files, sorting before the real main file.
    execFileSync('mkfifo', [path.join(comp, 'aaa.php')]);
    await fs.symlink('/dev/zero', path.join(comp, 'aab.php'));
    await fs.writeFile(path.join(dir, 'other.php'), '<?php\n/* Plugin Name: Outside */');
    await fs.symlink(path.join(dir, 'other.php'), path.join(comp, 'aac.php'));
    const c = await within(detectComponent(comp), 5000, 'detection');
    assert.equal(c.mainFile, 'hostile.php');
    assert.equal(c.name, 'Hostile');

    // A theme whose style.css is a FIFO, and a PATH that is a FIFO: no component, at once.
    const theme = path.join(dir, 'theme');
    await fs.mkdir(theme);
    execFileSync('mkfifo', [path.join(theme, 'style.css')]);
    await assert.rejects(within(detectComponent(theme), 5000, 'detection'), ComponentNotFoundError);
    await assert.rejects(within(detectComponent(path.join(comp, 'aaa.php')), 5000, 'detection'), ComponentNotFoundError);
    await assert.rejects(within(detectComponent(path.join(comp, 'aab.php')), 5000, 'detection'), ComponentNotFoundError);
  });

  it('a single-file plugin that is a FIFO or a device is never hashed or copied', async () => {
    execFileSync('mkfifo', [path.join(dir, 'fifo.php')]);
    await assert.rejects(within(componentHash({ kind: 'plugin', source: path.join(dir, 'fifo.php'), singleFile: true }), 5000, 'the hash'), /not a regular file/);
    await assert.rejects(within(componentHash({ kind: 'plugin', source: '/dev/zero', singleFile: true }), 5000, 'the hash'), /not a regular file/);
  });

  it('caps: more entries or bytes than allowed rejects with TreeLimitError naming the cap and the folder', async () => {
    for (let i = 0; i < 10; i++) await fs.writeFile(path.join(comp, `f${i}.php`), 'x'.repeat(100));
    await assert.rejects(walkTree(comp, { maxEntries: 5 }), (e: unknown) => {
      assert.ok(e instanceof TreeLimitError);
      assert.equal(e.limit, 'entries');
      assert.match(e.message, new RegExp(`^${comp.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} holds more than 5 files and folders`));
      return true;
    });
    await assert.rejects(copyTree(comp, path.join(dir, 'copy'), { maxBytes: 500 }), (e: unknown) => e instanceof TreeLimitError && e.limit === 'bytes' && e.message.startsWith(`${comp} holds more than 500 bytes of files`));
    await assert.rejects(componentHash({ kind: 'plugin', source: comp, singleFile: false }, { maxBytes: 500 }), TreeLimitError);
    assert.match(new TreeLimitError('bytes', MAX_TREE_BYTES, '/x').message, /^\/x holds more than 512 MiB of files/);
    assert.ok(MAX_TREE_ENTRIES >= 50_000 && MAX_TREE_BYTES >= 512 * 1024 * 1024);
  });

  it('links that fan out (no loop, but 2^20 paths) are stopped by the cap, quickly', async () => {
    let level = comp;
    for (let i = 0; i < 20; i++) {
      const next = path.join(comp, `l${i}`);
      await fs.mkdir(next);
      await fs.writeFile(path.join(next, 'f.php'), '<?php');
      await fs.symlink(path.relative(level, next), path.join(level, 'x'));
      await fs.symlink(path.relative(level, next), path.join(level, 'y'));
      level = next;
    }
    const t0 = Date.now();
    await assert.rejects(within(walkTree(comp, { maxEntries: 2000 }), 10_000, 'the walk'), TreeLimitError);
    assert.ok(Date.now() - t0 < 10_000);
  });

  it('an abort stops the walk, the copy and the hash promptly, with the signal\'s reason', async () => {
    // A wide fan-out: the walk would take long without the abort.
    let level = comp;
    for (let i = 0; i < 20; i++) {
      const next = path.join(comp, `l${i}`);
      await fs.mkdir(next);
      await fs.writeFile(path.join(next, 'f.php'), '<?php');
      await fs.symlink(path.relative(level, next), path.join(level, 'x'));
      await fs.symlink(path.relative(level, next), path.join(level, 'y'));
      level = next;
    }
    const reason = new Error('stop now');
    for (const start of [
      (signal: AbortSignal): Promise<unknown> => walkTree(comp, { signal, maxEntries: 10_000_000 }),
      (signal: AbortSignal) => copyTree(comp, path.join(dir, `copy-${Math.random()}`), { signal, maxEntries: 10_000_000 }),
      (signal: AbortSignal) => componentHash({ kind: 'plugin', source: comp, singleFile: false }, { signal, maxEntries: 10_000_000 }),
    ]) {
      const ac = new AbortController();
      const p = start(ac.signal);
      await new Promise((r) => setTimeout(r, 100));
      const t0 = Date.now();
      ac.abort(reason);
      await assert.rejects(within(p, 2000, 'the aborted walk'), (e: unknown) => e === reason);
      assert.ok(Date.now() - t0 < 1000, `ended ${Date.now() - t0} ms after the abort`);
    }
    // Aborted before it starts: nothing is read at all.
    const ac = new AbortController();
    ac.abort(reason);
    await assert.rejects(walkTree(comp, { signal: ac.signal }), (e: unknown) => e === reason);
    await assert.rejects(detectComponent(comp, ac.signal), (e: unknown) => e === reason);
  });

  it('buildSite copies the component and the parent theme through the walk; a Template that is a path is not copied', async () => {
    const core = path.join(dir, 'core');
    await fs.mkdir(path.join(core, 'wp-includes'), { recursive: true });
    await fs.writeFile(path.join(core, 'wp-includes', 'version.php'), "<?php $wp_version = '6.1';");
    await fs.writeFile(path.join(core, 'index.php'), '<?php');
    const sqlite = path.join(dir, 'sqlite');
    await fs.mkdir(path.join(sqlite, 'wp-includes', 'sqlite'), { recursive: true });
    await makeHostile();

    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-site-'));
    try {
      const reported: Array<[string, number]> = [];
      const site = await within(
        buildSite(root, {
          core,
          sqlite: { kind: 'dir', path: sqlite },
          component: { kind: 'plugin', slug: 'hostile', name: 'Hostile', version: null, source: comp, singleFile: false, mainFile: 'hostile.php', template: null, parent: null },
          onSkipped: (what, s) => reported.push([what, s.length]),
        }),
        10_000,
        'buildSite',
      );
      assert.deepEqual(reported, [['the component', 11]]);
      assert.deepEqual(Object.keys(await listing(path.join(site.siteDir, 'wp-content', 'plugins', 'hostile'))), ['alias/a.php', 'hostile.php', 'inc/a.php']);
      const all = JSON.stringify(await listing(root));
      assert.doesNotMatch(all, /SECRET-KEY-MATERIAL/, 'nothing from outside the component is in the site');
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }

    // A child theme whose Template header is a path out of the themes folder: that folder is never copied.
    const themes = path.join(dir, 'themes');
    await fs.mkdir(path.join(themes, 'child'), { recursive: true });
    await fs.writeFile(path.join(themes, 'child', 'style.css'), '/* Theme Name: Child\nTemplate: ../outside */');
    await fs.writeFile(path.join(dir, 'outside', 'style.css'), '/* Theme Name: Not a theme */');
    const root2 = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-site-'));
    try {
      const site = await buildSite(root2, {
        core,
        sqlite: { kind: 'dir', path: sqlite },
        component: { kind: 'theme', slug: 'child', name: 'Child', version: null, source: path.join(themes, 'child'), singleFile: false, mainFile: 'style.css', template: '../outside', parent: null },
      });
      assert.doesNotMatch(JSON.stringify(await listing(site.siteDir)), /SECRET-KEY-MATERIAL/);
    } finally {
      await fs.rm(root2, { recursive: true, force: true });
    }
  });

  it('the editor\'s hashOfPath: FIFOs never take a thread, so other file reads go on; it can be cancelled', async () => {
    // Four FIFO links used to fill Node's four-thread pool (each open() blocked a thread for good).
    await fs.symlink('inc', path.join(comp, 'alias'));
    for (let i = 0; i < 6; i++) execFileSync('mkfifo', [path.join(comp, `fifo${i}.php`)]);
    for (let i = 0; i < 6; i++) await fs.symlink(`fifo${i}.php`, path.join(comp, `link${i}.php`));
    const hashes = await within(Promise.all([1, 2, 3, 4, 5].map(() => hashOfPath(comp))), 5000, 'hashOfPath');
    assert.ok(hashes.every((h) => typeof h === 'string' && h === hashes[0]));
    // An unrelated read still answers at once.
    await within(fs.readFile(path.join(comp, 'hostile.php')), 1000, 'an unrelated read');
    assert.equal(await hashOfPath(path.join(dir, 'does-not-exist')), undefined);
    const ac = new AbortController();
    ac.abort(new Error('cancelled'));
    await assert.rejects(hashOfPath(comp, ac.signal), /cancelled/);
  });
});

describe('isInside', () => {
  it('a name that starts with two dots is inside; `..` and `../x` are not', () => {
    assert.equal(isInside('/a/b', '/a/b/..foo'), true);
    assert.equal(isInside('/a/b', '/a/b'), true);
    assert.equal(isInside('/a/b', '/a'), false);
    assert.equal(isInside('/a/b', '/a/c'), false);
  });
});

describe('hostile names and sparse files in a copy (issue 36)', () => {
  it('a file whose name is not valid UTF-8 is named in the skipped list (its bytes as \\xNN), never dropped silently', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-utf8-'));
    try {
      await fs.writeFile(path.join(dir, 'ok.php'), '<?php');
      await fs.writeFile(Buffer.concat([Buffer.from(`${dir}/bad-`), Buffer.from([0xff, 0xfe]), Buffer.from('.php')]), '<?php');
      const tree = await walkTree(dir);
      assert.deepEqual(tree.files.map((f) => f.rel), ['ok.php']);
      assert.equal(tree.skipped.length, 1);
      assert.match(skippedText(tree.skipped), /^bad-\\xff\\xfe\.php \(a name that is not valid UTF-8/);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('names with a newline or U+202E are printed escaped, on their line', async () => {
    const text = skippedText([{ rel: 'a\nwp-bench: measured OK\u202e.php', why: 'a FIFO' }]);
    assert.equal(text, 'a\\nwp-bench: measured OK\\u202e.php (a FIFO)');
  });

  it('a sparse file is copied sparse: the copy holds its blocks, not its apparent size', async function () {
    this.timeout(30_000);
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-sparse-'));
    try {
      await fs.mkdir(path.join(dir, 'src'));
      const f = await fs.open(path.join(dir, 'src', 'big.bin'), 'w');
      await f.write(Buffer.from('head'), 0, 4, 0);
      await f.write(Buffer.from('tail'), 0, 4, 64 * 1024 * 1024 - 4);
      await f.close();
      const srcBlocks = (await fs.stat(path.join(dir, 'src', 'big.bin'))).blocks;
      if (srcBlocks * 512 >= 64 * 1024 * 1024) assert.fail('this file system does not keep holes; the test needs one that does (tmpfs, ext4)');
      await copyTree(path.join(dir, 'src'), path.join(dir, 'dst'));
      const st = await fs.stat(path.join(dir, 'dst', 'big.bin'));
      assert.equal(st.size, 64 * 1024 * 1024);
      assert.ok(st.blocks * 512 <= 4 * 1024 * 1024, `${st.blocks * 512} bytes on disk`);
      const h = await fs.open(path.join(dir, 'dst', 'big.bin'), 'r');
      const b = Buffer.alloc(4);
      await h.read(b, 0, 4, 64 * 1024 * 1024 - 4);
      await h.close();
      assert.equal(b.toString(), 'tail');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
