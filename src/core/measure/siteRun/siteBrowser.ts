// `measure SITE --site --browser`: after the timed rounds (and --instructions), the homepage of the clean site, the
// stack and the stack without each member loaded in headless Chromium by browserSidesPass (browser/sides.ts: a side
// per configuration, each through its own gate with its X-WPBench-Config header and its own database; one warm-up
// load of the stack, which asks for every file the others do; then N rounds, the order rotating), then the figures
// (siteBrowserFigures.ts). The members alone are not loaded: what a visitor of this site pays for a member is what
// removing it saves (the stack without it), and each configuration loaded costs every round a load (about a second
// on a quiet homepage). No Chromium, or a browser that broke: said, the server figures intact.
import { measuredText, type LiveSite } from '../site/siteClient';
import type { SandboxProbe } from '../machine/sandbox';
import { MeasureError } from '../options/runOptions';
import { browserSidesPass, type BrowserRunOptions, type BrowserSide } from '../browser/sides';
import type { BrowserLoad } from '../browser/types';
import type { SiteConfig } from './sitePlan';
import { siteBrowserFigures, withoutId, type SiteBrowserMember, type SiteBrowserResult } from './siteBrowserFigures';

export { memberFolders, withSiteBrowser } from './siteBrowserFigures';

export interface SiteBrowserOptions extends BrowserRunOptions {
  /** the configurations measured (a shard's: the clean site, the stack and its members') */
  configs: readonly SiteConfig[];
  /** the members with figures, by configuration id, with their folders in the throwaway site */
  members: readonly SiteBrowserMember[];
  /** every load, as recorded */
  onLoads?: (loads: BrowserLoad[]) => void;
}

/** The configurations loaded: the clean site, the stack, and the stack without each member (in the plan's order). */
export function browserSides(configs: readonly SiteConfig[], members: readonly SiteBrowserMember[]): BrowserSide[] {
  const ids = new Set(['clean', 'stack', ...members.map((m) => withoutId(m.id))]);
  return configs.filter((c) => ids.has(c.id)).map((c) => ({ id: c.id, headers: { 'X-WPBench-Config': c.id }, db: `config:${c.id}` }));
}

export async function siteBrowserPass(o: SiteBrowserOptions): Promise<SiteBrowserResult | { unavailable: string }> {
  try {
    const sides = browserSides(o.configs, o.members);
    const n = sides.length - 2;
    const started = Date.now();
    const r = await browserSidesPass({ ...o, sides, warmup: 'stack', per: `the homepage per configuration (${sides.length}: the clean site, the stack and the stack without each of ${n === 1 ? 'its member' : `${n} members`})` });
    if ('unavailable' in r) {
      o.progress(`warning: ${r.unavailable}; measured without the browser figures`);
      return r;
    }
    o.onLoads?.(r.loads);
    o.progress(`browser: ${r.loads.length + 1} loads of ${sides.length} configurations in ${Math.round((Date.now() - started) / 100) / 10} s`);
    return { ...siteBrowserFigures(r.loads, o.members), info: r.info };
  } catch (err) {
    // The run's abort and its own failures go on; a browser that broke (crashed, never answered) costs only its figures.
    if (o.live.signal.aborted || err instanceof MeasureError) throw err;
    const unavailable = `the browser failed (${measuredText(String((err as Error)?.message ?? err)).slice(0, 300)})`;
    o.progress(`warning: ${unavailable}; measured without the browser figures`);
    return { unavailable };
  }
}
