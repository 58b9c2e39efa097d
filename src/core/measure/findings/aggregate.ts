// The findings of one run from what the collector recorded (./php.ts): pure, no I/O. Each kind has a look-alike that
// is fine and is never reported (see docs/findings.md): an autoloaded option the front end reads, a query run fewer
// than REPEAT_MIN times, a deferred or footer script, an asset under LARGE_ASSET_BYTES, an admin asset enqueued on the
// component's own screen only, a file WordPress prints on that page without the component (the clean side's records:
// jQuery in the admin), a source WordPress refused (a handle registered again). Fixes that are mechanical are added
// by ./fix.ts from the component's source.
import { CONTEXT_NAMES as CONTEXTS, type ContextName as MeasureContext } from '../../model';
import { measuredText } from '../component/measuredText';
import type { Finding, FindingSaves, RawFindings, RawWhere } from './types';

/** The same query shape from one line this many times in one request: a query in a loop. */
export const REPEAT_MIN = 5;
/** Plugin Check's limit for a script or stylesheet. */
export const LARGE_ASSET_BYTES = 300_000;
/** WordPress 6.6's limit: an option over this is no longer autoloaded by default (wp_max_autoloaded_option_size). */
export const LARGE_OPTION_BYTES = 150_000;
/** Below this an unread autoloaded option (or an admin asset) is information, not a warning: fixing it saves little. */
export const SMALL_BYTES = 10 * 1024;

/** The screen each context's figures come from, and the second admin screen (an asset on both is on every screen). */
export const PASS_SCREENS: readonly { ctx: MeasureContext; screen: string; path: string }[] = [
  { ctx: 'activation', screen: 'boot', path: '' },
  { ctx: 'homepage', screen: 'front', path: '/' },
  { ctx: 'admin', screen: 'index.php', path: '/wp-admin/' },
  { ctx: 'admin', screen: 'options-general.php', path: '/wp-admin/options-general.php' },
];
const MAIN_SCREEN: Record<MeasureContext, string> = { activation: 'boot', homepage: 'front', admin: 'index.php' };
const SECOND_ADMIN = 'options-general.php';

/** The calls that write an option the component names (a core function writing its own options is not the component's). */
const OPTION_WRITERS = new Set(['add_option', 'update_option', 'set_transient', 'add_site_option', 'update_site_option', 'set_site_transient']);

const kb = (bytes: number) => Math.round(bytes / 1024);
const sizeText = (bytes: number) => (bytes >= 1024 ? `${kb(bytes).toLocaleString('en-US')} KB` : `${bytes} bytes`);
const at = (w: RawWhere) => `${w.file}:${w.line}${w.function ? ` (${w.function})` : ''}`;
const ordered = (s: Iterable<MeasureContext>) => CONTEXTS.filter((c) => new Set(s).has(c));

function passOf(r: RawFindings): { ctx: MeasureContext; screen: string } | undefined {
  const m = /^p:(activation|homepage|admin):([a-z0-9.-]+)$/.exec(r.phase);
  return m ? { ctx: m[1] as MeasureContext, screen: m[2] } : undefined;
}

