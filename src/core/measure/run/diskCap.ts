// The cap on what the measured code writes: the run's writable folders (uploads, caches, its temporary folders, the
// database's folder) are summed by the blocks they hold (a sparse file counts what it uses, not its apparent size)
// every second; past the cap the run is ended (exit 7) and cleaned up as after any error. The sandbox's own /tmp,
// /dev/shm, /run and /var are memory-backed folders capped by their size (SANDBOX_TMPFS_BYTES each).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { MeasureError } from '../options/runOptions';

/** Bytes the folders hold on disk (allocated blocks), links not followed; stops counting past `stopAt`. */
export async function diskUsage(roots: readonly string[], stopAt = Number.POSITIVE_INFINITY): Promise<number> {
  let total = 0;
  const walk = async (p: string): Promise<void> => {
    if (total > stopAt) return;
    const st = await fs.lstat(p).catch(() => undefined);
    if (!st) return;
    total += st.blocks !== undefined ? st.blocks * 512 : st.size;
    if (!st.isDirectory()) return;
    for (const name of await fs.readdir(p).catch(() => [] as string[])) await walk(path.join(p, name));
  };
  for (const r of roots) await walk(r);
  return total;
}

/**
 * Watches `roots` every `everyMs` until stopped; calls `over` once with a MeasureError (exit 7) when they hold more
 * than `limitMiB` MiB beyond what they held at `rebase()` (WordPress installed: WP Bench's own writes are not the
 * measured code's). `stop()` ends the watch.
 */
export function watchDisk(roots: () => readonly string[], limitMiB: number, over: (err: MeasureError) => void, everyMs = 1000): { stop: () => void; rebase: () => Promise<void> } {
  const limit = limitMiB * 1024 * 1024;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  // What WP Bench itself put there before the measured code ran (the database's data folder, WordPress installed).
  let base = 0;
  const tick = async () => {
    if (stopped) return;
    const used = await diskUsage(roots(), base + limit);
    if (stopped) return;
    if (used - base > limit) {
      stopped = true;
      over(new MeasureError(`the measured code wrote more than ${limitMiB} MiB into the run's folders (uploads, caches, temporary files, the database): the run was stopped (--disk-limit-mib ${limitMiB})`, 7));
      return;
    }
    timer = setTimeout(() => void tick(), everyMs);
    timer.unref?.();
  };
  timer = setTimeout(() => void tick(), everyMs);
  timer.unref?.();
  return {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
    rebase: async () => {
      base = await diskUsage(roots());
    },
  };
}
