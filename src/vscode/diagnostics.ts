// Diagnostics on the declaring ranges, and quick fixes (open profile, ignore slug).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ScanProblem } from '../core/model';
import { plainText } from '../core/report/plain';
import { DisposableStore } from '../core/session/events';
import { componentDiagnostic } from '../core/session/surfaces';
import type { Bench } from './bench';
import { rangeOf, type EntryIndex } from './hover';

export const SOURCE = 'WP Bench';

export class BenchDiagnostics extends DisposableStore {
  readonly collection = this._register(vscode.languages.createDiagnosticCollection('wpBench'));

  constructor(private readonly bench: Bench, private readonly index: EntryIndex) {
    super();
  }

  update(): void {
    this.collection.clear();
    const byFile = new Map<string, vscode.Diagnostic[]>();
    const push = (file: string, d: vscode.Diagnostic) => byFile.set(file, [...(byFile.get(file) ?? []), d]);
    for (const file of this.index.files()) {
      if (!this.bench.diagnosticsEnabled(file)) continue;
      for (const hit of this.index.in(file)) {
        const spec = componentDiagnostic(this.bench, hit.entry, file);
        if (!spec) continue;
        const d = new vscode.Diagnostic(rangeOf(hit), spec.message, SEVERITY[spec.severity]);
        d.code = spec.code;
        d.source = SOURCE;
        push(file, d);
      }
    }
    // Problems where they are: scan problems (malformed files, refused entries, unreadable files) and
    // .wp-bench.json problems (unknown keys, refused apiUrl/key, bad values). Nothing skipped silently.
    const problem = (absFile: string, p: ScanProblem, code: string) => {
      const d = new vscode.Diagnostic(new vscode.Range(p.line - 1, p.column - 1, p.line - 1, p.column + 40), plainText(p.message, 400), p.severity === 'info' ? vscode.DiagnosticSeverity.Information : vscode.DiagnosticSeverity.Warning);
      d.source = SOURCE;
      d.code = code;
      push(absFile, d);
    };
    for (const p of this.bench.problems) if (p.file && this.bench.diagnosticsEnabled(p.absFile)) problem(p.absFile, p, 'scan');
    const team = this.bench.teamConfig;
    for (const p of team?.problems ?? []) problem(path.join(team!.root, ...p.file.split('/')), p, 'team-config');
    for (const [file, list] of byFile) this.collection.set(vscode.Uri.file(file), list);
  }
}

const SEVERITY = { warning: vscode.DiagnosticSeverity.Warning, information: vscode.DiagnosticSeverity.Information, hint: vscode.DiagnosticSeverity.Hint } as const;

export class BenchQuickFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly bench: Bench, private readonly index: EntryIndex) {}

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of context.diagnostics) {
      if (diagnostic.source !== SOURCE || diagnostic.code === 'scan' || diagnostic.code === 'team-config') continue;
      const hit = this.index.at(document.uri.fsPath, diagnostic.range.start.line, diagnostic.range.start.character);
      if (!hit) continue;
      const { kind, slug } = hit.entry;
      const result = this.bench.outcome(kind, slug)?.result;
      if (result && result.state !== 'not-in-dataset' && result.record.profileUrl) {
        const open = new vscode.CodeAction(vscode.l10n.t('Open the WP Bench profile of {0}', slug), vscode.CodeActionKind.QuickFix);
        open.command = { command: 'wpBench.openProfile', title: vscode.l10n.t('Open profile'), arguments: [{ kind, slug }] };
        open.diagnostics = [diagnostic];
        actions.push(open);
      }
      const ignore = new vscode.CodeAction(vscode.l10n.t('Ignore {0} in this workspace', slug), vscode.CodeActionKind.QuickFix);
      ignore.command = { command: 'wpBench.ignoreSlug', title: vscode.l10n.t('Ignore'), arguments: [{ kind, slug }] };
      ignore.diagnostics = [diagnostic];
      actions.push(ignore);
    }
    return actions;
  }
}
