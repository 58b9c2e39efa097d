// Report files written by check --output and the editor's Export Report (src/core/outputFile.ts): never through a
// link, never into a FIFO, never half a file (issue 18, finding 2, and its review). Everything in temporary folders.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { OutputFileError, writeOutputFile } from '../../src/core/outputFile';
import { cli, offlineRepo, removeTmpDirs } from './helpers/cliRun';

const CLI = path.join(__dirname, '..', '..', 'dist', 'cli.js');

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

describe('report files (--output, Export Report)', function () {
  this.timeout(30_000);
  after(removeTmpDirs);

  describe('--output and Export Report never write through a link, never open a FIFO, never leave half a file', () => {
    it('a committed report.html -> ../victim.txt is refused (exit 2): the file outside is unchanged', async () => {
      const { dir, env } = await offlineRepo('Plugin Name: $(touch pwned)');
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
      const { dir, env } = await offlineRepo('Plugin Name: $(touch pwned)');
      await fs.mkdir(path.join(dir, 'out.md'));
      const r = await cli(['check', '.', '--offline', '--format', 'markdown', '--output', 'out.md'], env, dir);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, /out\.md is a folder, not a regular file/);
    });

    it('a FIFO at the output path is refused promptly, never opened (the CLI must end within 10 s)', async function () {
      if (process.platform === 'win32') this.skip();
      const { dir, env } = await offlineRepo('Plugin Name: $(touch pwned)');
      assert.equal(spawnSync('mkfifo', [path.join(dir, 'report.md')]).status, 0);
      const r = await runChild(process.execPath, [CLI, 'check', '.', '--offline', '--format', 'markdown', '--output', 'report.md'], { ...process.env, ...env }, dir, 10_000);
      assert.equal(r.hung, false, 'check hung on the FIFO');
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, /report\.md is a FIFO, not a regular file/);
    });

    it('a write that fails (file size limit) leaves the old report untouched, exit 6, no temporary file left', async function () {
      if (process.platform === 'win32') this.skip();
      const { dir, env } = await offlineRepo('Plugin Name: $(touch pwned)');
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
      const { dir, env } = await offlineRepo('Plugin Name: $(touch pwned)');
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

  describe('--output never writes through a symlinked folder inside the repository', () => {
    it('reports -> ../victimdir: --output reports/report.md is refused (exit 2) and the file outside is unchanged', async () => {
      const { base, dir, env } = await offlineRepo();
      await fs.mkdir(path.join(base, 'victimdir'));
      await fs.writeFile(path.join(base, 'victimdir', 'report.md'), 'precious\n');
      await fs.symlink('../victimdir', path.join(dir, 'reports'));
      const r = await cli(['check', '.', '--offline', '--format', 'markdown', '--output', 'reports/report.md'], env, dir);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, /passes through .*reports, a symbolic link to a folder inside .*nothing was written/);
      assert.equal(await fs.readFile(path.join(base, 'victimdir', 'report.md'), 'utf8'), 'precious\n');
      assert.deepEqual(await fs.readdir(path.join(base, 'victimdir')), ['report.md']);
      // The editor's Export Report passes its workspace folder the same way.
      await assert.rejects(writeOutputFile(path.join(dir, 'reports', 'report.md'), 'x', dir), (e: unknown) => e instanceof OutputFileError && e.reason === 'refused');
    });

    it('a link above the current folder (as /tmp is on macOS) is the user\'s own: an absolute path through it is written', async () => {
      const { base, dir, env } = await offlineRepo();
      await fs.mkdir(path.join(base, 'real-out'));
      await fs.symlink('real-out', path.join(base, 'out-link'));
      const target = path.join(base, 'out-link', 'report.md');
      const r = await cli(['check', '.', '--offline', '--format', 'markdown', '--output', target], env, dir);
      assert.equal(r.code, 0, r.err);
      assert.match(await fs.readFile(path.join(base, 'real-out', 'report.md'), 'utf8'), /akismet/);
      // A real folder inside the repository is fine.
      await fs.mkdir(path.join(dir, 'out'));
      const r2 = await cli(['check', '.', '--offline', '--format', 'markdown', '--output', 'out/report.md'], env, dir);
      assert.equal(r2.code, 0, r2.err);
    });
  });
});
