// The findings of local measurements in the editor (src/core/present/findingsView.ts decides): a diagnostic at each
// finding's line, its hover, the quick fix where the fix is mechanical, and "Measure this change" (the component
// measured against HEAD, both copies in one run: what the change saved, in a notification and in the hover).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { runCompareChild, measureChildEnv, MeasureChildError } from '../core/measure/child';
import { componentFile } from '../core/measure/findings/fix';
import { findingHover, findingSpecs, measuredChangeText, quickFixEdits, type FindingSpec } from '../core/present/findingsView';
import { uiPlainText } from '../core/present/format';
import type { Bench } from './bench';
import type { CommandManager } from './commandManager';

export const FINDINGS_SELECTOR: vscode.DocumentSelector = [
  { scheme: 'file', language: 'php' },
  { scheme: 'file', pattern: '**/*.php' },
];
export const MEASURE_CHANGE_COMMAND = 'wpBench.measureChange';

export class FindingsSurface implements vscode.HoverProvider, vscode.CodeActionProvider {
  static readonly providedCodeActionKinds = [vscode.CodeActionKind.QuickFix];
  private readonly collection = vscode.languages.createDiagnosticCollection('wpBench.findings');
  private specs: FindingSpec[] = [];
  /** files edited (unsaved) since their findings were measured: stale at once, before the save re-hashes them */
  private readonly edited = new Set<string>();
  /** what "Measure this change" measured, per component ("plugin:acme") */
  readonly measured = new Map<string, string>();

  /** the latest update(): an older one's check finishing late is not shown */
  private generation = 0;

  constructor(private readonly bench: Bench) {}

  /** The findings, shown once each file is checked: only the component's own regular files (componentFile). */
  update(): void {
    const gen = ++this.generation;
    void ownFiles(findingSpecs(this.bench.local.all())).then((specs) => {
      if (gen === this.generation) this.show(specs);
    });
  }

  private show(specs: FindingSpec[]): void {
    const before = new Set(this.specs.map((s) => `${s.id}@${s.finding.message}`));
    this.specs = specs.map((s) => (this.edited.has(s.file) && !s.stale ? { ...s, stale: true, message: vscode.l10n.t('{0} (stale: edited since it was measured)', s.finding.message) } : s));
    // A new measurement of a file's component makes its findings current again.
    if (this.specs.some((s) => !before.has(`${s.id}@${s.finding.message}`))) for (const s of this.specs) if (!s.stale) this.edited.delete(s.file);
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const s of this.specs) {
      const d = new vscode.Diagnostic(new vscode.Range(s.line, 0, s.line, Number.MAX_SAFE_INTEGER), s.message, s.severity === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Information);
      d.source = 'WP Bench';
      d.code = s.code;
      byFile.set(s.file, [...(byFile.get(s.file) ?? []), d]);
    }
    this.collection.clear();
    for (const [file, ds] of byFile) this.collection.set(vscode.Uri.file(file), ds);
  }

  /** An unsaved edit of a file with findings: its findings are stale at once. */
  onEdit(file: string): void {
    if (this.edited.has(file) || !this.specs.some((s) => s.file === file)) return;
    this.edited.add(file);
    this.update();
  }

  private at(doc: vscode.TextDocument, line: number): FindingSpec[] {
    const file = doc.uri.fsPath;
    return this.specs.filter((s) => s.file === file && s.line === line);
  }

  provideHover(doc: vscode.TextDocument, pos: vscode.Position): vscode.Hover | undefined {
    const here = this.at(doc, pos.line);
    if (!here.length) return undefined;
    const md = new vscode.MarkdownString(here.map((s) => findingHover(s, this.measured.get(`${s.kind}:${s.slug}`))).join('\n\n---\n\n'));
    md.isTrusted = false;
    return new vscode.Hover(md, doc.lineAt(pos.line).range);
  }

  async provideCodeActions(doc: vscode.TextDocument, range: vscode.Range | vscode.Selection, ctx: vscode.CodeActionContext): Promise<vscode.CodeAction[]> {
    const out: vscode.CodeAction[] = [];
    const ours = ctx.diagnostics.filter((d) => d.source === 'WP Bench' && typeof d.code === 'string');
    const seen = new Set<string>();
    for (const d of ours) {
      for (const s of this.at(doc, d.range.start.line).filter((x) => x.code === d.code)) {
        const edits = s.stale ? undefined : quickFixEdits(s.finding.fix.edits, (l) => (l < doc.lineCount ? doc.lineAt(l).text : undefined));
        // Checked again now: the edit goes to this document only when it is the component's own file (no link on the way).
        if (edits && (await isOwnDocument(s, doc.uri.fsPath))) {
          const a = new vscode.CodeAction(vscode.l10n.t('WP Bench: turn autoload off for "{0}"', String(s.finding.evidence.option ?? '')), vscode.CodeActionKind.QuickFix);
          a.diagnostics = [d];
          a.isPreferred = true;
          a.edit = new vscode.WorkspaceEdit();
          for (const e of edits) a.edit.replace(doc.uri, new vscode.Range(e.start, 0, e.end, doc.lineAt(e.end).text.length), e.text);
          out.push(a);
        }
        const key = `${s.kind}:${s.slug}`;
        if (!seen.has(key)) {
          seen.add(key);
          const m = new vscode.CodeAction(vscode.l10n.t('WP Bench: measure this change against HEAD'), vscode.CodeActionKind.QuickFix);
          m.diagnostics = [d];
          m.command = { command: MEASURE_CHANGE_COMMAND, title: m.title, arguments: [{ kind: s.kind, slug: s.slug }] };
          out.push(m);
        }
      }
    }
    return out;
  }

  dispose(): void {
    this.collection.dispose();
  }
}

