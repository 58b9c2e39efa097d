// Git helpers of `check`: the checked folder at another ref (for --diff) and the folder's path inside its
// repository (so SARIF paths are relative to the repository root). execFile only: no shell, no injection.
import { childProcess } from '../lazyNode';

/** The environment for git and tar: everything but the API key (hooks and filters run there). */
export function childEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out = { ...env };
  delete out.WPBENCH_API_KEY;
  return out;
}
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export class GitError extends Error {}

/** Refs are passed to git as arguments: refuse anything that git could read as an option or a range. */
export function isSafeRef(ref: string): boolean {
  return ref.length > 0 && ref.length <= 200 && !ref.startsWith('-') && !/[\u0000-\u0020\u007f~^:?*[\\]|\.\.|@\{/.test(ref.replace(/[~^]\d*$/, ''));
}

function git(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    childProcess().execFile('git', ['-C', cwd, ...args], { maxBuffer: 16 * 1024 * 1024, env: { ...childEnv(), GIT_TERMINAL_PROMPT: '0' } }, (err, stdout, stderr) => {
      if (err) reject(new GitError(String(stderr || err.message).trim().split('\n')[0].slice(0, 300)));
      else resolve(stdout);
    });
  });
}

/** The folder's path relative to the top of its git repository ('' at the top), or undefined outside git. */
export async function repoPrefix(dir: string): Promise<string | undefined> {
  try {
    return (await git(dir, ['rev-parse', '--show-prefix'])).trim().replace(/\/$/, '');
  } catch {
    return undefined;
  }
}

export interface RefSnapshot {
  /** A temporary folder holding `dir` as it is at the ref. */
  root: string;
  commit: string;
  dispose(): Promise<void>;
}

/**
 * Extracts the checked folder as it is at `ref` into a temporary folder (`git archive <commit>:<prefix> | tar -x`).
 * The working tree and the repository are not touched. Call dispose() to remove the folder.
 */
export async function snapshotAtRef(dir: string, ref: string): Promise<RefSnapshot> {
  if (!isSafeRef(ref)) throw new GitError(`"${ref.slice(0, 60)}" is not a usable git ref`);
  const prefix = await repoPrefix(dir);
  if (prefix === undefined) throw new GitError(`${dir} is not inside a git repository`);
  let commit: string;
  try {
    commit = (await git(dir, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])).trim();
  } catch {
    throw new GitError(`the git ref "${ref}" was not found (fetch it first, e.g. actions/checkout with fetch-depth: 0)`);
  }
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'wp-bench-ref-'));
  const dispose = () => fs.rm(root, { recursive: true, force: true });
  try {
    // The folder may not exist at the ref (a new site): an empty snapshot then.
    const exists = prefix === '' || (await git(dir, ['cat-file', '-t', `${commit}:${prefix}`]).catch(() => '')).trim() === 'tree';
    // From the top of the repository: run in a subfolder, git archive keeps only that subfolder's paths.
    const top = (await git(dir, ['rev-parse', '--show-toplevel'])).trim();
    if (exists) await archiveInto(top, prefix ? `${commit}:${prefix}` : commit, root);
    return { root, commit, dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}

function archiveInto(cwd: string, treeish: string, target: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const archive = childProcess().spawn('git', ['-C', cwd, 'archive', '--format=tar', treeish], { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv() });
    const tar = childProcess().spawn('tar', ['-x', '-f', '-', '-C', target], { stdio: ['pipe', 'ignore', 'pipe'], env: childEnv() });
    let errText = '';
    archive.stderr.on('data', (d) => (errText += String(d)));
    tar.stderr.on('data', (d) => (errText += String(d)));
    archive.stdout.pipe(tar.stdin);
    let pending = 2;
    let failed = false;
    const done = (what: string) => (code: number | null) => {
      if (code !== 0 && !failed) {
        failed = true;
        reject(new GitError(`${what} failed: ${errText.trim().split('\n')[0]?.slice(0, 300) ?? ''}`));
      }
      if (--pending === 0 && !failed) resolve();
    };
    archive.on('error', (e) => {
      failed = true;
      reject(new GitError(`git: ${e.message}`));
    });
    tar.on('error', (e) => {
      failed = true;
      reject(new GitError(`tar: ${e.message}`));
    });
    archive.on('close', done('git archive'));
    tar.on('close', done('tar'));
  });
}
