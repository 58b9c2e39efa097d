// `check --diff <ref>`: what the working tree adds or removes compared with a git ref — components and the site
// total — so a pull request can say "this change adds +90 ms TTFB on the homepage". Pure: no I/O.
import { countNoun, formatCount, formatMemoryKb, formatMs, plural, signedKb, signedMs, signedQueries } from '../present/format';
import { CONTEXT_NAMES, type ComponentKind, type ContextName } from '../model';
import type { SiteTotal } from '../present/outcome';
import { CONTEXT_LABEL, itemKey, type ComponentVerdict, type Judgement } from './judge';

export interface ContextDelta {
  ttfbDeltaMs: number;
  memoryDeltaKb: number;
  queriesDelta: number;
}

export interface ComponentDiff {
  ref: string;
  /** In the working tree, not at the ref (worst first). */
  added: ComponentVerdict[];
  /** At the ref, not in the working tree (worst first). */
  removed: ComponentVerdict[];
  /** In both, with a different detected version. */
  changed: { kind: ComponentKind; slug: string; from: string | null; to: string | null }[];
  base: SiteTotal;
  head: SiteTotal;
  /** head − base, per context (measured deltas only). */
  delta: Record<ContextName, ContextDelta>;
  context: ContextName;
  /** One sentence for people, about `context`. */
  headline: string;
}

export function diffJudgements(ref: string, base: Judgement, head: Judgement): ComponentDiff {
  const baseKeys = new Map(base.components.map((v) => [itemKey(v.kind, v.slug), v]));
  const headKeys = new Map(head.components.map((v) => [itemKey(v.kind, v.slug), v]));
  const added = head.components.filter((v) => !baseKeys.has(itemKey(v.kind, v.slug)));
  const removed = base.components.filter((v) => !headKeys.has(itemKey(v.kind, v.slug)));
  const changed: ComponentDiff['changed'] = [];
  for (const v of head.components) {
    const before = baseKeys.get(itemKey(v.kind, v.slug));
    if (before && before.version !== v.version) changed.push({ kind: v.kind, slug: v.slug, from: before.version, to: v.version });
  }
  const delta = {} as Record<ContextName, ContextDelta>;
  for (const c of CONTEXT_NAMES) {
    const h = head.total.contexts[c];
    const b = base.total.contexts[c];
    delta[c] = { ttfbDeltaMs: h.ttfbDeltaMs - b.ttfbDeltaMs, memoryDeltaKb: h.memoryDeltaKb - b.memoryDeltaKb, queriesDelta: h.queriesDelta - b.queriesDelta };
  }
  const context = head.config.context;
  return { ref, added, removed, changed, base: base.total, head: head.total, delta, context, headline: headline(ref, added, removed, delta[context], context) };
}

function headline(ref: string, added: ComponentVerdict[], removed: ComponentVerdict[], d: ContextDelta, context: ContextName): string {
  const where = `on the ${CONTEXT_LABEL[context]}`;
  const changes = [added.length ? `${countNoun(added.length, 'component')} added` : null, removed.length ? `${removed.length} removed` : null].filter(Boolean).join(', ');
  if (!added.length && !removed.length) return `No plugin or theme is added or removed compared with ${ref}.`;
  const unmeasured = [...added, ...removed].filter((v) => !v.contexts?.[context]).length;
  const caveat = unmeasured ? ` ${countNoun(unmeasured, 'changed component')} without a measurement here ${unmeasured === 1 ? 'is' : 'are'} not counted.` : '';
  if (d.ttfbDeltaMs === 0 && d.memoryDeltaKb === 0 && d.queriesDelta === 0) {
    return `This change leaves the measured site total ${where} unchanged (${changes} compared with ${ref}).${caveat}`;
  }
  const verb = d.ttfbDeltaMs > 0 ? 'adds' : d.ttfbDeltaMs < 0 ? 'saves' : 'changes';
  const ttfb = verb === 'saves' ? `${formatMs(Math.abs(d.ttfbDeltaMs))} TTFB` : `${signedMs(d.ttfbDeltaMs)} TTFB`;
  return `This change ${verb} ${ttfb} ${where} (${signedKb(d.memoryDeltaKb)} memory, ${signedQueries(d.queriesDelta)}; ${changes} compared with ${ref}).${caveat}`;
}
