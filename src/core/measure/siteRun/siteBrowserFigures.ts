// `measure SITE --site --browser`, the arithmetic (pure, unit-tested on recorded loads): from the loads of the
// browser pass (siteBrowser.ts: the clean site, the stack and the stack without each member, one side each), the
// stack's browser figures against the clean site (its own files: every member's), each member's in the site (the
// stack against the stack without it: what removing it would save the visitor; its own files in the stack's loads),
// and the record with them (site.browser, site.clean.browser, components[].in_site.browser, local.browser).
import { browserDelta, ownAssets, sideMedians } from '../browser/figures';
import type { BrowserDelta, BrowserFigures, BrowserInfo, BrowserLoad } from '../browser/types';
import type { SiteComponentResult, SiteRecord } from './siteRecord';

/** A member as the pass sees it: its configuration id ("plugin:acme", "mu:loader", "theme:shop") and its folders in the site. */
export interface SiteBrowserMember {
  id: string;
  folders: string[];
}

export interface SiteBrowserFigures {
  /** the stack − the clean site; its assets: every member's own files in the stack's loads */
  stack: BrowserDelta;
  /** the clean site's own medians */
  clean: BrowserFigures;
  /** per member id: the stack − the stack without it; its assets: its own files in the stack's loads */
  members: Record<string, BrowserDelta>;
}

export type SiteBrowserResult = SiteBrowserFigures & { info: BrowserInfo };

/** The configuration of the stack without a member. */
export const withoutId = (id: string): string => `without:${id}`;

/** The figures from the pass's loads (a member whose configuration was not loaded, another shard's, has none). */
export function siteBrowserFigures(loads: readonly BrowserLoad[], members: readonly SiteBrowserMember[]): SiteBrowserFigures {
  const of = (side: string) => loads.filter((l) => l.side === side);
  const stack = of('stack');
  const clean = of('clean');
  const out: Record<string, BrowserDelta> = {};
  for (const m of members) {
    const without = of(withoutId(m.id));
    if (without.length) out[m.id] = browserDelta(without, stack, ownAssets(stack, m.folders));
  }
  return { stack: browserDelta(clean, stack, ownAssets(stack, members.flatMap((m) => m.folders))), clean: sideMedians(clean), members: out };
}

/** What a member's files are in the throwaway site ("/wp-content/plugins/acme/"), from where the site build put it. */
export function memberFolders(c: { kind: 'plugin' | 'theme'; singleFile: boolean; mainFile: string; mustUse?: boolean; muFolders?: string[] }, at: { target: string; template?: string }): string[] {
  if (c.kind === 'theme') return [`/wp-content/themes/${at.target}/`, ...(at.template && at.template !== at.target ? [`/wp-content/themes/${at.template}/`] : [])];
  if (c.mustUse) return [`/wp-content/mu-plugins/${c.mainFile}`, ...(c.muFolders ?? []).map((f) => `/wp-content/mu-plugins/${f}/`)];
  if (c.singleFile || !at.target.includes('/')) return [`/wp-content/plugins/${at.target}`];
  return [`/wp-content/plugins/${at.target.slice(0, at.target.indexOf('/'))}/`];
}

/** A member's configuration id from its result ("plugin:acme", "mu:loader", "theme:shop"), as siteRun names it. */
export const resultId = (c: SiteComponentResult): string => (c.must_use ? `mu:${c.slug}` : `${c.kind}:${c.slug}`);

/** The record with the browser figures, or with why there are none (`local.browser.unavailable`); without --browser as it is. */
export function withSiteBrowser(r: SiteRecord, b: SiteBrowserResult | { unavailable: string } | undefined): SiteRecord {
  if (!b) return r;
  if ('unavailable' in b) return { ...r, local: { ...r.local, browser: { unavailable: b.unavailable } } };
  return {
    ...r,
    site: { ...r.site, ...(r.site.clean ? { clean: { ...r.site.clean, browser: b.clean } } : {}), browser: b.stack },
    components: r.components.map((c) => {
      const d = b.members[resultId(c)];
      return d && c.in_site && !c.left_out ? { ...c, in_site: { ...c.in_site, browser: d } } : c;
    }),
    local: { ...r.local, browser: b.info },
  };
}
