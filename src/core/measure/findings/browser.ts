// `measure --findings --browser`: what the browser measured, at the line. Pure (unit-tested on recorded data).
// - The findings at a script's or style's line (render-blocking-script, large-asset, on the homepage) carry the file's
//   measured main-thread time (`evidence.main_thread_ms`, scripts) and bytes on the wire (`evidence.transfer_kb`),
//   joined to the component's files of the browser record by handle, else by the printed file's path.
// - A script busy MAIN_THREAD_MS or more per load with no other finding on the homepage is a `main-thread` finding at
//   the line of its registration that WordPress printed (as the other asset kinds).
// - A layout shift the component causes (browser/shifts.ts) is a `layout-shift` finding at the line of its files that
//   names the element — one a script inserted just before the shift first, then the element moved and its ancestors;
//   in a script or PHP file before a stylesheet — or, when an unnamed element was inserted and the component has one
//   script on the page, at that script's line. A shift it cannot place stays in the browser block, without a line.
import { measuredText } from '../component/measuredText';
import type { BrowserAsset, BrowserDelta, BrowserShift, ShiftNode } from '../browser/types';
import type { Finding, RawFindings, RawWhere } from './types';

/** A script's main-thread time per load from which it is a finding of its own (a long task's 50 ms). */
export const MAIN_THREAD_MS = 50;
/** A shift's score per load from which its finding is a warning (half of Google's 0.1 for a "good" CLS). */
export const LAYOUT_SHIFT_WARNING = 0.05;

/** A file of the component's (relative to its root, "/" separated) and its text: where ids and classes are named. */
export interface ComponentText {
  file: string;
  text: string;
}

type RawAsset = NonNullable<RawFindings['assets']>[number];
const round1 = (x: number) => Math.round(x * 10) / 10;
const pathOf = (src: string | undefined) => {
  if (!src) return undefined;
  try {
    return new URL(src, 'http://site.invalid').pathname;
  } catch {
    return undefined;
  }
};
const browserType = (t: 'script' | 'style') => (t === 'script' ? 'script' : 'stylesheet');

/** Findings with the browser's evidence, and the browser's own findings; unchanged without browser figures. */
export function browserFindings(findings: readonly Finding[], raw: readonly RawFindings[], d: BrowserDelta | undefined, texts: readonly ComponentText[] = []): Finding[] {
  if (!d) return [...findings];
  // The homepage's printed assets of the measured side, for paths and lines.
  const printed = raw.filter((r) => r.phase === 'p:homepage:front' && r.side !== 'baseline').flatMap((r) => (r.assets ?? []).filter((a) => a.printed));
  const fileOf = (handle: string, type: 'script' | 'style'): BrowserAsset | undefined => {
    const paths = new Set(printed.filter((a) => a.handle === handle && a.type === type).map((a) => pathOf(a.src)));
    return d.assets.find((b) => b.type === browserType(type) && (b.handle === handle || paths.has(b.url)));
  };
  const joined = new Set<BrowserAsset>();
  const out = findings.map((f) => {
    if (!f.contexts.includes('homepage')) return f;
    const ev = f.evidence as { handle?: unknown; handles?: unknown; type?: unknown };
    const names = Array.isArray(ev.handles) ? ev.handles.map(String) : typeof ev.handle === 'string' ? [ev.handle] : [];
    const files = names.flatMap((n) => {
      // A grouped finding names a script and a style of one name "thickbox (script)".
      const m = /^(.*) \((script|style)\)$/.exec(n);
      const type = m ? (m[2] as 'script' | 'style') : ev.type === 'style' ? 'style' : 'script';
      const b = fileOf(m ? m[1] : n, type);
      return b ? [b] : [];
    });
    if (!files.length) return f;
    for (const b of files) joined.add(b);
    const ms = files.filter((b) => b.main_thread_ms !== undefined);
    return { ...f, evidence: { ...f.evidence, ...(ms.length ? { main_thread_ms: round1(ms.reduce((t, b) => t + b.main_thread_ms!, 0)) } : {}), transfer_kb: round1(files.reduce((t, b) => t + b.bytes_kb, 0)) } };
  });
  const rawOf = (b: BrowserAsset): RawAsset | undefined => printed.find((a) => a.type === 'script' && (a.enqs?.length || a.enq) && ((b.handle && a.handle === b.handle) || pathOf(a.src) === b.url));
  const lineOf = (a: RawAsset): RawWhere | undefined => a.reg ?? a.enqs?.[0] ?? a.enq;
  for (const b of d.assets) {
    if (b.type !== 'script' || (b.main_thread_ms ?? 0) < MAIN_THREAD_MS || joined.has(b)) continue;
    const a = rawOf(b);
    const w = a && lineOf(a);
    if (!a || !w) continue;
    out.push(texted({
      kind: 'main-thread',
      severity: 'warning',
      contexts: ['homepage'],
      file: w.file,
      line: w.line,
      function: w.function,
      message: `The script "${a.handle}" (${b.bytes_kb.toFixed(1)} KB on the wire) keeps the browser's main thread busy ${Math.round(b.main_thread_ms!)} ms per homepage load (compiling and running it, its timers and handlers), measured in Chromium.`,
      evidence: { handle: a.handle, type: 'script', url: b.url, main_thread_ms: b.main_thread_ms, transfer_kb: b.bytes_kb, ...(b.render_blocking ? { render_blocking: true } : {}) },
      saves: {},
      fix: { description: "Enqueue it only on the pages that use it, and start its work later or in smaller pieces (after the visitor's first action, requestIdleCallback, chunks of under 50 ms); DevTools' Performance panel shows its functions." },
    }));
  }
  const scripts = d.assets.filter((b) => b.type === 'script');
  for (const s of d.layout_shifts ?? []) {
    const f = shiftFinding(s, texts, scripts.length === 1 ? rawOf(scripts[0]) : undefined, lineOf);
    if (f) out.push(texted(f));
  }
  return out.sort((a, b) => (a.file === b.file ? a.line - b.line || a.kind.localeCompare(b.kind) : a.file.localeCompare(b.file)));
}

