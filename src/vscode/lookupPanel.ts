// The lookup webview: the hover's facts, rendered from escaped HTML, under a strict CSP with a script nonce.
import * as vscode from 'vscode';
import type { LookupOutcome } from '../core/lookup/lookupService';
import type { ComponentKind } from '../core/model';
import { escapeHtml, lookupHtml } from '../core/present/outcome';
import { webviewPage } from './webviewPage';

export class LookupPanel {
  private static current: LookupPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private profileUrl: string | null = null;

  static show(extensionUri: vscode.Uri, kind: ComponentKind, slug: string, outcome: LookupOutcome): LookupPanel {
    if (!LookupPanel.current) {
      const panel = vscode.window.createWebviewPanel('wpBench.lookup', 'WP Bench', vscode.ViewColumn.Active, {
        enableScripts: true,
        localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media')],
      });
      LookupPanel.current = new LookupPanel(panel, extensionUri);
    }
    LookupPanel.current.render(kind, slug, outcome);
    LookupPanel.current.panel.reveal();
    return LookupPanel.current;
  }

  static get active(): LookupPanel | undefined {
    return LookupPanel.current;
  }

  private constructor(readonly panel: vscode.WebviewPanel, private readonly extensionUri: vscode.Uri) {
    panel.onDidDispose(() => this.dispose(), null, this.disposables);
    panel.webview.onDidReceiveMessage(
      (message: unknown) => {
        if (typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'openProfile' && this.profileUrl) {
          void vscode.env.openExternal(vscode.Uri.parse(this.profileUrl, true));
        }
      },
      null,
      this.disposables,
    );
  }

  html = '';

  render(kind: ComponentKind, slug: string, outcome: LookupOutcome): void {
    const result = outcome.result;
    this.profileUrl = result && result.state !== 'not-in-dataset' ? result.record.profileUrl : null;
    const webview = this.panel.webview;
    this.panel.title = `WP Bench: ${slug}`;
    const body = `${lookupHtml(kind, slug, outcome)}\n<p class="note">${escapeHtml(vscode.l10n.t('Measured against a clean WordPress baseline. Data: WP Bench API.'))}</p>`;
    this.html = webviewPage(webview, this.extensionUri, { title: this.panel.title, css: 'lookup.css', script: ['media', 'lookup.js'], body });
    webview.html = this.html;
  }

  dispose(): void {
    LookupPanel.current = undefined;
    this.panel.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
