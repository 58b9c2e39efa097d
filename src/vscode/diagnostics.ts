// Diagnostics on the declaring ranges, and quick fixes (open profile, ignore slug).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isWorseThan } from '../core/format';
import type { ScanProblem } from '../core/model';
import { plainText } from '../core/report/judge';
import type { Bench } from './bench';
import type { LocationIndex } from './hover';

export const SOURCE = 'WP Bench';

export class BenchDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('wpBench');

  constructor(private readonly bench: Bench, private readonly index: LocationIndex) {}

  update(): void {
    this.collection.clear();
    for (const file of this.index.files()) {
      if (!this.bench.diagnosticsEnabled(file)) continue;
      const diagnostics: vscode.Diagnostic[] = [];
      const minimumGrade = this.bench.minimumGrade(file);
      for (const { range, entry } of this.index.in(file)) {
        if (this.bench.isIgnored(entry.slug, file)) continue;
        const outcome = this.bench.outcome(entry.kind, entry.slug);
        const result = outcome?.result;
        if (!result) continue;
        const stale = outcome.stale ? ' (cached data, stale)' : '';
        let d: vscode.Diagnostic;
        if (result.state === 'not-in-dataset') {
          d = new vscode.Diagnostic(range, `${entry.slug} is not in the WP Bench dataset${stale}.`, vscode.DiagnosticSeverity.Hint);
          d.code = 'not-in-dataset';
        } else if (result.state === 'not-benchmarked') {
          d = new vscode.Diagnostic(range, `${result.record.name} is known to WP Bench but not benchmarked yet${stale}.`, vscode.DiagnosticSeverity.Information);
          d.code = 'not-benchmarked';
        } else {
          const r = result.record;
          // Grades at or above the minimum get no diagnostic: the hover and the tree show them.
          if (!isWorseThan(r.grade, minimumGrade)) continue;
          const activation = r.contexts.activation;
          const cost = activation
            ? ` Activation adds ${Math.round(activation.ttfbDeltaMs)} ms TTFB, ${Math.round(activation.memoryDeltaKb / 1024)} MB memory, ${activation.queriesDelta} queries.`
            : '';
          d = new vscode.Diagnostic(
            range,
            `${r.name}: performance grade ${r.grade} (score ${r.score}), below the minimum ${minimumGrade}.${cost}${stale}`,
            vscode.DiagnosticSeverity.Warning,
          );
          d.code = 'grade-below-threshold';
        }
        d.source = SOURCE;
        diagnostics.push(d);
      }
      if (diagnostics.length) this.collection.set(vscode.Uri.file(file), diagnostics);
    }
    // Problems where they are: scan problems (malformed files, refused entries, unreadable files) and
    // .wp-bench.json problems (unknown keys, refused apiUrl/key, bad values). Nothing skipped silently.
    const byFile = new Map<string, vscode.Diagnostic[]>();
    const add = (absFile: string, p: ScanProblem, code: string) => {
      const severity = p.severity === 'info' ? vscode.DiagnosticSeverity.Information : vscode.DiagnosticSeverity.Warning;
      const d = new vscode.Diagnostic(new vscode.Range(p.line - 1, p.column - 1, p.line - 1, p.column + 40), plainText(p.message, 400), severity);
      d.source = SOURCE;
      d.code = code;
      byFile.set(absFile, [...(byFile.get(absFile) ?? []), d]);
    };
    for (const p of this.bench.problems) if (p.file && this.bench.diagnosticsEnabled(p.absFile)) add(p.absFile, p, 'scan');
    const team = this.bench.teamConfig;
    for (const p of team?.problems ?? []) add(path.join(team!.root, ...p.file.split('/')), p, 'team-config');
    for (const [file, list] of byFile) {
      const uri = vscode.Uri.file(file);
      this.collection.set(uri, [...(this.collection.get(uri) ?? []), ...list]);
    }
  }

  dispose(): void {
    this.collection.dispose();
  }
}

export class BenchQuickFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly bench: Bench, private readonly index: LocationIndex) {}

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of context.diagnostics) {
      if (diagnostic.source !== SOURCE || diagnostic.code === 'scan' || diagnostic.code === 'team-config') continue;
      const hit = this.index.at(document.uri, diagnostic.range.start);
      if (!hit) continue;
      const { kind, slug } = hit.entry;
      const result = this.bench.outcome(kind, slug)?.result;
      if (result && result.state !== 'not-in-dataset' && result.record.profileUrl) {
        const open = new vscode.CodeAction(`Open the WP Bench profile of ${slug}`, vscode.CodeActionKind.QuickFix);
        open.command = { command: 'wpBench.openProfile', title: 'Open profile', arguments: [{ kind, slug }] };
        open.diagnostics = [diagnostic];
        actions.push(open);
      }
      const ignore = new vscode.CodeAction(`Ignore ${slug} in this workspace`, vscode.CodeActionKind.QuickFix);
      ignore.command = { command: 'wpBench.ignoreSlug', title: 'Ignore', arguments: [{ kind, slug }] };
      ignore.diagnostics = [diagnostic];
      actions.push(ignore);
    }
    return actions;
  }
}
