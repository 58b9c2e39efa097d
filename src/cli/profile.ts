// What `measure --profile` says in the terminal (English, as the CLI): per context, the component's functions that spend the most time
// (inclusive, per request), where they are defined, their queries and the hooks they run on.
import type { LocalRecord } from '../core/measure/method';
import { CONTEXT_NAMES } from '../core/model';

/** Functions listed per context in the table (the JSON has them all). */
export const PROFILE_TOP = 5;

const fmt = (ms: number) => `${ms >= 100 ? Math.round(ms) : ms.toFixed(1)} ms`;

export function profileLines(r: LocalRecord, top = PROFILE_TOP): string[] {
  const p = r.profile;
  if (!p) return [];
  const out = [`Where the time goes (${p.profiler}, every ${p.period_ms} ms, ${p.rounds} profiled requests per context after the timed ones; inclusive time per request):`];
  for (const ctx of CONTEXT_NAMES) {
    const c = p.contexts[ctx];
    if (!c) {
      out.push(`  ${ctx}: not measured`);
      continue;
    }
    if (!c.functions.length) {
      out.push(`  ${ctx}: none of the component's functions was seen (under the ${p.period_ms} ms sampling period, or its code runs outside functions)`);
      continue;
    }
    out.push(`  ${ctx}: the component's functions on the stack ${fmt(c.component_ms)} of ${fmt(c.sampled_ms)} sampled`);
    for (const f of c.functions.slice(0, top)) {
      const q = f.queries ? ` · ${Math.round(f.queries * 10) / 10} ${f.queries === 1 ? 'query' : 'queries'}` : '';
      const hooks = f.hooks.length ? ` · on ${f.hooks.slice(0, 3).join(', ')}${f.hooks.length > 3 ? ', …' : ''}` : '';
      out.push(`    ${fmt(f.ms).padStart(8)}  ${f.function} (${f.file}:${f.line})${q}${hooks}`);
    }
    if (c.functions.length > top) out.push(`    … ${c.functions.length - top} more in --json`);
  }
  return out;
}
