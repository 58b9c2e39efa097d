// Command handlers. Each accepts an argument for automation (tests, keybindings) and asks when it has none.
import * as vscode from 'vscode';
import { normaliseApiUrl } from '../core/api/client';
import { ApiError } from '../core/api/errors';
import { safeLink } from '../core/api/record';
import { formatQuota, uiPlainText } from '../core/present/format';
import { toJson, toMarkdown } from '../core/report/formats';
import { toHtml } from '../core/report/html';
import { compareTable } from '../core/report/glance';
import { writeOutputFile } from '../core/outputFile';
import { principalLocation } from '../core/scan/merge';
import { compareView, siteReportView } from '../core/report/glanceView';
import { GlancePanel } from './glancePanel';
import { readInlineSettings } from './inline';
import { isValidSlug, type ComponentKind, isoTime } from '../core/model';
import { withIgnored } from '../core/session/session';
import type { Bench, ComponentEntry } from './bench';
import { LookupPanel } from './lookupPanel';
import { CommandManager } from './commandManager';
import type { Node } from './tree';

type SlugRef = { kind: ComponentKind; slug: string };

function refOf(arg: unknown): SlugRef | undefined {
  const a = arg as { type?: string; entry?: ComponentEntry; kind?: ComponentKind; slug?: string } | undefined;
  if (a?.entry) return { kind: a.entry.kind, slug: a.entry.slug };
  if (a && (a.kind === 'plugin' || a.kind === 'theme') && typeof a.slug === 'string') return { kind: a.kind, slug: a.slug };
  return undefined;
}

function describeAccount(account: { tier: string | null; used: number | null; limit: number | null; resetAt: number | null }): string {
  const resetIso = isoTime(account.resetAt);
  const tier = account.tier ?? vscode.l10n.t('unknown tier');
  const used = formatQuota(account.used, account.limit);
  return resetIso ? vscode.l10n.t('{0} · {1} requests used, resets {2}', tier, used, resetIso.slice(0, 10)) : vscode.l10n.t('{0} · {1} requests used', tier, used);
}

/** Every contributed command, as an object each, registered by the manager (which the extension disposes). */
export interface CommandUi {
  /** A modal question with one button; resolves to the button or undefined. */
  confirm(message: string, button: string): Thenable<string | undefined>;
}

