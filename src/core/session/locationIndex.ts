// Which component a position in a file belongs to: a per-file list of declaring ranges, rebuilt when the component
// list changes. The hover, the diagnostics and the quick fixes read it; `npm run bench` times this very code.
export interface IndexedRange<E> {
  /** 0-based line; [start, end] characters, inclusive at both ends (vscode.Range.contains). */
  line: number;
  start: number;
  end: number;
  entry: E;
}

export class LocationIndex<E extends { locations: readonly { file: string; line: number; column: number; length: number }[] }> {
  private byFile = new Map<string, IndexedRange<E>[]>();

  /** Locations' files are absolute paths (session entries); a location covers at least one character. */
  rebuild(entries: readonly E[]): void {
    const next = new Map<string, IndexedRange<E>[]>();
    for (const entry of entries) {
      for (const l of entry.locations) {
        let list = next.get(l.file);
        if (!list) next.set(l.file, (list = []));
        list.push({ line: l.line - 1, start: l.column - 1, end: l.column - 1 + Math.max(1, l.length), entry });
      }
    }
    this.byFile = next;
  }

  at(file: string, line: number, character: number): IndexedRange<E> | undefined {
    return this.byFile.get(file)?.find((r) => r.line === line && r.start <= character && character <= r.end);
  }

  in(file: string): readonly IndexedRange<E>[] {
    return this.byFile.get(file) ?? [];
  }

  files(): string[] {
    return [...this.byFile.keys()];
  }

  get size(): number {
    let n = 0;
    for (const l of this.byFile.values()) n += l.length;
    return n;
  }
}
