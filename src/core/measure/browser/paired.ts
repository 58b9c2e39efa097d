// The paired browser figures of a `--baseline-ref --browser` run: per figure, the differences working tree − REF of
// the loads of the same round (both against the same clean loads, so the clean side cancels out), what the
// regression check judges the time figures on (compare/browser.ts). Pure.
import { loadFigures } from './figures';
import type { BrowserFigures, BrowserLoad } from './types';

/** Per browser figure, one difference per round in which both sides were loaded (`a` − `b`, in the figure's unit). */
export type PairedBrowser = Partial<Record<keyof BrowserFigures, number[]>>;

const KEYS: ReadonlyArray<keyof BrowserFigures> = ['bytes_kb', 'requests', 'render_blocking', 'fcp_ms', 'lcp_ms', 'tbt_ms', 'cls'];

/** The paired differences of side `a`'s loads against side `b`'s, round by round (rounds one side lacks are left out). */
export function pairedBrowser(loads: readonly BrowserLoad[], a = 'measured', b = 'ref'): PairedBrowser {
  const of = (side: string) => new Map(loads.filter((l) => l.side === side && l.round >= 0).map((l) => [l.round, loadFigures(l)]));
  const A = of(a);
  const B = of(b);
  const rounds = [...A.keys()].filter((r) => B.has(r)).sort((x, y) => x - y);
  if (!rounds.length) return {};
  return Object.fromEntries(KEYS.map((k) => [k, rounds.map((r) => A.get(r)![k] - B.get(r)![k])])) as PairedBrowser;
}
