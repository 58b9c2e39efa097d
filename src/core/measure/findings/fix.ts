// The mechanical fixes of `measure --findings` (today: an autoloaded option's autoload argument turned off at the line
// that adds it), computed from the component's own source, and applied by `--fix` only where the lines are still
// what was read. Pure but for applyEdits (which writes the user's files, on that explicit flag only) and the check
// that a finding's file is one of the component's own (componentFile: the records are the measured PHP's to forge).
import { constants as fsc, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { measuredText } from '../component/measuredText';
import type { Finding, FixEdit, RawFindings, RawWhere } from './types';

/**
 * The one rule for a finding's file: its real path when `file` ("/"-separated, relative to the component's `root`)
 * names a regular file whose real path is inside the root's real path and no segment on the way down from the root is
 * a symbolic link (each is lstat'ed); else undefined. A linked folder (`lib -> /elsewhere`), "..", an absolute path,
 * a link to a file, a folder, a FIFO or a missing file all fail: nothing outside the component is ever read, shown,
 * or written by `--fix` or the editor's quick fix.
 */
export async function componentFile(root: string, file: string): Promise<string | undefined> {
  if (typeof file !== 'string' || path.posix.isAbsolute(file) || path.win32.isAbsolute(file) || file.includes('\0')) return undefined;
  const parts = file.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..' || (path.sep === '\\' && /[\\:]/.test(p)))) return undefined;
  const real = await fs.realpath(root).catch(() => undefined);
  if (!real) return undefined;
  let at = real;
  for (let i = 0; i < parts.length; i++) {
    at = path.join(at, parts[i]);
    const st = await fs.lstat(at).catch(() => undefined);
    if (!st || st.isSymbolicLink() || !(i < parts.length - 1 ? st.isDirectory() : st.isFile())) return undefined;
  }
  // Resolved once more: a link swapped in while the segments were looked at shows as another path.
  const resolved = await fs.realpath(at).catch(() => undefined);
  return resolved === at && resolved.startsWith(real.endsWith(path.sep) ? real : real + path.sep) ? resolved : undefined;
}

/** The files of `files` that fail componentFile (each looked at once). */
async function notOwn(root: string, files: Iterable<string>): Promise<Set<string>> {
  const bad = new Set<string>();
  for (const f of new Set(files)) if ((await componentFile(root, f)) === undefined) bad.add(f);
  return bad;
}

/** The one line saying what was left out (the files named as measured text: escaped, at most five). */
function leftOutLine(bad: ReadonlySet<string>): string {
  const named = [...bad].slice(0, 5).map((f) => `"${measuredText(f.length > 120 ? `${f.slice(0, 119)}…` : f)}"`);
  return `warning: findings left out: their file is not one of the component's own regular files (outside it, reached through a symbolic link, or not a regular file): ${named.join(', ')}${bad.size > 5 ? `, and ${bad.size - 5} more` : ''}`;
}

/** The file of a call path's next step ("inc/a.php:12"), or undefined when it is not one. */
const fileOfVia = (via: string | null | undefined) => (typeof via === 'string' ? /^(.+):\d+$/.exec(via)?.[1] : undefined);

/**
 * The records with every place outside the component's own files left out (before aggregation: a forged place can
 * neither become a finding nor take a real one's place); a call path's next step ("via") outside them is forgotten.
 * What was left out is said in one line through `warn`.
 */
export async function componentRecords(raw: readonly RawFindings[], root: string, warn: (line: string) => void): Promise<RawFindings[]> {
  const all = raw.flatMap((r) => [...r.writes, ...(r.queries ?? []), ...(r.http ?? []), ...(r.assets ?? []).flatMap((a) => [a.reg, a.enq, ...(a.enqs ?? [])])]).filter((w): w is RawWhere => !!w && typeof w === 'object');
  const bad = await notOwn(root, all.flatMap((w) => [w.file, fileOfVia(w.via)]).filter((f): f is string => typeof f === 'string'));
  if (bad.size) warn(leftOutLine(bad));
  const badVia = (w: RawWhere) => bad.has(fileOfVia(w.via) ?? '\0');
  const keep = <T extends RawWhere>(w: T | undefined): T | undefined => (!w || typeof w.file !== 'string' || bad.has(w.file) ? undefined : badVia(w) ? { ...w, via: null } : w);
  const places = <T extends RawWhere>(ws: T[]) => ws.map((w) => keep(w)).filter((w): w is T => !!w);
  return raw.map((r) => ({
    ...r,
    writes: places(r.writes),
    ...(r.queries ? { queries: places(r.queries) } : {}),
    ...(r.http ? { http: places(r.http) } : {}),
    ...(r.assets ? { assets: r.assets.map((a) => ({ ...a, reg: keep(a.reg), enq: keep(a.enq), ...(a.enqs ? { enqs: places(a.enqs) } : {}) })) } : {}),
  }));
}

/**
 * A record's findings without those whose file fails componentFile (a record from the cache, or a link made since it
 * was measured), said in one line through `warn`; undefined stays undefined (findings not looked for).
 */
export async function componentFindings(findings: readonly Finding[] | undefined, root: string, warn: (line: string) => void): Promise<Finding[] | undefined> {
  if (!findings) return undefined;
  const bad = await notOwn(root, findings.map((f) => f.file));
  if (bad.size) warn(leftOutLine(bad));
  return findings.filter((f) => !bad.has(f.file));
}

/** The autoload argument's position in each call (0-based), and what to put before it when it is missing. */
const AUTOLOAD_ARG: Record<string, { index: number; fill: string[] }> = {
  add_option: { index: 3, fill: ["''", "''", "''"] },
  update_option: { index: 2, fill: ["''", "''"] },
};

/** The arguments of the call whose "(" is at `open`: each argument's [start, end) in text, and the ")" index. */
export function callArguments(text: string, open: number): { args: [number, number][]; close: number } | undefined {
  const args: [number, number][] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === "'" || ch === '"') {
      // A string literal: to its closing quote (a backslash escapes the next character).
      for (i++; i < text.length && text[i] !== ch; i++) if (text[i] === '\\') i++;
      continue;
    }
    if (ch === '/' && text[i + 1] === '/') return undefined; // a comment inside the call: not touched
    if (ch === '/' && text[i + 1] === '*') return undefined;
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      depth--;
      if (depth === 0) {
        if (text.slice(start, i).trim() !== '' || args.length) args.push([start, i]);
        return { args, close: i };
      }
    } else if (ch === ',' && depth === 1) {
      args.push([start, i]);
      start = i + 1;
    }
  }
  return undefined;
}

