// Quota in the status bar: used / limit from the rate-limit headers of every response, /me at start and on click.
import * as vscode from 'vscode';
import { formatQuota } from '../core/format';
import type { Bench } from './bench';

export function quotaText(bench: Bench): { text: string; tooltip: string; level: 'ok' | 'warning' | 'error'; command: string } {
  if (!bench.hasApiUrl) return { text: '$(gear) WP Bench: Set API address', tooltip: 'WP Bench needs the API address from your subscription e-mail.', level: 'warning', command: 'wpBench.setApiUrl' };
  if (bench.apiUrlProblem) return { text: '$(error) WP Bench: API address invalid', tooltip: bench.apiUrlProblem.message, level: 'error', command: 'wpBench.setApiUrl' };
  if (!bench.hasKey) return { text: '$(key) WP Bench: Set API key', tooltip: 'WP Bench needs your API key (stored in the OS keychain).', level: 'warning', command: 'wpBench.setApiKey' };
  const q = bench.quota;
  const blocked = bench.blockedUntil;
  const reset = q?.resetAt ?? blocked;
  const resetText = reset ? `resets ${new Date(reset).toISOString().slice(0, 10)}` : 'reset date unknown';
  const rawTier = q?.tier ?? bench.lastAccount?.tier ?? null;
  const tier = rawTier ? rawTier.charAt(0).toUpperCase() + rawTier.slice(1) : null;
  const lines = [`WP Bench quota${tier ? ` · ${tier}` : ''}`, q ? `${formatQuota(q.used, q.limit)} requests used this month` : 'usage not known yet', resetText];
  if (q?.observedAt) lines.push(`as of ${new Date(q.observedAt).toLocaleTimeString()}`);
  lines.push('Click to refresh (free: /me is not counted).');
  if (blocked !== null) {
    return { text: `$(error) ${q ? formatQuota(q.used, q.limit) : 'WP Bench'} — quota used up`, tooltip: ['Monthly quota used up: no lookups until the reset. Cached data stays visible.', ...lines].join('\n'), level: 'error', command: 'wpBench.showAccount' };
  }
  if (!q) return { text: '$(dashboard) WP Bench', tooltip: lines.join('\n'), level: 'ok', command: 'wpBench.showAccount' };
  const ratio = q.limit && q.used !== null ? q.used / q.limit : 0;
  const level = q.remaining === 0 ? 'error' : ratio >= 0.9 ? 'warning' : 'ok';
  return { text: `$(dashboard) ${formatQuota(q.used, q.limit)}`, tooltip: lines.join('\n'), level, command: 'wpBench.showAccount' };
}

export class QuotaStatusBar implements vscode.Disposable {
  readonly item = vscode.window.createStatusBarItem('wpBench.quota', vscode.StatusBarAlignment.Right, 100);

  constructor(private readonly bench: Bench) {
    this.item.name = 'WP Bench Quota';
    this.update();
    this.item.show();
  }

  update(): void {
    const s = quotaText(this.bench);
    this.item.text = s.text;
    this.item.tooltip = s.tooltip;
    this.item.command = s.command;
    this.item.backgroundColor =
      s.level === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground') : s.level === 'warning' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  dispose(): void {
    this.item.dispose();
  }
}