/** Findings from every request's record of one run; `measured`: the contexts the component could be measured in. */
export function aggregateFindings(raw: readonly RawFindings[], measured: ReadonlySet<MeasureContext> = new Set(CONTEXTS), opts: { dbErrors?: ReadonlySet<MeasureContext> } = {}): Finding[] {
  const passes = raw.flatMap((r) => {
    const p = passOf(r);
    return p && measured.has(p.ctx) && r.side !== 'baseline' ? [{ ...p, r }] : [];
  });
  // What WordPress prints on each page without the component (the clean side's pass requests).
  const clean = new Map<string, Set<string>>();
  for (const r of raw) {
    const p = passOf(r);
    if (!p || r.side !== 'baseline') continue;
    const k = `${p.ctx}:${p.screen}`;
    const set = clean.get(k) ?? new Set<string>();
    for (const t of ['script', 'style'] as const) for (const h of r.done?.[t] ?? []) set.add(`${t}|${h}`);
    clean.set(k, set);
  }
  const main = (ctx: MeasureContext) => passes.filter((p) => p.ctx === ctx && p.screen === MAIN_SCREEN[ctx]).map((p) => p.r);
  const out: Finding[] = [];
  out.push(...autoloadedOptions(raw, passes.map((p) => ({ ctx: p.ctx, r: p.r })), measured));
  // Where the component's queries failed (database errors), a lookup that finds nothing is asked again and again:
  // repeated queries there say more about the failure than about the code, and are not judged.
  out.push(...perRequest(CONTEXTS.filter((c) => measured.has(c)).map((c) => ({ ctx: c, rs: main(c), queries: !opts.dbErrors?.has(c) }))));
  out.push(...assetFindings(passes, clean));
  return out.sort((a, b) => (a.file === b.file ? a.line - b.line || a.kind.localeCompare(b.kind) : a.file.localeCompare(b.file))).map(measuredTexts);
}

/**
 * A finding's texts (names, evidence, the message and the fix that quote them) as measuredText writes them: a line
 * break from the measured code is `\n` in every format and in the editor, never a line of its own. The file is kept
 * as it is (it names the file the fix edits; each report escapes it for its place).
 */
function measuredTexts(f: Finding): Finding {
  const text = (v: unknown): unknown => (typeof v === 'string' ? measuredText(v) : Array.isArray(v) ? v.map(text) : v);
  return {
    ...f,
    function: f.function === null ? null : measuredText(f.function),
    message: measuredText(f.message),
    evidence: Object.fromEntries(Object.entries(f.evidence).map(([k, v]) => [k, text(v)])),
    fix: { ...f.fix, description: measuredText(f.fix.description) },
  };
}

function autoloadedOptions(raw: readonly RawFindings[], passes: { ctx: MeasureContext; r: RawFindings }[], measured: ReadonlySet<MeasureContext>): Finding[] {
  // The option's state at the end of the run: the last pass's table.
  const table = new Map<string, { autoload: string; bytes: number }>();
  const last = [...passes].reverse().find((p) => Array.isArray(p.r.autoload));
  for (const [name, autoload, bytes] of last?.r.autoload ?? []) table.set(name, { autoload, bytes });
  if (!last) return [];
  const readIn = new Map<string, Set<MeasureContext>>();
  for (const p of passes) for (const n of p.r.reads ?? []) readIn.set(n, (readIn.get(n) ?? new Set()).add(p.ctx));
  // Each option at the line that decides its autoload: an add before an update, the first seen.
  const site = new Map<string, RawFindings['writes'][number]>();
  for (const r of raw)
    for (const w of r.writes ?? []) {
      if (!OPTION_WRITERS.has(w.callee)) continue;
      const had = site.get(w.option);
      if (!had || (had.op === 'update' && w.op === 'add')) site.set(w.option, w);
    }
  const out: Finding[] = [];
  // One finding per line (a settings installer adding thirty options in a loop is one line to change): its largest
  // option stands for it, every option is listed.
  const byLine = new Map<string, Finding>();
  for (const [option, w] of site) {
    const row = table.get(option);
    if (!row) continue; // not autoloaded (or gone): nothing to say
    const read = ordered(readIn.get(option) ?? []);
    const large = row.bytes > LARGE_OPTION_BYTES;
    if (read.includes('homepage') && !large) continue; // the look-alike: the front end needs it
    const contexts = ordered([...measured].filter((c) => !read.includes(c)));
    const unreadAnywhere = contexts.length ? contexts : ordered(measured);
    const saves: Finding['saves'] = {};
    for (const c of contexts) saves[c] = { memory_kb: kb(row.bytes) };
    const transient = w.callee.endsWith('transient');
    const lineKey = `${w.file}|${w.line}`;
    const had = byLine.get(lineKey);
    if (had) {
      const ev = had.evidence as { option: string; options?: string[]; bytes: number; sizes?: number[] };
      ev.options = [...(ev.options ?? [ev.option]), option];
      ev.bytes += row.bytes;
      for (const c of contexts) had.saves[c] = { memory_kb: kb(ev.bytes) };
      if (ev.bytes >= SMALL_BYTES || large) had.severity = 'warning';
      had.message = `${w.callee}() at this line autoloads ${ev.options.length} options (${ev.options.slice(0, 5).map((o) => `"${o}"`).join(', ')}${ev.options.length > 5 ? ', …' : ''}; ${sizeText(ev.bytes)} in all): every request loads them, and the front end reads none of them.`;
      continue;
    }
    const why = read.includes('homepage')
      ? `over WordPress's ${kb(LARGE_OPTION_BYTES)} KB limit for autoloading`
      : read.length
        ? `only ${read.join(' and ')} requests read it, never the front end`
        : 'none of the measured requests (the home page, the dashboard) reads it';
    const f: Finding = {
      kind: 'autoloaded-option',
      severity: row.bytes >= SMALL_BYTES || large ? 'warning' : 'information',
      contexts: unreadAnywhere,
      file: w.file,
      line: w.line,
      function: w.function,
      message: `${w.callee}() autoloads the option "${option}" (${sizeText(row.bytes)}): every request loads it, and ${why}.`,
      evidence: { option, bytes: row.bytes, read_in: read, autoload: row.autoload, call: w.callee },
      saves,
      fix: {
        description: transient
          ? `Give the transient an expiration (a transient without one is autoloaded), or keep the data in a non-autoloaded option.`
          : `Turn autoload off for this option at this line (${w.callee}(…, false)); WordPress then loads it with one query where it is read.${w.callee === 'update_option' ? ' (update_option() applies a new autoload only when it writes the option: on a site that already has it, when its value next changes.)' : ''}`,
      },
    };
    byLine.set(lineKey, f);
    out.push(f);
  }
  return out;
}

