// record/: the method and what a run returns: the rounds' arithmetic and the LocalRecord (this file), and the cache of
// records by a hash of the component's files (cache.ts), and what an add-on measured without its parent says (needs.ts). May import component/, profile/ and findings/'s types (and src/core/model.ts);
// nothing above it.
//
// The method: per context, N paired rounds of baseline and measured requests; the figure reported is the delta of
// the medians (measured median − baseline median); the spread is the interquartile range of the per-round
// differences. Plain functions over numbers, so every rule here is unit-tested.
import type { MeasuredComponent } from '../component/component';
import type { LocalProfile } from '../profile/types';
import type { Finding } from '../findings/types';
import type { BrowserDelta, BrowserFigures, BrowserInfo, BrowserUnavailable } from '../browser/types';
import { CONTEXT_NAMES, type ComponentKind, type ContextName } from '../../model';

/** The API's three contexts (one list in the model). */
export const CONTEXTS = CONTEXT_NAMES;
export type MeasureContext = ContextName;

/** One request's figures, as the probe and the client saw them. */
export interface Sample {
  ttfbMs: number;
  memoryBytes: number;
  queries: number;
  /** server-side CPU time (user + system) of the request, ms, when the runtime can tell */
  cpuMs?: number | null;
  /** database errors during the request (wpdb's $EZSQL_ERROR), and the first one's text */
  dbErrors?: number;
  dbError?: string | null;
  /** measure --site: the round it was asked in (configurations asked in different numbers of rounds pair by it) */
  round?: number;
}

/** A context whose measured side had database errors the baseline had not: its figures are not representative. */
export interface DatabaseErrors {
  /** errors per request of the measured side (mean, to 0.1) and of the baseline */
  per_request: number;
  baseline_per_request: number;
  /** the first error's text, shortened */
  example: string | null;
}

/**
 * Database errors of the measured side that the baseline has not (a plugin whose tables the database refuses, a
 * query the SQLite translation cannot run): retries and fallbacks then count as cost, so the context is marked.
 */
export function databaseErrors(s: ContextSamples): DatabaseErrors | null {
  // Means, not medians: errors in a few of the requests still made part of the figures, and are then said as such
  // (0.3 per request) rather than as "0".
  const mean = (xs: Sample[]) => xs.reduce((t, x) => t + (x.dbErrors ?? 0), 0) / Math.max(1, xs.length);
  const m = mean(s.measured);
  const b = mean(s.baseline);
  if (!(m > b)) return null;
  const example = s.measured.find((x) => x.dbError)?.dbError ?? null;
  return { per_request: Math.round(m * 10) / 10, baseline_per_request: Math.round(b * 10) / 10, example: example ? example.slice(0, 300) : null };
}

export interface ContextSamples {
  baseline: Sample[];
  measured: Sample[];
}

export interface ContextFigures {
  ttfb_delta_ms: number;
  memory_delta_kb: number;
  queries_delta: number;
  /** `--instructions`: CPU instructions PHP executes per request (callgrind, opcache warm), measured − clean medians */
  instructions_delta?: number;
  /** `--browser` (homepage): what the visitor pays in the browser, with the component − clean (browser/types.ts) */
  browser?: BrowserDelta;
}

/** Absolute figures of one side (the baseline's medians) or a spread, in the same units as the deltas. */
export interface ContextSpread {
  ttfb_ms: number;
  memory_kb: number;
  queries: number;
  /** `--instructions`: the clean side's median count (in `baseline`), or the larger range of the two sides' counts (in `spread`) */
  instructions?: number;
  /** `--browser` (homepage, in `baseline`): the clean side's browser medians */
  browser?: BrowserFigures;
}

export function median(xs: number[]): number {
  if (xs.length === 0) throw new Error('median of nothing');
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * The order of the sides in round r. A fixed rotation made one side always follow the same other side (with three
 * sides, the working tree always followed the clean site and REF always followed the working tree), and a request
 * inherits its predecessor's after-effects: an unchanged plugin read +9 to +21 ms. So the rounds cycle through every
 * permutation (2 sides: 2, 3 sides: 6): over each full cycle every side comes first equally often and every side
 * directly follows every other side equally often.
 */
export function sideOrder<T>(sides: readonly T[], round: number): T[] {
  const perms = permutations(sides);
  return perms[((round % perms.length) + perms.length) % perms.length];
}

function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [[...xs]];
  const out: T[][] = [];
  xs.forEach((x, i) => {
    for (const rest of permutations([...xs.slice(0, i), ...xs.slice(i + 1)])) out.push([x, ...rest]);
  });
  // Consecutive rounds differ in who goes first: 2 sides alternate; 3 sides start A, B, C, A, B, C.
  return xs.length === 3 ? [out[0], out[2], out[4], out[1], out[3], out[5]] : out;
}

