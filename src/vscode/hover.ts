// Hovers on package names, plugin/theme header lines and .wp-env.json entries. Cache-only: never a request.
import * as vscode from 'vscode';
import { hoverMarkdown } from '../core/present';
import { lookupExplanation } from '../core/scan/lookup';
import type { Bench, ComponentEntry } from './bench';

export const DOCUMENT_SELECTOR: vscode.DocumentSelector = [
  { scheme: 'file', pattern: '**/composer.json' },
  { scheme: 'file', pattern: '**/composer.lock' },
  { scheme: 'file', pattern: '**/.wp-env.json' },
  { scheme: 'file', pattern: '**/.wp-env.override.json' },
  { scheme: 'file', pattern: '**/blueprint.json' },
  { scheme: 'file', pattern: '**/*.blueprint.json' },
  { scheme: 'file', pattern: '**/*.php' },
  { scheme: 'file', pattern: '**/style.css' },
];

/** Index of component ranges per file, rebuilt when the component list changes. */
export class LocationIndex {
  private byFile = new Map<string, { range: vscode.Range; entry: ComponentEntry }[]>();

  rebuild(entries: readonly ComponentEntry[]): void {
    const next = new Map<string, { range: vscode.Range; entry: ComponentEntry }[]>();
    for (const entry of entries) {
      for (const l of entry.locations) {
        const range = new vscode.Range(l.line - 1, l.column - 1, l.line - 1, l.column - 1 + Math.max(1, l.length));
        let list = next.get(l.file);
        if (!list) next.set(l.file, (list = []));
        list.push({ range, entry });
      }
    }
    this.byFile = next;
  }

  at(uri: vscode.Uri, position: vscode.Position): { range: vscode.Range; entry: ComponentEntry } | undefined {
    return this.byFile.get(uri.fsPath)?.find((x) => x.range.contains(position));
  }

  in(file: string): { range: vscode.Range; entry: ComponentEntry }[] {
    return this.byFile.get(file) ?? [];
  }

  files(): string[] {
    return [...this.byFile.keys()];
  }
}

export function hoverFor(bench: Bench, entry: ComponentEntry): vscode.MarkdownString {
  let notice: string | undefined;
  if (!bench.hasApiUrl) notice = 'No API address set: run "WP Bench: Set API Address".';
  else if (!bench.hasKey) notice = 'No API key set: run "WP Bench: Set API Key".';
  else if (bench.isIgnored(entry.slug)) notice = 'Ignored in this workspace (wpBench.ignore).';
  else if (entry.lookup !== 'yes' && !bench.outcome(entry.kind, entry.slug)) notice = lookupExplanation(entry);
  else if (entry.possibleFork) notice = 'Its Update URI says this copy does not come from wordpress.org: the numbers are for the wordpress.org item.';
  if (entry.locations.every((l) => l.source === 'theme-parent')) {
    const inRepo = 'The parent theme of a child theme here; it is not in this repository (WordPress loads it with the child).';
    notice = notice ? `${inRepo} ${notice}` : inRepo;
  }
  const md = new vscode.MarkdownString(hoverMarkdown(entry.kind, entry.slug, bench.outcome(entry.kind, entry.slug), { notice, name: entry.name }));
  // API strings are escaped by hoverMarkdown; the string itself is never trusted with commands or HTML.
  md.isTrusted = false;
  md.supportHtml = false;
  md.supportThemeIcons = false;
  return md;
}

export class BenchHoverProvider implements vscode.HoverProvider {
  constructor(private readonly bench: Bench, private readonly index: LocationIndex) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const hit = this.index.at(document.uri, position);
    if (!hit) return undefined;
    return new vscode.Hover(hoverFor(this.bench, hit.entry), hit.range);
  }
}
