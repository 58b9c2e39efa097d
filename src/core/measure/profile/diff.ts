// `--baseline-ref REF --profile`: where a change's milliseconds come from. The two copies' profiles, function by
// function (matched by name and file; the line may have moved), with the change of inclusive time and queries per
// request, largest change first.
import type { FunctionCost, LocalProfile } from './types';

export interface FunctionChange {
  function: string;
  file: string;
  /** the working tree's line (REF's where the function is gone) */
  line: number;
  hooks: string[];
  ms_current: number;
  ms_baseline: number;
  ms_difference: number;
  queries_difference: number;
}

export interface ProfileDiff {
  contexts: Record<'activation' | 'homepage' | 'admin', FunctionChange[] | null>;
}

const r2 = (x: number) => Math.round(x * 100) / 100 || 0; // never -0
const key = (f: FunctionCost) => `${f.function}\u0000${f.file}`;

export function profileDiff(current: LocalProfile, baseline: LocalProfile): ProfileDiff {
  const contexts = {} as ProfileDiff['contexts'];
  for (const ctx of ['activation', 'homepage', 'admin'] as const) {
    const cur = current.contexts[ctx];
    const base = baseline.contexts[ctx];
    if (!cur || !base) {
      contexts[ctx] = null;
      continue;
    }
    const before = new Map(base.functions.map((f) => [key(f), f]));
    const out: FunctionChange[] = [];
    for (const f of cur.functions) {
      const b = before.get(key(f));
      before.delete(key(f));
      out.push({ function: f.function, file: f.file, line: f.line, hooks: f.hooks, ms_current: f.ms, ms_baseline: b?.ms ?? 0, ms_difference: r2(f.ms - (b?.ms ?? 0)), queries_difference: r2(f.queries - (b?.queries ?? 0)) });
    }
    for (const b of before.values()) out.push({ function: b.function, file: b.file, line: b.line, hooks: b.hooks, ms_current: 0, ms_baseline: b.ms, ms_difference: r2(-b.ms), queries_difference: r2(-b.queries) });
    out.sort((a, b) => Math.abs(b.ms_difference) - Math.abs(a.ms_difference) || Math.abs(b.queries_difference) - Math.abs(a.queries_difference));
    contexts[ctx] = out;
  }
  return { contexts };
}

/** "+18.2 ms in `Acme_Loader::boot` (inc/loader.php:42, on init)" — the largest growth of a context, as words. */
export function changeWords(c: FunctionChange): { amount: string; where: string } {
  const sign = c.ms_difference > 0 ? '+' : c.ms_difference < 0 ? '−' : '±';
  const q = c.queries_difference ? `, ${c.queries_difference > 0 ? '+' : '−'}${Math.abs(c.queries_difference)} ${Math.abs(c.queries_difference) === 1 ? 'query' : 'queries'}` : '';
  return { amount: `${sign}${Math.abs(c.ms_difference).toFixed(1)} ms${q}`, where: `${c.file}:${c.line}${c.hooks.length ? `, on ${c.hooks.slice(0, 2).join(', ')}` : ''}` };
}

/** The changes worth naming in a report: grown by at least `minMs` (or by a query), largest first, at most `top`. */
export function growth(diff: ProfileDiff, ctx: 'activation' | 'homepage' | 'admin', top = 3, minMs = 1): FunctionChange[] {
  return (diff.contexts[ctx] ?? []).filter((c) => c.ms_difference >= minMs || c.queries_difference >= 1).slice(0, top);
}