/** Quantile with linear interpolation between closest ranks (the "type 7" definition). */
export function quantile(xs: number[], q: number): number {
  if (xs.length === 0) throw new Error('quantile of nothing');
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

export function iqr(xs: number[]): number {
  return quantile(xs, 0.75) - quantile(xs, 0.25);
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** Deltas of medians, in the API's units: ms (0.1), KiB (integer, 1024 bytes), queries (integer). */
export function contextFigures(s: ContextSamples): ContextFigures {
  if (s.baseline.length === 0 || s.measured.length === 0) throw new Error('no samples');
  const d = (f: (x: Sample) => number) => median(s.measured.map(f)) - median(s.baseline.map(f));
  return {
    ttfb_delta_ms: round1(d((x) => x.ttfbMs)),
    memory_delta_kb: Math.round(d((x) => x.memoryBytes) / 1024),
    queries_delta: Math.round(d((x) => x.queries)),
  };
}

/** IQR of the paired per-round differences (measured_i − baseline_i), same units as the figures. */
export function contextSpread(s: ContextSamples): ContextSpread {
  const n = Math.min(s.baseline.length, s.measured.length);
  const diffs = (f: (x: Sample) => number) => Array.from({ length: n }, (_, i) => f(s.measured[i]) - f(s.baseline[i]));
  return {
    ttfb_ms: round1(iqr(diffs((x) => x.ttfbMs))),
    memory_kb: Math.round(iqr(diffs((x) => x.memoryBytes)) / 1024),
    queries: iqr(diffs((x) => x.queries)),
  };
}

/**
 * The estimated grade. The API fixes only A (activation ≤ 8 MB and ≤ 4 extra queries) and says the scale is
 * logarithmic; WP Bench's documented stand-in doubles both limits per letter (B ≤ 16 MB / 8 queries, C ≤ 32 / 16,
 * D ≤ 64 / 32, E ≤ 128 / 64, F beyond) and takes the worse of the two. numeric: 90–100 for A, 15 points per
 * doubling below. Always labelled "estimated": it is not the API's grade.
 */
export const GRADE_SCALE = 'estimated: A ≤ 8 MB and ≤ 4 queries at activation, limits doubled per letter (B 16/8, C 32/16, D 64/32, E 128/64, F beyond); worse of memory and queries';

export function estimateGrade(activation: ContextFigures | null): { grade: string; numeric: number; estimated: true } | null {
  if (!activation) return null;
  const memMb = Math.max(0, activation.memory_delta_kb) / 1024;
  const q = Math.max(0, activation.queries_delta);
  // x ≤ 0: within A's limits; each unit is one doubling past them.
  const x = Math.max(memMb > 0 ? Math.log2(memMb / 8) : -Infinity, q > 0 ? Math.log2(q / 4) : -Infinity, -1);
  const letters = ['A', 'B', 'C', 'D', 'E', 'F'];
  const grade = letters[Math.min(5, Math.max(0, Math.ceil(x)))];
  const numeric = Math.round(Math.max(0, Math.min(100, 90 - 15 * x - (x < 0 ? 0 : 0))));
  return { grade, numeric, estimated: true };
}

export interface NullReason {
  reason: string;
  status?: number;
  location?: string | null;
  php_error?: string | null;
}

/** What every record says of its database (src/core/measure/database.ts starts or reaches it). */
export interface DatabaseInfo {
  engine: 'mariadb' | 'mysql' | 'sqlite';
  version: string;
  /** throwaway: a server WP Bench started for the run; external: --db; file: SQLite */
  server?: 'throwaway' | 'external' | 'file';
}

export interface LocalInfo {
  runtime: string;
  runtime_note?: string;
  wordpress_version: string;
  php_version: string;
  rounds: number;
  warmup_rounds: number;
  baseline_theme: string;
  /** a child theme: the parent theme it was measured with (its Template header; the figures include the parent's cost) */
  parent_theme?: { slug: string; name: string; version: string | null };
  /** A must-use plugin: measured from mu-plugins/, where WordPress loads it on every request; never activated. */
  must_use?: true;
  /** contexts whose measured side had database errors the baseline had not ("not representative"; no grade then) */
  database_errors?: Partial<Record<MeasureContext, DatabaseErrors>>;
  /** the database WordPress ran on: a throwaway MariaDB/MySQL server (the default), the user's (--db), or SQLite; absent in older records (SQLite) */
  database?: DatabaseInfo;
  /** whether opcache was on (WP Bench turns it on, as production runs PHP: compiled code is not in memory); absent in older records */
  opcache?: boolean;
  /** what held the component's PHP: bubblewrap, none, or playground (WebAssembly); absent in older records */
  sandbox?: 'bubblewrap' | 'none' | 'playground';
  /** isolated: the sandbox's own network (loopback only; WP Bench reaches the site through a Unix socket); host: the machine's */
  network?: 'isolated' | 'host';
  /** with no sandbox: why, and what the code could reach */
  sandbox_note?: string;
  spread: Record<MeasureContext, ContextSpread | null>;
  /** the baseline's medians: what the clean site costs, for scale */
  baseline: Record<MeasureContext, ContextSpread | null>;
  null_reasons: Partial<Record<MeasureContext, NullReason>>;
  /** `--instructions`: how the counts were taken */
  instructions?: InstructionsInfo;
  activation_hook: { time_ms: number; memory_kb: number; queries: number; output_bytes: number; error: string | null; memory?: 'peak' | 'held' } | null;
  grade_scale: string;
  units: string;
  duration_s: number;
  warnings?: string[];
  cached?: boolean;
  /** an add-on measured without the plugins it needs (record/needs.ts) */
  needs?: NeedsInfo;
  /** `--browser`: how the browser figures were taken, or why there are none */
  browser?: BrowserInfo | BrowserUnavailable;
}

/** What the record says of an add-on's parents (`local.needs`, record/needs.ts). */
export interface NeedsInfo {
  /** the wordpress.org slugs of its `Requires Plugins:` header (empty when only its notice said it) */
  plugins: string[];
  /** its own admin notice saying what it requires, when it has no header */
  notice?: string;
  /** every measured figure within noise: no grade */
  did_nothing: boolean;
  /** the words every surface shows: "did nothing measurable here — it needs woocommerce (…)" */
  note: string;
}

/** How `--instructions` counted (run/instructions.ts). */
export interface InstructionsInfo {
  counter: 'callgrind';
  /** warm: the first request of each context compiled the code (not counted), as a production server does once */
  opcache: 'warm';
  /**
   * set: libfaketime started each side's counted server at the same time (the pass's start, to the second), the clock
   * running from there; running: the machine's clock (no libfaketime)
   */
  clock: 'set' | 'running';
  /** counted requests per context and side, after one warm-up */
  rounds: number;
  /**
   * contexts whose counted requests of a side differed by more than 0.05 % of their median (instructionsVarying.ts):
   * work that depends on the time or on the site's state; absent in older records
   */
  varying?: MeasureContext[];
}

export interface LocalRecord {
  slug: string;
  type: 'plugin' | 'theme';
  name: string;
  benchmarked: true;
  benchmarked_at: string;
  speed_score: { grade: string; numeric: number; estimated: true } | null;
  contexts: Record<MeasureContext, ContextFigures | null>;
  metadata: { active_installs: null; rating: null; version: string | null };
  links: { profile: null };
  source: 'local';
  local: LocalInfo;
  /** `--profile`: where the component's time and queries go, per context */
  profile?: LocalProfile;
  /** `--findings`: what the component does that costs every request, each at its own line */
  findings?: Finding[];
  /** `check --measure-local`: the component's root relative to the checked folder ("/" separated), where `findings` files are */
  findings_root?: string;
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, the API's shape. */
export function apiTime(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

export function buildRecord(
  component: Pick<MeasuredComponent, 'slug' | 'kind' | 'name' | 'version'>,
  contexts: Record<MeasureContext, ContextSamples | NullReason>,
  local: Omit<LocalInfo, 'spread' | 'baseline' | 'null_reasons' | 'grade_scale' | 'units'>,
  at: Date,
): LocalRecord {
  const figures = {} as Record<MeasureContext, ContextFigures | null>;
  const spread = {} as Record<MeasureContext, ContextSpread | null>;
  const baseline = {} as Record<MeasureContext, ContextSpread | null>;
  const reasons: Partial<Record<MeasureContext, NullReason>> = {};
  const dbErrors: Partial<Record<MeasureContext, DatabaseErrors>> = {};
  for (const c of CONTEXTS) {
    const v = contexts[c];
    if (!('reason' in v)) {
      const e = databaseErrors(v);
      if (e) dbErrors[c] = e;
    }
    if ('reason' in v) {
      figures[c] = null;
      spread[c] = null;
      baseline[c] = null;
      reasons[c] = v;
    } else {
      figures[c] = contextFigures(v);
      spread[c] = contextSpread(v);
      baseline[c] = {
        ttfb_ms: round1(median(v.baseline.map((x) => x.ttfbMs))),
        memory_kb: Math.round(median(v.baseline.map((x) => x.memoryBytes)) / 1024),
        queries: Math.round(median(v.baseline.map((x) => x.queries))),
      };
    }
  }
  return {
    slug: component.slug,
    type: component.kind,
    name: component.name,
    benchmarked: true,
    benchmarked_at: apiTime(at),
    // No estimated grade on figures that database errors made up.
    speed_score: Object.keys(dbErrors).length ? null : estimateGrade(figures.activation),
    contexts: figures,
    metadata: { active_installs: null, rating: null, version: component.version },
    links: { profile: null },
    source: 'local',
    local: {
      ...local,
      spread,
      baseline,
      null_reasons: reasons,
      database_errors: dbErrors,
      grade_scale: GRADE_SCALE,
      units: 'ttfb ms (client-side time to first byte), memory KiB (1024 bytes, peak at shutdown), queries ($wpdb->num_queries)',
    },
  };
}

/** A local measurement as the editor holds it: the record, what was measured, and whether its files changed since. */
export interface LocalResult {
  kind: ComponentKind;
  slug: string;
  /** The folder or file that was measured (absolute). */
  source: string;
  /** componentHash of its files when the measurement started. */
  hash: string;
  record: LocalRecord;
  /** The files changed (or disappeared) since it was measured. */
  stale: boolean;
}
