// `measure SITE --site --shard K/N` and `wp-bench merge`: a large site spread over several jobs (a CI matrix). Each
// shard measures the clean site and the stack itself, so its deltas stand alone, and every N-th member alone and in
// the site; merging takes each member from the shard that measured it, the stack from the first shard, and adds the
// sum of the parts up again.
import { sumCounted } from './siteCounts';
import { CONTEXTS, type MeasureContext } from '../record/method';
import { sumOfParts } from './sitePlan';
import { printable, siteRecordProblem } from './shardShape';
import { isSiteRecord, type SiteComponentResult, type SiteRecord } from './siteRecord';

/** Why a set of records cannot be merged (said with exit 2). */
export class MergeError extends Error {}

/**
 * One record from the shards' records: all N shards of one run (same N, each K once), measured on the same WordPress,
 * PHP, database and theme. The stack is shard 1's (each shard's deltas are against its own stack and clean site);
 * each member comes from the shard that measured it; the sum of the parts is added up again. Each record is checked
 * first (shardShape.ts): what is wrong is said with its name (`names`, e.g. its file; else "record 2") and the field.
 * A single record measured without --shard (saved earlier) is returned as it is, to be shown again in any format.
 */
export function mergeSiteRecords(records: readonly unknown[], names: readonly string[] = []): SiteRecord {
  if (!records.length) throw new MergeError('nothing to merge: give the shards\' JSON records (measure SITE --site --shard K/N --json)');
  const recs = records.map((r, i) => {
    const name = names[i] === undefined ? `record ${i + 1}` : printable(names[i]);
    const problem = siteRecordProblem(r);
    if (problem) throw new MergeError(`${name}: ${problem}`);
    if (!isSiteRecord(r)) throw new MergeError(`${name} is not a site record (measure SITE --site --json)`);
    if (!r.local.shard && records.length > 1) throw new MergeError(`${name} is not a shard's (it was measured without --shard)`);
    return r;
  });
  // A single record measured without --shard (one saved earlier): shown again as it is.
  if (!recs[0].local.shard) return recs[0];
  const n = recs[0].local.shard!.n;
  const ks = recs.map((r) => r.local.shard!.k).sort((a, b) => a - b);
  if (recs.some((r) => r.local.shard!.n !== n)) throw new MergeError(`the records are shards of different splits (${listed([...new Set(recs.map((r) => `/${r.local.shard!.n}`))])})`);
  const missing = Array.from({ length: n }, (_, i) => i + 1).filter((k) => !ks.includes(k));
  const doubled = ks.filter((k, i) => ks[i - 1] === k);
  if (missing.length || doubled.length) throw new MergeError(`shards of ${n}: ${missing.length ? `missing ${listed(missing)}` : ''}${missing.length && doubled.length ? '; ' : ''}${doubled.length ? `given twice ${listed([...new Set(doubled)])}` : ''}`);
  const facts = (r: SiteRecord) => `WordPress ${r.local.wordpress}, PHP ${r.local.php}, ${r.local.database?.engine ?? 'sqlite'} ${r.local.database?.version ?? ''}, theme ${r.local.theme ?? 'none'}, ${r.local.rounds} rounds`;
  // The same site: the same members, each with the same files, and the same ones left out.
  const site = (r: SiteRecord) => r.components.map((c) => `${c.kind}:${c.must_use ? 'mu:' : ''}${c.slug}@${c.hash ?? ''}${c.left_out ? ' (left out)' : ''}`).sort().join(', ');
  if (new Set(recs.map(site)).size > 1) throw new MergeError('the shards measured different sites (other members, other files or other members left out): measure every shard from the same commit');
  if (new Set(recs.map(facts)).size > 1) throw new MergeError(`the shards were measured on different set-ups: ${listed([...new Set(recs.map(facts))].map((x) => printable(x)), 3, ' / ')}`);
  const first = recs.find((r) => r.local.shard!.k === 1)!;
  const key = (c: SiteComponentResult) => `${c.kind}:${c.must_use ? 'mu:' : ''}${c.slug}`;
  const members = new Map<string, SiteComponentResult>();
  for (const r of [...recs].sort((a, b) => a.local.shard!.k - b.local.shard!.k)) {
    for (const c of r.components) {
      const had = members.get(key(c));
      // The shard that measured it wins over the others' "measured in another shard".
      if (!had || (had.other_shard && !c.other_shard)) members.set(key(c), c);
    }
  }
  const components = [...members.values()].map((c) => (c.other_shard ? { ...c, note: 'measured in none of the shards given', other_shard: undefined } : c));
  const counted = components.filter((c) => !c.left_out && !c.note);
  const per = <T>(f: (c: MeasureContext) => T) => Object.fromEntries(CONTEXTS.map((c) => [c, f(c)])) as Record<MeasureContext, T>;
  return {
    ...first,
    components,
    sum_of_alone: {
      contexts: sumCounted(per((c) => sumOfParts(counted.map((m) => m.alone?.contexts[c]))), counted.flatMap((m) => (m.alone ? [m.alone.contexts] : []))),
      not_counted: per((c) => counted.filter((m) => !m.alone?.contexts[c]).map((m) => m.slug)),
    },
    ...(recs.some((r) => r.instructions_varying?.length) ? { instructions_varying: [...new Map(recs.flatMap((r) => r.instructions_varying ?? []).map((d) => [`${d.config} ${d.context}`, d])).values()] } : {}),
    ...(recs.some((r) => r.state_dependent?.length) ? { state_dependent: [...new Map(recs.flatMap((r) => r.state_dependent ?? []).map((d) => [`${d.config} ${d.context}`, d])).values()] } : {}),
    local: {
      ...first.local,
      shard: undefined,
      shards: n,
      configurations: recs.reduce((a, r) => a + r.local.configurations, 0),
      rounds_taken: mergedRounds(recs),
      duration_s: Math.max(...recs.map((r) => r.local.duration_s)),
    },
  };
}

/** The shards' rounds taken: the fewest and most of any, the median of their medians (absent when none kept them). */
function mergedRounds(recs: readonly SiteRecord[]): SiteRecord['local']['rounds_taken'] {
  const all = recs.flatMap((r) => (r.local.rounds_taken ? [r.local.rounds_taken] : []));
  if (!all.length) return undefined;
  const meds = all.map((x) => x.median).sort((a, b) => a - b);
  return { min: Math.min(...all.map((x) => x.min)), median: meds[meds.length >> 1], max: Math.max(...all.map((x) => x.max)) };
}

/** A list for a one-line message: the first few, then the last and how many in all ("2, 3, 4, …, 1000 (999 of them)"). */
function listed(xs: ReadonlyArray<string | number>, max = 8, sep = ', '): string {
  return xs.length <= max ? xs.join(sep) : `${xs.slice(0, max - 1).join(sep)}${sep}…${sep}${xs[xs.length - 1]} (${xs.length} of them)`;
}
