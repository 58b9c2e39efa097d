// Pure: the configurations of `measure SITE --site` and the arithmetic over their medians. One throwaway site holds
// the whole stack; each request picks a configuration (X-WPBench-Config): the clean site, the stack, each component
// alone, and the stack without each component. What a component adds in the site is the stack against the stack
// without it; what it costs alone is it against the clean site; the sum of the parts is the sum of the alones.
import { CONTEXTS, median, type MeasureContext, type Sample } from '../record/method';
import { MU_NONE_DIR } from '../php/phpFiles';
import { lowerBoundRank } from '../compare/regression';

/** A member of the stack: a plugin (by its basename) or the site's theme (stylesheet and template). */
export interface StackPlugin {
  slug: string;
  /** "folder/file.php" or "file.php", as active_plugins names it */
  target: string;
}

export interface StackTheme {
  slug: string;
  stylesheet: string;
  template: string;
}

/** A must-use plugin of the stack, with the must-use folders that hold it alone and all the others without it. */
export interface StackMu {
  slug: string;
  /** folder under wp-content: WP Bench's own must-use plugins and this one */
  only: string;
  /** folder under wp-content: WP Bench's own and every other must-use plugin of the stack */
  without: string;
}

/** The site's own must-use folder, and the one holding WP Bench's own must-use plugins alone. */
export const MU_ALL = 'mu-plugins';
export const MU_NONE = MU_NONE_DIR;

/** What one request loads: these plugins active, this theme, and the must-use folder (under wp-content). */
export interface SiteConfig {
  id: string;
  plugins: string[];
  theme: [string, string];
  mu: string;
}

/**
 * Configuration ids: "clean", "stack", "alone:plugin:SLUG", "without:plugin:SLUG", "alone:mu:SLUG",
 * "without:mu:SLUG", "alone:theme:SLUG", "without:theme:SLUG". A must-use plugin alone loads from a folder holding
 * it only; the stack without it, from a folder holding every other one.
 */
export function siteConfigs(plugins: readonly StackPlugin[], theme: StackTheme | null, baseTheme: string, mus: readonly StackMu[] = []): SiteConfig[] {
  const all = plugins.map((p) => p.target);
  const site: [string, string] = theme ? [theme.stylesheet, theme.template] : [baseTheme, baseTheme];
  const base: [string, string] = [baseTheme, baseTheme];
  const out: SiteConfig[] = [
    { id: 'clean', plugins: [], theme: base, mu: MU_NONE },
    { id: 'stack', plugins: all, theme: site, mu: MU_ALL },
  ];
  for (const p of plugins) {
    out.push({ id: `alone:plugin:${p.slug}`, plugins: [p.target], theme: base, mu: MU_NONE });
    out.push({ id: `without:plugin:${p.slug}`, plugins: all.filter((t) => t !== p.target), theme: site, mu: MU_ALL });
  }
  for (const m of mus) {
    out.push({ id: `alone:mu:${m.slug}`, plugins: [], theme: base, mu: m.only });
    out.push({ id: `without:mu:${m.slug}`, plugins: all, theme: site, mu: m.without });
  }
  if (theme) {
    out.push({ id: `alone:theme:${theme.slug}`, plugins: [], theme: site, mu: MU_NONE });
    out.push({ id: `without:theme:${theme.slug}`, plugins: all, theme: base, mu: MU_ALL });
  }
  return out;
}

/** The order of the configurations in round `r` of a context: rotated, so drift hits each position alike. */
export function configOrder<T>(configs: readonly T[], r: number): T[] {
  if (!configs.length) return [];
  const k = r % configs.length;
  return [...configs.slice(k), ...configs.slice(0, k)];
}

/** A --site run's warm-up rounds (every configuration's one-time work: opcache, first-request redirects, options). */
export const SITE_WARMUP = 1;
/**
 * The measured rounds every configuration gets at least: memory and queries are exact, so two asks apart in time
 * check them (stateDependent); the third makes a TTFB median and its interval.
 */
export const SITE_MIN_ROUNDS = 3;
/**
 * The most measured rounds a configuration gets by default (--rounds sets it): on a real 30-plugin site here every
 * configuration's TTFB varied by ±5–15 % request to request (work a plugin does now and then), so none settled within
 * 9 rounds, and 9 took over 4 minutes; 4 keep it under 3, with the spread said beside every figure.
 */
