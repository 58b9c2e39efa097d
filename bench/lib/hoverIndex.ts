// The hover path without vscode, on the shipped code: the extension's LocationIndex (src/core/session/locationIndex.ts)
// over absolute-path entries, the range containing the position, then hoverMarkdown() over the memory-only cache
// view (LookupService.peek), as componentHover() does for a looked-up component.
import * as path from 'node:path';
import type { LookupService } from '../../src/core/lookup/lookupService';
import type { ComponentKind, DetectedComponent } from '../../src/core/model';
import { hoverMarkdown } from '../../src/core/present/outcome';
import { LocationIndex } from '../../src/core/session/locationIndex';

interface Entry {
  kind: ComponentKind;
  slug: string;
  locations: { file: string; line: number; column: number; length: number }[];
}

export class HoverIndex extends LocationIndex<Entry> {
  /** As the session does: locations made absolute, then the shipped rebuild(). */
  rebuildFrom(root: string, components: readonly DetectedComponent[]): void {
    this.rebuild(components.map((c) => ({ kind: c.kind, slug: c.slug, locations: c.locations.map((l) => ({ ...l, file: path.join(root, l.file) })) })));
  }
}

/** Position → markdown, as BenchHoverProvider.provideHover() does (undefined: no hover). */
export function hoverAt(index: HoverIndex, lookups: LookupService, file: string, line: number, character: number): string | undefined {
  const hit = index.at(file, line, character);
  if (!hit) return undefined;
  return hoverMarkdown(hit.entry.kind, hit.entry.slug, lookups.peek(hit.entry.kind, hit.entry.slug));
}
