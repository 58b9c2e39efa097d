// Local records for the report tests of `measure` and `measure --baseline-ref`: the same three requests on the clean
// side, a component that adds fixed amounts in every context, and, for `--instructions`, recorded instruction counts.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { buildRecord, type ContextSamples, type LocalRecord, type Sample } from '../../../src/core/measure/record/method';
import { compareRecords, type PairedTtfb, type RegressionPolicy } from '../../../src/core/measure/compare/regression';
import type { RegressionSubject } from '../../../src/core/report/regressionFormats';

const s = (ttfbMs: number, memoryKb: number, queries: number): Sample => ({ ttfbMs, memoryBytes: memoryKb * 1024, queries });
const base = [s(40, 4000, 10), s(41, 4000, 10), s(39, 4000, 10)];

/** A record of plugin acme-plugin adding ttfb ms, memKb KiB and queries in each context; admin a fatal error with 'fatal'. */
export function localRecord(name: string, ttfb: number, memKb: number, queries: number, admin: 'ok' | 'fatal' = 'ok', rounds = 3): LocalRecord {
  const m: ContextSamples = { baseline: base, measured: base.map((b) => s(b.ttfbMs + ttfb, b.memoryBytes / 1024 + memKb, b.queries + queries)) };
  return buildRecord(
    { slug: 'acme-plugin', kind: 'plugin', name, version: '1.0' },
    { activation: m, homepage: m, admin: admin === 'ok' ? m : { reason: 'PHP fatal error', status: 500, php_error: 'boom' } },
    { runtime: 'php', wordpress_version: '6.1.9', php_version: '8.2.7', rounds, warmup_rounds: 1, baseline_theme: 'twentytwentythree', activation_hook: null, duration_s: 3 },
    new Date('2026-11-25T10:00:00Z'),
  );
}

/** The clean site's median count of the instruction records: 290 M instructions per request. */
export const CLEAN_INSTRUCTIONS = 290_000_000;

/**
 * The record with `--instructions` figures as the engine writes them: in each measured context the component's delta,
 * the clean side's median count (CLEAN_INSTRUCTIONS) and the spread (the larger max − min range of the two sides).
 */
export function withInstructions(r: LocalRecord, delta: number, spread = 20_000): LocalRecord {
  const out: LocalRecord = structuredClone(r);
  for (const c of ['activation', 'homepage', 'admin'] as const) {
    if (!out.contexts[c]) continue;
    out.contexts[c] = { ...out.contexts[c]!, instructions_delta: delta };
    out.local.baseline[c] = { ...out.local.baseline[c]!, instructions: CLEAN_INSTRUCTIONS };
    out.local.spread[c] = { ...out.local.spread[c]!, instructions: spread };
  }
  out.local.instructions = { counter: 'callgrind', opcache: 'warm', clock: 'set', rounds: r.local.rounds };
  return out;
}

/** A regression subject: the working tree against `main`, judged with the policy (10 % by default) and the pairs. */
export function regressionSubject(current: LocalRecord, baseline: LocalRecord, policy: RegressionPolicy = { maxRegressionPercent: 10, ceilings: {} }, paired?: PairedTtfb): RegressionSubject {
  return { ref: 'main', commit: 'a'.repeat(40), current, baseline, report: compareRecords(current, baseline, policy, paired), mainFile: 'acme/acme.php' };
}

/**
 * What the reports printed before `--instructions` existed, for records without counts built by these helpers
 * (test/fixtures/report/without-instructions.json, written by the code at the commit before): measureTable of
 * localRecord('Acme', 12.5, 300, 2, 'fatal'); the regression formats of the working tree +16 ms, +3 MB, +5 queries,
 * admin fatal, against +10 ms, +1 MB, +2 queries (10 %, a homepage ceiling of 4 queries, the pairs of
 * WITHOUT_INSTRUCTIONS_PAIRS); passedTable/passedMarkdown of a record against itself.
 */
export function beforeInstructions(): Record<'measureTable' | 'regressionTable' | 'regressionMarkdown' | 'regressionHtml' | 'regressionJson' | 'regressionSarif' | 'passedTable' | 'passedMarkdown', string> {
  return JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', 'fixtures', 'report', 'without-instructions.json'), 'utf8'));
}

export const WITHOUT_INSTRUCTIONS_PAIRS: PairedTtfb = { activation: [-30, 20, 8, 9, 7], homepage: [0, 0, 0, 0, 0], admin: [0, 0, 0, 0, 0] };