const ON = /^\s*(true|1|null|'yes'|"yes"|'on'|"on"|'auto'|"auto")\s*$/i;

/** Where an argument's own text ends (before the white space up to its comma or the closing parenthesis). */
const argEnd = (text: string, [s, e]: [number, number]) => s + text.slice(s, e).trimEnd().length;

/**
 * The edit turning autoload off in the `callee` call at (or ending on) `line` of `text` (1-based), or undefined when
 * there is no such call to change (not found, already off, a comment in it, or spread arguments).
 */
export function autoloadEdit(text: string, file: string, line: number, callee: string): FixEdit | undefined {
  const spec = AUTOLOAD_ARG[callee];
  if (!spec) return undefined;
  const lines = text.split('\n');
  if (line < 1 || line > lines.length) return undefined;
  const lineStart = (n: number) => lines.slice(0, n - 1).reduce((s, l) => s + l.length + 1, 0);
  // PHP reports a call spanning lines at its first or its last line: the calls starting up to 10 lines before.
  const from = Math.max(1, line - 10);
  const windowStart = lineStart(from);
  const windowEnd = lineStart(line) + lines[line - 1].length;
  const re = new RegExp(`(?<![A-Za-z0-9_>$:])${callee}\\s*\\(`, 'g');
  re.lastIndex = windowStart;
  let best: { open: number; callStart: number; close: number; args: [number, number][] } | undefined;
  for (let m = re.exec(text); m && m.index <= windowEnd; m = re.exec(text)) {
    const open = m.index + m[0].length - 1;
    const call = callArguments(text, open);
    if (!call) continue;
    const startLine = text.slice(0, m.index).split('\n').length;
    const endLine = text.slice(0, call.close).split('\n').length;
    if (startLine <= line && line <= endLine) best = { open, callStart: m.index, close: call.close, args: call.args };
  }
  if (!best) return undefined;
  const argText = best.args.map(([s, e]) => text.slice(s, e));
  if (argText.some((a) => /^\s*\.\.\./.test(a))) return undefined;
  let next: string;
  const named = argText.findIndex((a) => /^\s*autoload\s*:/.test(a));
  if (named >= 0) {
    if (!ON.test(argText[named].replace(/^\s*autoload\s*:/, ''))) return undefined;
    const [s, e] = best.args[named];
    next = text.slice(best.callStart, s) + text.slice(s, e).replace(/(autoload\s*:\s*)[\s\S]*?(\s*)$/, '$1false$2') + text.slice(e, best.close + 1);
  } else if (argText.some((a) => /^\s*[A-Za-z_]\w*\s*:(?!:)/.test(a))) {
    // Other named arguments without autoload: autoload named too.
    const end = argEnd(text, best.args[best.args.length - 1]);
    next = text.slice(best.callStart, end) + ', autoload: false' + text.slice(end, best.close + 1);
  } else if (argText.length > spec.index) {
    // Only a literal that turns autoload on is replaced: an expression ($autoload ? 'yes' : 'no') decides per option.
    if (!ON.test(argText[spec.index])) return undefined;
    const [s, e] = best.args[spec.index];
    const lead = /^\s*/.exec(text.slice(s, e))![0];
    const trail = /\s*$/.exec(text.slice(s, e))![0];
    next = text.slice(best.callStart, s) + lead + 'false' + trail + text.slice(e, best.close + 1);
  } else {
    if (argText.length < 1) return undefined;
    const end = argEnd(text, best.args[best.args.length - 1]);
    const fill = spec.fill.slice(argText.length, spec.index);
    next = text.slice(best.callStart, end) + [...fill, 'false'].map((a) => `, ${a}`).join('') + text.slice(end, best.close + 1);
  }
  const startLine = text.slice(0, best.callStart).split('\n').length;
  const endLine = text.slice(0, best.close).split('\n').length;
  const first = lineStart(startLine);
  const lastEnd = lineStart(endLine) + lines[endLine - 1].length;
  const old = text.slice(first, lastEnd);
  const replaced = text.slice(first, best.callStart) + next + text.slice(best.close + 1, lastEnd);
  if (replaced === old) return undefined;
  return { file, line: startLine, end_line: endLine, old, new: replaced };
}

