// Pure: the recorded profiles of one context's requests → one merged call tree for a flame graph (the editor's
// webview draws it): identical frames under the same parent merged, each node's inclusive time per request, the
// component's frames marked with their file and defining line. Small nodes are dropped so the tree stays a few
// hundred nodes whatever the plugin: a 1 ms sampling period cannot see them reliably anyway.
import { exportLabel, makeResolver, type AttributeOptions } from './attribute';
import type { FlameNode, RequestProfile } from './types';

export type { FlameNode };

export interface FlameOptions extends AttributeOptions {
  /** the root's name */
  name?: string;
  /** nodes kept at most (default 600): the smallest go first */
  maxNodes?: number;
  /** nodes under this time per request are dropped (default 0.05 ms) */
  minMs?: number;
}

interface Building {
  n: string;
  f?: string;
  l?: number;
  c?: 1;
  ms: number;
  k: Map<string, Building>;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

export function flameTree(profiles: readonly RequestProfile[], opts: FlameOptions = {}): FlameNode {
  const resolve = makeResolver({ ...opts, fileScope: true });
  const root: Building = { n: opts.name ?? 'all', ms: 0, k: new Map() };
  const N = profiles.length || 1;
  for (const p of profiles) {
    const pms = (opts.period ?? p.period ?? 0.001) * 1000;
    const labels = p.frames.map((fr) => {
      const r = resolve(fr);
      const l = exportLabel(fr, r);
      return { key: `${l.name}\u0000${l.file}\u0000${l.line ?? ''}`, n: l.name, f: l.file || undefined, l: r.key ? l.line : undefined, c: r.key ? (1 as const) : undefined };
    });
    for (const st of p.samples) {
      const ms = st.n * pms;
      root.ms += ms;
      let at = root;
      for (const i of st.s) {
        const lb = labels[i];
        if (!lb) break;
        let next = at.k.get(lb.key);
        if (!next) at.k.set(lb.key, (next = { n: lb.n, ...(lb.f ? { f: lb.f } : {}), ...(lb.l ? { l: lb.l } : {}), ...(lb.c ? { c: lb.c } : {}), ms: 0, k: new Map() }));
        next.ms += ms;
        at = next;
      }
    }
  }
  // The threshold: at least minMs, raised until at most maxNodes remain (a node is kept only with its parent).
  const all: number[] = [];
  const collect = (b: Building) => {
    for (const c of b.k.values()) {
      all.push(c.ms / N);
      collect(c);
    }
  };
  collect(root);
  const maxNodes = Math.max(1, opts.maxNodes ?? 600);
  let min = opts.minMs ?? 0.05;
  if (all.length > maxNodes) {
    all.sort((a, b) => b - a);
    min = Math.max(min, all[maxNodes - 1]!);
  }
  let kept = 0;
  const finish = (b: Building): FlameNode => {
    const node: FlameNode = { n: b.n, ...(b.f ? { f: b.f } : {}), ...(b.l ? { l: b.l } : {}), ...(b.c ? { c: b.c } : {}), v: round2(b.ms / N) };
    const kids = [...b.k.values()].filter((c) => c.ms / N >= min && c.ms / N > 0).sort((a, c) => c.ms - a.ms || a.n.localeCompare(c.n));
    const out: FlameNode[] = [];
    for (const c of kids) {
      if (kept >= maxNodes) break;
      kept++;
      out.push(finish(c));
    }
    if (out.length) node.k = out;
    return node;
  };
  return finish(root);
}

/** Nodes in a tree (the root included). */
export function flameSize(n: FlameNode): number {
  return 1 + (n.k ?? []).reduce((a, c) => a + flameSize(c), 0);
}
