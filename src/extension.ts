// Entry point: build the services and register the features. Nothing else happens during activation:
// scanning and the first /me run after activate() returns, and undici loads with the first request.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isLoopbackHost } from './core/api/client';
import { uiPlainText } from './core/present/format';
import { setTranslator } from './core/l10n';
import type { TransportFactory } from './core/api/transport';
import { isDeclarationFile } from './core/scan/document';
import { ApiKeyStore } from './vscode/apiKey';
import { createBench, type Bench } from './vscode/bench';
import { registerCommands } from './vscode/commands';
import { registerMeasure, registerProfile, type MeasureCommand } from './vscode/measure';
import { registerMeasureSite, type MeasureSiteCommand } from './vscode/measureSite';
import { PROFILE_LENS_SELECTOR, ProfileLensProvider } from './vscode/profileLens';
import { registerFindings } from './vscode/findings';
import { FlamePanel, registerFlameGraph } from './vscode/flameGraph';
import { BrowserPanel, registerBrowserReport } from './vscode/browserPanel';
import { BenchDiagnostics, BenchQuickFixes } from './vscode/diagnostics';
import { LocationIndex } from './core/session/locationIndex';
import { BenchHoverProvider, DOCUMENT_SELECTOR, type EntryIndex } from './vscode/hover';
import { createLog } from './vscode/log';
import { LookupPanel } from './vscode/lookupPanel';
import { QuotaStatusBar } from './vscode/statusBar';
import { ComponentsTree } from './vscode/tree';
import { GlancePanel, type GlanceKind } from './vscode/glancePanel';
import { InlineGrades } from './vscode/inline';

/** Loads undici (its own bundle, dist/http.js) on the first request only. */
const lazyTransport: TransportFactory = (options) => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const http = require(path.join(__dirname, 'http.js')) as typeof import('./core/api/undiciTransport');
  return http.createUndiciTransport(options);
};

/**
 * What the integration tests reach through the test-only command `wpBench.test.api`, registered only when
 * WPBENCH_TEST_HOOKS=1 is set at activation. activate() itself exports nothing: another extension must never
 * reach the key or spend the user's quota through WP Bench.
 */
export interface WpBenchApi {
  bench: Bench;
  index: EntryIndex;
  tree: ComponentsTree;
  statusBar: QuotaStatusBar;
  diagnostics: BenchDiagnostics;
  inline: InlineGrades;
  measure: MeasureCommand;
  profile: MeasureCommand;
  measureSite: MeasureSiteCommand;
  lenses: ProfileLensProvider;
  keys: ApiKeyStore;
  activationMs: number;
  /** Resolves when the first scan (and its lookups) has finished. */
  ready: Promise<void>;
  lookupPanel: () => LookupPanel | undefined;
  glancePanel: (kind: GlanceKind) => GlancePanel | undefined;
  flamePanel: () => FlamePanel | undefined;
  browserPanel: () => BrowserPanel | undefined;
  /** The next question (ask or confirm) is answered with this instead of being shown. */
  answerNext: (choice: string | undefined) => void;
  /** Forgets answers queued by answerNext that no question used (a suite starts from a known state). */
  clearAnswers: () => void;
}

