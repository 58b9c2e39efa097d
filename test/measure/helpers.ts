// What the measure suites share: whether a process or a port is still there, and the check that a run left nothing
// behind (no temporary folder, no server process, no listening port). Not a test file (no .test.ts).
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as net from 'node:net';

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits (polling) until the process no longer exists, at most ms. */
export async function gone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** What `onResource` reported during a run. */
export type Made = Array<{ root?: string; pid?: number; port?: number }>;

/** Whatever the outcome, nothing is left behind: no temp folder, no server process, no listening port. */
export async function assertNothingLeft(made: Made): Promise<void> {
  for (const r of made.splice(0)) {
    if (r.root) assert.equal(existsSync(r.root), false, `temp folder ${r.root} left behind`);
    if (r.pid) assert.equal(alive(r.pid), false, `process ${r.pid} left running`);
    if (r.port) assert.equal(await listening(r.port), false, `port ${r.port} still listening`);
  }
}
