// CodeLenses of a local profile (Profile Locally): above each profiled function of a component and on the lines that
// register it, what the core decides (src/core/present/profileLens.ts); refreshed when local results change. A click
// opens the flame graph at that function.
import * as vscode from 'vscode';
import { profileLenses } from '../core/present/profileLens';
import { CONTEXT_NAMES } from '../core/model';
import type { Bench } from './bench';

export const PROFILE_LENS_SELECTOR: vscode.DocumentSelector = [
  { scheme: 'file', language: 'php' },
  { scheme: 'file', pattern: '**/*.php' },
];

export class ProfileLensProvider implements vscode.CodeLensProvider {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.emitter.event;

  constructor(private readonly bench: Bench) {}

  refresh(): void {
    this.emitter.fire();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const profiled = this.bench.local.all().filter((l) => l.record.profile);
    if (!profiled.length) return [];
    const text = doc.getText();
    const out: vscode.CodeLens[] = [];
    for (const local of profiled) {
      // The title is the figure, the tooltip the three contexts and the hooks; a click shows the function in the
      // flame graph of the context where it spends the most.
      for (const spec of profileLenses(local, doc.uri.fsPath, text)) {
        const context = CONTEXT_NAMES.reduce((best, c) => ((spec.fn.contexts[c]?.ms ?? -1) > (spec.fn.contexts[best]?.ms ?? -1) ? c : best), CONTEXT_NAMES[1]);
        const arg = { kind: local.kind, slug: local.slug, context, file: spec.fn.file, line: spec.fn.line };
        out.push(new vscode.CodeLens(new vscode.Range(spec.line, 0, spec.line, 0), { title: spec.title, tooltip: `${spec.tooltip}\n${vscode.l10n.t('Click for the flame graph.')}`, command: 'wpBench.showFlameGraph', arguments: [arg] }));
      }
    }
    return out;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
