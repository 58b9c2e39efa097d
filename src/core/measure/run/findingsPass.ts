// `measure --findings`: the collector (src/core/measure/findings/php.ts) written into every must-use folder of the
// throwaway site (the clean side loads the same file, so its few lines cost both sides alike), and the findings pass:
// after every timed and profiled request, each context the component could be measured in is requested again
// (twice; admin also on a second screen) marked for the collector, and each page once on the clean side (what
// WordPress prints there without the component). The activation and the warm-up requests were
// marked too (the options the component writes, from which line). What they wrote is read and turned into findings.
import { existsSync, promises as fs, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { crypto } from '../../lazyNode';
import { aggregateFindings, PASS_SCREENS } from '../findings/aggregate';
import { componentRecords, withFixes } from '../findings/fix';
import { FINDINGS_HEADER, FINDINGS_MU_PLUGIN, findingsMuPluginPhp } from '../findings/php';
import type { Finding, RawFindings } from '../findings/types';
import type { MeasuredComponent } from '../component/component';
import { MU_BASELINE_DIR, MU_REF_DIR } from '../php/phpFiles';
import type { MeasureContext } from '../record/method';
import { BOOT_PATH, type Site } from '../site/site';
import { readProbe, type LiveSite } from '../site/siteClient';
import { componentRoots } from './profiling';
import { componentTexts } from './componentTexts';
import { browserFindings } from '../findings/browser';
import type { BrowserDelta } from '../browser/types';

/** Said when --findings cannot look (the record then has no `findings`). */
export const FINDINGS_NEED_PHP = 'findings were not looked for: they need the native php runtime (WordPress Playground runs PHP in WebAssembly, where the collector cannot name the component\'s files); --runtime php';

/** Requests per screen in the findings pass (a figure counts as "every request" only when both have it). */
export const FINDINGS_PASS_REQUESTS = 2;

/** Writes the collector where every side's requests load it (it acts on the measured side's marked requests only). */
export async function installFindings(site: Site, c: MeasuredComponent): Promise<string> {
  const dir = path.join(site.workDir, 'findings');
  await fs.mkdir(dir, { recursive: true });
  const roots = componentRoots(site, c, site.target, 'mu-plugins');
  const source = findingsMuPluginPhp({ dir: realpathSync(dir), ...roots, side: 'measured' });
  for (const mu of ['mu-plugins', MU_BASELINE_DIR, MU_REF_DIR]) {
    const d = path.join(site.siteDir, 'wp-content', mu);
    if (existsSync(d)) await fs.writeFile(path.join(d, FINDINGS_MU_PLUGIN), source, { flag: 'wx' });
  }
  return dir;
}

/** The header of a request the collector notes option writes in (the activation, the warm-up rounds). */
export const WRITES_HEADER = { [FINDINGS_HEADER]: 'w' } as const;

/**
 * The findings pass on the measured side, then the findings: every file the collector wrote in `dir` (the activation's,
 * the warm-up's and the pass's), aggregated, with the mechanical fixes read from the component's source.
 */
export async function findingsPass(
  dir: string,
  live: LiveSite,
  cookie: string,
  measured: ReadonlySet<MeasureContext>,
  component: MeasuredComponent,
  check: () => void,
  progress: (line: string) => void,
  onRaw?: (raw: RawFindings[]) => void,
  dbErrors?: ReadonlySet<MeasureContext>,
  browser?: BrowserDelta,
): Promise<Finding[]> {
  const ask = async (s: (typeof PASS_SCREENS)[number], side: 'measured' | 'baseline') => {
    const id = crypto().randomBytes(8).toString('hex');
    const headers: Record<string, string> = { 'X-WPBench-Req': id, 'X-WPBench-Side': side, [FINDINGS_HEADER]: `p:${s.ctx}:${s.screen}` };
    if (s.ctx === 'admin') headers.Cookie = cookie;
    await live.get(s.ctx === 'activation' ? BOOT_PATH : s.path, headers).catch((e) => {
      throw live.serverDied(e);
    });
    // The probe is written last of all at shutdown, after the collector's file.
    await readProbe(live.site, id, live.signal);
  };
  const second = (s: (typeof PASS_SCREENS)[number]) => (s.screen === 'options-general.php' ? ' (a second admin screen)' : '');
  for (let r = 0; r < FINDINGS_PASS_REQUESTS; r++) {
    for (const s of PASS_SCREENS) {
      if (!measured.has(s.ctx)) continue;
      check();
      progress(`findings ${r + 1}/${FINDINGS_PASS_REQUESTS}: ${s.ctx}${second(s)}`);
      await ask(s, 'measured');
    }
  }
  // Each page once without the component: the scripts and styles WordPress prints there anyway are not its cost.
  for (const s of PASS_SCREENS) {
    if (!measured.has(s.ctx) || s.ctx === 'activation') continue;
    check();
    progress(`findings: ${s.ctx}${second(s)} without the component`);
    await ask(s, 'baseline');
  }
  const raw = await readFindingsDir(dir);
  onRaw?.(raw);
  const root = component.singleFile || component.mustUse ? path.dirname(component.source) : component.source;
  // Places outside the component's own files (forged: the measured PHP can write these records) never become findings.
  const records = await componentRecords(raw, root, progress);
  const found = await withFixes(aggregateFindings(records, measured, { dbErrors }), root);
  // --browser: the measured main-thread time and bytes at the lines, and the browser's own findings (findings/browser.ts).
  if (!browser || !measured.has('homepage')) return found;
  return browserFindings(found, records, browser, browser.layout_shifts?.length ? await componentTexts(root, component) : []);
}

/** At most this many records are read, each at most this large: the folder is writable to the measured PHP. */
const MAX_RECORDS = 200;
const MAX_RECORD_BYTES = 8 * 1024 * 1024;

/**
 * Every request's record in the folder, checked for shape (a damaged one, anything but a regular file, or one past the
 * caps is left out: the measured PHP can write into this folder too, so nothing in it is trusted).
 */
export async function readFindingsDir(dir: string): Promise<RawFindings[]> {
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.findings.json')).sort().slice(0, MAX_RECORDS);
  const out: RawFindings[] = [];
  for (const n of names) {
    const file = path.join(dir, n);
    const st = await fs.lstat(file).catch(() => undefined);
    if (!st?.isFile() || st.size > MAX_RECORD_BYTES) continue;
    const r = parseRawFindings(await fs.readFile(file, 'utf8').catch(() => ''));
    if (r) out.push(r);
  }
  return out;
}

const isWhere = (w: unknown): boolean => !!w && typeof w === 'object' && typeof (w as { file: unknown }).file === 'string' && Number.isInteger((w as { line: unknown }).line) && typeof (w as { callee: unknown }).callee === 'string';

/** One request's record as the collector wrote it, or undefined when it is not one. */
export function parseRawFindings(text: string): RawFindings | undefined {
  let r: RawFindings;
  try {
    r = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!r || typeof r !== 'object' || r.v !== 1 || typeof r.phase !== 'string' || !Array.isArray(r.writes)) return undefined;
  r.writes = r.writes.filter((w) => isWhere(w) && typeof w.option === 'string');
  for (const k of ['queries', 'http'] as const) if (r[k] !== undefined) r[k] = Array.isArray(r[k]) ? (r[k] as { n: unknown }[]).filter((x) => isWhere(x) && Number.isInteger(x.n)) as never : [];
  if (r.reads !== undefined) r.reads = Array.isArray(r.reads) ? r.reads.filter((x) => typeof x === 'string') : [];
  if (r.assets !== undefined) r.assets = Array.isArray(r.assets) ? r.assets.filter((a) => a && typeof a.handle === 'string' && (a.type === 'script' || a.type === 'style')) : [];
  for (const a of r.assets ?? []) if (a.enqs !== undefined) a.enqs = Array.isArray(a.enqs) ? a.enqs.filter(isWhere) : [];
  if (r.side !== undefined && r.side !== 'measured' && r.side !== 'baseline') delete r.side;
  if (r.done !== undefined) {
    const names = (x: unknown) => (Array.isArray(x) ? x.filter((h): h is string => typeof h === 'string') : []);
    r.done = r.done && typeof r.done === 'object' ? { script: names(r.done.script), style: names(r.done.style) } : { script: [], style: [] };
  }
  if (r.autoload !== undefined) r.autoload = Array.isArray(r.autoload) ? r.autoload.filter((a) => Array.isArray(a) && typeof a[0] === 'string' && Number.isInteger(a[2])) : [];
  return r;
}