/** Repeated queries and HTTP requests: per request, from each context's own screen (the least of its requests). */
function perRequest(ctxs: { ctx: MeasureContext; rs: RawFindings[]; queries: boolean }[]): Finding[] {
  type Acc = { f: Finding; per: number };
  const acc = new Map<string, Acc>();
  const add = (key: string, ctx: MeasureContext, per: number, make: () => Finding, save: FindingSaves) => {
    const a = acc.get(key);
    if (a) {
      if (!a.f.contexts.includes(ctx)) a.f.contexts = ordered([...a.f.contexts, ctx]);
      a.f.saves[ctx] = save;
      if (per > a.per) {
        a.per = per;
        (a.f.evidence as { per_request: number }).per_request = per;
      }
      return;
    }
    const f = make();
    f.saves[ctx] = save;
    acc.set(key, { f, per });
  };
  for (const { ctx, rs, queries } of ctxs) {
    if (!rs.length) continue;
    // The least count over the context's requests: a first request's one-time work is not "every request".
    const least = <T,>(get: (r: RawFindings) => T[] | undefined, key: (x: T) => string, n: (x: T) => number) => {
      const m = new Map<string, { x: T; n: number; seen: number }>();
      for (const r of rs)
        for (const x of get(r) ?? []) {
          const k = key(x);
          const e = m.get(k);
          if (e) (e.n = Math.min(e.n, n(x))), e.seen++;
          else m.set(k, { x, n: n(x), seen: 1 });
        }
      return [...m.values()].filter((e) => e.seen === rs.length);
    };
    // Counted per call path (the line and the component's line that called its function): a helper called once from
    // each of five places is no loop; one path five times is. The paths of one line that repeat are added up.
    const lines = new Map<string, { q: NonNullable<RawFindings['queries']>[number]; n: number }>();
    for (const { x: q, n } of queries ? least((r) => r.queries, (q) => `${q.shape}|${q.file}|${q.line}|${q.via ?? ''}`, (q) => q.n) : []) {
      if (n < REPEAT_MIN) continue;
      const k = `${q.shape}|${q.file}|${q.line}`;
      const had = lines.get(k);
      lines.set(k, { q, n: (had?.n ?? 0) + n });
    }
    for (const { q, n } of lines.values()) {
      add(`q|${q.shape}|${q.file}|${q.line}`, ctx, n, () => ({
        kind: 'repeated-query',
        severity: 'warning',
        contexts: [ctx],
        file: q.file,
        line: q.line,
        function: q.function,
        message: `The same query runs ${n} times in one request from ${at(q)}: a query in a loop.`,
        evidence: { per_request: n, query: q.shape, call: q.callee },
        saves: {},
        fix: { description: 'Fetch what the loop needs with one query before it (WHERE … IN (…)), or prime WordPress\'s caches first (update_meta_cache(), _prime_post_caches(), update_object_term_cache()).' },
      }), { queries: n - 1 });
    }
    for (const { x: h, n } of least((r) => r.http, (h) => `${h.method}|${h.host}|${h.file}|${h.line}`, (h) => h.n)) {
      add(`h|${h.method}|${h.host}|${h.file}|${h.line}`, ctx, n, () => ({
        kind: 'remote-request',
        severity: 'warning',
        contexts: [ctx],
        file: h.file,
        line: h.line,
        function: h.function,
        message: `${h.method} ${h.host || '(no host)'} on every request from ${at(h)}: blocked here, a network round trip on a live site each time.`,
        evidence: { method: h.method, host: h.host, per_request: n, call: h.callee },
        saves: {},
        fix: { description: 'Keep the answer in a transient and ask again when it expires, or fetch it from a scheduled event (wp_schedule_event) instead of during page loads.' },
      }), { http_requests: n });
    }
  }
  return [...acc.values()].map((a) => a.f);
}

