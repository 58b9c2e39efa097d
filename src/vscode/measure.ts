// WP Bench: Measure Locally — from a tree item, a hover's link, the explorer or the palette. Runs the component's
// PHP, so: only in a trusted workspace, only on this command, after one sentence the first time, in a child process
// (dist/cli.js on the editor's own Node) with a progress notification whose Cancel stops it and leaves nothing.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { uiPlainText } from '../core/present/format';
import { apiBenchmarked, localGradeText, measurableSource } from '../core/present/local';
import { probePhp, phpVersionOk } from '../core/measure/machine/environment';
import { MeasureChildError, instructionsSkipped, measureChildEnv, measureLocallyArgs, runMeasureChild } from '../core/measure/child';
import { detectComponent } from '../core/measure/component/component';
import type { LocalRecord } from '../core/measure/record/method';
import type { ComponentKind } from '../core/model';
import { summaryText } from '../core/present/outcome';
import { contains, hashOfPath } from '../core/session/localResults';
import type { Bench, ComponentEntry } from './bench';
import type { CommandManager } from './commandManager';

export const CONSENT_KEY = 'wpBench.measureConsent';

/**
 * The README as installed: vsce packs README.md as `readme.md` (a development host has `README.md`), and on a
 * case-sensitive file system only the real name opens.
 */
export async function installedReadme(extensionUri: vscode.Uri): Promise<vscode.Uri> {
  for (const name of ['README.md', 'readme.md']) {
    const uri = vscode.Uri.joinPath(extensionUri, name);
    try {
      await vscode.workspace.fs.stat(uri);
      return uri;
    } catch {
      // not under this name
    }
  }
  return vscode.Uri.joinPath(extensionUri, 'README.md');
}

export interface MeasureOutcome {
  status: 'measured' | 'cancelled' | 'untrusted' | 'declined' | 'busy' | 'failed' | 'nothing';
  record?: LocalRecord;
  message?: string;
}

export interface MeasureUi {
  confirm(message: string, button: string): Thenable<string | undefined>;
}

/** The run in progress (the integration tests cancel it as the notification's Cancel does, and read its pids). */
export interface RunningMeasure {
  slug: string;
  childPid?: number;
  serverPid?: number;
  /** The throwaway site's folder, once the child has said it. */
  siteRoot?: string;
  steps: string[];
  cancel(): void;
}

interface Target {
  kind: ComponentKind;
  slug: string;
  name: string;
  source: string;
}

export class MeasureCommand {
  /** wpBench.measureLocally, or wpBench.profileLocally (the same run with --profile: where the time goes). */
  readonly id: string;
  running: RunningMeasure | undefined;
  /** Another run in progress (Measure Site Locally), if any: one measurement at a time on this machine. */
  busyWith: () => string | undefined = () => undefined;
  private runtimeMessageShown = false;
  private instructionsMessageShown = false;

