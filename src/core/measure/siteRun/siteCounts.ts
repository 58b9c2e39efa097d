// `--site --instructions`, the arithmetic (pure): each member's figures as differences of the configurations' counts
// (siteInstructions.ts counts them) — alone, its configuration minus the clean site; in the site, the stack minus the
// stack without it — and whether two counts of one configuration agree.
import { countOf } from '../compare/instructions';
import { CONTEXTS, type InstructionsInfo, type MeasureContext } from '../record/method';
import type { ContextFigures, Figures } from './sitePlan';

/** Counted requests per configuration and context (no warm-up of its own: siteInstructions.ts warms two configurations). */
export const SITE_INSTRUCTION_ROUNDS = 2;

/** Two counts of one configuration's request closer than this share of it are the same work (identical requests: ~0.01 %). */
export const SETTLED_SHARE = 0.0005;

/** Each configuration's counts per context (absent or empty: not counted there). */
export type SiteCounts = Record<string, Partial<Record<MeasureContext, number[]>>>;

/** A configuration context whose counts kept differing. */
export interface VaryingCount {
  config: string;
  context: MeasureContext;
  counts: [number, number];
}

/** Whether counts agree within SETTLED_SHARE of their median. */
export function settled(xs: number[]): boolean {
  const c = countOf(xs);
  return !!c && c.spread <= c.median * SETTLED_SHARE;
}

/** A configuration's median count in a context, and its spread (max − min). */
const of = (counts: SiteCounts, id: string, ctx: MeasureContext) => countOf(counts[id]?.[ctx]);

/** `a − b` in a context with the larger of the two spreads; undefined when either was not counted. */
function delta(counts: SiteCounts, a: string, b: string, ctx: MeasureContext): { delta: number; spread: number } | undefined {
  const x = of(counts, a, ctx);
  const y = of(counts, b, ctx);
  return x && y ? { delta: x.median - y.median, spread: Math.max(x.spread, y.spread) } : undefined;
}

/** Figures with a count difference added (a context without figures stays without). */
function withCount(f: Figures | null, d: { delta: number; spread: number } | undefined): Figures | null {
  if (!f || !d) return f;
  return { ...f, instructions_delta: d.delta, ...(f.spread ? { spread: { ...f.spread, instructions: d.spread } } : {}) };
}

const per = (f: (c: MeasureContext) => Figures | null): ContextFigures => Object.fromEntries(CONTEXTS.map((c) => [c, f(c)])) as ContextFigures;

/** The stack against the clean site, counted. */
export function siteCounted(site: ContextFigures, counts: SiteCounts): ContextFigures {
  return per((c) => withCount(site[c], delta(counts, 'stack', 'clean', c)));
}

/** A member's figures (by its id, "plugin:SLUG"), counted: alone against the clean site, in the site against the stack without it. */
export function memberCounted(id: string, fig: { alone: ContextFigures; in_site: ContextFigures }, counts: SiteCounts): { alone: ContextFigures; in_site: ContextFigures } {
  return {
    alone: per((c) => withCount(fig.alone[c], delta(counts, `alone:${id}`, 'clean', c))),
    in_site: per((c) => withCount(fig.in_site[c], delta(counts, 'stack', `without:${id}`, c))),
  };
}

/** The sum of the parts' counts, where every part has one (its spread the root of the squares, as the other figures'). */
export function sumCounted(sum: ContextFigures, parts: ContextFigures[]): ContextFigures {
  return per((c) => {
    const f = sum[c];
    const xs = parts.map((p) => p[c]).filter((p): p is Figures => !!p);
    if (!f || !xs.length || xs.some((p) => p.instructions_delta === undefined)) return f;
    const spread = Math.round(Math.sqrt(xs.reduce((a, p) => a + (p.spread?.instructions ?? 0) ** 2, 0)));
    return withCount(f, { delta: xs.reduce((a, p) => a + p.instructions_delta!, 0), spread });
  });
}

/** How a site's counts were taken (`local.instructions`): as one component's, SITE_INSTRUCTION_ROUNDS counted. */
export function siteCountInfo(faketime: string | undefined): InstructionsInfo {
  return { counter: 'callgrind', opcache: 'warm', clock: faketime ? 'set' : 'running', rounds: SITE_INSTRUCTION_ROUNDS };
}