type RawAsset = NonNullable<RawFindings['assets']>[number];
/** Every line of the component's that enqueued the asset on the request (a record of before issue 45: its first). */
const enqsOf = (a: RawAsset): RawWhere[] => (a.enqs?.length ? a.enqs : a.enq ? [a.enq] : []);
const placeOf = (w: RawWhere) => `${w.file}:${w.line}|${w.via ?? ''}`;

/**
 * The asset findings. What is sized and attributed is the file WordPress printed for a handle (the registration that
 * took effect): a large or render-blocking file at the component's line that made that registration (an enqueue with a
 * source, or its enqueue when the registration is core's or another's); a handle on every admin screen at the line that
 * enqueues it on both screens. `clean`: what WordPress prints on each page without the component ("ctx:screen" →
 * "type|handle"); a handle it prints there anyway is no cost of the component's unless the file printed is its own
 * registration.
 */
function assetFindings(passes: { ctx: MeasureContext; screen: string; r: RawFindings }[], clean: ReadonlyMap<string, ReadonlySet<string>>): Finding[] {
  type Shown = { a: RawAsset; ctx: MeasureContext; screen: string };
  const shown: Shown[] = [];
  for (const p of passes)
    for (const a of p.r.assets ?? []) {
      // Only what the component enqueues itself: a file it only registers is loaded as another's dependency, and the
      // enqueue that pulls it in is the line to change.
      if (!a.printed || !enqsOf(a).length) continue;
      if (!a.reg && clean.get(`${p.ctx}:${p.screen}`)?.has(`${a.type}|${a.handle}`)) continue;
      shown.push({ a, ctx: p.ctx, screen: p.screen });
    }
  // A helper of the component's that enqueues for several callers (enqueue_style($handle) called from three places):
  // the line to change is each caller's, where the call path's next step out says; the helper is named in `through`.
  const callers = new Map<string, Set<string>>();
  for (const { a } of shown)
    for (const w of [...enqsOf(a), ...(a.reg ? [a.reg] : [])]) if (w.via) callers.set(`${w.file}:${w.line}`, (callers.get(`${w.file}:${w.line}`) ?? new Set()).add(w.via));
  const located = (e: RawWhere): { where: RawWhere; through?: string } => {
    const via = e.via;
    const i = via ? via.lastIndexOf(':') : -1;
    if (!via || (callers.get(`${e.file}:${e.line}`)?.size ?? 0) < 2 || i <= 0 || !/^\d+$/.test(via.slice(i + 1))) return { where: e };
    return { where: { file: via.slice(0, i), line: Number(via.slice(i + 1)), function: null, callee: e.function ?? e.callee }, through: `${e.file}:${e.line}${e.function ? ` (${e.function})` : ''}` };
  };
  const out: Finding[] = [];
  const finding = (a: RawAsset, at: RawWhere, bytes: number | null, screens: Iterable<string>, inHead: boolean, extra: Record<string, unknown>) => {
    const { where: w, through } = located(at);
    const what = `${a.type === 'script' ? 'script' : 'stylesheet'} "${a.handle}"${bytes !== null ? ` (${sizeText(bytes)})` : ''}`;
    const evidence = { handle: a.handle, type: a.type, bytes, in_head: inHead, screens: [...new Set(screens)].sort(), ...(through ? { through } : {}), ...extra };
    return { what, evidence, base: { file: w.file, line: w.line, function: w.function } };
  };
  // Each file printed, by the registration that printed it: large, or blocking the home page's rendering.
  type File = { a: RawAsset; at: RawWhere; bytes: number | null; ctxs: Set<MeasureContext>; screens: Set<string>; head: Set<MeasureContext>; enqs: Map<string, RawWhere> };
  const files = new Map<string, File>();
  for (const { a, ctx, screen } of shown) {
    const at = a.reg ?? enqsOf(a)[0];
    const k = `${a.type}|${a.handle}|${placeOf(at)}`;
    const f = files.get(k) ?? { a, at, bytes: null, ctxs: new Set(), screens: new Set(), head: new Set(), enqs: new Map() };
    if (a.bytes !== null && a.bytes !== undefined) f.bytes = Math.max(f.bytes ?? 0, a.bytes);
    f.ctxs.add(ctx);
    f.screens.add(screen);
    if (a.in_head && a.type === 'script' && !a.deferred) f.head.add(ctx);
    for (const e of enqsOf(a)) f.enqs.set(`${e.file}:${e.line}`, e);
    files.set(k, f);
  }
  for (const { a, at, bytes, ctxs, screens, head, enqs } of files.values()) {
    // Registered at one line, enqueued at others: those lines are said too (where to enqueue it less often).
    const elsewhere = [...enqs.keys()].filter((e) => e !== `${at.file}:${at.line}`);
    const { what, evidence, base } = finding(a, at, bytes, screens, head.size > 0, elsewhere.length ? { enqueued_at: elsewhere.sort() } : {});
    if (head.has('homepage')) {
      out.push({
        kind: 'render-blocking-script',
        severity: 'warning',
        contexts: ['homepage'],
        ...base,
        message: `The ${what} is printed in the page's head without defer or async: the browser stops rendering until it has loaded and run it.`,
        evidence,
        saves: bytes ? { homepage: { bytes } } : {},
        fix: { description: "Load it in the footer or deferred: wp_enqueue_script(…, array('in_footer' => true, 'strategy' => 'defer')) (WordPress 6.3+), or true as the last argument before 6.3." },
      });
    }
    if (bytes !== null && bytes > LARGE_ASSET_BYTES) {
      const cs = ordered(ctxs);
      out.push({
        kind: 'large-asset',
        severity: 'warning',
        contexts: cs,
        ...base,
        message: `The ${what} is over ${LARGE_ASSET_BYTES.toLocaleString('en-US')} bytes (Plugin Check's limit) and is loaded in ${cs.join(', ')}.`,
        evidence,
        saves: Object.fromEntries(cs.map((c) => [c, { bytes }])),
        fix: { description: 'Ship a minified build, split what only some screens need, and enqueue it only where it is used.' },
      });
    }
  }
  // Each handle on both admin screens, at the line that enqueues it on both (another line's enqueue on one screen is
  // that screen's own); its size the least of the files printed (what it costs on every screen).
  const handles = new Map<string, Shown[]>();
  for (const s of shown) handles.set(`${s.a.type}|${s.a.handle}`, [...(handles.get(`${s.a.type}|${s.a.handle}`) ?? []), s]);
  for (const all of handles.values()) {
    const admin = all.filter((s) => s.ctx === 'admin');
    const second = admin.filter((s) => s.screen === SECOND_ADMIN);
    if (!second.length || !admin.some((s) => s.screen === MAIN_SCREEN.admin)) continue;
    const everywhere = enqsOf(second[0].a).find((e) => admin.every((s) => enqsOf(s.a).some((o) => placeOf(o) === placeOf(e)))) ?? enqsOf(second[0].a)[0];
    const sizes = admin.map((s) => s.a.bytes).filter((b): b is number => typeof b === 'number');
    const bytes = sizes.length ? Math.min(...sizes) : null;
    const { what, evidence, base } = finding(second[0].a, everywhere, bytes, all.map((s) => s.screen), all.some((s) => s.a.in_head && s.a.type === 'script' && !s.a.deferred), {});
    out.push({
      kind: 'admin-asset-everywhere',
      severity: bytes !== null && bytes >= SMALL_BYTES ? 'warning' : 'information',
      contexts: ['admin'],
      ...base,
      message: `The ${what} is loaded on every admin screen (the dashboard and Settings › General both have it).`,
      evidence,
      saves: bytes ? { admin: { bytes } } : {},
      fix: { description: "Enqueue it only on the component's own screens: check admin_enqueue_scripts's $hook_suffix (or get_current_screen()) first." },
    });
  }
  return groupByLine(out);
}

