// WP Bench: Show What the Visitor Pays — the browser report of a local measurement (`measure --browser`: the
// figures, the waterfall of the homepage's requests with the component's own in colour, the filmstrip of both sides)
// in a webview: the core's body (src/core/report/browserHtml.ts, the same as `--format html`) in a page with no
// script at all, its styles from media/ (the theme's colours: media/browser.css), the frames as data: images.
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { BROWSER_RULES, browserReportBody } from '../core/report/browserHtml';
import { escapeHtml } from '../core/present/outcome';
import type { LocalResult } from '../core/measure/record/method';
import type { ComponentKind } from '../core/model';
import type { Bench, ComponentEntry } from './bench';
import type { CommandManager } from './commandManager';

export class BrowserPanel {
  private static current: BrowserPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  html = '';

  static show(extensionUri: vscode.Uri, local: LocalResult, name: string): BrowserPanel {
    if (!BrowserPanel.current) {
      const panel = vscode.window.createWebviewPanel('wpBench.browserReport', name, vscode.ViewColumn.Active, {
        enableScripts: false,
        retainContextWhenHidden: false,
        localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media')],
      });
      BrowserPanel.current = new BrowserPanel(panel, extensionUri);
    }
    const p = BrowserPanel.current;
    p.render(local, name);
    p.panel.reveal();
    return p;
  }

  static get active(): BrowserPanel | undefined {
    return BrowserPanel.current;
  }

  private constructor(readonly panel: vscode.WebviewPanel, private readonly extensionUri: vscode.Uri) {
    panel.onDidDispose(() => this.dispose(), null, this.disposables);
  }

  render(local: LocalResult, name: string): void {
    const webview = this.panel.webview;
    const css = (f: string) => `<link rel="stylesheet" href="${webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', f))}">`;
    const title = vscode.l10n.t('What the visitor pays: {0}', name);
    // The waterfall's rules are the standalone page's (report/browserHtml.ts), given with a nonce; colours from media/.
    const nonce = randomBytes(16).toString('base64');
    this.panel.title = title;
    // No script: the policy allows the extension's style sheets and data: images (the filmstrip's frames) only.
    this.html = `<!DOCTYPE html>
<html lang="${escapeHtml(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource} 'nonce-${nonce}'; img-src data:;">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${css('base.css')}
${css('report.css')}
${css('browser.css')}
<style nonce="${nonce}">${BROWSER_RULES}</style>
<title>${escapeHtml(title)}</title>
</head>
<body class="wpb-browser">
<main>
${browserReportBody(local.record).join('\n')}
${local.stale ? `<p class="note">${escapeHtml(vscode.l10n.t('Stale: its files changed since this measurement.'))}</p>` : ''}
</main>
</body>
</html>`;
    webview.html = this.html;
  }

  dispose(): void {
    if (BrowserPanel.current === this) BrowserPanel.current = undefined;
    this.panel.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

/** Arguments: a component's tree node (or its Visitor row), `{ kind, slug }` (a hover's link), or nothing (a pick). */
export class BrowserReportCommand {
  readonly id = 'wpBench.showBrowserReport';

  constructor(private readonly context: vscode.ExtensionContext, private readonly bench: Bench) {}

  async execute(arg?: unknown): Promise<BrowserPanel | undefined> {
    const a = arg as { entry?: ComponentEntry; kind?: unknown; slug?: unknown } | undefined;
    let ref: { kind: ComponentKind; slug: string } | undefined;
    if (a?.entry) ref = { kind: a.entry.kind, slug: a.entry.slug };
    else if (a && (a.kind === 'plugin' || a.kind === 'theme') && typeof a.slug === 'string' && a.slug.length <= 200) ref = { kind: a.kind, slug: a.slug };
    const local = ref ? this.bench.localResult(ref.kind, ref.slug) : await this.pick();
    if (!local) {
      if (ref) void vscode.window.showInformationMessage(vscode.l10n.t('WP Bench: {0} has not been measured in a browser yet. Run WP Bench: Measure Locally on it (setting wpBench.measure.browser).', ref.slug));
      return undefined;
    }
    const name = this.bench.components.find((e) => e.kind === local.kind && e.slug === local.slug)?.name ?? local.record.name ?? local.slug;
    return BrowserPanel.show(this.context.extensionUri, local, name);
  }

  private async pick(): Promise<LocalResult | undefined> {
    const measured = this.bench.local.all().filter((l) => l.record.local.browser);
    if (!measured.length) {
      void vscode.window.showInformationMessage(vscode.l10n.t('WP Bench: nothing has been measured in a browser yet. Run WP Bench: Measure Locally (setting wpBench.measure.browser).'));
      return undefined;
    }
    if (measured.length === 1) return measured[0];
    const chosen = await vscode.window.showQuickPick(
      measured.map((l) => ({ label: l.record.name || l.slug, description: `${l.kind} ${l.slug}${l.stale ? ` ${vscode.l10n.t('(stale)')}` : ''}`, l })),
      { title: vscode.l10n.t('WP Bench: Show What the Visitor Pays'), placeHolder: vscode.l10n.t('Pick a plugin or theme measured in a browser') },
    );
    return chosen?.l;
  }
}

export function registerBrowserReport(manager: CommandManager, context: vscode.ExtensionContext, bench: Bench): BrowserReportCommand {
  return manager.register(new BrowserReportCommand(context, bench));
}
