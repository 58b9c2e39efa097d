// The site report and the comparison: one webview each, a page around the core's escaped body, with Chart.js
// bundled (dist/webview/chart.js) under a strict CSP with a script nonce. A bar or a row's "Open" opens the line
// that declares the component.
import * as vscode from 'vscode';
import type { GlanceViewData } from '../core/report/glanceView';
import { webviewPage } from './webviewPage';

export type GlanceKind = 'wpBench.siteReport' | 'wpBench.compare';

export class GlancePanel {
  private static readonly panels = new Map<GlanceKind, GlancePanel>();
  private readonly disposables: vscode.Disposable[] = [];
  html = '';

  static show(extensionUri: vscode.Uri, kind: GlanceKind, title: string, view: { body: string; data: GlanceViewData }, onOpen: (kind: string, slug: string) => void): GlancePanel {
    let current = GlancePanel.panels.get(kind);
    if (!current) {
      const panel = vscode.window.createWebviewPanel(kind, title, vscode.ViewColumn.Active, {
        enableScripts: true,
        retainContextWhenHidden: false,
        localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist', 'webview')],
      });
      current = new GlancePanel(kind, panel, extensionUri);
      GlancePanel.panels.set(kind, current);
    }
    current.onOpen = onOpen;
    current.render(title, view);
    current.panel.reveal();
    return current;
  }

  static get(kind: GlanceKind): GlancePanel | undefined {
    return GlancePanel.panels.get(kind);
  }

  private onOpen: (kind: string, slug: string) => void = () => undefined;

  private constructor(private readonly kind: GlanceKind, readonly panel: vscode.WebviewPanel, private readonly extensionUri: vscode.Uri) {
    panel.onDidDispose(() => this.dispose(), null, this.disposables);
    panel.webview.onDidReceiveMessage(
      (message: unknown) => {
        const m = message as { type?: unknown; kind?: unknown; slug?: unknown } | null;
        if (m && m.type === 'open' && (m.kind === 'plugin' || m.kind === 'theme') && typeof m.slug === 'string') this.onOpen(m.kind, m.slug);
      },
      null,
      this.disposables,
    );
  }

  render(title: string, view: { body: string; data: GlanceViewData }): void {
    const webview = this.panel.webview;
    this.panel.title = title;
    this.html = webviewPage(webview, this.extensionUri, { title, css: 'report.css', script: ['dist', 'webview', 'chart.js'], body: view.body, data: view.data });
    webview.html = this.html;
  }

  dispose(): void {
    if (GlancePanel.panels.get(this.kind) === this) GlancePanel.panels.delete(this.kind);
    this.panel.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
