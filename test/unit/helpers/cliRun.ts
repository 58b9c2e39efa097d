// The CLI run in this process with its output collected, temporary folders for it, and a small repository to check.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/index';

export interface Run {
  code: number;
  out: string;
  err: string;
}

export async function cli(args: string[], env: Record<string, string | undefined> = {}, cwd = process.cwd()): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const made: string[] = [];
/** A new temporary folder, removed by removeTmpDirs() (and in any case at the end of the run, by tmp-root.cjs). */
export async function tmpDir(prefix: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}
export function removeTmpDirs(): Promise<void[]> {
  return Promise.all(made.splice(0).map((d) => fs.rm(d, { recursive: true, force: true })));
}

/** A repository (`dir`, inside the folder `base`) with one plugin, akismet, checked offline (no API needed). */
export async function offlineRepo(pluginHeader = 'Plugin Name: Akismet\nVersion: 5.0'): Promise<{ base: string; dir: string; env: Record<string, string> }> {
  const base = await tmpDir('wpb-repo-');
  const dir = path.join(base, 'repo');
  await fs.mkdir(path.join(dir, 'wp-content', 'plugins', 'akismet'), { recursive: true });
  await fs.writeFile(path.join(dir, 'wp-content', 'plugins', 'akismet', 'akismet.php'), `<?php\n/*\n${pluginHeader}\n*/\n`);
  return { base, dir, env: { WPBENCH_API_URL: 'http://127.0.0.1:9/api', WPBENCH_CACHE_DIR: await tmpDir('wpb-repo-cache-') } };
}
