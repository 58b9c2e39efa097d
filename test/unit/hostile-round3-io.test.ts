// Hostile repositories and proxies, round three (issue 18, findings 2, 4 and 5): report files, proxies and the
// workspace walk. Each test failed on the code before the fix. Everything on 127.0.0.1 and in temporary folders.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../src/cli/index';
import { OutputFileError, writeOutputFile } from '../../src/core/outputFile';
import { scanWorkspace } from '../../src/core/scan';
import { json, startTestServer } from './helpers/testServer';
import { sampleBody } from './helpers/samples';

const CLI = path.join(__dirname, '..', '..', 'dist', 'cli.js');
const made: string[] = [];
async function tmp(prefix: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

async function cli(args: string[], env: Record<string, string>, cwd: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The built CLI in a child process, killed at `deadlineMs`: a hang is a failure, not a stuck test run. */
function runChild(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, deadlineMs: number) {
  return new Promise<{ code: number | null; err: string; hung: boolean }>((resolve) => {
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, deadlineMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, err, hung });
    });
  });
}

/** A repository with one plugin, checked offline (no API needed). */
async function repo(): Promise<{ dir: string; env: Record<string, string> }> {
  const base = await tmp('wpb-h3-');
  const dir = path.join(base, 'repo');
  await fs.mkdir(path.join(dir, 'wp-content', 'plugins', 'akismet'), { recursive: true });
  await fs.writeFile(path.join(dir, 'wp-content', 'plugins', 'akismet', 'akismet.php'), '<?php\n/*\nPlugin Name: $(touch pwned)\n*/\n');
  return { dir, env: { WPBENCH_API_URL: 'http://127.0.0.1:9/api', WPBENCH_CACHE_DIR: await tmp('wpb-h3-cache-') } };
}

