// Heap growth of WP Bench's core state in Node: scan result + lookup cache (in memory) + hover index.
// Run by bench.ts as: node --expose-gc --import tsx bench/memory.ts <siteDir> <emptyCacheDir>
// Prints one JSON line: {components, cached, indexRanges, heapBefore, heapAfter, heapGrowth, rssGrowth, ...}.
// This is NOT the whole extension host: no VS Code objects (tree items, diagnostics, decorations).
import { BenchClient } from '../src/core/api/client';
import { parseRecord } from '../src/core/api/record';
import { DiskCache } from '../src/core/cache/diskCache';
import { LookupService } from '../src/core/lookup/lookupService';
import type { LookupResult } from '../src/core/model';
import { scanWorkspace } from '../src/core/scan';
import { recordFor } from '../src/emulator/server';
import { HoverIndex } from './lib/hoverIndex';

const gc = (globalThis as { gc?: () => void }).gc;

function collect(): void {
  if (!gc) throw new Error('run with node --expose-gc');
  for (let i = 0; i < 4; i++) gc();
}

async function main(): Promise<void> {
  const [site, cacheDir] = process.argv.slice(2);
  if (!site || !cacheDir) throw new Error('usage: memory.ts <siteDir> <cacheDir>');
  // A client only for its apiId (the cache key); it never sends anything here.
  const client = new BenchClient({
    apiUrl: 'http://127.0.0.1:9/api',
    getKey: () => 'unused',
    transport: () => {
      throw new Error('no network in the memory benchmark');
    },
  });

  // Setup, outside the measurement: one scan to learn the slugs, then the cache files on disk.
  {
    const first = await scanWorkspace(site);
    const writer = new DiskCache({ dir: cacheDir });
    let i = 0;
    for (const c of first.components) {
      if (i++ >= 100_000) break;
      const wire = recordFor(c.kind, c.slug);
      const result: LookupResult = wire ? parseRecord(JSON.parse(JSON.stringify(wire)), c.kind, c.slug) : { state: 'not-in-dataset', kind: c.kind, slug: c.slug };
      await writer.set(client.apiId, c.kind, c.slug, result);
    }
  }

  collect();
  const before = process.memoryUsage();

  // The state WP Bench keeps for an open workspace: scan result, cache loaded in memory, hover index.
  const scan = await scanWorkspace(site);
  const cache = new DiskCache({ dir: cacheDir });
  const lookups = new LookupService(cache, () => client);
  const outcomes = await lookups.getMany(scan.components.map((c) => ({ kind: c.kind, slug: c.slug })), { network: false });
  const index = new HoverIndex();
  index.rebuildFrom(scan.root, scan.components);
  let cached = 0;
  for (const c of scan.components) if (lookups.peek(c.kind, c.slug)) cached++;

  collect();
  const after = process.memoryUsage();
  const keep = [scan, cache, lookups, outcomes, index];
  console.log(
    JSON.stringify({
      components: scan.components.length,
      plugins: scan.components.filter((c) => c.kind === 'plugin').length,
      cached,
      indexRanges: index.size,
      heapBefore: before.heapUsed,
      heapAfter: after.heapUsed,
      heapGrowth: after.heapUsed - before.heapUsed,
      externalGrowth: after.external - before.external,
      rssGrowth: after.rss - before.rss,
      kept: keep.length,
    }),
  );
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : String(err));
  process.exit(1);
});
