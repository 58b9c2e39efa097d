// Small helpers shared by the text parsers.
import { l10n } from '../l10n';
import { parseTree, printParseErrorCode, type Node, type ParseError, type ParseOptions } from 'jsonc-parser';
import type { ScanProblem } from '../model';

/** Maps character offsets of a text to 1-based line/column (CRLF, CR and LF are line breaks). */
export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) this.starts.push(i + 1);
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        this.starts.push(i + 1);
      }
    }
  }
  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo] + 1 };
  }
}

export function problemAt(file: string, index: LineIndex, offset: number, message: string, slug?: string): ScanProblem {
  const { line, column } = index.position(offset);
  const p: ScanProblem = { file, line, column, message: message.length > 300 ? `${message.slice(0, 299)}…` : message };
  if (slug !== undefined) p.slug = slug;
  return p;
}

/**
 * WP_Plugin_Dependencies::convert_to_slug(): folder name, or the file name with `.php` removed;
 * `hello.php` is Hello Dolly.
 */
export function pluginFileSlug(fileName: string): string {
  if (fileName === 'hello.php') return 'hello-dolly';
  return fileName.split('.php').join('');
}

/** `text` without the `char`s at its end (a loop: `/\/+$/` backtracks quadratically on a long run of slashes). */
export function trimTrailing(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end--;
  return text.slice(0, end);
}

/** Last part of a path, ignoring trailing slashes (both separators). */
export function lastPathPart(p: string): string {
  const parts = p.split(/[\\/]+/).filter((x) => x !== '');
  return parts.length ? parts[parts.length - 1] : '';
}

/** Deeper JSON than this is refused: the parser recurses per level and a hostile file could overflow the stack. */
export const MAX_JSON_DEPTH = 200;

/** Offset where `[`/`{` nesting (outside strings) first exceeds `limit`, or -1. */
export function excessiveNesting(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > limit) return i;
    } else if (c === 93 || c === 125) depth--;
  }
  return -1;
}

/** parseTree that reports the first syntax error as a problem and never throws on hostile input. */
export function parseJsonTree(text: string, file: string, index: LineIndex, problems: ScanProblem[], options: ParseOptions): Node | undefined {
  const tooDeep = excessiveNesting(text);
  if (tooDeep >= 0) {
    problems.push(problemAt(file, index, tooDeep, l10n.t('JSON nested deeper than {0} levels; the file was skipped', MAX_JSON_DEPTH)));
    return undefined;
  }
  const errors: ParseError[] = [];
  let root: Node | undefined;
  try {
    root = parseTree(text, errors, options);
  } catch (err) {
    problems.push(problemAt(file, index, 0, l10n.t('Could not parse the file: {0}', (err as Error).message)));
    return undefined;
  }
  // One problem per file is enough: the first syntax error is the one to fix.
  if (errors.length) problems.push(problemAt(file, index, errors[0].offset, l10n.t('Invalid JSON: {0}', printParseErrorCode(errors[0].error))));
  return root;
}

/** The value of `key` in a JSON object node (jsonc-parser), or undefined. */
export function jsonChild(obj: Node | undefined, key: string): Node | undefined {
  if (!obj || obj.type !== 'object') return undefined;
  for (const prop of obj.children ?? []) {
    const [k, v] = prop.children ?? [];
    if (k && k.value === key) return v;
  }
  return undefined;
}
