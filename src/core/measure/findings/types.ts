// The shapes of `measure --findings`: what the collector (./php.ts) writes per request, and the findings the record
// carries (`findings` of a LocalRecord).
import type { ContextName as MeasureContext } from '../../model';

export type FindingKind = 'autoloaded-option' | 'repeated-query' | 'remote-request' | 'render-blocking-script' | 'large-asset' | 'admin-asset-everywhere' | 'main-thread' | 'layout-shift';
/** The kinds in the SARIF rules' order (the last two need --browser: findings/browser.ts). */
export const FINDING_KINDS: readonly FindingKind[] = ['autoloaded-option', 'repeated-query', 'remote-request', 'render-blocking-script', 'large-asset', 'admin-asset-everywhere', 'main-thread', 'layout-shift'];

/** What fixing a finding would save in one context, per request (each figure only where it applies). */
export interface FindingSaves {
  memory_kb?: number;
  queries?: number;
  /** HTTP round trips (blocked in the throwaway site; each one a wait on a live site) */
  http_requests?: number;
  /** bytes the browser downloads or parses */
  bytes?: number;
}

/** One line range of one file replaced: `old` is the text of lines line..end_line as they were read, `new` the fix. */
export interface FixEdit {
  file: string;
  line: number;
  end_line: number;
  old: string;
  new: string;
}

export interface Finding {
  kind: FindingKind;
  /** "warning", or "information" when fixing it saves little */
  severity: 'warning' | 'information';
  /** the contexts it costs in (never empty) */
  contexts: MeasureContext[];
  /** relative to the component's root (a single-file plugin: its folder), "/" separated */
  file: string;
  line: number;
  /** the function running at that line (Class::method, a closure's "{closure}"), or null at a file's top level */
  function: string | null;
  message: string;
  evidence: Record<string, unknown>;
  saves: Partial<Record<MeasureContext, FindingSaves>>;
  /** what to do; `edits` where the fix is mechanical (`measure --findings --fix` applies them) */
  fix: { description: string; edits?: FixEdit[] };
}

/** Where in the component's code something happened (the innermost of its frames). */
export interface RawWhere {
  file: string;
  line: number;
  function: string | null;
  /** the function called at that line (add_option, $wpdb->get_var: "wpdb::get_var") */
  callee: string;
  /** the next of the component's frames out ("file:line"), or null: the call path's second step */
  via?: string | null;
}

/** One request's record, as the collector writes it. */
export interface RawFindings {
  v: 1;
  id: string;
  /** "w" (activation, warm-up: option writes only) or "p:CONTEXT:SCREEN" (the findings pass) */
  phase: string;
  writes: (RawWhere & { option: string; op: 'add' | 'update' })[];
  reads?: string[];
  queries?: (RawWhere & { shape: string; n: number })[];
  http?: (RawWhere & { host: string; method: string; n: number })[];
  /** "baseline": a request of the clean side (WordPress without the component), for `done` only; else the measured side */
  side?: 'measured' | 'baseline';
  /**
   * Each handle the component registered or enqueued: `src` the file WordPress printed (the registration that took
   * effect), `reg` the component's line that made that registration (none: core's or another's), `enq` its first
   * enqueue and `enqs` every line that enqueued it on this request; `bytes` the printed file's size when it is the
   * component's own.
   */
  assets?: { type: 'script' | 'style'; handle: string; src?: string; reg?: RawWhere; enq?: RawWhere; enqs?: RawWhere[]; printed: boolean; in_head: boolean; deferred: boolean; bytes: number | null }[];
  /** every handle WordPress printed on the request (the clean side's: what it prints without the component) */
  done?: { script: string[]; style: string[] };
  /** [name, autoload value, bytes] of every autoloaded option at the end of the request */
  autoload?: [string, string, number][];
}
