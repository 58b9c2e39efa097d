// Pure: what the profiling extension (./instructionsExt.ts) adds to the counts of `--profile --instructions`, taken out
// again. Every PHP function call through its hook runs PHP's executor once more (without the hook the executor runs
// the called function in the same loop): a fixed number of instructions per kind of call (from PHP code or from C —
// a callback —, to one of the component's functions or another), measured on the machine's PHP by the calibration
// scripts below. The extension counts, per request and per function, the calls of each kind made inside it (`incl`:
// inside its outermost call; `self`: with it the innermost of the component's functions); those times each kind's
// cost are subtracted from its inclusive and own figures, and the whole request's from the total.
import { instructionsProfile, type MappedFunction, type TrampolineContext } from './instructionsProfile';
import type { FlameNode, FunctionCost } from './types';

/** Instructions one call adds, per kind: [PHP → another's, PHP → the component's, C → another's, C → the component's]. */
export type CallCosts = [number, number, number, number];

/** One request's calls of each kind: all of them, and per function id (incl 4 kinds, then self 4 kinds). */
export interface RequestCalls {
  all: number[];
  byId: Map<number, number[]>;
}

/** The extension's calls file: `R \t request \t 4 counts`, then `id \t 8 counts` lines. */
export function parseCalls(text: string): Map<number, RequestCalls> {
  const out = new Map<number, RequestCalls>();
  let cur: RequestCalls | undefined;
  for (const l of text.split('\n')) {
    const f = l.split('\t');
    if (f[0] === 'R' && f.length === 6) out.set(Number(f[1]), (cur = { all: f.slice(2).map(Number), byId: new Map() }));
    else if (cur && f.length === 9 && /^\d+$/.test(f[0]!)) cur.byId.set(Number(f[0]), f.slice(1).map(Number));
  }
  return out;
}

/**
 * The calibration, calls as WordPress makes them: from a function of the component (the extension then counts the call
 * against it) to a function defined in another file, of the component's (comp/) or not (other/). `main.php A B C D`:
 * A calls from PHP code to another's function, B to the component's, C and D the same as callbacks (array_map).
 */
export function calibrationScripts(): { files: Record<string, string>; calls: number } {
  const loop = (name: string, callee: string, cb: boolean) =>
    cb ? `function ${name}($n) { $a = array_fill(0, $n, 1); return array_map('${callee}', $a); }` : `function ${name}($n) { $s = 0; for ($i = 0; $i < $n; $i++) { $s = ${callee}($s); } return $s; }`;
  return {
    calls: 4000,
    files: {
      'other/f.php': '<?php function wpbench_cal_o($x) { return $x + 1; }\n',
      'comp/f.php': '<?php function wpbench_cal_c($x) { return $x + 1; }\n',
      'comp/loops.php': `<?php\n${loop('wpbench_cal_0', 'wpbench_cal_o', false)}\n${loop('wpbench_cal_1', 'wpbench_cal_c', false)}\n${loop('wpbench_cal_2', 'wpbench_cal_o', true)}\n${loop('wpbench_cal_3', 'wpbench_cal_c', true)}\n`,
      'main.php': `<?php require __DIR__ . '/other/f.php'; require __DIR__ . '/comp/f.php'; require __DIR__ . '/comp/loops.php';
wpbench_cal_0((int) $argv[1]); wpbench_cal_1((int) $argv[2]); wpbench_cal_2((int) $argv[3]); wpbench_cal_3((int) $argv[4]);
`,
    },
  };
}

const dot = (a: readonly number[], b: readonly number[], from = 0) => a.reduce((s, x, i) => s + x * (b[from + i] ?? 0), 0);

/**
 * One context's counted requests → the component's functions by instructions per request, less what the extension
 * added (a figure never goes below 0), and the tree of its functions scaled alike.
 */
export function correctedProfile(
  reqs: readonly { dump: { total: number; contexts: TrampolineContext[] }; calls?: RequestCalls }[],
  map: Map<number, MappedFunction>,
  rel: (file: string) => string | undefined,
  name: string,
  costs: CallCosts,
): { functions: FunctionCost[]; sampled_ms: number; component_ms: number; flame: FlameNode } {
  const raw = instructionsProfile(
    reqs.map((r) => r.dump),
    map,
    rel,
    name,
  );
  const N = reqs.length || 1;
  // Per function key (as the profile names it): the instructions to take out, inclusive and own, per request.
  const off = new Map<string, { incl: number; self: number }>();
  let total = 0;
  for (const r of reqs) {
    if (!r.calls) continue;
    total += dot(costs, r.calls.all);
    for (const [id, c] of r.calls.byId) {
      const m = map.get(id);
      if (!m) continue;
      const key = `${rel(m.file) ?? m.file.replace(/^.*\//, '')}:${m.line}:${m.name}`;
      const e = off.get(key) ?? { incl: 0, self: 0 };
      e.incl += dot(costs, c, 0) / N;
      e.self += dot(costs, c, 4) / N;
      off.set(key, e);
    }
  }
  const ratio = new Map<string, number>();
  const functions = raw.functions
    .map((f) => {
      const key = `${f.file}:${f.line}:${f.function}`;
      const o = off.get(key) ?? { incl: 0, self: 0 };
      const ms = Math.max(0, Math.round(f.ms - o.incl));
      ratio.set(key, f.ms ? ms / f.ms : 1);
      return { ...f, ms, self_ms: Math.max(0, Math.round(f.self_ms - o.self)) };
    })
    .filter((f) => f.ms > 0)
    .sort((a, b) => b.ms - a.ms || a.file.localeCompare(b.file) || a.line - b.line);
  const scale = (n: FlameNode, root: boolean): FlameNode => {
    const v = root ? Math.max(0, Math.round(n.v - total / N)) : Math.round(n.v * (ratio.get(`${n.f ?? ''}:${n.l ?? 0}:${n.n}`) ?? 1));
    return { ...n, v, ...(n.k ? { k: n.k.map((c) => scale(c, false)) } : {}) };
  };
  return {
    functions,
    sampled_ms: Math.max(0, Math.round(raw.sampled_ms - total / N)),
    component_ms: functions.reduce((s, f) => s + f.self_ms, 0),
    flame: scale(raw.flame, true),
  };
}
