// The playground runtime: WordPress Playground's CLI (PHP in WebAssembly) from npm, as a child process, serving
// our throwaway site mounted at /wordpress, offline (no download: nothing is installed by Playground itself).
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { siteRequest } from '../site/http';
import { freePort, launchServer } from './phpRuntime';
import type { RuntimeServer } from '../machine/runtime';
import type { Site } from '../site/site';

export const PLAYGROUND_PHP = '8.2';
export const PLAYGROUND_SITE = '/wordpress';
export const PLAYGROUND_WORK = '/wpbench';
/**
 * Said with every Playground result. Memory is not claimed comparable: a calibration plugin allocating 4 MB reads
 * within 64 KB of native PHP, but on the same site Hello Dolly read +614 KB (homepage) and +775 KB (admin) on
 * Playground against ±0 and +1 KB with the php runtime, and Contact Form 7 5.5.6 +2,381 KB (homepage) and +5,054 KB
 * (admin) against +157 and +211 KB (2026-11-25).
 */
export const PLAYGROUND_NOTE =
  'measured through WordPress Playground (PHP in WebAssembly behind a Node proxy): TTFB is less precise than with the native php runtime, and memory can read several hundred KB to a few MB higher than native PHP for the same component (Contact Form 7: +2,381 KB against +157 KB on the homepage); compare memory within one runtime; queries are comparable';

export interface PlaygroundInfo {
  script: string;
  sqliteZip: string;
}

/** @wp-playground/cli in a node_modules folder at or above one of the given folders. */
export function findPlayground(searchFrom: string[]): PlaygroundInfo | undefined {
  for (const from of searchFrom) {
    let dir = path.resolve(from);
    for (;;) {
      const pkg = path.join(dir, 'node_modules', '@wp-playground', 'cli');
      const script = path.join(pkg, 'wp-playground.js');
      if (existsSync(script)) return { script, sqliteZip: path.join(pkg, 'sqlite-database-integration.zip') };
      const up = path.dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  return undefined;
}

export async function startPlaygroundServer(pg: PlaygroundInfo, site: Site, env: NodeJS.ProcessEnv, onChild: (c: ChildProcess) => void, signal: AbortSignal): Promise<RuntimeServer> {
  const port = await freePort();
  const args = [
    pg.script,
    'server',
    `--port=${port}`,
    `--php=${PLAYGROUND_PHP}`,
    `--site-url=http://127.0.0.1:${port}`,
    '--wordpress-install-mode=do-not-attempt-installing',
    '--skip-sqlite-setup',
    '--workers=1',
    '--verbosity=quiet',
    '--mount-dir-before-install', site.siteDir, PLAYGROUND_SITE,
    '--mount-dir-before-install', site.workDir, PLAYGROUND_WORK,
  ];
  return launchServer({
    bin: process.execPath,
    args,
    cwd: site.workDir,
    env,
    site,
    port,
    label: 'WordPress Playground',
    startMs: 180_000,
    onChild,
    stdout: true,
    graceMs: 3000,
    signal,
    // It listens before its PHP is ready (answering 502 "not ready yet"): wait until a static file is served.
    ready: async (child) => {
      const deadline = Date.now() + 180_000;
      for (;;) {
        const r = await siteRequest(`http://127.0.0.1:${port}`, '/readme.html', {}, 60_000, signal).catch((e: Error) => (signal.aborted ? Promise.reject(e) : undefined));
        if (r && r.status === 200) return;
        if (child.exitCode !== null) throw new Error('WordPress Playground exited while starting');
        if (Date.now() > deadline) throw new Error('WordPress Playground did not become ready within 180 s');
        await new Promise((res) => setTimeout(res, 250));
      }
    },
  });
}
