// The mechanical fixes of `measure --findings` (today: an autoloaded option's autoload argument turned off at the line
// that adds it), computed from the component's own source, and applied by `--fix` only where the lines are still
// what was read. Pure but for applyEdits (which writes the user's files, on that explicit flag only).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Finding, FixEdit } from './types';

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
      const abs = path.join(root, ...rel.split('/'));
      const st = await fs.lstat(abs).catch(() => undefined);
      texts.set(rel, st?.isFile() && st.size <= 2 * 1024 * 1024 ? await fs.readFile(abs, 'utf8').catch(() => undefined) : undefined);
    }
    return texts.get(rel);
  };
  const out: Finding[] = [];
  for (const f of findings) {
    const call = (f.evidence as { call?: string }).call;
    if (f.kind !== 'autoloaded-option' || !call || !(call in AUTOLOAD_ARG) || f.file.split('/').includes('..')) {
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

/**
 * Applies edits to the files under `root` (`--fix`): an edit whose lines are no longer `old` is left alone, said.
 * Edits of one file are applied bottom-up so line numbers hold; a file's line endings are kept.
 */
export async function applyEdits(root: string, edits: readonly FixEdit[]): Promise<AppliedEdit[]> {
  const byFile = new Map<string, FixEdit[]>();
  for (const e of edits) byFile.set(e.file, [...(byFile.get(e.file) ?? []), e]);
  const out: AppliedEdit[] = [];
  for (const [file, es] of byFile) {
    if (file.split('/').includes('..') || path.isAbsolute(file)) {
      for (const edit of es) out.push({ edit, applied: false, why: 'not a path inside the component' });
      continue;
    }
    const abs = path.join(root, ...file.split('/'));
    const raw = await fs.readFile(abs, 'utf8').catch(() => undefined);
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
    if (changed) await fs.writeFile(abs, crlf ? lines.join('\r\n') : lines.join('\n'));
  }
  return out;
}