/**
 * Adds the mechanical fixes to findings, reading the component's files under `root` (at most 2 MB each; a file that
 * cannot be read simply gets no edit).
 */
export async function withFixes(findings: Finding[], root: string): Promise<Finding[]> {
  const texts = new Map<string, string | undefined>();
  const read = async (rel: string) => {
    if (!texts.has(rel)) {
      const abs = await componentFile(root, rel);
      const st = abs === undefined ? undefined : await fs.lstat(abs).catch(() => undefined);
      texts.set(rel, abs && st?.isFile() && st.size <= 2 * 1024 * 1024 ? await readNoFollow(abs) : undefined);
    }
    return texts.get(rel);
  };
  const out: Finding[] = [];
  for (const f of findings) {
    const call = (f.evidence as { call?: string }).call;
    if (f.kind !== 'autoloaded-option' || !call || !(call in AUTOLOAD_ARG)) {
      out.push(f);
      continue;
    }
    const text = await read(f.file);
    const edit = text === undefined ? undefined : autoloadEdit(text.replace(/\r\n/g, '\n'), f.file, f.line, call);
    out.push(edit ? { ...f, fix: { ...f.fix, edits: [edit] } } : f);
  }
  return out;
}

export interface AppliedEdit {
  edit: FixEdit;
  applied: boolean;
  /** why not, when not applied */
  why?: string;
}

/** O_NOFOLLOW where the platform has it: the last segment is never followed, even if swapped for a link since. */
const NOFOLLOW = fsc.O_NOFOLLOW ?? 0;
const readNoFollow = (abs: string) => fs.readFile(abs, { encoding: 'utf8', flag: fsc.O_RDONLY | NOFOLLOW }).catch(() => undefined);

/**
 * Applies edits to the files under `root` (`--fix`): an edit whose lines are no longer `old` is left alone, said.
 * Edits of one file are applied bottom-up so line numbers hold; a file's line endings are kept. Each file is checked
 * by componentFile when read and again right before it is written: one that is not the component's own (a linked
 * folder, even one swapped in after the findings were made) is never written.
 */
export async function applyEdits(root: string, edits: readonly FixEdit[]): Promise<AppliedEdit[]> {
  const byFile = new Map<string, FixEdit[]>();
  for (const e of edits) byFile.set(e.file, [...(byFile.get(e.file) ?? []), e]);
  const out: AppliedEdit[] = [];
  const notOwnFile = "not a regular file of the component's own (outside it, or through a symbolic link)";
  for (const [file, es] of byFile) {
    const abs = await componentFile(root, file);
    if (abs === undefined) {
      for (const edit of es) out.push({ edit, applied: false, why: notOwnFile });
      continue;
    }
    const raw = await readNoFollow(abs);
    if (raw === undefined) {
      for (const edit of es) out.push({ edit, applied: false, why: 'the file cannot be read' });
      continue;
    }
    const crlf = raw.includes('\r\n');
    const lines = raw.replace(/\r\n/g, '\n').split('\n');
    let changed = false;
    for (const edit of [...es].sort((a, b) => b.line - a.line)) {
      const now = lines.slice(edit.line - 1, edit.end_line).join('\n');
      if (now !== edit.old) {
        out.push({ edit, applied: false, why: 'the lines changed since they were measured' });
        continue;
      }
      lines.splice(edit.line - 1, edit.end_line - edit.line + 1, ...edit.new.split('\n'));
      out.push({ edit, applied: true });
      changed = true;
    }
    if (!changed) continue;
    if ((await componentFile(root, file)) !== abs) {
      for (const a of out) if (a.applied && a.edit.file === file) Object.assign(a, { applied: false, why: notOwnFile });
      continue;
    }
    await fs.writeFile(abs, crlf ? lines.join('\r\n') : lines.join('\n'), { flag: fsc.O_WRONLY | fsc.O_TRUNC | NOFOLLOW });
  }
  return out;
}
