// The browser pass of `measure PATH --browser`, after the server rounds (and before --instructions, --profile and
// --findings): the clean side and the measured side (and, with --baseline-ref, REF's copy) loaded in turn by
// browserSidesPass (sides.ts), then the figures of each against the clean side (figures.ts). No Chromium: said, and no
// figures; a browser that broke costs only its figures.
import { measuredText, type LiveSite } from '../site/siteClient';
import type { SandboxProbe } from '../machine/sandbox';
import { MeasureError } from '../options/runOptions';
import { REF_SUFFIX, TREE_SUFFIX } from '../site/site';
import { MU_REF_DIR } from '../php/phpFiles';
import { browserDelta, ownAssets, ownFolders, sideMedians } from './figures';
import { pageExtras } from './pageExtras';
import { BROWSER_ROUNDS, browserSidesPass, type BrowserRunOptions, type BrowserSide } from './sides';
import { browserWaterfall } from './waterfall';
import { pairedBrowser, pairedMainThread, type PairedBrowser } from './paired';
import type { BrowserDelta, BrowserFigures, BrowserInfo, BrowserLoad } from './types';

export { BROWSER_ROUNDS };

type Component = { kind: 'plugin' | 'theme'; slug: string; mustUse?: boolean; parent?: { slug: string } };

export interface BrowserPassOptions extends BrowserRunOptions {
  component: Component;
  /** --baseline-ref: REF's copy, loaded as a third side ("ref") */
  ref?: Component;
  /** every load, as recorded (the later surfaces: waterfall, filmstrip) */
  onLoads?: (loads: BrowserLoad[]) => void;
  /** with `ref`: the timed figures the loads leave undecided (their names); any, and one confirmation pass of as many
   * loads a side again is loaded (compare/browser.ts browserUndecided) */
  confirm?: (measured: BrowserDelta, ref: BrowserDelta, paired: PairedBrowser) => string[];
}

export interface BrowserSideResult {
  delta: BrowserDelta;
  baseline: BrowserFigures;
  info: BrowserInfo;
  loads: BrowserLoad[];
}

/** With `ref`: REF's side and the paired differences working tree − REF, load by load (paired.ts). */
export type BrowserPassResult = (BrowserSideResult & { ref?: BrowserSideResult; paired?: PairedBrowser }) | { unavailable: string };

const side = (id: string): BrowserSide => ({ id, headers: { 'X-WPBench-Side': id }, db: `side:${id}` });

/**
 * The site-relative folders of a side's copy: with --baseline-ref the working tree's copy sits in "acme--wpbench-new"
 * and REF's in "acme--wpbench-ref" (a must-use REF in its own mu folder), as site.ts installs them.
 */
export function copyFolders(c: Component, side: string, withRef: boolean): string[] {
  const folders = ownFolders(c.kind, c.slug, c.mustUse, c.parent?.slug);
  if (!withRef) return folders;
  if (c.mustUse) return side === 'ref' ? folders.map((f) => f.replace('/wp-content/mu-plugins/', `/wp-content/${MU_REF_DIR}/`)) : folders;
  const suffix = side === 'ref' ? REF_SUFFIX : TREE_SUFFIX;
  return folders.map((f, i) => (i === 0 ? f.replace(new RegExp(`/${escapeRe(c.slug)}/$`), `/${c.slug}${suffix}/`) : f));
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An asset's path as the component names it (the copy's folder suffix taken off): "/wp-content/plugins/acme/app.js". */
function asNamed(url: string, c: Component, side: string, withRef: boolean): string {
  const [mine] = copyFolders(c, side, withRef);
  const [named] = ownFolders(c.kind, c.slug, c.mustUse, c.parent?.slug);
  return url.startsWith(mine) ? named + url.slice(mine.length) : url;
}

export async function browserPass(o: BrowserPassOptions): Promise<BrowserPassResult> {
  try {
    const sides = [side('baseline'), side('measured'), ...(o.ref ? [side('ref')] : [])];
    const r = await browserSidesPass({ ...o, sides, warmup: 'measured', filmstrip: ['baseline', 'measured'], confirm: o.ref && o.confirm ? confirmation(o.confirm, o) : undefined });
    if ('unavailable' in r) return r;
    const paired = o.ref ? pairedOf(r.loads, o) : undefined;
    o.onLoads?.(r.loads);
    const base = r.loads.filter((l) => l.side === 'baseline');
    const of = async (id: string, c: Component): Promise<BrowserSideResult> => {
      const mine = r.loads.filter((l) => l.side === id);
      const folders = copyFolders(c, id, !!o.ref);
      // The report's waterfall and filmstrip: the extra load of each side (sides.ts), the component's files marked.
      const [b, m] = [r.shown?.find((l) => l.side === 'baseline'), r.shown?.find((l) => l.side === 'measured')];
      const info = b && m && id === 'measured' ? { ...r.info, waterfall: browserWaterfall(b, m, folders) } : r.info;
      // Its layout shifts, the document's growth and its front-end files (pageExtras.ts).
      const delta = { ...browserDelta(base, mine, ownAssets(mine, folders).map((a) => ({ ...a, url: asNamed(a.url, c, id, !!o.ref) }))), ...(await pageExtras(base, mine, o.live.site.siteDir, folders)) };
      return { delta, baseline: sideMedians(base), info, loads: [...base, ...mine] };
    };
    return { ...(await of('measured', o.component)), ...(o.ref ? { ref: await of('ref', o.ref), paired } : {}) };
  } catch (err) {
    // The run's abort and its own failures go on; a browser that broke (crashed, never answered) costs only its figures.
    if (o.live.signal.aborted || err instanceof MeasureError) throw err;
    return { unavailable: `the browser failed (${measuredText(String((err as Error)?.message ?? err)).slice(0, 300)})` };
  }
}

/**
 * The confirmation of a comparison's browser figures: the figures of the loads so far (each copy against the same
 * clean loads, paired round by round); a timed figure undecided at the threshold, and as many loads a side again.
 */
function confirmation(undecided: NonNullable<BrowserPassOptions['confirm']>, o: BrowserPassOptions): (loads: BrowserLoad[]) => number {
  return (loads) => {
    const base = loads.filter((l) => l.side === 'baseline');
    const of = (id: string) => browserDelta(base, loads.filter((l) => l.side === id));
    const names = undecided(of('measured'), of('ref'), pairedOf(loads, o));
    if (!names.length) return 0;
    const n = o.rounds ?? BROWSER_ROUNDS;
    o.progress(`browser: ${names.join(', ')} too close to the threshold to decide: a confirmation pass of ${n} more loads a side`);
    return n;
  };
}

/** The paired loads working tree − REF: each figure, and each copy's own scripts' main-thread time (in its own folder). */
function pairedOf(loads: BrowserLoad[], o: BrowserPassOptions): PairedBrowser {
  const copies = [{ side: 'measured', folders: copyFolders(o.component, 'measured', true) }, { side: 'ref', folders: copyFolders(o.ref!, 'ref', true) }] as const;
  const main_thread_ms = pairedMainThread(loads, ...copies);
  const blocking_main_thread_ms = pairedMainThread(loads, ...copies, true);
  return { ...pairedBrowser(loads), ...(main_thread_ms.length ? { main_thread_ms, blocking_main_thread_ms } : {}) };
}