export const SITE_ROUNDS = 4;
/** A TTFB median is settled when its 95 % interval's half-width is at most this share of it (or the 1 ms floor). */
export const TTFB_SETTLED_SHARE = 0.03;
/**
 * A member whose paired TTFB difference reads outside noise, but not far (ttfbUnconfirmed), is asked again with its
 * baseline, its own TTFB settled or not, until it reads within noise or far outside, or has this many paired rounds
 * (issue 45; an explicit --rounds is the cap itself). On a machine loaded 5–7 times over its 2 cores, the difference of two medians with the IQR left 13 of
 * 96 figures of plugins that do nothing outside noise; paired, with the interval and confirmed, 1 of 96 (bench figure 13).
 */
export const SITE_CONFIRM_ROUNDS = 6;

/**
 * Whether a configuration's TTFB needs no more rounds: at least `min` of them, and the 95 % interval of the median
 * (from the median absolute deviation: a robust σ of 1.4826 MAD, the median's standard error 1.2533 σ/√n) within
 * TTFB_SETTLED_SHARE of it, or within the noise floor. Later rounds are asked only of those not settled, up to --rounds.
 */
export function ttfbSettled(ttfbs: readonly number[], min = SITE_MIN_ROUNDS): boolean {
  if (ttfbs.length < Math.max(2, min)) return false;
  const med = median([...ttfbs]);
  const mad = median(ttfbs.map((x) => Math.abs(x - med)));
  const half = (1.96 * 1.2533 * 1.4826 * mad) / Math.sqrt(ttfbs.length);
  return half <= Math.max(NOISE_FLOOR.ttfb_ms, TTFB_SETTLED_SHARE * med);
}

export interface Figures {
  ttfb_delta_ms: number;
  memory_delta_kb: number;
  queries_delta: number;
  /** `--instructions`: the difference of the two configurations' median instruction counts (siteInstructions.ts) */
  instructions_delta?: number;
  /**
   * The difference's spread: the interquartile range of its round-by-round differences (both configurations are asked
   * in every round), or for the sum of the parts the root of the parts' squared spreads. A difference inside it (or
   * under the floor: 1 ms, 16 KB) reads "within noise". Absent in records from before it was kept. `ttfb_interval_ms`:
   * the paired TTFB median's 95 % interval; a difference whose interval reaches into the floor reads within noise too.
   */
  spread?: { ttfb_ms: number; memory_kb: number; queries: number; instructions?: number; ttfb_interval_ms?: [number, number] };
}

/** Differences this small are no finding whatever the spread (as `measure` reads one component). */
export const NOISE_FLOOR = { ttfb_ms: 1, memory_kb: 16 } as const;

/**
 * `--instructions`: a count difference this small is no finding whatever its spread. WordPress spends 20–40 K
 * instructions loading any plugin file, one that does nothing (measured here); 100 K is 0.2 % of a bare request and a
 * thirtieth of the 1 ms TTFB floor's work.
 */
export const INSTRUCTIONS_FLOOR = 100_000;

/** Whether a difference's instruction count is inside its spread (or the floor); undefined when it has none. */
export function countInNoise(f: Figures): boolean | undefined {
  if (f.instructions_delta === undefined) return undefined;
  return Math.abs(f.instructions_delta) <= Math.max(f.spread?.instructions ?? 0, INSTRUCTIONS_FLOOR);
}

/** Whether each part of a difference is inside its spread (or the floor); queries: only when they vary at all. */
export function inNoise(f: Figures): { ttfb: boolean; memory: boolean; queries: boolean } {
  const sp = f.spread;
  return {
    // Paired rounds (issue 45): outside only when the median's 95 % interval is clear of the floor, too.
    ttfb: !!sp && (Math.abs(f.ttfb_delta_ms) <= Math.max(sp.ttfb_ms, NOISE_FLOOR.ttfb_ms) || (!!sp.ttfb_interval_ms && sp.ttfb_interval_ms[0] <= NOISE_FLOOR.ttfb_ms && sp.ttfb_interval_ms[1] >= -NOISE_FLOOR.ttfb_ms)),
    memory: !!sp && Math.abs(f.memory_delta_kb) <= Math.max(sp.memory_kb, NOISE_FLOOR.memory_kb),
    queries: !!sp && sp.queries > 0 && Math.abs(f.queries_delta) <= sp.queries,
  };
}

