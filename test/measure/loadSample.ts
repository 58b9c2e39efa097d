// A plugin of a few hundred files for the regression checks (test/measure/regression-load.test.ts and figure 8 of
// `npm run bench`), in a git repository of its own, and a bounded load on both cores (busy loops and a process
// touching fresh memory), each process ending by itself and killed by PID.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export const LOAD_SAMPLE_FILES = 300;

/** How much heavier a version is on every request: memory kept (MiB), queries, busy work (ms, not a sleep). */
export interface Heavier {
  mib: number;
  queries: number;
  busyMs: number;
}

/** The main file: loads every class file (as a Composer classmap would) and, if `heavy`, does that much more. */
export function loadSampleMain(version: string, heavy?: Heavier): string {
  const work = heavy
    ? `  $GLOBALS['load_heavy'] = str_repeat('h', ${heavy.mib} * 1024 * 1024);
  global $wpdb;
  for ($i = 0; $i < ${heavy.queries}; $i++) $wpdb->get_var('SELECT ' . $i);
  // Real work on the clock (a busy loop, not a sleep).
  $t = hrtime(true); $x = 0;
  while (hrtime(true) - $t < ${heavy.busyMs * 1_000_000}) { $x++; }
  $GLOBALS['load_x'] = $x;`
    : '';
  return `<?php
/**
 * Plugin Name: Load Sample
 * Version: ${version}
 */
foreach (glob(__DIR__ . '/src/*.php') as $f) require_once $f;
add_action('init', function () {
  $GLOBALS['load_sample'] = new Load_Sample_C0();
${work}
});
`;
}

export function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], { cwd, stdio: 'pipe' });
}

/**
 * Writes `repo/load-sample` (LOAD_SAMPLE_FILES class files and the main file) and two commits: the plugin, then a
 * notes file that WordPress never loads (as in the reported false alarm). Returns the plugin's folder.
 */
export async function writeLoadSampleRepo(repo: string): Promise<string> {
  const plugin = path.join(repo, 'load-sample');
  await fs.mkdir(path.join(plugin, 'src'), { recursive: true });
  for (let i = 0; i < LOAD_SAMPLE_FILES; i++) {
    const body = Array.from({ length: 8 }, (_, k) => `  public function m${k}($a) { return $a * ${k + 1} + ${i}; }`).join('\n');
    await fs.writeFile(path.join(plugin, 'src', `c${i}.php`), `<?php\nclass Load_Sample_C${i} {\n${body}\n}\n`);
  }
  await fs.writeFile(path.join(plugin, 'load-sample.php'), loadSampleMain('1.0.0'));
  git(repo, 'init', '-q');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'light');
  await fs.writeFile(path.join(plugin, 'NOTES.md'), 'notes\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'notes');
  return plugin;
}

/** Two busy loops and one process writing fresh memory, each ending by itself after `seconds` (and killed by PID). */
export function startLoad(seconds: number): ChildProcess[] {
  const busy = `const end = Date.now() + ${seconds * 1000}; while (Date.now() < end) {}`;
  const mem = `const end = Date.now() + ${seconds * 1000}; while (Date.now() < end) { const b = Buffer.alloc(32 * 1024 * 1024, 1); b[7] = 2; }`;
  return [busy, busy, mem].map((code) => spawn(process.execPath, ['-e', code], { stdio: 'ignore' }));
}

export function stopLoad(ps: ChildProcess[]): Promise<void> {
  return Promise.all(
    ps.map(
      (p) =>
        new Promise<void>((resolve) => {
          if (p.exitCode !== null || p.signalCode !== null) return resolve();
          p.once('exit', () => resolve());
          p.kill('SIGKILL');
        }),
    ),
  ).then(() => undefined);
}
