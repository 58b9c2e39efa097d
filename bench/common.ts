// What bench.ts and its figure modules share: the mode (--quick) and the sizes it sets, the rows and details that
// end in the table and bench/results.json, and the formatting of values.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import type { SiteOptions } from './lib/fixtures';
import { round } from './lib/util';
import { runCli } from '../src/cli';

export const ROOT = path.resolve(__dirname, '..');
export const QUICK = process.argv.includes('--quick');

export const CONFIG = QUICK
  ? {
      site: { plugins: 100, themes: 10, muPlugins: 10, composerEntries: 30, includesFiles: 10, vendorFiles: 10 } as SiteOptions,
      otherSite: { plugins: 100, themes: 0, muPlugins: 0, composerEntries: 0, includesFiles: 20, vendorFiles: 19, mainFile: 'other' } as SiteOptions,
      lookups: 40,
      hovers: 1000,
      scale: [25, 50, 100, 200],
      activationRuns: 1,
    }
  : {
      site: { plugins: 2000, themes: 100, muPlugins: 10, composerEntries: 300, includesFiles: 25, vendorFiles: 25 } as SiteOptions,
      // Figure 1b: 2,000 plugins whose main file is not named after the folder, 10 top-level PHP files, includes/
      // and vendor/ each: 50 files a plugin, 100,000 in all.
      otherSite: { plugins: 2000, themes: 0, muPlugins: 0, composerEntries: 0, includesFiles: 20, vendorFiles: 19, mainFile: 'other' } as SiteOptions,
      lookups: 300,
      hovers: 1000,
      scale: [100, 500, 2000, 8000],
      activationRuns: 3,
    };

export type Status = 'PASS' | 'FAIL' | 'info' | 'not measured' | 'ERROR';
interface Row {
  id: string;
  figure: string;
  value: string;
  target: string;
  status: Status;
}
export const rows: Row[] = [];
export const details: Record<string, unknown> = {};
export const row = (id: string, figure: string, value: string, target: string, status: Status) => rows.push({ id, figure, value, target, status });
export const check = (ok: boolean): Status => (ok ? 'PASS' : 'FAIL');
export const ms = (x: number) => `${x < 10 ? round(x, 2) : x < 100 ? round(x, 1) : Math.round(x)} ms`;
export const mib = (b: number) => `${round(b / 1024 / 1024, 1)} MiB`;
export const log = (s: string) => process.stderr.write(`[bench] ${s}\n`);

/** Flushes freshly written fixtures to disk, so write-back does not run during the timings. */
export function settle(): void {
  spawnSync('sync', [], { timeout: 120_000 });
}

/**
 * `wp-bench measure ARGS` on the native runtime (PHP_BIN: another PHP), in this process, with `env`: its exit code,
 * what it printed and its whole time in seconds.
 */
export function measureCli(env: NodeJS.ProcessEnv): (args: string[], cwd?: string) => Promise<{ code: number; out: string; err: string; s: number }> {
  return async (args, cwd = ROOT) => {
    const out: string[] = [];
    const err: string[] = [];
    const t0 = Date.now();
    const code = await runCli(['measure', ...args, '--runtime', 'php', ...(process.env.PHP_BIN ? ['--php', process.env.PHP_BIN] : [])], { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd });
    return { code, out: out.join('\n'), err: err.join('\n'), s: (Date.now() - t0) / 1000 };
  };
}