export type ContextFigures = Record<MeasureContext, Figures | null>;

interface Medians {
  ttfb: number;
  memory: number;
  queries: number;
}

function medians(xs: readonly Sample[] | undefined): Medians | null {
  if (!xs?.length) return null;
  return { ttfb: median(xs.map((x) => x.ttfbMs)), memory: median(xs.map((x) => x.memoryBytes)), queries: median(xs.map((x) => x.queries)) };
}

const r1 = (x: number) => Math.round(x * 10) / 10;

function iqr(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => {
    const i = (s.length - 1) * p;
    const lo = Math.floor(i);
    return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (i - lo);
  };
  return at(0.75) - at(0.25);
}

/**
 * The rounds both configurations were asked in, as pairs (the first ask of each in a round): configurations whose TTFB
 * settled early have fewer rounds, and the clean site and the stack are asked more than once in a large site's round.
 * Without round numbers, pairs by position when both have the same count.
 */
function pairs(a: readonly Sample[], b: readonly Sample[]): Array<[Sample, Sample]> | undefined {
  if (a.every((x) => x.round !== undefined) && b.every((x) => x.round !== undefined)) {
    const first = (xs: readonly Sample[]) => {
      const m = new Map<number, Sample>();
      for (const x of xs) if (!m.has(x.round!)) m.set(x.round!, x);
      return m;
    };
    const fb = first(b);
    const out = [...first(a)].flatMap(([r, x]) => (fb.has(r) ? [[x, fb.get(r)!] as [Sample, Sample]] : []));
    return out.length >= 2 ? out : undefined;
  }
  return a.length === b.length ? a.map((x, i) => [x, b[i]]) : undefined;
}

/** The spread of a − b: the IQR of the round-by-round differences (the rounds both were asked in), else the two IQRs added. */
function spreadOf(a: readonly Sample[], b: readonly Sample[], p = pairs(a, b)): NonNullable<Figures['spread']> {
  const of = (f: (x: Sample) => number) => (p ? iqr(p.map(([x, y]) => f(x) - f(y))) : iqr(a.map(f)) + iqr(b.map(f)));
  const spread = { ttfb_ms: r1(of((x) => x.ttfbMs)), memory_kb: Math.round(of((x) => x.memoryBytes) / 1024), queries: Math.round(of((x) => x.queries)) };
  if (!p) return spread;
  // The TTFB median's two-sided 95 % interval, distribution-free (the sign test's order statistics, as --baseline-ref's).
  const d = p.map(([x, y]) => x.ttfbMs - y.ttfbMs).sort((u, v) => u - v);
  const k = lowerBoundRank(d.length, 0.025);
  return { ...spread, ttfb_interval_ms: [r1(d[k - 1]) + 0, r1(d[d.length - k]) + 0] };
}

/**
 * Whether a member's configuration ("alone:…", "without:…") needs confirming: its TTFB difference reads outside noise
 * but not far (at most 3 times its spread or the floor): a difference far outside is decided, one within noise too.
 */
export function ttfbUnconfirmed(samples: SiteSamples, id: string, ctx: MeasureContext): boolean {
  const base = id.startsWith('alone:') ? 'clean' : id.startsWith('without:') ? 'stack' : undefined;
  const [a, b] = base === 'stack' ? [samples.stack?.[ctx], samples[id]?.[ctx]] : [samples[id]?.[ctx], samples.clean?.[ctx]];
  const f = base ? diff(medians(a), medians(b), a, b) : null;
  return !!f?.spread && !inNoise(f).ttfb && Math.abs(f.ttfb_delta_ms) <= 3 * Math.max(f.spread.ttfb_ms, NOISE_FLOOR.ttfb_ms);
}

/**
 * a − b. TTFB: the median of the round-by-round differences (issue 45), as its spread is their IQR: one slow ask of
 * the stack (or the clean site) moves every member's difference in that round alike, and the median of the rounds
 * leaves it out, where the difference of the two medians carried it into every member (and compared rounds one of the
 * two was not asked in). Without pairs (records before rounds were kept), the difference of the medians. Memory and
 * queries (exact): the difference of the medians, as always.
 */
