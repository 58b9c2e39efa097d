// The shape of <id>.profile.json (written by the must-use plugin of ./php.ts) and of what ./attribute.ts makes of it.

/** One distinct stack frame of a request's profile. */
export interface ProfileFrame {
  /** absolute file as PHP saw it ('' for none) */
  file: string;
  /** the line executing in this frame: kept for the component's frames only */
  line?: number;
  /** function or method name; absent for a file's own code (an include) */
  function?: string;
  /** the class the method is defined in (also a closure's scope) */
  class?: string;
  /** a closure's first line (Excimer's frames) */
  closure_line?: number;
  /** 1 when the file is one of the component's */
  comp?: 1;
  /** the file relative to the component's base (component frames), or to ABSPATH (core frames) */
  rel?: string;
  /** component frames: the line where the executing function is defined (a closure: its first line); null unknown */
  def?: number | null;
}

/** Identical stacks aggregated: `s` frame indexes, outermost first; `n` timer events (samples) or queries. */
export interface ProfileStack {
  s: number[];
  n: number;
}

/** A component callback registered on hooks that ran during the request. */
export interface ProfileHook {
  file: string;
  rel: string;
  /** defining line (a closure: its first line) */
  line: number;
  hooks: string[];
}

/** One profiled request. */
export interface RequestProfile {
  v: 1;
  id?: string;
  /** sampling period, seconds */
  period: number;
  roots: string[];
  base: string;
  uri?: string | null;
  /** from the profiler's start to its stop, ms */
  wall_ms?: number;
  /** timer events in all (sum of samples[].n) */
  events?: number;
  frames: ProfileFrame[];
  samples: ProfileStack[];
  queries: ProfileStack[];
  hooks: ProfileHook[];
}

/** One of the component's functions, per request of a context. */
export interface FunctionCost {
  /** "Class::method", "function", "{closure}" */
  function: string;
  /** relative to the component's base */
  file: string;
  /** where the function is defined (a closure: its first line); 0 unknown */
  line: number;
  /** inclusive wall-clock time per request, ms */
  ms: number;
  /** time per request with it the innermost of the component's functions on the stack (what it calls outside the component included), ms */
  self_ms: number;
  /** database queries issued inside it (inclusive) per request */
  queries: number;
  /** hooks it is registered on (that ran) */
  hooks: string[];
}

export interface ContextProfile {
  functions: FunctionCost[];
  /** requests profiled (the divisor) */
  requests: number;
  /** sampling period, ms */
  period_ms: number;
  /** sampled time per request, ms (all code, not only the component's) */
  sampled_ms: number;
  /** the component's share of the sampled time per request (any of its functions on the stack), ms */
  component_ms: number;
}

/** One frame of the merged call tree (short keys: it is stored with the record). */
export interface FlameNode {
  /** name: "Class::method", "function", "{closure}", "(file) path" */
  n: string;
  /** the file: relative to the component's folder (its frames) or to WordPress's (core frames); absent when none */
  f?: string;
  /** the component's frames: the line where the function is defined */
  l?: number;
  /** 1 for the component's own frames */
  c?: 1;
  /** inclusive wall-clock time per request, ms */
  v: number;
  /** callees, largest first */
  k?: FlameNode[];
}

/** What `--profile` adds to the record. */
export interface LocalProfile {
  /** "excimer 1.0.4" */
  profiler: string;
  /**
   * What the figures count: 'ms' (absent: the same) wall-clock time sampled by Excimer; 'instructions' (`--profile
   * --instructions`) CPU instructions counted under callgrind: then every `ms`, `self_ms`, `sampled_ms`,
   * `component_ms` and flame `v` holds instructions per request, and `period_ms` is 0.
   */
  unit?: 'ms' | 'instructions';
  /** 'instructions': what one call through the profiling extension added on this PHP, per kind, taken out again */
  call_costs?: number[];
  period_ms: number;
  /** profiled requests per context */
  rounds: number;
  /** per context: the component's own functions, slowest first; null where the context could not be measured */
  contexts: Record<'activation' | 'homepage' | 'admin', { functions: FunctionCost[]; sampled_ms: number; component_ms: number; flame?: FlameNode } | null>;
}
