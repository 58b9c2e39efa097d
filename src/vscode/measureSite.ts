// WP Bench: Measure Site Locally — the site's whole stack (`measure ROOT --site` in a child process), from the site
// total in the tree, a folder in the explorer or the palette. Runs the site's PHP, so the same rules as Measure
// Locally: a trusted workspace, this command only, one sentence the first time, a progress notification whose
// Cancel stops it and leaves nothing. The record goes to the session's site results (tree, hover, reports).
import { INSTALLED_SOURCES } from '../core/scan/merge';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { uiPlainText } from '../core/present/format';
import { siteTotalText } from '../core/present/siteLocal';
import { MeasureChildError, measureChildEnv, runSiteChild } from '../core/measure/child';
import type { SiteRecord } from '../core/measure/siteRun/siteRecord';
import { contains } from '../core/session/localResults';
import { siteRoots } from '../core/session/siteResults';
import type { Bench } from './bench';
import type { CommandManager } from './commandManager';
import { CONSENT_KEY, type MeasureUi, type RunningMeasure } from './measure';

export interface MeasureSiteOutcome {
  status: 'measured' | 'cancelled' | 'untrusted' | 'declined' | 'busy' | 'failed' | 'nothing';
  root?: string;
  record?: SiteRecord;
  message?: string;
}

export class MeasureSiteCommand {
  readonly id = 'wpBench.measureSiteLocally';
  running: RunningMeasure | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly bench: Bench,
    private readonly ui: MeasureUi,
    /** what else is being measured now (Measure or Profile Locally), if anything */
    private readonly busyWith: () => string | undefined,
  ) {}

  async execute(arg?: unknown): Promise<MeasureSiteOutcome> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(vscode.l10n.t('WP Bench: Measure Site Locally runs the site\'s PHP, so it is only available in a trusted workspace.'));
      return { status: 'untrusted' };
    }
    const other = this.running?.slug ?? this.busyWith();
    if (other) {
      void vscode.window.showInformationMessage(vscode.l10n.t('WP Bench: {0} is being measured; wait for it or cancel it first.', other));
      return { status: 'busy' };
    }
    const root = await this.target(arg);
    if (!root) return { status: 'nothing' };
    if (this.context.globalState.get<boolean>(CONSENT_KEY) !== true) {
      const go = vscode.l10n.t('Continue');
      const answer = await this.ui.confirm(
        vscode.l10n.t('Measure Site Locally runs the PHP of every plugin and theme installed in {0} in a throwaway WordPress site on this machine (127.0.0.1 only), removed afterwards.', path.basename(root)),
        go,
      );
      if (answer !== go) return { status: 'declined' };
      await this.context.globalState.update(CONSENT_KEY, true);
    }
    return this.run(root);
  }

  /** A folder (explorer, a test), else the one site root of the open folders, else a pick. */
  private async target(arg: unknown): Promise<string | undefined> {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    if (arg instanceof vscode.Uri) {
      if (arg.scheme === 'file' && folders.some((f) => contains(f, arg.fsPath))) return arg.fsPath;
      void vscode.window.showWarningMessage(vscode.l10n.t('WP Bench: {0} is not in an open folder of this workspace.', arg.fsPath));
      return undefined;
    }
    const files = this.bench.components.flatMap((e) => e.locations.filter((l) => INSTALLED_SOURCES.has(l.source)).map((l) => l.file));
    if (!files.length) {
      void vscode.window.showInformationMessage(vscode.l10n.t('WP Bench: no plugin or theme installed in this workspace to measure as a site.'));
      return undefined;
    }
    const roots = siteRoots(folders, files).filter((r) => files.some((f) => contains(r, f)));
    // The deepest folders are the sites (the open folder above a site holds it too): offered first.
    const sites = roots.filter((r) => !roots.some((o) => o !== r && contains(r, o)));
    if (sites.length === 1) return sites[0];
    const chosen = await vscode.window.showQuickPick(
      sites.map((r) => ({ label: path.basename(r), description: vscode.workspace.asRelativePath(r), root: r })),
      { title: vscode.l10n.t('WP Bench: Measure Site Locally'), placeHolder: vscode.l10n.t('Pick the site to measure as it runs') },
    );
    return chosen?.root;
  }

  private async run(root: string): Promise<MeasureSiteOutcome> {
    const ac = new AbortController();
    const running: RunningMeasure = { slug: path.basename(root), steps: [], cancel: () => ac.abort() };
    this.running = running;
    try {
      const record = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('WP Bench: measuring the site {0} as it runs', path.basename(root)), cancellable: true },
        async (progress, token) => {
          token.onCancellationRequested(() => ac.abort());
          progress.report({ message: vscode.l10n.t('starting') });
          return runSiteChild({
            node: process.execPath,
            cli: path.join(this.context.extensionPath, 'dist', 'cli.js'),
            path: root,
            cwd: root,
            env: measureChildEnv(process.env, { WPBENCH_CACHE_DIR: this.context.globalStorageUri.fsPath }),
            signal: ac.signal,
            onSpawn: (pid) => (running.childPid = pid),
            onProgress: (line, raw) => {
              const pid = /server pid (\d+)/.exec(raw)?.[1];
              if (pid) running.serverPid = Number(pid);
              const site = /^wp-bench: building a throwaway site .* in (\S+)$/.exec(raw.trim())?.[1];
              if (site) running.siteRoot = site;
              running.steps.push(line);
              progress.report({ message: uiPlainText(line, 120) });
            },
          });
        },
      );
      const result = await this.bench.sites.set(root, record);
      const report = vscode.l10n.t('Show Site Report');
      void vscode.window
        .showInformationMessage(uiPlainText(vscode.l10n.t('WP Bench: {0} measured as a site: {1}.', path.basename(root), siteTotalText(result))), report)
        .then((choice) => (choice === report ? vscode.commands.executeCommand('wpBench.showSiteReport') : undefined));
      return { status: 'measured', root, record };
    } catch (err) {
      if (err instanceof MeasureChildError && err.cancelled) return { status: 'cancelled', root };
      const message = (err as Error).message;
      void vscode.window.showErrorMessage(uiPlainText(vscode.l10n.t('WP Bench: measuring the site {0} failed: {1}', path.basename(root), message), 600));
      return { status: 'failed', root, message };
    } finally {
      this.running = undefined;
    }
  }
}

export function registerMeasureSite(manager: CommandManager, context: vscode.ExtensionContext, bench: Bench, ui: MeasureUi, busyWith: () => string | undefined): MeasureSiteCommand {
  return manager.register(new MeasureSiteCommand(context, bench, ui, busyWith));
}