function diff(a: Medians | null, b: Medians | null, sa?: readonly Sample[], sb?: readonly Sample[]): Figures | null {
  if (!a || !b) return null;
  const p = sa?.length && sb?.length ? pairs(sa, sb) : undefined;
  const ttfb = p ? median(p.map(([x, y]) => x.ttfbMs - y.ttfbMs)) : a.ttfb - b.ttfb;
  // `+ 0` turns a rounded -0 into 0.
  return {
    ttfb_delta_ms: r1(ttfb) + 0,
    memory_delta_kb: Math.round((a.memory - b.memory) / 1024) + 0,
    queries_delta: Math.round(a.queries - b.queries) + 0,
    ...(sa?.length && sb?.length ? { spread: spreadOf(sa, sb, p) } : {}),
  };
}

/** Samples per configuration id and context (the measured rounds only). */
export type SiteSamples = Record<string, Partial<Record<MeasureContext, Sample[]>>>;

/**
 * One warm-up round settles most configurations; a real site's admin sometimes does its one-time work (a plugin's
 * database upgrade after a setup wizard's redirect) one request later. A configuration whose first measured round
 * differs from its later ones (queries, or memory by more than `toleranceKb`) while those agree with each other was
 * still settling: that round is taken out, as a second warm-up would have. Returns the "config context" keys trimmed.
 */
export function dropSettling(samples: SiteSamples, toleranceKb = 64): string[] {
  const out: string[] = [];
  const same = (a: Sample, b: Sample) => a.queries === b.queries && Math.abs(a.memoryBytes - b.memoryBytes) <= toleranceKb * 1024;
  for (const [config, byCtx] of Object.entries(samples)) {
    for (const [ctx, list] of Object.entries(byCtx) as Array<[MeasureContext, Sample[] | undefined]>) {
      if (!list || list.length < 3) continue;
      const rest = list.slice(1);
      if (!same(list[0], list[1]) && rest.every((x) => same(x, rest[0]))) {
        byCtx[ctx] = rest;
        out.push(`${config} ${ctx}`);
      }
    }
  }
  return out;
}

/** A configuration whose exact figures (queries, memory) changed between its rounds: its state moved during the run. */
export interface StateDependent {
  config: string;
  context: MeasureContext;
  queries: [number, number];
  memory_kb: [number, number];
}

/**
 * The configurations whose queries differ between rounds, or whose memory does by more than `toleranceKb` (queries and
 * memory repeat exactly when a configuration starts from the same state each time), beyond what their base varies by:
 * named, never averaged away.
 */
export function stateDependent(samples: SiteSamples, toleranceKb = 64): StateDependent[] {
  const ranges = (list: readonly Sample[]) => {
    const q = list.map((x) => x.queries);
    const m = list.map((x) => x.memoryBytes / 1024);
    return { q: [Math.min(...q), Math.max(...q)] as [number, number], m: [Math.round(Math.min(...m)), Math.round(Math.max(...m))] as [number, number] };
  };
  const out: StateDependent[] = [];
  for (const [config, byCtx] of Object.entries(samples)) {
    for (const [ctx, list] of Object.entries(byCtx) as Array<[MeasureContext, Sample[] | undefined]>) {
      if (!list || list.length < 2) continue;
      const { q: qr, m: mr } = ranges(list);
      // What a configuration's base varies by itself (a transient expiring now and then: time, not another
      // configuration's state) is not counted against it: clean WordPress's for the stack and each member alone, the
      // stack's for the stack without a member (it runs the same plugins' periodic work). Clean is listed when it varies at all.
      const baseId = config === 'clean' ? undefined : config.startsWith('without:') ? 'stack' : 'clean';
      const of = baseId ? samples[baseId]?.[ctx] : undefined;
      const base = of && of.length >= 2 ? ranges(of) : undefined;
      const qWidth = qr[1] - qr[0] - (base ? base.q[1] - base.q[0] : 0);
      const mWidth = mr[1] - mr[0] - (base ? base.m[1] - base.m[0] : 0);
      if (qWidth > 0 || mWidth > toleranceKb) out.push({ config, context: ctx, queries: qr, memory_kb: mr });
    }
  }
  return out;
}

