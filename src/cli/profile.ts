// What `measure --profile` says in the terminal (English, as the CLI): per context, the component's functions that spend the most time
// (inclusive, per request), where they are defined, their queries and the hooks they run on.
import type { LocalRecord } from '../core/measure/record/method';
import type { FunctionCost } from '../core/measure/profile/types';
import { CONTEXT_NAMES } from '../core/model';
import { formatInstructions } from '../core/present/format';

/** Functions listed per context in the table (the JSON has them all). */
export const PROFILE_TOP = 5;

const fmtMs = (ms: number) => `${ms >= 100 ? Math.round(ms) : ms.toFixed(1)} ms`;

export function profileLines(r: LocalRecord, top = PROFILE_TOP): string[] {
  const p = r.profile;
  if (!p) return [];
  // A profile by instructions (--profile --instructions): the same lines, in instructions; "own" from 0.5 % of the request.
  const ins = p.unit === 'instructions';
  const fmt = ins ? (x: number) => formatInstructions(x) : fmtMs;
  const out = [
    ins
      ? `Where the instructions go (${p.profiler}, ${p.rounds} counted request${p.rounds === 1 ? '' : 's'} per context after a warm-up; inclusive CPU instructions per request, the same on a repeat):`
      : `Where the time goes (${p.profiler}, every ${p.period_ms} ms, ${p.rounds} profiled requests per context after the timed ones; inclusive time per request):`,
  ];
  for (const ctx of CONTEXT_NAMES) {
    const c = p.contexts[ctx];
    if (!c) {
      out.push(`  ${ctx}: not measured`);
      continue;
    }
    if (!c.functions.length) {
      out.push(ins ? `  ${ctx}: none of the component's functions ran (its code runs outside functions)` : `  ${ctx}: none of the component's functions was seen (under the ${p.period_ms} ms sampling period, or its code runs outside functions)`);
      continue;
    }
    out.push(`  ${ctx}: the component's functions on the stack ${fmt(c.component_ms)} of ${fmt(c.sampled_ms)} ${ins ? 'counted' : 'sampled'}`);
    // Own figures worth a line: 0.5 ms, or 0.5 % of the request's instructions.
    const small = ins ? 0.005 * c.sampled_ms : 0.5;
    const line = (f: FunctionCost) => {
      const own = f.ms - f.self_ms >= small ? ` (own ${fmt(f.self_ms)})` : '';
      const q = f.queries ? ` · ${Math.round(f.queries * 10) / 10} ${f.queries === 1 ? 'query' : 'queries'}` : '';
      const hooks = f.hooks.length ? ` · on ${f.hooks.slice(0, 3).join(', ')}${f.hooks.length > 3 ? ', …' : ''}` : '';
      return `    ${fmt(f.ms).padStart(ins ? 13 : 8)}  ${f.function} (${f.file}:${f.line})${own}${q}${hooks}`;
    };
    const shown = c.functions.slice(0, top);
    for (const f of shown) out.push(line(f));
    // Inclusive times of a chain of callers are alike; where the work itself is, by own time, when not listed yet.
    const ownTop = [...c.functions].filter((f) => !shown.includes(f) && f.self_ms >= small).sort((a, b) => b.self_ms - a.self_ms).slice(0, 3);
    if (ownTop.length) {
      out.push(ins ? '    most instructions of their own:' : '    most time of their own:');
      for (const f of ownTop) out.push(line(f));
    }
    const rest = c.functions.length - shown.length - ownTop.length;
    if (rest > 0) out.push(`    … ${rest} more in --json`);
  }
  return out;
}
