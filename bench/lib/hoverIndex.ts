// The hover path of src/vscode/hover.ts without vscode: a per-file list of ranges (LocationIndex), the
// range containing the position, then hoverMarkdown() over the memory-only cache view (LookupService.peek).
import * as path from 'node:path';
import type { ComponentKind, DetectedComponent } from '../../src/core/model';
import { hoverMarkdown } from '../../src/core/present';
import type { LookupService } from '../../src/core/lookupService';

interface Range {
  line: number; // 0-based, as vscode.Range
  start: number;
  end: number;
  kind: ComponentKind;
  slug: string;
}

export class HoverIndex {
  private byFile = new Map<string, Range[]>();

  /** Same ranges as LocationIndex.rebuild(): [column-1, column-1+max(1,length)] on line-1, absolute file paths. */
  rebuild(root: string, components: readonly DetectedComponent[]): void {
    const next = new Map<string, Range[]>();
    for (const c of components) {
      for (const l of c.locations) {
        const file = path.join(root, l.file);
        let list = next.get(file);
        if (!list) next.set(file, (list = []));
        list.push({ line: l.line - 1, start: l.column - 1, end: l.column - 1 + Math.max(1, l.length), kind: c.kind, slug: c.slug });
      }
    }
    this.byFile = next;
  }

  /** vscode.Range.contains(position): same line, start ≤ character ≤ end. */
  at(file: string, line: number, character: number): Range | undefined {
    return this.byFile.get(file)?.find((r) => r.line === line && r.start <= character && character <= r.end);
  }

  get size(): number {
    let n = 0;
    for (const l of this.byFile.values()) n += l.length;
    return n;
  }
}

/** Position → markdown, as BenchHoverProvider.provideHover() + hoverFor() do (undefined: no hover). */
export function hoverAt(index: HoverIndex, lookups: LookupService, file: string, line: number, character: number): string | undefined {
  const hit = index.at(file, line, character);
  if (!hit) return undefined;
  return hoverMarkdown(hit.kind, hit.slug, lookups.peek(hit.kind, hit.slug));
}