/** A configuration's own medians in a context (the clean site's, kept in the record beside the deltas). */
export interface OwnMedians {
  ttfb_ms: number;
  memory_kb: number;
  queries: number;
}

export interface SiteArithmetic {
  site: ContextFigures;
  /** the clean site's own medians per context (null where it has no samples) */
  clean: Record<MeasureContext, OwnMedians | null>;
  components: Record<string, { alone: ContextFigures; in_site: ContextFigures }>;
  sum_of_alone: ContextFigures;
  /** Per context, the members whose alone is not measured there: left out of the sum (said beside it). */
  not_counted: Record<MeasureContext, string[]>;
}

/**
 * The stack against the clean site; each member alone (against the clean site) and in the site (the stack against
 * the stack without it); the sum of the alones measured (the others named in `not_counted`; null when none is). A
 * context a configuration could not be measured in is null there.
 */
export function siteArithmetic(samples: SiteSamples, members: readonly string[]): SiteArithmetic {
  const m = (id: string, c: MeasureContext) => medians(samples[id]?.[c]);
  const d = (a: string, b: string, c: MeasureContext) => diff(m(a, c), m(b, c), samples[a]?.[c], samples[b]?.[c]);
  const per = <T>(f: (c: MeasureContext) => T): Record<MeasureContext, T> => Object.fromEntries(CONTEXTS.map((c) => [c, f(c)])) as Record<MeasureContext, T>;
  const components: SiteArithmetic['components'] = {};
  for (const id of members) {
    components[id] = {
      alone: per((c) => d(`alone:${id}`, 'clean', c)),
      in_site: per((c) => d('stack', `without:${id}`, c)),
    };
  }
  const not_counted = per((c) => members.filter((id) => components[id].alone[c] === null));
  const sum_of_alone = per((c) => sumOfParts(members.map((id) => components[id].alone[c])));
  const own = (x: Medians | null): OwnMedians | null => (x ? { ttfb_ms: r1(x.ttfb), memory_kb: Math.round(x.memory / 1024), queries: r1(x.queries) } : null);
  return { site: per((c) => d('stack', 'clean', c)), clean: per((c) => own(m('clean', c))), components, sum_of_alone, not_counted };
}

/** The sum of the parts measured (null when none is), its spread the root of the parts' squared spreads. */
export function sumOfParts(all: ReadonlyArray<Figures | null | undefined>): Figures | null {
  const parts = all.filter((p): p is Figures => !!p);
  if (!parts.length) return null;
  const sum = parts.reduce<Figures>(
    (a, p) => ({ ttfb_delta_ms: r1(a.ttfb_delta_ms + p.ttfb_delta_ms), memory_delta_kb: a.memory_delta_kb + p.memory_delta_kb, queries_delta: a.queries_delta + p.queries_delta }),
    { ttfb_delta_ms: 0, memory_delta_kb: 0, queries_delta: 0 },
  );
  // Independent parts: their spreads add as squares.
  const rss = (f: (x: NonNullable<Figures['spread']>) => number) => Math.sqrt(parts.reduce((a, p) => a + (p.spread ? f(p.spread) ** 2 : 0), 0));
  return parts.every((p) => p.spread) ? { ...sum, spread: { ttfb_ms: r1(rss((x) => x.ttfb_ms)), memory_kb: Math.round(rss((x) => x.memory_kb)), queries: Math.round(rss((x) => x.queries)) } } : sum;
}

/** `--shard K/N`: which members this shard measures alone and in the site (every N-th, from the K-th). */
export interface Shard {
  k: number;
  n: number;
}

/** Parses "K/N" (1 ≤ K ≤ N ≤ 64); undefined when it is not that. */
export function parseShard(v: string): Shard | undefined {
  const m = /^(\d{1,2})\/(\d{1,2})$/.exec(v);
  if (!m) return undefined;
  const k = Number(m[1]);
  const n = Number(m[2]);
  return k >= 1 && n >= 1 && k <= n && n <= 64 ? { k, n } : undefined;
}

/** Whether a configuration belongs to the shard: the clean site and the stack always; a member's, when it is one of the shard's. */
export function inShard(configId: string, shardMembers: ReadonlySet<string>): boolean {
  return configId === 'clean' || configId === 'stack' || shardMembers.has(configId.slice(configId.indexOf(':') + 1));
}
