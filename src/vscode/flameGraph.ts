// WP Bench: Show Flame Graph — the call tree of a local profile (Profile Locally) in a webview: the page around the
// core's body (src/core/present/flameView.ts) and the script that draws it (dist/webview/flame.js). A click on one
// of the component's frames opens its line; the path comes from the stored result, never from the page alone.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { flameView } from '../core/present/flameView';
import { profileBase, topFunctions } from '../core/present/profileLens';
import type { LocalResult } from '../core/measure/record/method';
import { CONTEXT_NAMES, type ComponentKind, type ContextName } from '../core/model';
import { contains } from '../core/session/localResults';
import type { Bench, ComponentEntry } from './bench';
import type { CommandManager } from './commandManager';
import { webviewPage } from './webviewPage';

export class FlamePanel {
  private static current: FlamePanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  html = '';
  /** The result drawn (its files are what a click may open). */
  private local: LocalResult | undefined;

  static show(extensionUri: vscode.Uri, local: LocalResult, name: string, opts: { context?: ContextName; focus?: { file: string; line: number } }): FlamePanel {
    if (!FlamePanel.current) {
      const panel = vscode.window.createWebviewPanel('wpBench.flameGraph', name, vscode.ViewColumn.Active, {
        enableScripts: true,
        retainContextWhenHidden: false,
        localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist', 'webview')],
      });
      FlamePanel.current = new FlamePanel(panel, extensionUri);
    }
    const p = FlamePanel.current;
    p.render(local, name, opts);
    p.panel.reveal();
    return p;
  }

  static get active(): FlamePanel | undefined {
    return FlamePanel.current;
  }

  private constructor(readonly panel: vscode.WebviewPanel, private readonly extensionUri: vscode.Uri) {
    panel.onDidDispose(() => this.dispose(), null, this.disposables);
    panel.webview.onDidReceiveMessage((m: unknown) => void this.receive(m), null, this.disposables);
  }

  /** A message from the page (the integration test sends the page's own). Only `open` of a file inside the component. */
  async receive(message: unknown): Promise<boolean> {
    const m = message as { type?: unknown; file?: unknown; line?: unknown } | null;
    if (!this.local || !m || m.type !== 'open' || typeof m.file !== 'string' || m.file.length > 1000 || typeof m.line !== 'number' || !Number.isInteger(m.line)) return false;
    const base = profileBase(this.local);
    const abs = path.resolve(base, ...m.file.split('/'));
    if (!contains(base, abs) || !existsSync(abs)) {
      void vscode.window.showWarningMessage(vscode.l10n.t('WP Bench: {0} is not in {1} any more.', m.file, base));
      return false;
    }
    const line = Math.max(0, m.line - 1);
    await vscode.window.showTextDocument(vscode.Uri.file(abs), { selection: new vscode.Range(line, 0, line, 0), viewColumn: vscode.ViewColumn.One });
    return true;
  }

  render(local: LocalResult, name: string, opts: { context?: ContextName; focus?: { file: string; line: number } }): void {
    this.local = local;
    this.last = { name, opts };
    this.lastStale = local.stale;
    const title = vscode.l10n.t('Flame Graph: {0}', name);
    this.panel.title = title;
    const view = flameView(local, name, opts);
    this.html = webviewPage(this.panel.webview, this.extensionUri, { title, css: ['report.css', 'flame.css'], script: ['dist', 'webview', 'flame.js'], body: view.body, data: view.data });
    this.panel.webview.html = this.html;
  }

  /** Drawn again when its component was profiled again (or became stale);  */
  refreshFrom(bench: Bench): void {
    const now = this.local && bench.localResult(this.local.kind, this.local.slug);
    if (!now?.record.profile || !this.last || (now === this.local && now.stale === this.lastStale)) return;
    this.render(now, this.last.name, this.last.opts);
  }

  private last: { name: string; opts: { context?: ContextName; focus?: { file: string; line: number } } } | undefined;
  private lastStale = false;

  dispose(): void {
    if (FlamePanel.current === this) FlamePanel.current = undefined;
    this.panel.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

/**
 * Arguments: a component's tree node, one of its function nodes, `{ kind, slug, context?, file?, line? }` (a
 * CodeLens), or nothing (a pick among the profiled components).
 */
export class FlameGraphCommand {
  readonly id = 'wpBench.showFlameGraph';

  constructor(private readonly context: vscode.ExtensionContext, private readonly bench: Bench) {}

  async execute(arg?: unknown): Promise<FlamePanel | undefined> {
    const a = arg as { type?: unknown; entry?: ComponentEntry; index?: unknown; kind?: unknown; slug?: unknown; context?: unknown; file?: unknown; line?: unknown } | undefined;
    let kind: ComponentKind | undefined;
    let slug: string | undefined;
    if (a?.entry) ({ kind, slug } = a.entry);
    else if (a && (a.kind === 'plugin' || a.kind === 'theme') && typeof a.slug === 'string' && a.slug.length <= 200) ({ kind, slug } = { kind: a.kind, slug: a.slug });
    let local = kind && slug ? this.bench.localResult(kind, slug) : undefined;
    if (kind && slug && !local?.record.profile) {
      void vscode.window.showInformationMessage(vscode.l10n.t('WP Bench: {0} has not been profiled yet. Run WP Bench: Profile Locally on it first.', slug));
      return undefined;
    }
    if (!local) local = await this.pick();
    if (!local) return undefined;
    let focus: { file: string; line: number } | undefined;
    if (a?.type === 'function' && typeof a.index === 'number') {
      const top = topFunctions(local)[a.index];
      if (top) focus = { file: top.fn.file, line: top.fn.line };
    } else if (typeof a?.file === 'string' && typeof a.line === 'number') focus = { file: a.file, line: a.line };
    const ctx = CONTEXT_NAMES.find((c) => c === a?.context);
    const name = this.bench.components.find((e) => e.kind === local.kind && e.slug === local.slug)?.name ?? local.record.name ?? local.slug;
    return FlamePanel.show(this.context.extensionUri, local, name, { context: ctx, focus });
  }

  private async pick(): Promise<LocalResult | undefined> {
    const profiled = this.bench.local.all().filter((l) => l.record.profile);
    if (!profiled.length) {
      void vscode.window.showInformationMessage(vscode.l10n.t('WP Bench: nothing has been profiled yet. Run WP Bench: Profile Locally on a plugin or theme first.'));
      return undefined;
    }
    if (profiled.length === 1) return profiled[0];
    const chosen = await vscode.window.showQuickPick(
      profiled.map((l) => ({ label: l.record.name || l.slug, description: `${l.kind} ${l.slug}${l.stale ? ` ${vscode.l10n.t('(stale)')}` : ''}`, l })),
      { title: vscode.l10n.t('WP Bench: Show Flame Graph'), placeHolder: vscode.l10n.t('Pick a profiled plugin or theme') },
    );
    return chosen?.l;
  }
}

export function registerFlameGraph(manager: CommandManager, context: vscode.ExtensionContext, bench: Bench): FlameGraphCommand {
  return manager.register(new FlameGraphCommand(context, bench));
}
