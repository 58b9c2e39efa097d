// The shape check of a site record's browser figures (`--site --browser`), for a record read back (a file, a child's
// output, a shard's artifact): every figure a finite number, every asset's URL and handle a bounded string. Said as
// `FIELD must be … (got …)` for `wp-bench merge` (shardShape.ts), as a yes or no for isSiteRecord.
// (No import of shardShape.ts: it imports this file.)

const FIGURES = ['bytes_kb', 'requests', 'render_blocking', 'fcp_ms', 'lcp_ms', 'tbt_ms', 'cls'] as const;
const SPREAD = ['bytes_kb', 'fcp_ms', 'lcp_ms', 'tbt_ms', 'cls'] as const;
const TYPES = ['document', 'script', 'stylesheet', 'image', 'font', 'fetch', 'other'];
/** The most assets a figure may name (a page builder's homepage: tens). */
const MAX_ASSETS = 5000;

type Obj = Record<string, unknown>;

/** Invisible characters JSON.stringify leaves as they are (bidi overrides, zero widths): written as their escape. */
const INVISIBLE = /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g;
const quoted = (v: string) => JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v).replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const got = (v: unknown) => (typeof v === 'string' ? quoted(v) : Array.isArray(v) ? `an array of ${v.length}` : v === null || typeof v !== 'object' ? String(v) : 'an object');
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function numbers(o: Obj, keys: readonly string[], at: string): string | undefined {
  for (const k of keys) if (typeof o[k] !== 'number' || !Number.isFinite(o[k])) return `${at}.${k} must be a finite number (got ${got(o[k])})`;
  return undefined;
}

/** What is wrong with a side's browser figures (`site.clean.browser`), or undefined. */
export function browserFiguresProblem(v: unknown, at: string): string | undefined {
  if (!isObj(v)) return `${at} must be an object (got ${got(v)})`;
  return numbers(v, FIGURES, at);
}

/** What is wrong with a browser difference (`site.browser`, `in_site.browser`), or undefined. */
export function browserDeltaProblem(v: unknown, at: string): string | undefined {
  const p = browserFiguresProblem(v, at);
  if (p) return p;
  const d = v as Obj;
  if (!isObj(d.spread)) return `${at}.spread must be an object (got ${got(d.spread)})`;
  const s = numbers(d.spread, SPREAD, `${at}.spread`);
  if (s) return s;
  if (!Array.isArray(d.assets) || d.assets.length > MAX_ASSETS) return `${at}.assets must be an array of at most ${MAX_ASSETS} (got ${got(d.assets)})`;
  for (const [i, a] of d.assets.entries()) {
    const aAt = `${at}.assets[${i}]`;
    if (!isObj(a)) return `${aAt} must be an object (got ${got(a)})`;
    if (typeof a.url !== 'string' || a.url.length > 2000) return `${aAt}.url must be a string of at most 2000 characters (got ${got(a.url)})`;
    if (typeof a.type !== 'string' || !TYPES.includes(a.type)) return `${aAt}.type must be one of ${TYPES.join(', ')} (got ${got(a.type)})`;
    const n = numbers(a, ['bytes_kb', ...(a.main_thread_ms !== undefined ? ['main_thread_ms'] : [])], aAt);
    if (n) return n;
    if (a.handle !== undefined && (typeof a.handle !== 'string' || a.handle.length > 300)) return `${aAt}.handle must be a string of at most 300 characters (got ${got(a.handle)})`;
    if (a.status !== undefined && (!Number.isInteger(a.status) || (a.status as number) < 100 || (a.status as number) > 999)) return `${aAt}.status must be an HTTP status (got ${got(a.status)})`;
    if (a.render_blocking !== undefined && a.render_blocking !== true) return `${aAt}.render_blocking must be true or absent (got ${got(a.render_blocking)})`;
  }
  return undefined;
}

/** What is wrong with `local.browser` (how the loads were taken, or why there are none), or undefined. */
export function browserInfoProblem(v: unknown, at: string): string | undefined {
  if (!isObj(v)) return `${at} must be an object (got ${got(v)})`;
  const str = (k: string, max: number, optional = false) => (optional && v[k] === undefined) || (typeof v[k] === 'string' && (v[k] as string).length <= max) ? undefined : `${at}.${k} must be a string of at most ${max} characters (got ${got(v[k])})`;
  if ('unavailable' in v) return str('unavailable', 2000);
  const p = str('chromium', 100) ?? str('sandbox', 40) ?? str('sandbox_note', 2000, true);
  if (p) return p;
  if (v.device !== 'desktop' && v.device !== 'mobile') return `${at}.device must be "desktop" or "mobile" (got ${got(v.device)})`;
  const n = numbers(v, ['rounds', ...(v.cut !== undefined ? ['cut'] : []), ...(v.confirmation_rounds !== undefined ? ['confirmation_rounds'] : [])], at);
  if (n) return n;
  if (!isObj(v.profile)) return `${at}.profile must be an object (got ${got(v.profile)})`;
  const q = numbers(v.profile, ['throughput_kbps', 'rtt_ms', 'cpu_slowdown', 'width', 'height'], `${at}.profile`);
  if (q) return q;
  for (const k of ['blocked', 'failed_requests'] as const) {
    const a = v[k];
    if (a !== undefined && !(Array.isArray(a) && a.length <= 100 && a.every((b) => typeof b === 'string' && b.length <= 300))) return `${at}.${k} must be an array of at most 100 strings (got ${got(a)})`;
  }
  return undefined;
}

export const isBrowserInfo = (v: unknown): boolean => browserInfoProblem(v, 'browser') === undefined;
export const isBrowserDelta = (v: unknown): boolean => browserDeltaProblem(v, 'browser') === undefined;
export const isBrowserFigures = (v: unknown): boolean => browserFiguresProblem(v, 'browser') === undefined;
