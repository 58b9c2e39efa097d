// Processes the measured code leaves running after its request. Inside the sandbox such a process lives until the run
// ends, beside the PHP server that serves every side in turn: it could stop the server while the other side's request
// runs (a slower clean side), or rewrite that request's probe record as it appears (a forged figure). So after every
// request, before the next, every process of the PHP sandbox that is not the server's own (the server, its relay, the
// sandbox's init) is killed. Linux only: read from /proc on the host (the sandbox itself has none).
import { readdirSync, readFileSync } from 'node:fs';

/** A process's parent and state from /proc/PID/stat, or undefined once it is gone. */
function stat(pid: number): { ppid: number; state: string; name: string } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // "PID (name) S PPID …": the name may hold spaces and parentheses; the last ")" ends it.
    const close = text.lastIndexOf(')');
    const rest = text.slice(close + 2).split(' ');
    return { ppid: Number(rest[1]), state: rest[0], name: text.slice(text.indexOf('(') + 1, close) };
  } catch {
    return undefined;
  }
}

/** The children of `pid`, through /proc/PID/task/TID/children where the kernel has it. */
function childrenOf(pid: number): number[] | undefined {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const t of tasks) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/task/${t}/children`, 'latin1');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' && t === String(pid)) return undefined;
      continue;
    }
    for (const c of text.trim().split(/\s+/)) if (c) out.push(Number(c));
  }
  return out;
}

/** Every living (not zombie) descendant of `root`, with its name. */
export function descendants(root: number): Map<number, string> {
  const out = new Map<number, string>();
  let byParent: Map<number, number[]> | undefined;
  const kids = (pid: number): number[] => {
    const direct = childrenOf(pid);
    if (direct) return direct;
    // No children files (an older kernel): one scan of every process's parent.
    if (!byParent) {
      byParent = new Map();
      for (const e of readdirSync('/proc')) {
        if (!/^\d+$/.test(e)) continue;
        const s = stat(Number(e));
        if (s) byParent.set(s.ppid, [...(byParent.get(s.ppid) ?? []), Number(e)]);
      }
    }
    return byParent.get(pid) ?? [];
  };
  const todo = [root];
  while (todo.length) {
    const pid = todo.pop()!;
    for (const c of kids(pid)) {
      if (out.has(c) || c === root) continue;
      const s = stat(c);
      if (!s) continue;
      if (s.state !== 'Z') out.set(c, s.name);
      todo.push(c);
    }
  }
  return out;
}

/**
 * Kills every descendant of `root` not in `expected`, and again those started meanwhile, until none is left: a killed
 * process takes a moment to die (longer on a busy machine), so each is waited for, at most `timeoutMs` in all. Returns
 * the names of those killed, and whether some were still there at the end (a plugin forking faster than it is killed).
 */
export async function killLeftovers(root: number, expected: ReadonlySet<number>, timeoutMs = 5000): Promise<{ killed: string[]; stuck: boolean }> {
  const killed: string[] = [];
  const signalled = new Set<number>();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const extra = [...descendants(root)].filter(([pid]) => !expected.has(pid));
    if (!extra.length) return { killed, stuck: false };
    if (Date.now() > deadline) return { killed, stuck: true };
    for (const [pid, name] of extra) {
      try {
        process.kill(pid, 'SIGKILL');
        if (!signalled.has(pid)) killed.push(name);
        signalled.add(pid);
      } catch {
        /* gone meanwhile */
      }
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}
