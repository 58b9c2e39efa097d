// Small helpers shared by the text parsers.
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
  const p: ScanProblem = { file, line, column, message };
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

/** Last part of a path, ignoring trailing slashes (both separators). */
export function lastPathPart(p: string): string {
  const parts = p.split(/[\\/]+/).filter((x) => x !== '');
  return parts.length ? parts[parts.length - 1] : '';
}
