// Pure: the recorded profiles of one context's requests (./types.ts) → the component's own functions, each with its
// inclusive time and queries per request; and the same samples as speedscope JSON or collapsed ("folded") stacks.
// Code outside the component is never listed: its time and queries belong to the component's function that called it.
import type { ContextProfile, FunctionCost, ProfileFrame, RequestProfile } from './types';

export interface AttributeOptions {
  /** The component's files/folders as PHP saw them: overrides the profile's own `comp` marks when given. */
  root?: string | string[];
  /** Paths relative to this folder (with `root`; default: the first root, or its folder when it is a .php file). */
  base?: string;
  /** Sampling period in seconds (default: each profile's own). */
  period?: number;
  /** Also list the component's file-level code (an include's own lines) as "(file)" entries, line 0. */
  fileScope?: boolean;
}

export interface Resolved {
  /** identity of the component function this frame executes; undefined for a frame outside the component */
  key?: string;
  fn?: string;
  rel?: string;
  line?: number;
}

const trimSlash = (s: string) => s.replace(/\/+$/, '');

function isClosure(name: string | undefined): boolean {
  return !!name && name.includes('{closure');
}

/** Display name of a frame's function: "Class::method", "name", "{closure}". */
export function frameName(f: ProfileFrame): string {
  if (!f.function) return '(file)';
  if (isClosure(f.function)) return '{closure}';
  return f.class ? `${f.class}::${f.function}` : f.function;
}