describe('hostile, round three: files, proxies, the workspace walk', function () {
  this.timeout(30_000);
  after(() => Promise.all(made.splice(0).map((d) => fs.rm(d, { recursive: true, force: true }))));

  describe('2. --output and Export Report never write through a link, never open a FIFO, never leave half a file', () => {
    it('a committed report.html -> ../victim.txt is refused (exit 2): the file outside is unchanged', async () => {
      const { dir, env } = await repo();
      const victim = path.join(dir, '..', 'victim.sh');
      await fs.writeFile(victim, '#!/bin/sh\necho hello\n', { mode: 0o755 });
      await fs.symlink('../victim.sh', path.join(dir, 'report.json'));
      const r = await cli(['check', '.', '--offline', '--format', 'json', '--output', 'report.json'], env, dir);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, /report\.json is a symbolic link, not a regular file: nothing was written/);
      assert.equal(await fs.readFile(victim, 'utf8'), '#!/bin/sh\necho hello\n');
      assert.ok((await fs.lstat(path.join(dir, 'report.json'))).isSymbolicLink(), 'the link is left as it was');
      // The core function the editor's Export Report uses refuses it the same way.
      await assert.rejects(writeOutputFile(path.join(dir, 'report.json'), 'x'), (e: unknown) => e instanceof OutputFileError && e.reason === 'refused');
      assert.equal(await fs.readFile(victim, 'utf8'), '#!/bin/sh\necho hello\n');
    });

    it('a folder at the output path is refused with exit 2', async () => {
      const { dir, env } = await repo();
      await fs.mkdir(path.join(dir, 'out.md'));
      const r = await cli(['check', '.', '--offline', '--format', 'markdown', '--output', 'out.md'], env, dir);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, /out\.md is a folder, not a regular file/);
    });

    it('a FIFO at the output path is refused promptly, never opened (the CLI must end within 10 s)', async function () {
      if (process.platform === 'win32') this.skip();
      const { dir, env } = await repo();
      assert.equal(spawnSync('mkfifo', [path.join(dir, 'report.md')]).status, 0);
      const r = await runChild(process.execPath, [CLI, 'check', '.', '--offline', '--format', 'markdown', '--output', 'report.md'], { ...process.env, ...env }, dir, 10_000);
      assert.equal(r.hung, false, 'check hung on the FIFO');
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, /report\.md is a FIFO, not a regular file/);
    });

    it('a write that fails (file size limit) leaves the old report untouched, exit 6, no temporary file left', async function () {
      if (process.platform === 'win32') this.skip();
      const { dir, env } = await repo();
      const out = path.join(dir, 'report.html');
      await fs.writeFile(out, 'old report\n');
      // RLIMIT_FSIZE of 512 bytes with SIGXFSZ ignored: writing past it fails with EFBIG (as a full disk would).
      const r = await runChild('/bin/sh', ['-c', `trap '' XFSZ; ulimit -f 1; exec "$0" "$@"`, process.execPath, CLI, 'check', '.', '--offline', '--format', 'html', '--output', 'report.html'], { ...process.env, ...env }, dir, 20_000);
      assert.equal(r.hung, false);
      assert.equal(r.code, 6, r.err);
      assert.match(r.err, /Could not write .*report\.html \(EFBIG\); the previous file, if any, is unchanged/);
      assert.equal(await fs.readFile(out, 'utf8'), 'old report\n');
      assert.deepEqual((await fs.readdir(dir)).sort(), ['report.html', 'wp-content']);
    });

    it('a normal overwrite replaces the old report and keeps its permissions', async () => {
      const { dir, env } = await repo();
      const out = path.join(dir, 'report.json');
      await fs.writeFile(out, 'old', { mode: 0o600 });
      await fs.chmod(out, 0o600);
      const r = await cli(['check', '.', '--offline', '--format', 'json', '--output', 'report.json'], env, dir);
      assert.equal(r.code, 0, r.err);
      const report = JSON.parse(await fs.readFile(out, 'utf8'));
      assert.ok(Array.isArray(report.components) && report.components.some((c: { slug: string }) => c.slug === 'akismet'));
      assert.equal((await fs.stat(out)).mode & 0o777, 0o600);
      await writeOutputFile(path.join(dir, 'new.md'), 'new\n');
      assert.equal(await fs.readFile(path.join(dir, 'new.md'), 'utf8'), 'new\n');
      assert.deepEqual((await fs.readdir(dir)).sort(), ['new.md', 'report.json', 'wp-content']);
    });
  });

  describe('5. symbolic links never lead the workspace walk out of the workspace', () => {
    const plugin = (name: string) => `<?php\n/*\nPlugin Name: ${name}\nVersion: 1.0\n*/\n`;

    it('rootlink -> / is not walked: a handful of folders read, nothing from the rest of the disk', async () => {
      const dir = await tmp('wpb-h3-root-');
      await fs.mkdir(path.join(dir, 'wp-content', 'plugins', 'akismet'), { recursive: true });
      await fs.writeFile(path.join(dir, 'wp-content', 'plugins', 'akismet', 'akismet.php'), plugin('Akismet'));
      await fs.symlink('/', path.join(dir, 'rootlink'));
      // The bound keeps the run short on the code before the fix, which walked on into the disk.
      const r = await scanWorkspace(dir, { maxFiles: 5000 });
      assert.ok(r.stats.dirsRead < 10, `${r.stats.dirsRead} folders read`);
      assert.deepEqual(r.components.map((c) => c.slug), ['akismet']);
      assert.ok(r.problems.every((p) => !p.file.startsWith('rootlink/')), JSON.stringify(r.problems.slice(0, 3)));
      assert.ok(r.problems.some((p) => p.file === 'rootlink' && /a folder outside the workspace; not walked/.test(p.message)));
    });

    it('vendor-link -> ../outside: the plugin outside is neither listed nor sent; a composer.json linked outside is not read', async () => {
      const base = await tmp('wpb-h3-out-');
      const dir = path.join(base, 'repo');
      const outside = path.join(base, 'outside');
      await fs.mkdir(path.join(outside, 'wp-content', 'plugins', 'private-client-plugin'), { recursive: true });
      await fs.writeFile(path.join(outside, 'wp-content', 'plugins', 'private-client-plugin', 'private-client-plugin.php'), plugin('Private'));
      await fs.writeFile(path.join(outside, 'composer.json'), JSON.stringify({ require: { 'wpackagist-plugin/private-composer-plugin': '*' } }));
      await fs.mkdir(path.join(dir, 'sub'), { recursive: true });
      await fs.symlink('../outside', path.join(dir, 'vendor-link'));
      await fs.symlink('../../outside/composer.json', path.join(dir, 'sub', 'composer.json'));
      const r = await scanWorkspace(dir);
      assert.deepEqual(r.components, []);
      assert.ok(r.problems.some((p) => p.file === 'sub/composer.json' && /a file outside the workspace; not read/.test(p.message)), JSON.stringify(r.problems));
    });

    it('a plugin or theme folder linked from outside is read as WordPress reads it, flagged, and never looked up unasked', async () => {
      const base = await tmp('wpb-h3-link-');
      const dir = path.join(base, 'repo');
      const shared = path.join(base, 'shared');
      await fs.mkdir(path.join(shared, 'private-plugin'), { recursive: true });
      await fs.writeFile(path.join(shared, 'private-plugin', 'private-plugin.php'), plugin('Private Plugin'));
      await fs.mkdir(path.join(shared, 'private-theme'), { recursive: true });
      await fs.writeFile(path.join(shared, 'private-theme', 'style.css'), '/*\nTheme Name: Private Theme\nTemplate: private-parent\n*/\n');
      await fs.mkdir(path.join(dir, 'src', 'inside-plugin'), { recursive: true });
      await fs.writeFile(path.join(dir, 'src', 'inside-plugin', 'inside-plugin.php'), plugin('Inside'));
      await fs.mkdir(path.join(dir, 'wp-content', 'plugins'), { recursive: true });
      await fs.mkdir(path.join(dir, 'wp-content', 'themes'), { recursive: true });
      await fs.symlink('../../../shared/private-plugin', path.join(dir, 'wp-content', 'plugins', 'private-plugin'));
      await fs.symlink('../../src/inside-plugin', path.join(dir, 'wp-content', 'plugins', 'inside-plugin'));
      await fs.symlink('../../../shared/private-theme', path.join(dir, 'wp-content', 'themes', 'private-theme'));

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
        const env = { WPBENCH_API_URL: server.url, WPBENCH_API_KEY: 'k', WPBENCH_CACHE_DIR: await tmp('wpb-h3-cache-') };
        const c = await cli(['check', '.', '--fail-on', 'none'], env, dir);
        assert.equal(c.code, 0, c.err);
        assert.deepEqual(server.requests.map((q) => q.path), ['/api/v1/plugins/inside-plugin']);
        assert.match(c.out, /not looked up \(outside the workspace\)/);
      } finally {
        await server.close();
      }
    });
  });
});
