// What `measure SITE --site` returns (`--json`), as every surface reads it: the stack as it runs against clean
// WordPress, each component alone and in the site, the sum of the parts. Types and the shape check only, so that
// reports and the editor's store read a record without importing the run (siteRun.ts).
import { CONTEXTS, type DatabaseInfo, type InstructionsInfo } from '../record/method';
import type { VaryingCount } from './siteCounts';
import type { BrowserDelta, BrowserFigures, BrowserInfo, BrowserUnavailable } from '../browser/types';
import { isBrowserDelta, isBrowserFigures, isBrowserInfo } from './siteBrowserShape';
import type { ContextFigures, Figures, OwnMedians, StateDependent } from './sitePlan';

export type { ContextFigures, Figures };

export interface SiteComponentResult {
  kind: 'plugin' | 'theme';
  slug: string;
  name: string;
  must_use?: true;
  alone: { contexts: ContextFigures } | null;
  /** `browser` (`--browser`): the stack − the stack without it in the browser, its own files in the stack's loads */
  in_site: { contexts: ContextFigures; browser?: BrowserDelta } | null;
  left_out: string | null;
  /** why a member of the stack has no figures of its own */
  note?: string;
  /** a must-use plugin loaded by another's loader file: the slug it is measured with (its note says so) */
  measured_with?: string;
  /** declared (Composer, .wp-env.json, a blueprint) but its code is not in the working tree */
  not_installed?: true;
  /** `--shard`: measured in another shard (its figures are in that shard's record; `merge` puts them together) */
  other_shard?: true;
  /** its plugin file or theme folder, relative to the site's root ("/"-separated), when installed here */
  path?: string;
  /** the hash of its files when the run started (a child theme's with its parent's): a change makes the record stale */
  hash?: string;
}

export interface SiteRecord {
  source: 'local';
  /** when it was measured (ISO 8601) */
  measured_at?: string;
  /** `clean`: the clean site's own medians per context (absent in records from before it was kept) */
  site: { contexts: ContextFigures; clean?: { contexts: Record<keyof ContextFigures, OwnMedians | null>; browser?: BrowserFigures }; browser?: BrowserDelta };
  components: SiteComponentResult[];
  /** `not_counted`: per context, the slugs whose alone is not measured there (not in the sum) */
  sum_of_alone: { contexts: ContextFigures; not_counted?: Partial<Record<keyof ContextFigures, string[]>> };
  drop_ins_left_out: string[];
  /** configurations whose queries or memory changed between rounds (their state moved during the run): named, never averaged away */
  state_dependent?: StateDependent[];
  /** `--instructions`: configuration contexts whose counted requests did different work (time- or state-dependent): named */
  instructions_varying?: VaryingCount[];
  local: {
    database: DatabaseInfo | null;
    theme: string | null;
    wordpress: string;
    php: string;
    runtime: string;
    /** the cap of measured rounds (--rounds): a configuration whose TTFB settles sooner stops sooner */
    rounds: number;
    /** warm-up rounds (absent in records from before it was kept) */
    warmup_rounds?: number;
    /** the measured rounds configurations took per context: fewest, median, most (absent before adaptive rounds) */
    rounds_taken?: { min: number; median: number; max: number };
    configurations: number;
    duration_s: number;
    /** `--shard K/N`: the share this record measured */
    shard?: { k: number; n: number };
    /** a record merged from N shards (`wp-bench merge`) */
    shards?: number;
    /** `--instructions`: how the configurations' requests were counted (siteInstructions.ts) */
    instructions?: InstructionsInfo;
    /** `--browser`: how the homepage was loaded (siteRun/siteBrowser.ts), or why it was not */
    browser?: BrowserInfo | BrowserUnavailable;
  };
}

function isFigures(v: unknown): v is Figures {
  const f = v as Figures;
  return typeof f === 'object' && f !== null && [f.ttfb_delta_ms, f.memory_delta_kb, f.queries_delta].every((x) => typeof x === 'number' && Number.isFinite(x));
}

function isContexts(v: unknown): boolean {
  const c = (v as { contexts?: Record<string, unknown> } | null)?.contexts;
  return typeof c === 'object' && c !== null && CONTEXTS.every((k) => c[k] === null || isFigures(c[k]));
}

/** `{ contexts: { activation, homepage, admin } }`, each `{ ttfb_ms, memory_kb, queries }` or null. */
function isOwnMedians(v: unknown): boolean {
  const c = (v as { contexts?: Record<string, unknown> } | null)?.contexts;
  const ok = (m: unknown) => m === null || (typeof m === 'object' && ['ttfb_ms', 'memory_kb', 'queries'].every((k) => Number.isFinite((m as Record<string, unknown>)[k])));
  return typeof c === 'object' && c !== null && CONTEXTS.every((k) => ok(c[k]));
}

const str = (x: unknown, max = 2000) => typeof x === 'string' && x.length <= max;

/** Whether `v` has the shape of a site record (a file read back, a child's output): anything else is refused. */
export function isSiteRecord(v: unknown): v is SiteRecord {
  const r = v as SiteRecord;
  if (typeof r !== 'object' || r === null || r.source !== 'local' || !isContexts(r.site) || !isContexts(r.sum_of_alone)) return false;
  if (r.site.clean !== undefined && !isOwnMedians(r.site.clean)) return false;
  if ((r.site.browser !== undefined && !isBrowserDelta(r.site.browser)) || (r.site.clean?.browser !== undefined && !isBrowserFigures(r.site.clean.browser))) return false;
  const nc = r.sum_of_alone.not_counted;
  if (nc !== undefined && (typeof nc !== 'object' || nc === null || !Object.values(nc).every((l) => Array.isArray(l) && l.length <= 5000 && l.every((x) => str(x, 300))))) return false;
  if (!Array.isArray(r.components) || r.components.length > 5000 || !Array.isArray(r.drop_ins_left_out) || !r.drop_ins_left_out.every((d) => str(d))) return false;
  const l = r.local;
  if (typeof l !== 'object' || l === null || (l.browser !== undefined && !isBrowserInfo(l.browser)) || !str(l.wordpress, 100) || !str(l.php, 100) || !str(l.runtime, 100) || !(l.theme === null || str(l.theme, 300))) return false;
  return r.components.every(
    (c) =>
      typeof c === 'object' && c !== null && (c.kind === 'plugin' || c.kind === 'theme') && str(c.slug, 300) && str(c.name, 1000) &&
      (c.alone === null || isContexts(c.alone)) && (c.in_site === null || (isContexts(c.in_site) && (c.in_site.browser === undefined || isBrowserDelta(c.in_site.browser)))) && (c.left_out === null || str(c.left_out)) &&
      (c.path === undefined || str(c.path)) && (c.hash === undefined || str(c.hash, 200)) &&
      (c.measured_with === undefined || str(c.measured_with, 300)) && (c.not_installed === undefined || c.not_installed === true),
  );
}

/** The slugs the sum of the parts could not count in a context (their alone not measured there). */
export function notCounted(r: SiteRecord, ctx: keyof ContextFigures): string[] {
  return r.sum_of_alone.not_counted?.[ctx] ?? [];
}
