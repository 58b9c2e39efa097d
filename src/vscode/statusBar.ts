// Quota in the status bar: what quotaStatus() (core) decides, as a status bar item.
import * as vscode from 'vscode';
import { DisposableStore } from '../core/session/events';
import { quotaStatus } from '../core/session/surfaces';
import type { Bench } from './bench';

export class QuotaStatusBar extends DisposableStore {
  readonly item = this._register(vscode.window.createStatusBarItem('wpBench.quota', vscode.StatusBarAlignment.Right, 100));

  constructor(private readonly bench: Bench) {
    super();
    this.item.name = 'WP Bench Quota';
    this.update();
    this.item.show();
  }

  update(): void {
    const s = quotaStatus(this.bench);
    this.item.text = s.text;
    this.item.tooltip = s.tooltip;
    this.item.command = s.command;
    this.item.backgroundColor =
      s.level === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground') : s.level === 'warning' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }
}