export function activate(context: vscode.ExtensionContext): void {
  const started = performance.now();
  // The core's messages (hovers, diagnostics, problems, API errors) in the user's language, from l10n/bundle.l10n.<locale>.json
  // (l10n-ignore: the core's own calls carry the literal messages).
  setTranslator((message, ...args) => vscode.l10n.t(message, ...args));
  const { channel, logger } = createLog();
  const keys = new ApiKeyStore(context.secrets, logger);
  // Every message may carry API or file text: plain text only (no links, no command: URIs, no icons).
  const testHooks = process.env.WPBENCH_TEST_HOOKS === '1';
  const answers: (string | undefined)[] = [];
  const answered = <T>(show: () => Thenable<T>) => (testHooks && answers.length ? Promise.resolve(answers.shift() as T) : show());
  const ui = {
    ask: (m: string, ...items: string[]) => answered(() => vscode.window.showWarningMessage(uiPlainText(vscode.l10n.t('WP Bench: {0}', m)), ...items)),
    error: (m: string, ...items: string[]) => vscode.window.showErrorMessage(uiPlainText(vscode.l10n.t('WP Bench: {0}', m)), ...items),
    confirm: (m: string, button: string) => answered(() => vscode.window.showWarningMessage(uiPlainText(vscode.l10n.t('WP Bench: {0}', m)), { modal: true }, button)),
    runCommand: (id: string) => vscode.commands.executeCommand(id),
  };
  const bench: Bench = createBench(context.globalStorageUri.fsPath, keys, lazyTransport, logger, ui, context.globalState);
  const index: EntryIndex = new LocationIndex();
  const diagnostics = new BenchDiagnostics(bench, index);
  const tree = new ComponentsTree(bench);
  const view = vscode.window.createTreeView('wpBench.components', { treeDataProvider: tree, showCollapseAll: true, canSelectMany: true });
  const inline = new InlineGrades(bench, index);
  const statusBar = new QuotaStatusBar(bench, () => view.visible);

  context.subscriptions.push(
    channel,
    keys,
    bench,
    diagnostics,
    statusBar,
    view,
    inline,
    vscode.languages.registerHoverProvider(DOCUMENT_SELECTOR, new BenchHoverProvider(bench, index)),
    vscode.languages.registerCodeActionsProvider(DOCUMENT_SELECTOR, new BenchQuickFixes(bench, index), {
      providedCodeActionKinds: BenchQuickFixes.kinds,
    }),
  );
  const commands = registerCommands(context, bench, keys, ui);
  // The one sentence before the first measurement is a notification with Continue (not modal: it stays answerable
  // from the notification centre, and a host that refuses dialogs, as an extension development host does, shows it).
  const measure = registerMeasure(commands, context, bench, { confirm: ui.ask });
  const profile = registerProfile(commands, context, bench, { confirm: ui.ask });
  const measureSite = registerMeasureSite(commands, context, bench, { confirm: ui.ask }, () => measure.running?.slug ?? profile.running?.slug);
  measure.busyWith = profile.busyWith = () => measureSite.running?.slug;
  registerFlameGraph(commands, context, bench);
  registerBrowserReport(commands, context, bench);
  const findings = registerFindings(commands, context, bench, () => measure.running?.slug ?? profile.running?.slug ?? measureSite.running?.slug);
  const lenses = new ProfileLensProvider(bench);
  context.subscriptions.push(lenses, vscode.languages.registerCodeLensProvider(PROFILE_LENS_SELECTOR, lenses));
  context.subscriptions.push(commands);

  let lastEntries: unknown;
  context.subscriptions.push(
    bench.onDidChange(() => {
      if (lastEntries !== bench.components) {
        lastEntries = bench.components;
        index.rebuild(bench.components);
      }
      diagnostics.update();
      tree.refresh();
      statusBar.update();
      inline.update();
      lenses.refresh();
      findings.update();
      FlamePanel.active?.refreshFrom(bench);
      if (GlancePanel.get('wpBench.siteReport')) debounce('siteReport', 300, () => void vscode.commands.executeCommand('wpBench.showSiteReport', { refresh: true }));
      view.message = bench.state === 'scanning' ? vscode.l10n.t('Scanning…') : bench.state === 'looking-up' ? vscode.l10n.t('Looking up…') : undefined;
    }),
    bench.onDidChangeQuota(() => statusBar.update()),
    view.onDidChangeVisibility(() => statusBar.update()),
  );
  keys.onDidChange(() => void bench.onKeyChanged(), undefined, context.subscriptions);

  const timers = new Map<string, NodeJS.Timeout>();
  const debounce = (key: string, ms: number, fn: () => void) => {
    clearTimeout(timers.get(key));
    timers.set(key, setTimeout(() => {
      timers.delete(key);
      fn();
    }, ms));
  };
  context.subscriptions.push(
    { dispose: () => timers.forEach((t) => clearTimeout(t)) },
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('wpBench') || e.affectsConfiguration('http')) void bench.onSettingsChanged();
    }),
    // Live while composer.json is edited: debounced, and only new slugs are fetched.
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.contentChanges.length === 0) return;
      const doc = e.document;
      if (doc.uri.scheme === 'file' && /\.php$/i.test(doc.uri.fsPath)) findings.onEdit(doc.uri.fsPath);
      if (doc.uri.scheme === 'file' && isDeclarationFile(path.basename(doc.uri.fsPath))) {
        debounce(doc.uri.toString(), 400, () => void bench.updateDocument(doc.uri.fsPath, doc.getText(), () => doc.isClosed));
      }
    }),
    vscode.workspace.onDidCloseTextDocument((d) => {
      clearTimeout(timers.get(d.uri.toString()));
      if (d.uri.scheme === 'file') bench.forgetDocument(d.uri.fsPath);
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void bench.lookupAll()),
  );
  const watcher = vscode.workspace.createFileSystemWatcher('**/{composer.json,composer.lock,.wp-env.json,.wp-env.override.json,.wp-bench.json,style.css,blueprint.json,*.blueprint.json}');
  const rescanSoon = () => debounce('rescan', 1500, () => void bench.rescan());
  context.subscriptions.push(watcher, watcher.onDidCreate(rescanSoon), watcher.onDidDelete(rescanSoon), watcher.onDidChange(rescanSoon));
  context.subscriptions.push(
    vscode.workspace.onDidSaveTextDocument((d) => {
      if (d.uri.fsPath.endsWith('.php') && (index.in(d.uri.fsPath).length > 0 || /Plugin Name\s*:/i.test(d.getText().slice(0, 8192)))) rescanSoon();
      // A saved file of a measured component makes its local measurement stale (content hash).
      if (d.uri.scheme === 'file') debounce(`local:${d.uri.fsPath}`, 500, () => void bench.local.recheck(d.uri.fsPath).then(() => bench.sites.recheck(d.uri.fsPath)));
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(rescanSoon),
  );

  // Background start: key state, scan (cache first, then only what is missing), /me once.
  const ready = new Promise<void>((resolve) => {
    setTimeout(async () => {
      try {
        await seedDemoKey(keys, bench.config.apiUrl);
        await bench.refreshKeyState();
        await bench.rescan();
        // Dormant outside WordPress: no /me (and so no notification) unless the workspace has components.
        if (bench.components.length > 0 && bench.hasKey && bench.hasApiUrl && !bench.apiUrlProblem && !bench.quota) {
          await bench.fetchAccount().catch((err: unknown) => logger.warn(`account: ${(err as Error).message}`));
        }
      } catch (err) {
        logger.error(`start-up failed: ${(err as Error).stack ?? err}`);
      } finally {
        resolve();
      }
    }, 0);
  });

  const activationMs = performance.now() - started;
  logger.info(`activated in ${activationMs.toFixed(1)} ms`);
  if (testHooks) {
    const api: WpBenchApi = { bench, index, tree, statusBar, diagnostics, inline, measure, profile, measureSite, lenses, keys, activationMs, ready, lookupPanel: () => LookupPanel.active, glancePanel: (kind) => GlancePanel.get(kind), flamePanel: () => FlamePanel.active, browserPanel: () => BrowserPanel.active, answerNext: (choice) => void answers.push(choice), clearAnswers: () => void answers.splice(0) };
    context.subscriptions.push(vscode.commands.registerCommand('wpBench.test.api', () => api));
  }
}

/** `npm run demo` hands a demo key to a fresh profile; only ever accepted for an emulator on loopback. */
async function seedDemoKey(keys: ApiKeyStore, apiUrl: string): Promise<void> {
  const demoKey = process.env.WPBENCH_DEMO_KEY;
  if (!demoKey || !/^wpb_demo_[a-z0-9_]+$/.test(demoKey) || (await keys.get())) return;
  try {
    if (isLoopbackHost(new URL(apiUrl).hostname)) await keys.set(demoKey);
  } catch {
    // No usable API address: no demo key.
  }
}

export function deactivate(): void {
  // Disposables registered on the context clean up.
  setTranslator();
}
