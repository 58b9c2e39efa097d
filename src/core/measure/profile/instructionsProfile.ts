// Pure: `--profile --instructions`' callgrind dumps (one per counted request, the extension of ./instructionsExt.ts
// loaded) and the extension's map → the component's functions by instruction count, in the shape of the Excimer
// profile (./types.ts, `unit: 'instructions'`: the `ms` fields hold instructions). Each of the component's functions ran
// through a C function of its own (wpb_f_<id>), whose callers callgrind kept apart (--separate-callers): a call's
// context names the C functions it ran under, so the component's functions it ran inside are known. Per function:
// - inclusive: the instructions of its calls not made inside itself (recursion counted once), per request;
// - own: its calls' instructions less those of the component's functions called inside them (what it runs in
//   WordPress or PHP stays its own), as the sampled profile's self time.
// A tree of the component's functions (the flame graph's, WordPress's frames between them left out) comes with it.
import type { FlameNode, FunctionCost } from './types';

/** One line of the extension's map: `id \t line \t name \t file`. */
export interface MappedFunction {
  name: string;
  file: string;
  line: number;
}

export function parseMap(text: string): Map<number, MappedFunction> {
  const out = new Map<number, MappedFunction>();
  for (const l of text.split('\n')) {
    const m = /^(\d+)\t(\d+)\t([^\t]*)\t(.+)$/.exec(l);
    if (m) out.set(Number(m[1]), { line: Number(m[2]), name: m[3]!.includes('{closure') ? '{closure}' : m[3]!, file: m[4]! });
  }
  return out;
}

/** A trampoline's context in one dump: its instructions (inclusive) and calls, summed over its callers. */
export interface TrampolineContext {
  /** the trampoline's id (-1: the overflow one) */
  id: number;
  /** the component's functions it ran inside, nearest first (ids) */
  within: number[];
  instructions: number;
  calls: number;
}

const trampolineId = (name: string): number | undefined => {
  const m = /^wpb_f_(\d+|overflow)$/.exec(name);
  return m ? (m[1] === 'overflow' ? -1 : Number(m[1])) : undefined;
};

/** The trampolines' contexts of one callgrind dump, and its total (event Ir). */
export function readDump(text: string): { total: number; contexts: TrampolineContext[] } {
  const names = new Map<string, string>();
  // "(12) name" defines a compressed name, "(12)" uses it.
  const name = (s: string): string => {
    const m = /^\((\d+)\)(?:\s(.*))?$/.exec(s.trim());
    if (!m) return s.trim();
    if (m[2] !== undefined) names.set(m[1]!, m[2]);
    return names.get(m[1]!) ?? '';
  };
  let positions = 1;
  let total = 0;
  let cfn = '';
  let callCost = false;
  let calls = 0;
  const by = new Map<string, TrampolineContext>();
  for (const line of text.split('\n')) {
    if (line.startsWith('positions:')) positions = line.slice(10).trim().split(/\s+/).length;
    else if (line.startsWith('summary:') || line.startsWith('totals:')) total = total || Number(line.split(':')[1]!.trim().split(/\s+/)[0]);
    else if (line.startsWith('cfn=')) cfn = name(line.slice(4));
    else if (line.startsWith('calls=')) {
      callCost = true;
      calls = Number(line.slice(6).trim().split(/\s+/)[0]);
    } else if (callCost && /^[0-9+*-]/.test(line)) {
      callCost = false;
      const chain = cfn.split("'");
      const id = trampolineId(chain[0]!);
      if (id === undefined) continue;
      const ir = Number(line.trim().split(/\s+/)[positions] ?? 0);
      let c = by.get(cfn);
      if (!c) by.set(cfn, (c = { id, within: chain.slice(1).map(trampolineId).filter((x): x is number => x !== undefined), instructions: 0, calls: 0 }));
      c.instructions += ir;
      c.calls += calls;
    } else if (line.startsWith('fn=')) {
      name(line.slice(3));
      callCost = false;
    } else if (/^c?(ob|fl|fi|fe)=/.test(line)) name(line.slice(line.indexOf('=') + 1));
  }
  return { total, contexts: [...by.values()] };
}

export interface InstructionsContextProfile {
  functions: FunctionCost[];
  /** the whole request's instructions (per request) */
  sampled_ms: number;
  /** inside any of the component's functions (per request) */
  component_ms: number;
  flame: FlameNode;
}