/** The ids and classes in an element's selector ("div#x.y.z" → "#x", ".y", ".z"). */
const ownNames = (n: ShiftNode) => n.node.match(/[#.][^#.]+/g) ?? [];
const RANK = (file: string) => (/\.css$/i.test(file) ? 1 : 0);
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The first line of the first file (scripts and PHP before stylesheets) naming `name` whole; undefined if none. */
function namedAt(name: string, texts: readonly ComponentText[]): { file: string; line: number } | undefined {
  const bare = name.slice(1);
  if (bare.length < 3) return undefined;
  const re = new RegExp(`(?<![A-Za-z0-9_-])${escapeRe(bare)}(?![A-Za-z0-9_-])`);
  for (const t of [...texts].sort((a, b) => RANK(a.file) - RANK(b.file) || a.file.localeCompare(b.file))) {
    const i = t.text.search(re);
    if (i >= 0) return { file: t.file, line: t.text.slice(0, i).split('\n').length };
  }
  return undefined;
}

function shiftFinding(s: BrowserShift, texts: readonly ComponentText[], onlyScript: RawAsset | undefined, lineOf: (a: RawAsset) => RawWhere | undefined): Finding | undefined {
  const inserted = s.inserted ?? [];
  const candidates = [...new Set([...inserted.flatMap(ownNames), ...s.names, ...inserted.flatMap((n) => n.names)])];
  const severity = s.cls >= LAYOUT_SHIFT_WARNING ? 'warning' : 'information';
  const ins = inserted.map((n) => n.node);
  const common = { kind: 'layout-shift' as const, severity: severity as Finding['severity'], contexts: ['homepage' as const], saves: {} };
  const fix = { description: 'Reserve the space the element takes before it appears (CSS min-height or aspect-ratio, width and height on images), or show it without moving the page (position: fixed or sticky, a transform), or only on the visitor\'s action.' };
  const evidence = { cls: s.cls, node: s.node, loads: s.loads, ...(ins.length ? { inserted: ins } : {}) };
  for (const name of candidates) {
    const at = namedAt(name, texts);
    if (!at) continue;
    return {
      ...common,
      file: at.file,
      line: at.line,
      function: null,
      message: `With the component the homepage's layout shifts by ${s.cls.toFixed(3)} per load (${s.loads === 1 ? 'one load' : `${s.loads} loads`}): ${s.node} moves${ins.length ? ` after ${ins.join(', ')} was inserted before it` : ''}; "${name}" is named at this line.`,
      evidence: { ...evidence, named: name },
      fix,
    };
  }
  const w = ins.length && onlyScript ? lineOf(onlyScript) : undefined;
  if (!w || !onlyScript) return undefined;
  return {
    ...common,
    file: w.file,
    line: w.line,
    function: w.function,
    message: `With the component the homepage's layout shifts by ${s.cls.toFixed(3)} per load: its only script on the page, "${onlyScript.handle}" (enqueued here), inserts ${ins.join(', ')} and ${s.node} moves.`,
    evidence: { ...evidence, inserted_by: onlyScript.handle },
    fix,
  };
}

/** A finding's texts as measuredText writes them (names from the page and the measured code). */
function texted(f: Finding): Finding {
  const text = (v: unknown): unknown => (typeof v === 'string' ? measuredText(v) : Array.isArray(v) ? v.map(text) : v);
  return { ...f, function: f.function === null ? null : measuredText(f.function), message: measuredText(f.message), evidence: Object.fromEntries(Object.entries(f.evidence).map(([k, v]) => [k, text(v)])), fix: { ...f.fix, description: measuredText(f.fix.description) } };
}
