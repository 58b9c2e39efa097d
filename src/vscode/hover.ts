// Hovers on package names, plugin/theme header lines, .wp-env.json and blueprint entries. Cache-only: never a request.
import * as vscode from 'vscode';
import type { LocationIndex } from '../core/session/locationIndex';
import { MEASURE_COMMAND } from '../core/present/local';
import { BROWSER_REPORT_COMMAND } from '../core/present/visitor';
import { componentHover } from '../core/session/surfaces';
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

export type EntryIndex = LocationIndex<ComponentEntry>;

/** The range of an index hit as a vscode.Range. */
export function rangeOf(hit: { line: number; start: number; end: number }): vscode.Range {
  return new vscode.Range(hit.line, hit.start, hit.line, hit.end);
}

export function hoverFor(bench: Bench, entry: ComponentEntry, file?: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(componentHover(bench, entry, file));
  // API and file strings are escaped by the core; the one command a link may run is Measure Locally (which still
  // checks trust and asks first) and Show What the Visitor Pays (a page with no script), never another, and no HTML.
  md.isTrusted = { enabledCommands: [MEASURE_COMMAND, BROWSER_REPORT_COMMAND] };
  md.supportHtml = false;
  md.supportThemeIcons = false;
  return md;
}

export class BenchHoverProvider implements vscode.HoverProvider {
  constructor(private readonly bench: Bench, private readonly index: EntryIndex) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const hit = this.index.at(document.uri.fsPath, position.line, position.character);
    return hit ? new vscode.Hover(hoverFor(this.bench, hit.entry, document.uri.fsPath), rangeOf(hit)) : undefined;
  }
}
