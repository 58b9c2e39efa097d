// The layout shifts the component causes, pure (unit-tested on recorded loads): each load's shifts by the node they
// moved (a shift's whole score counted to its first source, the largest: LayoutShift.sources), the median per load on
// each side (a load without it: 0), and what the side with the component has beyond the clean side's — over
// BROWSER_NOISE's 0.001, so a shift in fewer than half of the loads is none.
import { median } from '../record/method';
import type { BrowserLoad, BrowserShift, ShiftNode } from './types';

const MIN_CLS = 0.001;
const round3 = (x: number) => Math.round(x * 1000) / 1000;
const keyOf = (n: ShiftNode) => `${n.node}|${n.names.join(' ')}`;

/** Per load: the summed score of the shifts of each node (by its first source), with what was inserted before them. */
function byNode(load: BrowserLoad): Map<string, { node: ShiftNode; value: number; inserted?: ShiftNode[] }> {
  const out = new Map<string, { node: ShiftNode; value: number; inserted?: ShiftNode[] }>();
  for (const s of load.layout_shifts) {
    const first = s.sources?.[0];
    if (!first) continue;
    const k = keyOf(first);
    const had = out.get(k) ?? { node: first, value: 0 };
    had.value += s.value;
    if (!had.inserted && s.inserted?.length) had.inserted = s.inserted;
    out.set(k, had);
  }
  return out;
}

/** The shifts the loads with the component have beyond the clean loads, by node, largest first. */
export function componentShifts(baseline: readonly BrowserLoad[], measured: readonly BrowserLoad[]): BrowserShift[] {
  if (!measured.length) return [];
  const b = baseline.map(byNode);
  const m = measured.map(byNode);
  const keys = new Map<string, { node: ShiftNode; inserted?: ShiftNode[] }>();
  for (const load of m) for (const [k, v] of load) if (!keys.has(k) || (!keys.get(k)!.inserted && v.inserted)) keys.set(k, { node: v.node, inserted: v.inserted });
  const out: BrowserShift[] = [];
  for (const [k, { node, inserted }] of keys) {
    const of = (side: Map<string, { value: number }>[]) => (side.length ? median(side.map((l) => l.get(k)?.value ?? 0)) : 0);
    const cls = round3(of(m) - of(b));
    if (cls <= MIN_CLS) continue;
    const seen = new Set<string>();
    const ins = (inserted ?? []).filter((n) => !seen.has(keyOf(n)) && seen.add(keyOf(n))).slice(0, 3);
    out.push({ node: node.node, names: node.names, cls, loads: m.filter((l) => l.has(k)).length, ...(ins.length ? { inserted: ins } : {}) });
  }
  return out.sort((x, y) => y.cls - x.cls || x.node.localeCompare(y.node));
}
