// The browser pass of `measure PATH --browser`, after the server rounds (and before --instructions, --profile and
// --findings): the clean side and the measured side (and, with --baseline-ref, REF's copy) loaded in turn by
// browserSidesPass (sides.ts), then the figures of each against the clean side (figures.ts). No Chromium: said, and no
// figures; a browser that broke costs only its figures.
import { measuredText, type LiveSite } from '../site/siteClient';
import type { SandboxProbe } from '../machine/sandbox';
import { MeasureError } from '../options/runOptions';
import { browserDelta, ownAssets, ownFolders, sideMedians } from './figures';
import { browserSidesPass, type BrowserSide } from './sides';
import { browserWaterfall } from './waterfall';
import type { BrowserDelta, BrowserFigures, BrowserInfo, BrowserLoad } from './types';

export { BROWSER_ROUNDS } from './sides';

type Component = { kind: 'plugin' | 'theme'; slug: string; mustUse?: boolean; parent?: { slug: string } };

export interface BrowserPassOptions {
  live: LiveSite;
  sandbox: SandboxProbe;
  /** the native runtime's PHP (the relay inside Chromium's sandbox) */
  php?: string;
  env: NodeJS.ProcessEnv;
  device?: 'desktop' | 'mobile';
  rounds?: number;
  component: Component;
  /** --baseline-ref: REF's copy, loaded as a third side ("ref") */
  ref?: Component;
  runId?: string;
  onChild?: (pid: number | undefined) => void;
  check: () => void;
  progress: (line: string) => void;
  /** every load, as recorded (the later surfaces: waterfall, filmstrip) */
  onLoads?: (loads: BrowserLoad[]) => void;
}

export interface BrowserSideResult {
  delta: BrowserDelta;
  baseline: BrowserFigures;
  info: BrowserInfo;
  loads: BrowserLoad[];
}

export type BrowserPassResult = (BrowserSideResult & { ref?: BrowserSideResult }) | { unavailable: string };

const side = (id: string): BrowserSide => ({ id, headers: { 'X-WPBench-Side': id }, db: `side:${id}` });

export async function browserPass(o: BrowserPassOptions): Promise<BrowserPassResult> {
  try {
    const sides = [side('baseline'), side('measured'), ...(o.ref ? [side('ref')] : [])];
    const r = await browserSidesPass({ ...o, sides, warmup: 'measured', filmstrip: ['baseline', 'measured'] });
    if ('unavailable' in r) return r;
    o.onLoads?.(r.loads);
    const base = r.loads.filter((l) => l.side === 'baseline');
    const of = (id: string, c: Component): BrowserSideResult => {
      const mine = r.loads.filter((l) => l.side === id);
      const folders = ownFolders(c.kind, c.slug, c.mustUse, c.parent?.slug);
      // The report's waterfall and filmstrip: the extra load of each side (sides.ts), the component's files marked.
      const [b, m] = [r.shown?.find((l) => l.side === 'baseline'), r.shown?.find((l) => l.side === 'measured')];
      const info = b && m && id === 'measured' ? { ...r.info, waterfall: browserWaterfall(b, m, folders) } : r.info;
      return { delta: browserDelta(base, mine, ownAssets(mine, folders)), baseline: sideMedians(base), info, loads: [...base, ...mine] };
    };
    return { ...of('measured', o.component), ...(o.ref ? { ref: of('ref', o.ref) } : {}) };
  } catch (err) {
    // The run's abort and its own failures go on; a browser that broke (crashed, never answered) costs only its figures.
    if (o.live.signal.aborted || err instanceof MeasureError) throw err;
    return { unavailable: `the browser failed (${measuredText(String((err as Error)?.message ?? err)).slice(0, 300)})` };
  }
}
