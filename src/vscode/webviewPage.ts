// The page around every WP Bench webview: a strict CSP (no inline script; scripts only with this render's nonce),
// the base stylesheet plus the panel's own, the body (escaped by the core), optional inline JSON data, one script.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { jsonForScript } from '../core/report/glanceView';
import { escapeHtml } from '../core/present/outcome';

export function webviewPage(webview: vscode.Webview, extensionUri: vscode.Uri, page: { title: string; css: string | string[]; script: string[]; body: string; data?: unknown }): string {
  const nonce = randomBytes(16).toString('base64');
  const uri = (...parts: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...parts));
  return `<!DOCTYPE html>
<html lang="${escapeHtml(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource}; img-src ${webview.cspSource}; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${uri('media', 'base.css')}">
${(Array.isArray(page.css) ? page.css : [page.css]).map((css) => `<link rel="stylesheet" href="${uri('media', css)}">`).join('\n')}
<title>${escapeHtml(page.title)}</title>
</head>
<body>
<main>
${page.body}
</main>
${page.data === undefined ? '' : `<script type="application/json" id="wpb-data">${jsonForScript(page.data)}</script>\n`}<script nonce="${nonce}" src="${uri(...page.script)}"></script>
</body>
</html>`;
}
