// Figure 5 of `npm run bench`: heap growth of the core state, measured by bench/memory.ts in a child process.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import type { GeneratedSite } from './lib/fixtures';
import { check, details, mib, ROOT, row } from './common';

// ---- 5. memory ---------------------------------------------------------------------------------

export function figureMemory(site: GeneratedSite, tmp: string): void {
  const id = '5';
  const cacheDir = path.join(tmp, 'memory-cache');
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(__dirname, 'memory.ts'), site.dir, cacheDir], { cwd: ROOT, encoding: 'utf8', timeout: 300_000, maxBuffer: 16 * 1024 * 1024 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`memory.ts failed (${r.status}): ${r.stderr.slice(-1500)}`);
  const m = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as { components: number; plugins: number; cached: number; indexRanges: number; heapGrowth: number; rssGrowth: number };
  details.memory = m;
  row(
    id,
    'Heap growth: core state in Node (scan + cache + hover index), not the whole extension host',
    `${mib(m.heapGrowth)} for ${m.components} components, ${m.cached} cached, ${m.indexRanges} hover ranges (RSS +${mib(m.rssGrowth)})`,
    '≤ 25 MB',
    check(m.heapGrowth <= 25 * 1000 * 1000),
  );
}