export function registerCommands(
  context: vscode.ExtensionContext,
  bench: Bench,
  keys: { get(): Promise<string | undefined>; set(k: string): Promise<void>; clear(): Promise<void> },
  ui: CommandUi,
): CommandManager {
  // Every API or file string shown in a notification is plain text (a `[Renew](command:…)` tier is not a link).
  const info = (m: string, ...items: string[]) => vscode.window.showInformationMessage(uiPlainText(m), ...items);
  const warn = (m: string, ...items: string[]) => vscode.window.showWarningMessage(uiPlainText(m), ...items);
  const error = (m: string, ...items: string[]) => vscode.window.showErrorMessage(uiPlainText(m), ...items);
  const manager = new CommandManager();
  const register = (id: string, execute: (...args: unknown[]) => unknown) => manager.register({ id, execute });

  register('wpBench.setApiKey', async (arg) => {
    const key =
      typeof arg === 'string'
        ? arg.trim()
        : (
            await vscode.window.showInputBox({
              title: vscode.l10n.t('WP Bench: Set API Key'),
              prompt: vscode.l10n.t('Paste the license key from your WP Bench subscription e-mail. It is stored in the OS keychain (VS Code SecretStorage).'),
              password: true,
              ignoreFocusOut: true,
              validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('The key cannot be empty.')),
            })
          )?.trim();
    if (!key) return undefined;
    // Saved, then applied before the command returns. Setting the same key again (a renewed subscription) counts
    // as a change too: its refusal and the block are forgotten. The store reports the change once (its listener
    // applies it); the command waits for that, and never applies it a second time.
    const saveKey = async () => {
      const unbind = await bench.bindKeyToCurrentOrigin();
      try {
        await keys.set(key);
      } catch (err) {
        await unbind();
        throw err;
      }
      await bench.whenKeyApplied();
    };
    if (!bench.hasApiUrl) {
      await saveKey();
      const setAddress = vscode.l10n.t('Set API Address');
      void info(vscode.l10n.t('WP Bench: API key saved. Set the API address to start looking up plugins.'), setAddress).then((c) => c === setAddress && vscode.commands.executeCommand('wpBench.setApiUrl'));
      return { saved: true, tier: null };
    }
    try {
      const account = await bench.validateKey(key);
      await saveKey();
      void info(vscode.l10n.t('WP Bench: API key saved — {0}.', describeAccount(account)));
      return { saved: true, tier: account.tier };
    } catch (err) {
      if (err instanceof ApiError && (err.kind === 'invalid-key' || err.kind === 'forbidden')) {
        void error(vscode.l10n.t('WP Bench: the key was not saved. {0}', err.message));
        return { saved: false, tier: null, error: err.kind };
      }
      // The server could not be asked: keep the key, say so.
      await saveKey();
      void warn(vscode.l10n.t('WP Bench: API key saved, but it could not be checked. {0}', (err as Error).message));
      return { saved: true, tier: null };
    }
  });

  register('wpBench.setApiUrl', async (arg) => {
    const value =
      typeof arg === 'string'
        ? arg
        : await vscode.window.showInputBox({
            title: vscode.l10n.t('WP Bench: Set API Address'),
            prompt: vscode.l10n.t('The API address from your subscription e-mail (everything before /v1).'),
            placeHolder: 'https://…/api',
            value: bench.config.apiUrl,
            ignoreFocusOut: true,
            validateInput: (v) => {
              try {
                normaliseApiUrl(v);
                return undefined;
              } catch (err) {
                return (err as Error).message;
              }
            },
          });
    if (value === undefined) return undefined;
    const url = value.trim() ? normaliseApiUrl(value).toString().replace(/\/$/, '') : '';
    // Given as an argument (a link in a notification, a hover, another extension): the user decides, not the caller.
    if (typeof arg === 'string' && url !== bench.config.apiUrl) {
      const change = vscode.l10n.t('Change the Address');
      const choice = await ui.confirm(vscode.l10n.t('Change the WP Bench API address to {0}? Lookups, and your key once you allow it, would go there.', url || vscode.l10n.t('(none)')), change);
      if (choice !== change) return undefined;
    }
    // The same address again changes no setting (no new client): a "not a WP Bench API" verdict is checked anew.
    if (url === bench.config.apiUrl) {
      bench.recheckAddress();
      await bench.rescan();
    }
    await vscode.workspace.getConfiguration('wpBench').update('apiUrl', url, vscode.ConfigurationTarget.Global);
    return url;
  });

  register('wpBench.clearApiKey', async () => {
    await keys.clear();
    void info(vscode.l10n.t('WP Bench: API key removed from this machine.'));
  });

  const lookup = (kind: ComponentKind) => async (arg: unknown) => {
    const slug =
      typeof arg === 'string'
        ? arg.trim()
        : (
            await vscode.window.showInputBox({
              title: kind === 'plugin' ? vscode.l10n.t('WP Bench: Look Up Plugin') : vscode.l10n.t('WP Bench: Look Up Theme'),
              prompt: kind === 'plugin' ? vscode.l10n.t('The wordpress.org slug of the plugin, e.g. {0}', 'woocommerce') : vscode.l10n.t('The wordpress.org slug of the theme, e.g. {0}', 'twentytwentyfive'),
              validateInput: (v) => (isValidSlug(v.trim()) ? undefined : vscode.l10n.t('Lowercase letters, digits, "-" or "_"; at most 200 characters.')),
            })
          )?.trim();
    if (!slug) return undefined;
    if (!isValidSlug(slug)) throw new ApiError('invalid-slug', vscode.l10n.t('"{0}" is not a valid slug. Nothing was sent.', slug.slice(0, 60)));
    const outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('WP Bench: looking up {0}', slug) },
      () => bench.lookupOne(kind, slug),
    );
    LookupPanel.show(context.extensionUri, kind, slug, outcome);
    return outcome;
  };
  register('wpBench.lookupPlugin', lookup('plugin'));
  register('wpBench.lookupTheme', lookup('theme'));

  register('wpBench.refresh', async (arg) => {
    const ref = refOf(arg);
    bench.recheckAddress();
    if (ref) return bench.lookupOne(ref.kind, ref.slug, true);
    await bench.rescan();
    return bench.components.length;
  });

  register('wpBench.showAccount', async () => {
    const account = await bench.fetchAccount();
    void info(vscode.l10n.t('WP Bench: {0}.', describeAccount(account)));
    return account;
  });

  register('wpBench.clearCache', async () => {
    await bench.clearCache();
    void info(vscode.l10n.t('WP Bench: cache cleared. Lookups are sent again when needed.'));
  });

  register('wpBench.openProfile', async (arg) => {
    const ref = refOf(arg);
    if (!ref) return undefined;
    const result = bench.outcome(ref.kind, ref.slug)?.result;
    const url = result && result.state !== 'not-in-dataset' ? result.record.profileUrl : null;
    // Checked again here: a cached link is input too (http(s) only, as when it was received).
    if (!url || safeLink(url) !== url) {
      void info(vscode.l10n.t('WP Bench: no benchmark profile is known for {0}.', ref.slug));
      return undefined;
    }
    return vscode.env.openExternal(vscode.Uri.parse(url, true));
  });

  register('wpBench.ignoreSlug', async (arg) => {
    const ref = refOf(arg);
    if (!ref) return undefined;
    // The folder that declares it: its own workspace-level list plus the slug, never the merged user + team list.
    const root = bench.components.find((e) => e.kind === ref.kind && e.slug === ref.slug)?.folders[0];
    const folder = root ? vscode.workspace.getWorkspaceFolder(vscode.Uri.file(root)) : undefined;
    const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    const config = vscode.workspace.getConfiguration('wpBench', folder?.uri);
    const target = !vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Global : multiRoot && folder ? vscode.ConfigurationTarget.WorkspaceFolder : vscode.ConfigurationTarget.Workspace;
    const inspected = config.inspect<string[]>('ignore');
    const own = target === vscode.ConfigurationTarget.Global ? inspected?.globalValue : target === vscode.ConfigurationTarget.WorkspaceFolder ? inspected?.workspaceFolderValue : inspected?.workspaceValue;
    const next = withIgnored(own, ref.slug);
    if (next.length !== (own ?? []).length) await config.update('ignore', next, target);
    return ref.slug;
  });

  register('wpBench.exportReport', async (arg) => {
    const opts = (typeof arg === 'object' && arg !== null ? arg : {}) as { format?: string; path?: string };
    let format = opts.format;
    if (format !== 'markdown' && format !== 'json' && format !== 'html') {
      const pick = await vscode.window.showQuickPick(
        [
          { label: 'Markdown', description: vscode.l10n.t('a table worst first with the site total, for a pull request or a client'), format: 'markdown' },
          { label: 'JSON', description: vscode.l10n.t('the same data as `wp-bench check --format json`'), format: 'json' },
          { label: 'HTML', description: vscode.l10n.t('one self-contained page for a client, with the chart; prints on A4 and Letter'), format: 'html' },
        ],
        { title: vscode.l10n.t('WP Bench: Export Report') },
      );
      if (!pick) return undefined;
      format = pick.format;
    }
    const judgement = bench.judgement();
    const folderName = vscode.workspace.workspaceFolders?.[0]?.name;
    const text = format === 'json' ? toJson(judgement) : format === 'html' ? toHtml(judgement, { subject: folderName }) : toMarkdown(judgement);
    const ext = format === 'json' ? 'json' : format === 'html' ? 'html' : 'md';
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    let target = opts.path ? vscode.Uri.file(opts.path) : undefined;
    if (!target) {
      const suggested = folder ? vscode.Uri.joinPath(folder, `wp-bench-report.${ext}`) : undefined;
      target = await vscode.window.showSaveDialog({ defaultUri: suggested, title: vscode.l10n.t('WP Bench: Export Report'), filters: format === 'json' ? { JSON: ['json'] } : format === 'html' ? { HTML: ['html'] } : { Markdown: ['md'] } });
      if (!target) return undefined;
    }
    const body = text.endsWith('\n') ? text : `${text}\n`;
    // A local file: temp + rename, a symlink or FIFO refused (a repository can hold one at the suggested name).
    if (target.scheme === 'file') await writeOutputFile(target.fsPath, body, vscode.workspace.getWorkspaceFolder(target)?.uri.fsPath);
    else await vscode.workspace.fs.writeFile(target, Buffer.from(body, 'utf8'));
    if (!opts.path && format !== 'html') await vscode.window.showTextDocument(target, { preview: true });
    if (!opts.path && format === 'html') void info(vscode.l10n.t('WP Bench: report written to {0}.', target.fsPath));
    return target.fsPath;
  });

  /** Opens the first line that declares a component (a bar or a row of the site report or the comparison). */
  const openComponent = async (kind: string, slug: string) => {
    const found = bench.components.find((e) => e.kind === kind && e.slug === slug);
    const location = found && principalLocation(found.locations);
    if (!location) return undefined;
    const position = new vscode.Position(location.line - 1, location.column - 1);
    await vscode.window.showTextDocument(vscode.Uri.file(location.file), { selection: new vscode.Range(position, position.translate(0, location.length)), preview: true, viewColumn: vscode.ViewColumn.One });
    return location.file;
  };

  register('wpBench.showSiteReport', async () => {
    GlancePanel.show(context.extensionUri, 'wpBench.siteReport', vscode.l10n.t('WP Bench: Site Report'), siteReportView(bench.judgement(), bench.siteResult()), (kind, slug) => void openComponent(kind, slug));
    return true;
  });

  register('wpBench.toggleInline', async () => {
    const enabled = !readInlineSettings().enabled;
    await vscode.workspace.getConfiguration('wpBench').update('inline.enabled', enabled, vscode.ConfigurationTarget.Global);
    return enabled;
  });

  /**
   * 2 to 5 slugs side by side; one request per uncached slug, and more than 3 of those asks first. A workspace
   * component that is never looked up (not from wordpress.org, an Update URI elsewhere, ignored) sends nothing: its
   * slug could name another plugin on wordpress.org. Its column shows its local measurement, if any.
   */
  const compare = async (kind: ComponentKind, given?: string[]) => {
    let slugs = given;
    if (!slugs) {
      slugs = await pickSlugs(kind);
      if (!slugs) return undefined;
    }
    slugs = [...new Set(slugs.map((s) => s.trim()).filter(Boolean))];
    if (slugs.length < 2 || slugs.length > 5) {
      void warn(vscode.l10n.t('WP Bench: pick 2 to 5 to compare ({0} given).', slugs.length));
      return undefined;
    }
    const entries = new Map(bench.components.filter((e) => e.kind === kind).map((e) => [e.slug, e]));
    const askable = slugs.filter((s) => (entries.get(s)?.lookup ?? 'yes') === 'yes');
    // A slug sent to the API must be one; a workspace component that is never looked up is shown, not sent.
    const invalid = askable.find((s) => !isValidSlug(s));
    if (invalid) throw new ApiError('invalid-slug', vscode.l10n.t('"{0}" is not a valid slug. Nothing was sent.', invalid.slice(0, 60)));
    const uncached = await bench.uncached(kind, askable);
    if (uncached.length > 3) {
      const go = vscode.l10n.t('Look Up {0}', uncached.length);
      const choice = await ui.confirm(vscode.l10n.t('{0} of these are not cached: comparing them sends {0} requests, each counted against your monthly quota ({1}).', uncached.length, uncached.join(', ')), go);
      if (choice !== go) return undefined;
    }
    const outcomes = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('WP Bench: comparing {0}', slugs.join(', ')) }, () =>
      Promise.all(
        slugs.map(async (slug) => {
          const local = bench.localResult(kind, slug);
          const outcome = uncached.includes(slug) ? await bench.lookupOne(kind, slug) : askable.includes(slug) ? await bench.cachedOutcome(kind, slug) : undefined;
          const decision = entries.get(slug)?.lookup;
          return { kind, slug, outcome, local: local && { record: local.record, stale: local.stale }, notLookedUp: decision === 'yes' ? undefined : decision };
        }),
      ),
    );
    const { columns, rows } = compareTable(outcomes);
    GlancePanel.show(context.extensionUri, 'wpBench.compare', vscode.l10n.t('WP Bench: Compare'), compareView(columns, rows, bench.judgement().config.context), (k, s) => void openComponent(k, s));
    return columns.map((c) => ({ slug: c.slug, state: c.state }));
  };

  /** The workspace's plugins (or themes) to tick, plus any slug typed into the box. */
  const pickSlugs = async (kind: ComponentKind): Promise<string[] | undefined> => {
    // What can be compared: what the API is asked about, and what was measured locally.
    const known = bench.components.filter((e) => e.kind === kind && (e.lookup === 'yes' || bench.localResult(kind, e.slug)));
    type Item = vscode.QuickPickItem & { slug: string };
    const qp = vscode.window.createQuickPick<Item>();
    qp.canSelectMany = true;
    qp.title = kind === 'plugin' ? vscode.l10n.t('WP Bench: Compare Plugins') : vscode.l10n.t('WP Bench: Compare Themes');
    qp.placeholder = vscode.l10n.t('Tick 2 to 5; a slug typed here can be ticked too');
    const base: Item[] = known.map((e) => ({ label: e.name ?? e.slug, description: e.slug, slug: e.slug }));
    const typed: Item[] = [];
    qp.items = base;
    // A typed slug that is not listed becomes an item to tick (the box's text is never changed by us: no race with
    // typing). Ticked typed items stay; Enter with a typed slug in the box includes it.
    let candidate: Item | undefined;
    qp.onDidChangeValue((v) => {
      const slug = v.trim();
      const selected = qp.selectedItems;
      for (const item of selected) if (item === candidate && !typed.includes(item)) typed.push(item);
      candidate = isValidSlug(slug) && ![...base, ...typed].some((i) => i.slug === slug) ? { label: slug, description: vscode.l10n.t('typed: look up this slug'), slug, alwaysShow: true } : undefined;
      qp.items = [...(candidate ? [candidate] : []), ...typed, ...base];
      qp.selectedItems = selected.filter((i) => qp.items.includes(i));
    });
    return new Promise((resolve) => {
      qp.onDidAccept(() => {
        const slugs = qp.selectedItems.map((i) => i.slug);
        const value = qp.value.trim();
        if (isValidSlug(value) && !slugs.includes(value)) slugs.push(value);
        resolve(slugs);
        qp.hide();
      });
      qp.onDidHide(() => {
        resolve(undefined);
        qp.dispose();
      });
      qp.show();
    });
  };

  register('wpBench.comparePlugins', async (arg) => compare('plugin', Array.isArray(arg) ? arg.filter((s): s is string => typeof s === 'string') : undefined));
  register('wpBench.compareThemes', async (arg) => compare('theme', Array.isArray(arg) ? arg.filter((s): s is string => typeof s === 'string') : undefined));
  // From the tree's multi-selection: (clicked node, all selected nodes), compared by the clicked one's kind.
  register('wpBench.compareSelected', async (clicked, selected) => {
    const nodes = (Array.isArray(selected) && selected.length ? selected : [clicked]) as Node[];
    const entries = nodes.flatMap((n) => (n && 'entry' in n && n.type === 'component' ? [n.entry] : []));
    const kind = entries[0]?.kind ?? 'plugin';
    return compare(kind, entries.filter((e) => e.kind === kind).map((e) => e.slug));
  });

  register('wpBench.openDeclaration', async (arg) => {
    const node = arg as Node | undefined;
    const entry = node && 'entry' in node ? node.entry : undefined;
    const location = entry && principalLocation(entry.locations);
    if (!location) return undefined;
    const position = new vscode.Position(location.line - 1, location.column - 1);
    await vscode.window.showTextDocument(vscode.Uri.file(location.file), { selection: new vscode.Range(position, position.translate(0, location.length)), preview: true });
    return location.file;
  });
  return manager;
}