export function makeResolver(opts: AttributeOptions): (f: ProfileFrame) => Resolved {
  const roots = opts.root === undefined ? undefined : (Array.isArray(opts.root) ? opts.root : [opts.root]).map(trimSlash);
  const base = roots ? trimSlash(opts.base ?? (roots[0] && /\.php$/i.test(roots[0]) ? roots[0].replace(/\/[^/]*$/, '') : roots[0] ?? '')) : undefined;
  const relOf = (f: ProfileFrame): string | undefined => {
    if (!roots) return f.comp ? (f.rel ?? f.file) : undefined;
    const file = f.file;
    if (!roots.some((r) => file === r || file.startsWith(r + '/'))) return undefined;
    return base && file.startsWith(base + '/') ? file.slice(base.length + 1) : file.replace(/^.*\//, '');
  };
  return (f: ProfileFrame): Resolved => {
    const rel = relOf(f);
    if (rel === undefined) return {};
    if (!f.function) return opts.fileScope ? { key: `${rel}:0:(file)`, fn: '(file)', rel, line: 0 } : {};
    const line = f.def ?? f.closure_line ?? 0;
    const fn = frameName(f);
    // Same file and defining line = same function; an unknown line falls back to the name.
    return { key: line ? `${rel}:${line}` : `${rel}:?:${fn}`, fn, rel, line };
  };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** The component's functions of one context, per request, by inclusive time (desc). */
export function attributeProfiles(profiles: readonly RequestProfile[], opts: AttributeOptions = {}): ContextProfile {
  const resolve = makeResolver(opts);
  const fns = new Map<string, { fn: string; rel: string; line: number; events: number; ms: number; self: number; queries: number; hooks: Set<string> }>();
  const N = profiles.length;
  let sampledMs = 0;
  let componentMs = 0;
  let periodMs = (opts.period ?? profiles[0]?.period ?? 0.001) * 1000;
  for (const p of profiles) {
    const pms = (opts.period ?? p.period ?? 0.001) * 1000;
    periodMs = pms;
    const res = p.frames.map((f) => resolve(f));
    const entry = (r: Resolved) => {
      let e = fns.get(r.key!);
      if (!e) fns.set(r.key!, (e = { fn: r.fn!, rel: r.rel!, line: r.line!, events: 0, ms: 0, self: 0, queries: 0, hooks: new Set() }));
      return e;
    };
    for (const st of p.samples) {
      const ms = st.n * pms;
      sampledMs += ms;
      // Inclusive: once per distinct component function on the stack (recursion counts once).
      const seen = new Set<string>();
      for (const i of st.s) {
        const r = res[i];
        if (!r?.key || seen.has(r.key)) continue;
        seen.add(r.key);
        const e = entry(r);
        e.events += st.n;
        e.ms += ms;
      }
      if (seen.size) componentMs += ms;
      // Self: the innermost of the component's functions on the stack (what it runs outside the component included):
      // where the work is, when a chain of callers all carry the same inclusive time.
      for (let k = st.s.length - 1; k >= 0; k--) {
        const r = res[st.s[k]];
        if (r?.key) {
          entry(r).self += ms;
          break;
        }
      }
    }
    for (const q of p.queries) {
      const seen = new Set<string>();
      for (const i of q.s) {
        const r = res[i];
        if (!r?.key || seen.has(r.key)) continue;
        seen.add(r.key);
        entry(r).queries += q.n;
      }
    }
  }
  // Hooks: by the callback's file and defining line (the same identity as the frames').
  const hooksByKey = new Map<string, Set<string>>();
  for (const p of profiles) {
    for (const h of p.hooks ?? []) {
      const r = resolve({ file: h.file, rel: h.rel, comp: 1, function: 'x', def: h.line });
      if (!r.key) continue;
      let s = hooksByKey.get(r.key);
      if (!s) hooksByKey.set(r.key, (s = new Set()));
      for (const x of h.hooks) s.add(x);
    }
  }
  const functions: FunctionCost[] = [...fns.entries()]
    .map(([key, e]) => ({
      function: e.fn,
      file: e.rel,
      line: e.line,
      ms: N ? round2(e.ms / N) : 0,
      self_ms: N ? round2(e.self / N) : 0,
      queries: N ? round2(e.queries / N) : 0,
      hooks: [...(hooksByKey.get(key) ?? [])].sort(),
    }))
    .filter((f) => f.ms > 0 || f.queries > 0)
    .sort((a, b) => b.ms - a.ms || b.queries - a.queries || a.file.localeCompare(b.file) || a.line - b.line);
  return { functions, requests: N, period_ms: periodMs, sampled_ms: N ? round2(sampledMs / N) : 0, component_ms: N ? round2(componentMs / N) : 0 };
}

/** A frame's label in exports: core frames by name, the component's by name and where they are defined. */
export function exportLabel(f: ProfileFrame, r: Resolved): { name: string; file: string; line?: number } {
  if (r.key) return { name: r.fn === '(file)' ? `(file) ${r.rel}` : r.fn!, file: r.rel!, ...(r.line ? { line: r.line } : {}) };
  // A file outside WordPress's folder (the measurement's own probe in the run's temporary folder): by its name only.
  const file = f.rel ?? f.file.replace(/^.*\//, '');
  if (!f.function) return { name: `(file) ${file}`, file };
  return { name: frameName(f), file };
}

export interface ExportOptions extends AttributeOptions {
  /** profile name (e.g. the context: "homepage") */
  name?: string;
}

/**
 * Speedscope's file format (https://www.speedscope.app/file-format-schema.json): one "sampled" profile per request,
 * weights in milliseconds, frames shared.
 */
export function toSpeedscope(profiles: readonly RequestProfile[], opts: ExportOptions = {}): object {
  const resolve = makeResolver({ ...opts, fileScope: true });
  const frames: { name: string; file?: string; line?: number }[] = [];
  const index = new Map<string, number>();
  const name = opts.name ?? 'wp-bench';
  const out = profiles.map((p, k) => {
    const pms = (opts.period ?? p.period ?? 0.001) * 1000;
    const ids = p.frames.map((f) => {
      const l = exportLabel(f, resolve(f));
      const key = `${l.name}\u0000${l.file}\u0000${l.line ?? ''}`;
      let i = index.get(key);
      if (i === undefined) {
        index.set(key, (i = frames.length));
        frames.push(l);
      }
      return i;
    });
    const samples: number[][] = [];
    const weights: number[] = [];
    for (const st of p.samples) {
      samples.push(st.s.map((i) => ids[i]));
      weights.push(round2(st.n * pms));
    }
    const total = weights.reduce((a, b) => a + b, 0);
    return { type: 'sampled', name: `${name} #${k + 1}${p.uri ? ` ${p.uri}` : ''}`, unit: 'milliseconds', startValue: 0, endValue: round2(total), samples, weights };
  });
  return {
    $schema: 'https://www.speedscope.app/file-format-schema.json',
    shared: { frames },
    profiles: out,
    name,
    activeProfileIndex: 0,
    exporter: 'wp-bench',
  };
}

/**
 * Collapsed ("folded") stacks of all the requests, `outer;…;inner count` a line, counts in samples (timer events),
 * as flamegraph.pl and speedscope read them. The component's frames read `name (file:line)`.
 */
export function toCollapsed(profiles: readonly RequestProfile[], opts: AttributeOptions = {}): string {
  const resolve = makeResolver({ ...opts, fileScope: true });
  const counts = new Map<string, number>();
  for (const p of profiles) {
    const labels = p.frames.map((f) => {
      const r = resolve(f);
      const l = exportLabel(f, r);
      const s = r.key ? (r.fn === '(file)' ? l.name : `${l.name} (${l.file}${l.line ? `:${l.line}` : ''})`) : isClosure(f.function) ? `{closure} (${l.file})` : l.name;
      return s.replace(/[;\r\n]/g, '_');
    });
    for (const st of p.samples) {
      const k = st.s.map((i) => labels[i]).join(';');
      counts.set(k, (counts.get(k) ?? 0) + st.n);
    }
  }
  return [...counts.entries()].map(([k, n]) => `${k} ${n}`).join('\n') + (counts.size ? '\n' : '');
}