  /** The user has agreed once to run a component's PHP (asked the first time). */
  get consented(): boolean {
    return this.context.globalState.get<boolean>(CONSENT_KEY) === true;
  }

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly bench: Bench,
    private readonly ui: MeasureUi,
    private readonly profile = false,
  ) {
    this.id = profile ? 'wpBench.profileLocally' : 'wpBench.measureLocally';
  }

  async execute(arg?: unknown): Promise<MeasureOutcome> {
    // Measuring runs the component's PHP: never in a workspace the user has not trusted (the menus hide it too).
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(vscode.l10n.t('WP Bench: Measure Locally runs the component\'s PHP, so it is only available in a trusted workspace.'));
      return { status: 'untrusted' };
    }
    const other = this.running?.slug ?? this.busyWith();
    if (other) {
      void vscode.window.showInformationMessage(vscode.l10n.t('WP Bench: {0} is being measured; wait for it or cancel it first.', other));
      return { status: 'busy' };
    }
    const target = await this.target(arg);
    if (!target) return { status: 'nothing' };
    const php = await probePhp('php', measureChildEnv(process.env)).catch(() => undefined);
    const runtime = php && phpVersionOk(php.version) && (php.sqlite || php.mysqli)
      ? vscode.l10n.t('native PHP {0}', php.version.replace(/^(\d+\.\d+).*/, '$1'))
      : vscode.l10n.t('WordPress Playground (PHP in WebAssembly)');
    if (!this.consented) {
      const go = vscode.l10n.t('Continue');
      const answer = await this.ui.confirm(
        vscode.l10n.t('Measure Locally runs the PHP of {0} in a throwaway WordPress site on this machine (127.0.0.1 only, {1}), removed afterwards.', target.name, runtime),
        go,
      );
      if (answer !== go) return { status: 'declined' };
      await this.context.globalState.update(CONSENT_KEY, true);
    }
    return this.run(target);
  }

  private async run(t: Target): Promise<MeasureOutcome> {
    const ac = new AbortController();
    const running: RunningMeasure = { slug: t.slug, steps: [], cancel: () => ac.abort() };
    this.running = running;
    let hash: string | undefined;
    const wantInstructions = vscode.workspace.getConfiguration('wpBench').get<boolean>('measure.instructions', true) !== false;
    // What the visitor pays (headless Chromium, about 30 s more; without Chromium the record says why).
    const wantBrowser = !this.profile && vscode.workspace.getConfiguration('wpBench').get<boolean>('measure.browser', true) !== false;
    try {
      const record = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: this.profile ? vscode.l10n.t('WP Bench: profiling {0} locally', t.name) : vscode.l10n.t('WP Bench: measuring {0} locally', t.name), cancellable: true },
        async (progress, token) => {
          token.onCancellationRequested(() => ac.abort());
          progress.report({ message: vscode.l10n.t('starting') });
          // Hashed here, under the notification: Cancel stops it (the walk never opens a FIFO or follows a link loop).
          hash = await hashOfPath(t.source, ac.signal).catch((err: unknown) => {
            if (ac.signal.aborted) throw new MeasureChildError((err as Error)?.message ?? 'cancelled', null, true);
            throw err;
          });
          // Checked before anything is started: a component gone since the scan is not measured at all.
          if (hash === undefined) throw new MeasureChildError(vscode.l10n.t('{0} holds no plugin or theme any more. Run WP Bench: Refresh and pick it again.', t.source), 2);
          const folder = this.bench.folderOf(t.source) ?? path.dirname(t.source);
          return runMeasureChild({
            node: process.execPath,
            cli: path.join(this.context.extensionPath, 'dist', 'cli.js'),
            path: t.source,
            cwd: folder,
            // No API key, no editor variables: the child needs PATH, HOME and where to keep its cache.
            env: measureChildEnv(process.env, { WPBENCH_CACHE_DIR: this.context.globalStorageUri.fsPath }),
            signal: ac.signal,
            // Always with its findings (at their lines in the editor; a findings pass after the timed rounds), and its
            // CPU instructions where the setting asks and the machine has Valgrind.
            extraArgs: measureLocallyArgs({ profile: this.profile, instructions: wantInstructions, browser: wantBrowser }),
            onSpawn: (pid) => (running.childPid = pid),
            onProgress: (line, raw) => {
              const pid = /server pid (\d+)/.exec(raw)?.[1];
              if (pid) running.serverPid = Number(pid);
              const root = /^wp-bench: building a throwaway site .* in (\S+)$/.exec(raw.trim())?.[1];
              if (root) running.siteRoot = root;
              running.steps.push(line);
              progress.report({ message: uiPlainText(line, 120) });
            },
          });
        },
      );
      await this.bench.local.set(t.kind, t.slug, t.source, hash!, record);
      if (wantInstructions && !this.profile) this.sayInstructionsSkipped(running.steps);
      if (this.profile) {
        const flame = vscode.l10n.t('Show Flame Graph');
        void vscode.window
          .showInformationMessage(vscode.l10n.t('WP Bench: {0} profiled locally: {1}; the figures are above its functions.', t.name, localGradeText(record)), flame)
          .then((choice) => (choice === flame ? vscode.commands.executeCommand('wpBench.showFlameGraph', { kind: t.kind, slug: t.slug }) : undefined));
      } else if (record.local.browser && !('unavailable' in record.local.browser)) {
        // Measured in a browser too: the waterfall and filmstrip a click away.
        const show = vscode.l10n.t('Show What the Visitor Pays');
        void vscode.window
          .showInformationMessage(vscode.l10n.t('WP Bench: {0} measured locally: {1}.', t.name, localGradeText(record)), show)
          .then((choice) => (choice === show ? vscode.commands.executeCommand('wpBench.showBrowserReport', { kind: t.kind, slug: t.slug }) : undefined));
      } else void vscode.window.showInformationMessage(vscode.l10n.t('WP Bench: {0} measured locally: {1}.', t.name, localGradeText(record)));
      return { status: 'measured', record };
    } catch (err) {
      if (err instanceof MeasureChildError && err.cancelled) return { status: 'cancelled' };
      const message = (err as Error).message;
      if (err instanceof MeasureChildError && err.exitCode === 8 && this.profile && /--profile/.test(message)) {
        void vscode.window.showErrorMessage(uiPlainText(vscode.l10n.t('WP Bench: Profile Locally needs the Excimer profiler for PHP (Debian/Ubuntu/WSL: sudo apt install php-excimer). ({0})', message), 600));
        return { status: 'failed', message };
      }
      if (err instanceof MeasureChildError && err.exitCode === 8) {
        this.showMissingRuntime(message);
        return { status: 'failed', message };
      }
      void vscode.window.showErrorMessage(uiPlainText(vscode.l10n.t('WP Bench: measuring {0} failed: {1}', t.name, message)));
      return { status: 'failed', message };
    } finally {
      this.running = undefined;
    }
  }

  /** Instructions asked for and not counted (no Valgrind, or Playground): said once per window, with why and what to install. */
  private sayInstructionsSkipped(steps: string[]): void {
    const why = instructionsSkipped(steps);
    if (!why || this.instructionsMessageShown) return;
    this.instructionsMessageShown = true;
    void vscode.window.showInformationMessage(uiPlainText(vscode.l10n.t('WP Bench: CPU instructions were not counted: {0}. The setting wpBench.measure.instructions turns counting off.', why), 600));
  }

  /** One message for a missing runtime (never a second while it is on screen), with the way to the README section. */
  private showMissingRuntime(detail: string): void {
    if (this.runtimeMessageShown) return;
    this.runtimeMessageShown = true;
    const readme = vscode.l10n.t('Open README');
    void vscode.window
      .showErrorMessage(uiPlainText(vscode.l10n.t('WP Bench: no runtime to measure with. Install PHP 7.4 or newer with SQLite (Debian/Ubuntu/WSL: sudo apt install php-cli php-sqlite3; macOS: brew install php), or npm install @wp-playground/cli. ({0})', detail), 600), readme)
      .then(async (choice) => {
        this.runtimeMessageShown = false;
        if (choice === readme) await vscode.commands.executeCommand('markdown.showPreview', (await installedReadme(this.context.extensionUri)).with({ fragment: 'measure-locally' }));
      });
  }

  private fromEntry(e: ComponentEntry): Target | undefined {
    const source = measurableSource(e);
    return source ? { kind: e.kind, slug: e.slug, name: e.name ?? e.slug, source } : undefined;
  }

  /** A tree node or `{kind, slug}` (a hover link: the path comes from the scan, never from the link), a file or folder, or a pick. */
  private async target(arg: unknown): Promise<Target | undefined> {
    if (arg instanceof vscode.Uri) {
      try {
        const c = await detectComponent(arg.fsPath);
        // Stored under the scan's slug when the scan knows it (a folder "LayerSlider" is LayerSlider there).
        const known = this.bench.components.find((e) => {
          const s = measurableSource(e);
          return e.kind === c.kind && s !== undefined && contains(c.source, s);
        });
        return { kind: c.kind, slug: known?.slug ?? c.slug, name: c.name, source: arg.fsPath };
      } catch (err) {
        void vscode.window.showErrorMessage(uiPlainText(vscode.l10n.t('WP Bench: nothing to measure: {0}', (err as Error).message)));
        return undefined;
      }
    }
    const a = arg as { entry?: ComponentEntry; kind?: unknown; slug?: unknown } | undefined;
    // A link's slug is only a name to find among the detected components (a premium folder may be "LayerSlider").
    const ref = a?.entry ?? (a && (a.kind === 'plugin' || a.kind === 'theme') && typeof a.slug === 'string' && a.slug.length <= 200 ? { kind: a.kind, slug: a.slug } : undefined);
    if (ref) {
      const entry = this.bench.components.find((e) => e.kind === ref.kind && e.slug === ref.slug);
      const t = entry && this.fromEntry(entry);
      if (!t) void vscode.window.showWarningMessage(vscode.l10n.t('WP Bench: {0} has no plugin or theme files in this workspace to measure.', ref.slug));
      return t;
    }
    return this.pick();
  }

  /** Detected components with files here: the repository's own and those the API has no benchmark for first. */
  private async pick(): Promise<Target | undefined> {
    const roots = new Set((vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath));
    const items = this.bench.components
      .map((e) => ({ e, t: this.fromEntry(e) }))
      .filter((x): x is { e: ComponentEntry; t: Target } => x.t !== undefined)
      .map(({ e, t }) => {
        const own = roots.has(e.kind === 'theme' ? t.source : path.dirname(t.source));
        const api = apiBenchmarked(this.bench.outcome(e.kind, e.slug));
        const local = this.bench.localResult(e.kind, e.slug);
        const rank = own ? 0 : api ? 2 : 1;
        const detail = [
          own ? vscode.l10n.t('this repository') : null,
          api ? vscode.l10n.t('benchmark API: {0}', summaryText(this.bench.outcome(e.kind, e.slug))) : vscode.l10n.t('no benchmark in the API'),
          local ? `${localGradeText(local.record)}${local.stale ? ` ${vscode.l10n.t('(stale)')}` : ''}` : null,
        ].filter((x) => x !== null).join(' · ');
        return { label: t.name, description: `${e.kind} ${e.slug}`, detail, t, rank };
      })
      .sort((a, b) => a.rank - b.rank || a.label.localeCompare(b.label));
    if (items.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('WP Bench: no plugin or theme with its files in this workspace to measure.'));
      return undefined;
    }
    const chosen = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('WP Bench: Measure Locally'), placeHolder: vscode.l10n.t('Pick a plugin or theme to measure on this machine') });
    return chosen?.t;
  }
}

export function registerMeasure(manager: CommandManager, context: vscode.ExtensionContext, bench: Bench, ui: MeasureUi): MeasureCommand {
  return manager.register(new MeasureCommand(context, bench, ui));
}

/** WP Bench: Profile Locally — Measure Locally with the sampling profiler: the same trust rules, consent, progress and Cancel. */
export function registerProfile(manager: CommandManager, context: vscode.ExtensionContext, bench: Bench, ui: MeasureUi): MeasureCommand {
  return manager.register(new MeasureCommand(context, bench, ui, true));
}
