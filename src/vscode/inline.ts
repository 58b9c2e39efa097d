// Inline grades: a quiet annotation after each declaring line ("A+ · +3 ms homepage", "not benchmarked"…), in the
// theme's colour (wpBench.inlineGradeForeground), as decorations — no line shifts, unlike CodeLens. Hovers and
// diagnostics keep the same facts for screen readers. The text is the core's (inlineText).
import * as vscode from 'vscode';
import { inlineText } from '../core/report/glance';
import { apiBenchmarked, localInlineText } from '../core/present/local';
import type { ContextName } from '../core/model';
import { uiPlainText } from '../core/present/format';
import { DisposableStore } from '../core/session/events';
import type { Bench } from './bench';
import type { EntryIndex } from './hover';

export function readInlineSettings(): { enabled: boolean; context: ContextName } {
  const c = vscode.workspace.getConfiguration('wpBench');
  const context = c.get<string>('inline.context', 'homepage');
  return { enabled: c.get<boolean>('inline.enabled', true) !== false, context: context === 'activation' || context === 'admin' ? context : 'homepage' };
}

export class InlineGrades extends DisposableStore {
  private readonly type = this._register(
    vscode.window.createTextEditorDecorationType({
      after: { color: new vscode.ThemeColor('wpBench.inlineGradeForeground'), margin: '0 0 0 2em', fontStyle: 'normal' },
      rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
    }),
  );
  /** What each file shows now (absolute path → line → text): the integration test reads it. */
  readonly shown = new Map<string, Map<number, string>>();

  constructor(private readonly bench: Bench, private readonly index: EntryIndex) {
    super();
    this._register(vscode.window.onDidChangeVisibleTextEditors(() => this.update()));
    this._register(vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('wpBench.inline') && this.update()));
  }

  update(): void {
    const settings = readInlineSettings();
    this.shown.clear();
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document.uri.scheme !== 'file') continue;
      const file = editor.document.uri.fsPath;
      const options: vscode.DecorationOptions[] = [];
      if (settings.enabled) {
        const lines = new Map<number, string>();
        for (const hit of this.index.in(file)) {
          if (lines.has(hit.line) || hit.line >= editor.document.lineCount) continue;
          const { entry } = hit;
          const outcome = this.bench.outcome(entry.kind, entry.slug);
          const ignored = this.bench.isIgnored(entry.slug, file);
          const apiText = inlineText(outcome, entry.lookup, settings.context, ignored);
          const local = ignored ? undefined : this.bench.localResult(entry.kind, entry.slug);
          const text = local ? localInlineText(apiText, local, apiBenchmarked(outcome), settings.context) : apiText;
          if (!text) continue;
          lines.set(hit.line, text);
          const end = editor.document.lineAt(hit.line).range.end;
          options.push({ range: new vscode.Range(end, end), renderOptions: { after: { contentText: uiPlainText(text) } } });
        }
        if (lines.size) this.shown.set(file, lines);
      }
      editor.setDecorations(this.type, options);
    }
  }
}