/**
 * One finding per kind and line: a call enqueuing several files (wp_enqueue_media() brings six) is one thing to change.
 * The handles are listed, the bytes and savings added up.
 */
function groupByLine(fs: Finding[]): Finding[] {
  const by = new Map<string, Finding[]>();
  for (const f of fs) by.set(`${f.kind}|${f.file}|${f.line}`, [...(by.get(`${f.kind}|${f.file}|${f.line}`) ?? []), f]);
  return [...by.values()].map((g) => {
    if (g.length === 1) return g[0];
    // A script and a stylesheet may share a name (thickbox): each is said with its type.
    const handles = g.map((f) => (g.some((o) => o !== f && o.evidence.handle === f.evidence.handle) ? `${String(f.evidence.handle)} (${String(f.evidence.type)})` : String(f.evidence.handle)));
    const known = g.map((f) => f.evidence.bytes).filter((b): b is number => typeof b === 'number');
    const bytes = known.length ? known.reduce((a, b) => a + b, 0) : null;
    const saves: Finding['saves'] = {};
    for (const f of g) for (const [c, v] of Object.entries(f.saves) as [MeasureContext, FindingSaves][]) saves[c] = { bytes: (saves[c]?.bytes ?? 0) + (v.bytes ?? 0) };
    const first = g[0];
    const kindText = first.kind === 'admin-asset-everywhere' ? 'are loaded on every admin screen (the dashboard and Settings › General both have them)' : first.kind === 'large-asset' ? `are each over ${LARGE_ASSET_BYTES.toLocaleString('en-US')} bytes` : "are printed in the page's head without defer or async";
    return {
      ...first,
      severity: g.some((f) => f.severity === 'warning') ? 'warning' : 'information',
      contexts: ordered(g.flatMap((f) => f.contexts)),
      message: `${g.length} scripts and styles enqueued at this line (${handles.join(', ')}${bytes !== null ? `; ${sizeText(bytes)} known` : ''}) ${kindText}.`,
      evidence: { ...first.evidence, handle: handles[0], handles, bytes },
      saves,
    };
  });
}

/** A finding's one-line text for tables and logs: "warning inc/options.php:5 autoloaded-option: …". */
export function findingLine(f: Finding): string {
  return `${f.severity} ${f.file}:${f.line} ${f.kind}: ${f.message}`;
}