/**
 * One context's dumps → the component's functions (instructions per request, largest first) and their tree. `rel`
 * makes a file as PHP saw it relative to the component's folder (undefined: not the component's).
 */
export function instructionsProfile(dumps: readonly { total: number; contexts: TrampolineContext[] }[], map: Map<number, MappedFunction>, rel: (file: string) => string | undefined, name: string): InstructionsContextProfile {
  const N = dumps.length || 1;
  const fnOf = (id: number): { key: string; fn: string; file: string; line: number } => {
    if (id < 0) return { key: '(other)', fn: '(more functions)', file: '', line: 0 };
    const m = map.get(id);
    if (!m) return { key: `?${id}`, fn: `(function ${id})`, file: '', line: 0 };
    const file = rel(m.file) ?? m.file.replace(/^.*\//, '');
    return { key: `${file}:${m.line}:${m.name}`, fn: m.name, file, line: m.line };
  };
  const fns = new Map<string, { fn: string; file: string; line: number; incl: number; self: number }>();
  const entry = (id: number) => {
    const f = fnOf(id);
    let e = fns.get(f.key);
    if (!e) fns.set(f.key, (e = { fn: f.fn, file: f.file, line: f.line, incl: 0, self: 0 }));
    return e;
  };
  let total = 0;
  let component = 0;
  const tree: Building = { n: name, ms: 0, k: new Map() };
  for (const d of dumps) {
    total += d.total;
    for (const c of d.contexts) {
      const me = entry(c.id);
      const key = fnOf(c.id).key;
      const within = c.within.map((i) => fnOf(i).key);
      if (!within.includes(key)) me.incl += c.instructions;
      me.self += c.instructions;
      if (c.within.length) entry(c.within[0]!).self -= c.instructions;
      else component += c.instructions;
      // The tree: outermost first.
      let at = tree;
      for (const id of [...c.within].reverse().concat(c.id)) {
        const f = fnOf(id);
        let next = at.k.get(f.key);
        if (!next) at.k.set(f.key, (next = { n: f.fn, f: f.file || undefined, l: f.line || undefined, ms: 0, k: new Map() }));
        at = next;
      }
      at.ms += c.instructions;
    }
  }
  tree.ms = total;
  const functions: FunctionCost[] = [...fns.values()]
    .map((e) => ({ function: e.fn, file: e.file, line: e.line, ms: Math.round(e.incl / N), self_ms: Math.max(0, Math.round(e.self / N)), queries: 0, hooks: [] as string[] }))
    .filter((f) => f.ms > 0)
    .sort((a, b) => b.ms - a.ms || a.file.localeCompare(b.file) || a.line - b.line);
  return { functions, sampled_ms: Math.round(total / N), component_ms: Math.round(component / N), flame: finish(tree, N) };
}

interface Building {
  n: string;
  f?: string;
  l?: number;
  ms: number;
  k: Map<string, Building>;
}

/** Nodes kept in a tree at most (as the time profile's): the smallest go first, a node only with its parent. */
const MAX_NODES = 600;

/** A node's value is its own calls' instructions: a parent's are its children's plus what it ran outside them. */
function finish(b: Building, N: number): FlameNode {
  const all: number[] = [];
  const collect = (x: Building) => {
    for (const c of x.k.values()) {
      all.push(c.ms);
      collect(c);
    }
  };
  collect(b);
  all.sort((x, y) => y - x);
  const min = Math.max(1, all.length > MAX_NODES ? all[MAX_NODES - 1]! : 1);
  let kept = 0;
  const node = (x: Building, root: boolean): FlameNode => {
    const kids: FlameNode[] = [];
    for (const c of [...x.k.values()].filter((c) => c.ms >= min).sort((p, q) => q.ms - p.ms || p.n.localeCompare(q.n))) {
      if (kept >= MAX_NODES) break;
      kept++;
      kids.push(node(c, false));
    }
    return { n: x.n, ...(x.f ? { f: x.f } : {}), ...(x.l ? { l: x.l } : {}), ...(root ? {} : { c: 1 as const }), v: Math.round(x.ms / N), ...(kids.length ? { k: kids } : {}) };
  };
  return node(b, true);
}
