// Figures 2 and 3 of `npm run bench`: lookups against the emulator (cold, then after a warm restart) against the
// ideal of the latency and concurrency, and hover answered from the cache.
import * as path from 'node:path';
import { BenchClient } from '../src/core/api/client';
import { parseRecord } from '../src/core/api/record';
import { createUndiciTransport } from '../src/core/api/undiciTransport';
import { DiskCache } from '../src/core/cache/diskCache';
import { LookupService, type LookupItem } from '../src/core/lookup/lookupService';
import type { ScanResult } from '../src/core/model';
import { DEMO, knownSlugs, recordFor, startEmulator } from '../src/emulator/server';
import type { GeneratedSite } from './lib/fixtures';
import { HoverIndex, hoverAt } from './lib/hoverIndex';
import { int, percentile, pick, prng, round, shuffle, timed, withTimeout } from './lib/util';
import { check, CONFIG, details, ms, row } from './common';

const LATENCY_MS = 50;
const CONCURRENCY = 4;

// ---- 2. lookups vs the ideal -------------------------------------------------------------------

export async function figureLookups(tmp: string): Promise<{ service: LookupService; cache: DiskCache; client: BenchClient; dispose: () => Promise<void> }> {
  const id = '2';
  const emulator = await startEmulator({ latencyMs: LATENCY_MS, host: '127.0.0.1' });
  const cacheDir = path.join(tmp, 'lookup-cache');
  const make = () => {
    const cache = new DiskCache({ dir: cacheDir });
    const client = new BenchClient({ apiUrl: emulator.url, getKey: () => DEMO.scale, transport: createUndiciTransport, concurrency: CONCURRENCY });
    return { cache, client, service: new LookupService(cache, () => client) };
  };
  try {
    const n = CONFIG.lookups;
    const slugs = knownSlugs('plugin', n);
    const items: LookupItem[] = shuffle(prng(42), [...slugs, ...slugs].map((slug) => ({ kind: 'plugin' as const, slug })));
    const ideal = Math.ceil(n / CONCURRENCY) * LATENCY_MS;

    // Warm the emulator's own code (in real life a server elsewhere) with requests the client under test
    // does not make: built-in fetch, not the undici copy the client uses.
    for (let i = 0; i < 8; i++) {
      await withTimeout(fetch(`${emulator.url}/v1/plugins/warm-up-${i}`, { headers: { authorization: `Bearer ${DEMO.scale}` } }).then((r) => r.arrayBuffer()), 10_000, 'emulator warm-up');
    }
    emulator.resetStats();
    const a = make();
    const cold = await timed(() => withTimeout(a.service.getMany(items, { network: true }), 120_000, 'cold lookups'));
    const coldStats = { total: emulator.stats.total, me: emulator.stats.me, counted: emulator.stats.counted, concurrentMax: emulator.stats.concurrentMax };
    const coldErrors = [...cold.value.values()].filter((o) => o.error || !o.result).length;
    await a.client.dispose();

    emulator.resetStats();
    const b = make();
    const warm = await timed(() => withTimeout(b.service.getMany(items, { network: true }), 120_000, 'warm lookups'));
    const warmStats = { total: emulator.stats.total, me: emulator.stats.me, counted: emulator.stats.counted };
    const warmFromCache = [...warm.value.values()].filter((o) => o.fromCache && o.result).length;

    details.lookups = { slugs: n, occurrences: items.length, latencyMs: LATENCY_MS, concurrency: CONCURRENCY, idealMs: ideal, cold: { wallMs: cold.ms, ...coldStats, errors: coldErrors }, warm: { wallMs: warm.ms, ...warmStats, fromCache: warmFromCache } };
    row(id, `Lookups, cold: ${n} slugs × 2 occurrences, ${LATENCY_MS} ms latency, concurrency ${CONCURRENCY}`, `${ms(cold.ms)} (ideal ${ms(ideal)}, ×${round(cold.ms / ideal, 2)}; ${coldErrors} errors)`, `≤ 1.25 × ideal = ${ms(1.25 * ideal)}`, check(cold.ms <= 1.25 * ideal && coldErrors === 0));
    row(id, 'Requests counted by the emulator, cold', `${coldStats.counted} (max ${coldStats.concurrentMax} in flight)`, `exactly ${n}`, check(coldStats.counted === n));
    row(id, 'Requests after a warm restart (new cache, client, service)', `${warmStats.total} (${ms(warm.ms)}; ${warmFromCache}/${n} from cache)`, '0', check(warmStats.total === 0 && warmFromCache === n));
    row(id, '/me requests during both runs', `${coldStats.me + warmStats.me}`, '≤ 1', check(coldStats.me + warmStats.me <= 1));
    return { ...b, dispose: async () => void (await b.client.dispose()) };
  } finally {
    await emulator.close();
  }
}

// ---- 3. hover from cache -----------------------------------------------------------------------

export async function figureHover(scan: ScanResult, site: GeneratedSite, lookups: { service: LookupService; cache: DiskCache; client: BenchClient }): Promise<void> {
  const id = '3';
  // Every composer slug cached (most are from figure 2; the rest are written now, as a lookup would).
  let filled = 0;
  for (const slug of site.composerSlugs) {
    if (lookups.service.peek('plugin', slug)) continue;
    const wire = recordFor('plugin', slug);
    await lookups.cache.set(lookups.client.apiId, 'plugin', slug, wire ? parseRecord(JSON.parse(JSON.stringify(wire)), 'plugin', slug) : { state: 'not-in-dataset', kind: 'plugin', slug });
    filled++;
  }
  const index = new HoverIndex();
  index.rebuildFrom(scan.root, scan.components);
  const targets = scan.components.flatMap((c) => c.locations.filter((l) => l.source === 'composer.json').map((l) => ({ c, l })));
  if (targets.length === 0) throw new Error('no composer.json locations to hover');
  const rnd = prng(7);
  const times: number[] = [];
  let misses = 0;
  for (let i = 0; i < CONFIG.hovers; i++) {
    const { l } = pick(rnd, targets);
    const file = path.join(scan.root, l.file);
    const character = l.column - 1 + int(rnd, 0, Math.max(0, l.length - 1));
    const t0 = process.hrtime.bigint();
    const md = hoverAt(index, lookups.service, file, l.line - 1, character);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (!md || md.includes('Not looked up yet')) misses++;
  }
  const p50 = percentile(times, 50);
  const p95 = percentile(times, 95);
  details.hover = { hovers: times.length, composerEntries: targets.length, filledBeforeHover: filled, p50Ms: p50, p95Ms: p95, p99Ms: percentile(times, 99), maxMs: Math.max(...times), firstMs: times[0], misses };
  row(id, `Hover from cache: ${times.length} hovers over ${targets.length} composer.json entries`, `p50 ${round(p50, 3)} ms, p95 ${round(p95, 3)} ms (first ${round(times[0], 2)} ms, max ${round(Math.max(...times), 2)} ms; ${misses} not cached)`, 'p95 ≤ 2 ms', check(p95 <= 2 && misses === 0));
}
