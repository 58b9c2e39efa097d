// The scanner's hot path (issue 22) takes shortcuts: a header file read through no link from a plugins folder inside
// the workspace is not resolved again when links out of the workspace are looked for, and `<folder>/<folder>.php`
// is probed with lstat. These tests pin what the shortcuts must not change: a file linked from outside is still
// flagged, a FIFO is still never opened, and both I/O modes say the same.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { scanWorkspace } from '../../../src/core/scan';
import type { ScanResult } from '../../../src/core/model';

const made: string[] = [];
async function tmp(prefix: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

const plugin = (name: string) => `<?php\n/*\nPlugin Name: ${name}\nVersion: 1.0\n*/\n`;
const lookups = (r: ScanResult) => Object.fromEntries(r.components.map((c) => [`${c.kind}/${c.slug}`, c.lookup]));

describe('scan hot path: shortcuts that change nothing', () => {
  after(async () => {
    for (const d of made) await fs.rm(d, { recursive: true, force: true });
  });

  it('plugin files linked from outside into real folders inside plugins/ are still flagged, in both I/O modes', async () => {
    const base = await tmp('wpb-hot-');
    const dir = path.join(base, 'repo');
    const shared = path.join(base, 'shared');
    const plugins = path.join(dir, 'wp-content', 'plugins');
    await fs.mkdir(shared, { recursive: true });
    for (const [file, name] of [['folder-main.php', 'Folder Main'], ['other-main.php', 'Other Main'], ['single.php', 'Single']]) {
      await fs.writeFile(path.join(shared, file), plugin(name));
    }
    // `<folder>/<folder>.php` is a link (the lstat probe), `wp-other-main.php` is a link (a listed folder), a top-level file is a link.
    await fs.mkdir(path.join(plugins, 'folder-main'), { recursive: true });
    await fs.symlink(path.join(shared, 'folder-main.php'), path.join(plugins, 'folder-main', 'folder-main.php'));
    await fs.mkdir(path.join(plugins, 'other-main'), { recursive: true });
    await fs.symlink(path.join(shared, 'other-main.php'), path.join(plugins, 'other-main', 'wp-other-main.php'));
    await fs.symlink(path.join(shared, 'single.php'), path.join(plugins, 'single.php'));
    // The same three shapes as plain files, inside.
    await fs.mkdir(path.join(plugins, 'plain-main'), { recursive: true });
    await fs.writeFile(path.join(plugins, 'plain-main', 'plain-main.php'), plugin('Plain Main'));
    await fs.mkdir(path.join(plugins, 'plain-other'), { recursive: true });
    await fs.writeFile(path.join(plugins, 'plain-other', 'wp-plain-other.php'), plugin('Plain Other'));
    await fs.writeFile(path.join(plugins, 'plain-single.php'), plugin('Plain Single'));
    // A link inside the workspace is not out of it.
    await fs.mkdir(path.join(dir, 'src'), { recursive: true });
    await fs.writeFile(path.join(dir, 'src', 'inside.php'), plugin('Inside'));
    await fs.mkdir(path.join(plugins, 'inside'), { recursive: true });
    await fs.symlink('../../../src/inside.php', path.join(plugins, 'inside', 'inside.php'));

    const expected = {
      'plugin/folder-main': 'outside-workspace',
      'plugin/inside': 'yes',
      'plugin/other-main': 'outside-workspace',
      'plugin/plain-main': 'yes',
      'plugin/plain-other': 'yes',
      'plugin/plain-single': 'yes',
      'plugin/single': 'outside-workspace',
    };
    const sliced = await scanWorkspace(dir);
    assert.deepEqual(lookups(sliced), expected);
    const hosted = await scanWorkspace(dir, { io: 'async' });
    assert.deepEqual(lookups(hosted), expected);
    assert.deepEqual(hosted.components, sliced.components);
    assert.deepEqual(hosted.problems, sliced.problems);
  });

  it('a FIFO named <folder>.php, or among the top-level files of a listed folder, is never opened, in both I/O modes', async () => {
    const dir = await tmp('wpb-hot-fifo-');
    const plugins = path.join(dir, 'wp-content', 'plugins');
    await fs.mkdir(path.join(plugins, 'piped'), { recursive: true });
    assert.equal(spawnSync('mkfifo', [path.join(plugins, 'piped', 'piped.php')]).status, 0);
    await fs.writeFile(path.join(plugins, 'piped', 'loader.php'), plugin('Piped'));
    await fs.mkdir(path.join(plugins, 'other'), { recursive: true });
    assert.equal(spawnSync('mkfifo', [path.join(plugins, 'other', 'aaa.php')]).status, 0);
    await fs.writeFile(path.join(plugins, 'other', 'wp-other.php'), plugin('Other'));

    for (const io of ['sliced', 'async'] as const) {
      const r = await scanWorkspace(dir, { io });
      assert.deepEqual(lookups(r), { 'plugin/other': 'yes', 'plugin/piped': 'yes' }, io);
      assert.equal(r.stats.filesOpened, 2, `${io}: only the two headed files are opened`);
      for (const f of ['wp-content/plugins/piped/piped.php', 'wp-content/plugins/other/aaa.php']) {
        assert.ok(r.problems.some((p) => p.file === f && /FIFO/.test(p.message)), `${io}: ${f} ${JSON.stringify(r.problems)}`);
      }
    }
  });
});