/** The specs whose file is one of their component's own regular files (componentFile; each file checked once). */
async function ownFiles(specs: FindingSpec[]): Promise<FindingSpec[]> {
  const own = new Map<string, Promise<string | undefined>>();
  const check = (s: FindingSpec) => {
    const key = `${s.root}\0${s.finding.file}`;
    if (!own.has(key)) own.set(key, componentFile(s.root, s.finding.file));
    return own.get(key)!;
  };
  const ok = await Promise.all(specs.map(async (s) => (await check(s)) !== undefined));
  return specs.filter((_, i) => ok[i]);
}

/** Whether the quick fix of `spec` may edit the document at `docPath`: the finding's file passes componentFile, and is it. */
async function isOwnDocument(spec: FindingSpec, docPath: string): Promise<boolean> {
  const [own, doc] = await Promise.all([componentFile(spec.root, spec.finding.file), fs.realpath(docPath).catch(() => undefined)]);
  return own !== undefined && own === doc;
}

/** WP Bench: Measure This Change — the component measured against HEAD (`measure --baseline-ref HEAD`), in a child process. */
export class MeasureChangeCommand {
  readonly id = MEASURE_CHANGE_COMMAND;
  running = false;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly bench: Bench,
    private readonly surface: FindingsSurface,
    private readonly busyWith: () => string | undefined,
  ) {}

  async execute(arg?: unknown): Promise<{ status: 'measured'; saved: string | null } | { status: 'nothing' | 'busy' | 'untrusted' | 'cancelled' | 'failed'; message?: string }> {
    const a = arg as { kind?: unknown; slug?: unknown } | undefined;
    const local = a && (a.kind === 'plugin' || a.kind === 'theme') && typeof a.slug === 'string' ? this.bench.localResult(a.kind, a.slug) : undefined;
    if (!local) {
      void vscode.window.showInformationMessage(vscode.l10n.t('WP Bench: measure the component locally first (WP Bench: Measure Locally); then its findings can be measured against HEAD.'));
      return { status: 'nothing' };
    }
    if (!vscode.workspace.isTrusted) return { status: 'untrusted' };
    const other = this.busyWith();
    if (this.running || other) {
      void vscode.window.showInformationMessage(vscode.l10n.t('WP Bench: {0} is being measured; wait for it or cancel it first.', other ?? local.slug));
      return { status: 'busy' };
    }
    this.running = true;
    const name = local.record.name || local.slug;
    const ac = new AbortController();
    try {
      const res = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('WP Bench: measuring {0} against HEAD', name), cancellable: true },
        async (progress, token) => {
          token.onCancellationRequested(() => ac.abort());
          return runCompareChild({
            node: process.execPath,
            cli: path.join(this.context.extensionPath, 'dist', 'cli.js'),
            path: local.source,
            ref: 'HEAD',
            cwd: this.bench.folderOf(local.source) ?? path.dirname(local.source),
            env: measureChildEnv(process.env, { WPBENCH_CACHE_DIR: this.context.globalStorageUri.fsPath }),
            signal: ac.signal,
            onProgress: (line) => progress.report({ message: uiPlainText(line, 120) }),
          });
        },
      );
      const text = measuredChangeText(name, res.saved);
      this.surface.measured.set(`${local.kind}:${local.slug}`, res.saved ?? vscode.l10n.t('no saving outside the run\'s noise'));
      void vscode.window.showInformationMessage(uiPlainText(text, 400));
      return { status: 'measured', saved: res.saved };
    } catch (err) {
      if (err instanceof MeasureChildError && err.cancelled) return { status: 'cancelled' };
      const message = (err as Error).message;
      void vscode.window.showErrorMessage(uiPlainText(vscode.l10n.t('WP Bench: measuring {0} against HEAD failed: {1}', name, message)));
      return { status: 'failed', message };
    } finally {
      this.running = false;
    }
  }
}

export function registerFindings(manager: CommandManager, context: vscode.ExtensionContext, bench: Bench, busyWith: () => string | undefined): FindingsSurface {
  const surface = new FindingsSurface(bench);
  context.subscriptions.push(
    surface,
    vscode.languages.registerHoverProvider(FINDINGS_SELECTOR, surface),
    vscode.languages.registerCodeActionsProvider(FINDINGS_SELECTOR, surface, { providedCodeActionKinds: FindingsSurface.providedCodeActionKinds }),
  );
  manager.register(new MeasureChangeCommand(context, bench, surface, busyWith));
  return surface;
}
