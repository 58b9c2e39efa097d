// Judge inputs for report tests: a plugin measured the same in every context, declared in composer.json.
import { parseRecord } from '../../../src/core/api/record';
import type { LookupOutcome } from '../../../src/core/lookup/lookupService';
import type { DetectedComponent } from '../../../src/core/model';
import { sampleBody } from './samples';

export type Measured = { ttfb_delta_ms: number; memory_delta_kb: number; queries_delta: number };
export function measured(slug: string, m: Measured): LookupOutcome {
  const body = sampleBody({ slug, name: `Name of ${slug}`, speed_score: { grade: 'A', numeric: 90 }, contexts: { activation: m, homepage: m, admin: m } });
  return { kind: 'plugin', slug, result: parseRecord(body, 'plugin', slug), stale: false, fromCache: true, fetchedAt: 0 };
}
export function composerPlugin(slug: string, line = 3): DetectedComponent {
  return { kind: 'plugin', slug, name: null, version: null, locations: [{ file: 'composer.json', line, column: 6, length: 20, source: 'composer.json' }] };
}
