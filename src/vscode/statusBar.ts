// Quota in the status bar: what quotaStatus() (core) decides, as a status bar item.
import * as vscode from 'vscode';
import { DisposableStore } from '../core/session/events';
import { quotaStatus } from '../core/session/surfaces';
import type { Bench } from './bench';

/** Shown only in workspaces with WordPress components, or while the WP Bench view is open: dormant elsewhere. */
export class QuotaStatusBar extends DisposableStore {
  readonly item = this._register(vscode.window.createStatusBarItem('wpBench.quota', vscode.StatusBarAlignment.Right, 100));
  /** Whether the item is on screen (vscode.StatusBarItem does not say). */
  shown = false;

  constructor(private readonly bench: Bench, private readonly viewVisible: () => boolean) {
    super();
    this.item.name = vscode.l10n.t('WP Bench Quota');
    this.update();
  }

  update(): void {
    const s = quotaStatus(this.bench);
    this.item.text = s.text;
    this.item.tooltip = s.tooltip;
    this.item.command = s.command;
    this.item.accessibilityInformation = { label: s.label, role: 'button' };
    this.shown = this.bench.components.length > 0 || this.viewVisible();
    if (this.shown) this.item.show();
    else this.item.hide();
    this.item.backgroundColor =
      s.level === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground') : s.level === 'warning' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }
}
