// The "Plugins & Themes" view: a site total, then Plugins and Themes worst first, each with its three contexts.
import * as vscode from 'vscode';
import { formatCount, plural } from '../core/present/format';
import { budgetLines } from '../core/report/formats';
import { accessibleSummary, compareWorstFirst, contextLabel, contextLine, siteTotalLine, summaryText } from '../core/present/outcome';
import { apiBenchmarked, localAsBenchmark, localContextLine, localTreeText, measurableSource, mixedSiteTotal, siteSourcesLine } from '../core/present/local';
import { CONTEXT_NAMES, type ComponentKind, type ContextName, type ScanProblem } from '../core/model';
import { lensTooltip, topFunctions } from '../core/present/profileLens';
import { plainText } from '../core/report/plain';
import { lookupNote } from '../core/scan/lookup';
import type { Bench, ComponentEntry } from './bench';
import { hoverFor } from './hover';
import { memberText, siteContextText, siteFactsText, siteTotalText, siteTotalTooltip } from '../core/present/siteLocal';
import { siteOf } from '../core/session/surfaces';
import { visitorTreeText } from '../core/present/visitor';

export type Node =
  | { type: 'total' }
  | { type: 'total-context'; context: ContextName }
  | { type: 'total-sources' }
  | { type: 'total-site' }
  | { type: 'group'; kind: ComponentKind }
  | { type: 'component'; entry: ComponentEntry }
  | { type: 'context'; entry: ComponentEntry; context: ContextName }
  | { type: 'function'; entry: ComponentEntry; index: number }
  | { type: 'visitor'; entry: ComponentEntry }
  | { type: 'problems' }
  | { type: 'problem'; problem: ScanProblem & { absFile: string } };


export function gradeColor(grade: string | null | undefined): vscode.ThemeColor {
  switch ((grade ?? '').charAt(0).toUpperCase()) {
    case 'A':
      return new vscode.ThemeColor('charts.green');
    case 'B':
      return new vscode.ThemeColor('charts.blue');
    case 'C':
      return new vscode.ThemeColor('charts.yellow');
    case 'D':
      return new vscode.ThemeColor('charts.orange');
    default:
      return new vscode.ThemeColor('charts.red');
  }
}

export class ComponentsTree implements vscode.TreeDataProvider<Node> {
  private readonly emitter = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(private readonly bench: Bench) {}

  refresh(): void {
    this.emitter.fire(undefined);
  }

  private visible(kind: ComponentKind): ComponentEntry[] {
    return this.bench.activeEntries
      .filter((e) => e.kind === kind)
      .map((e) => ({ slug: e.slug, entry: e, outcome: this.bench.outcome(e.kind, e.slug) }))
      .sort(compareWorstFirst)
      .map((x) => x.entry);
  }

  getChildren(node?: Node): Node[] {
    if (!node) {
      // Empty until the API is configured, so the welcome views ("Set API Address", "Set API Key") show.
      if (this.bench.components.length === 0 || !this.bench.hasApiUrl || !this.bench.hasKey) return [];
      const groups: Node[] = [{ type: 'total' }];
      for (const kind of ['plugin', 'theme'] as const) if (this.visible(kind).length) groups.push({ type: 'group', kind });
      if (this.bench.problems.length) groups.push({ type: 'problems' });
      return groups;
    }
    switch (node.type) {
      case 'total':
        // Measured as a site: the facts of that run instead of where the sum comes from.
        return [...CONTEXT_NAMES.map((context) => ({ type: 'total-context', context }) as Node), { type: this.bench.siteResult() ? 'total-site' : 'total-sources' }];
      case 'group':
        return this.visible(node.kind).map((entry) => ({ type: 'component', entry }) as Node);
      case 'problems':
        return this.bench.problems.map((problem) => ({ type: 'problem', problem }) as Node);
      case 'component': {
        const contexts = this.contextRecord(node.entry) ? CONTEXT_NAMES.map((context) => ({ type: 'context', entry: node.entry, context }) as Node) : [];
        // Profiled locally: its top five functions after the contexts, each opening its line.
        const local = this.bench.localResult(node.entry.kind, node.entry.slug);
        const fns = local ? topFunctions(local).map((_, index) => ({ type: 'function', entry: node.entry, index }) as Node) : [];
        // Measured in a browser too (--browser): what the visitor pays, after the server's contexts.
        const visitor: Node[] = local && visitorTreeText(local.record) ? [{ type: 'visitor', entry: node.entry }] : [];
        return [...contexts, ...visitor, ...fns];
      }
      default:
        return [];
    }
  }

  /** The API's record, else the local measurement's (the tree never shows one as the other: see the descriptions). */
  private contextRecord(entry: ComponentEntry) {
    const api = apiBenchmarked(this.bench.outcome(entry.kind, entry.slug));
    if (api) return api;
    const local = this.bench.localResult(entry.kind, entry.slug);
    return local ? localAsBenchmark(local.record) : undefined;
  }

  /** API and local numbers together: the API's where it has a benchmark, else the local measurement. */
  private total() {
    return mixedSiteTotal(this.bench.activeEntries.map((e) => ({ outcome: this.bench.outcome(e.kind, e.slug), local: this.bench.localResult(e.kind, e.slug) })));
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.type) {
      case 'total': {
        const total = this.total();
        const item = new vscode.TreeItem(vscode.l10n.t('Site total'), vscode.TreeItemCollapsibleState.Expanded);
        const homepage = total.contexts.homepage;
        const base = vscode.l10n.t('{0} on the homepage', siteTotalLine({ ...homepage, notMeasured: 0 }));
        item.iconPath = new vscode.ThemeIcon('graph');
        const notMeasured = CONTEXT_NAMES.reduce((n, c) => n + total.contexts[c].notMeasured, 0);
        const lines = [
          plural(total.benchmarked, vscode.l10n.t('**Site total** — sum of the measured deltas of 1 benchmarked component'), vscode.l10n.t('**Site total** — sum of the measured deltas of {0} benchmarked components', total.benchmarked)) +
            (total.unknown ? plural(total.unknown, vscode.l10n.t('; 1 without a benchmark is not counted'), vscode.l10n.t('; {0} without a benchmark are not counted', total.unknown)) : '') +
            (notMeasured ? plural(notMeasured, vscode.l10n.t('; 1 context measurement is not measured (not counted as zero)'), vscode.l10n.t('; {0} context measurements are not measured (not counted as zero)', notMeasured)) : '') +
            '.',
          '',
          siteSourcesLine(total) + '.',
        ];
        // Budgets from the team's .wp-bench.json: the same verdict as `wp-bench check`.
        const judgement = this.bench.teamConfig && Object.keys(this.bench.teamConfig.config.budgets).length ? this.bench.judgement() : undefined;
        let verdict: string | undefined;
        if (judgement?.budgets.length) {
          const over = judgement.budgets.filter((b) => b.exceeded).length;
          verdict = over ? vscode.l10n.t('over budget ({0})', over) : vscode.l10n.t('within budget');
          item.description = `${verdict} · ${base}`;
          item.iconPath = new vscode.ThemeIcon(over ? 'error' : 'pass', new vscode.ThemeColor(over ? 'charts.red' : 'charts.green'));
          lines.push('', ...budgetLines(judgement).map((l) => `- ${l}`), '', vscode.l10n.t('_Budgets from .wp-bench.json._'));
        } else {
          item.description = base;
        }
        // Measured as a site (Measure Site Locally): the stack as it runs is the total, the sum of the parts beside it.
        const site = this.bench.siteResult();
        if (site) {
          item.description = verdict ? `${verdict} · ${siteTotalText(site)}` : siteTotalText(site);
          lines.unshift(...siteTotalTooltip(site), '', '---', '');
        }
        item.tooltip = new vscode.MarkdownString(lines.join('\n'));
        item.id = 'wpBench.total';
        item.contextValue = 'total';
        return item;
      }
      case 'total-context': {
        const total = this.total();
        const item = new vscode.TreeItem(contextLabel(node.context), vscode.TreeItemCollapsibleState.None);
        const site = this.bench.siteResult();
        item.description = site ? siteContextText(site, node.context) : siteTotalLine(total.contexts[node.context]);
        item.id = `wpBench.total.${node.context}`;
        return item;
      }
      case 'total-sources': {
        const total = this.total();
        const item = new vscode.TreeItem(vscode.l10n.t('Counted'), vscode.TreeItemCollapsibleState.None);
        item.description = siteSourcesLine(total);
        item.tooltip = `${siteSourcesLine(total)}.\n\n${vscode.l10n.t('Where the site total comes from: components benchmarked by the API, components measured on this machine (where the API has no benchmark), and components with neither (not counted).')}`;
        item.accessibilityInformation = { label: vscode.l10n.t('Site total counts {0}', siteSourcesLine(total)) };
        item.iconPath = new vscode.ThemeIcon('info');
        item.id = 'wpBench.total.sources';
        return item;
      }
      case 'total-site': {
        const site = this.bench.siteResult()!;
        const item = new vscode.TreeItem(vscode.l10n.t('Measured as a site'), vscode.TreeItemCollapsibleState.None);
        item.description = siteFactsText(site);
        item.tooltip = new vscode.MarkdownString(siteTotalTooltip(site).join('\n'));
        item.iconPath = new vscode.ThemeIcon(site.stale ? 'warning' : 'beaker');
        item.id = 'wpBench.total.site';
        item.contextValue = 'siteMeasured';
        return item;
      }
      case 'group': {
        const entries = this.visible(node.kind);
        const item = new vscode.TreeItem(node.kind === 'plugin' ? vscode.l10n.t('Plugins') : vscode.l10n.t('Themes'), vscode.TreeItemCollapsibleState.Expanded);
        item.description = formatCount(entries.length);
        item.id = `wpBench.group.${node.kind}`;
        item.contextValue = 'group';
        return item;
      }
      case 'component': {
        const { entry } = node;
        const outcome = this.bench.outcome(entry.kind, entry.slug);
        const result = outcome?.result;
        const api = apiBenchmarked(outcome);
        const local = this.bench.localResult(entry.kind, entry.slug);
        const name = result && result.state !== 'not-in-dataset' ? result.record.name : (entry.name ?? local?.record.name ?? entry.slug);
        const item = new vscode.TreeItem(name, api || local ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
        item.id = `wpBench.c.${entry.kind}.${entry.slug}`;
        const notInRepo = entry.locations.every((l) => l.source === 'theme-parent');
        let state = !outcome && entry.lookup !== 'yes' ? lookupNote(entry.lookup) : summaryText(outcome);
        let spoken = !outcome && entry.lookup !== 'yes' ? vscode.l10n.t('not looked up: {0}', lookupNote(entry.lookup)) : accessibleSummary(outcome);
        if (local) {
          // Marked as measured here, in the description (≈, "local") and in words for a screen reader.
          const l = localTreeText(local);
          state = api ? `${state} · ${l.description}` : l.description;
          spoken = api ? `${spoken}; ${l.spoken}` : l.spoken;
        }
        // Measured as part of its site: what it adds there beside what it costs alone.
        const inSite = siteOf(this.bench, entry);
        if (inSite) {
          const t = memberText(inSite.result, inSite.member);
          state = `${state} · ${t}`;
          spoken = `${spoken}; ${t}`;
        }
        item.description = notInRepo ? vscode.l10n.t('{0} · not in this repository', state) : state;
        const label = entry.kind === 'plugin' ? vscode.l10n.t('{0}, plugin {1}, {2}', name, entry.slug, spoken) : vscode.l10n.t('{0}, theme {1}, {2}', name, entry.slug, spoken);
        item.accessibilityInformation = { label: notInRepo ? vscode.l10n.t('{0}, not in this repository', label) : label };
        item.tooltip = hoverFor(this.bench, entry);
        if (api) item.iconPath = new vscode.ThemeIcon('circle-filled', gradeColor(api.grade));
        else if (local) item.iconPath = new vscode.ThemeIcon('beaker', gradeColor(local.record.speed_score?.grade));
        else if (outcome?.error && !result) item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
        else item.iconPath = new vscode.ThemeIcon('circle-outline');
        const profile = result && result.state !== 'not-in-dataset' && result.record.profileUrl ? '.withProfile' : '';
        // `.measurable`: its files are here, so Measure Locally is offered (inline where the API has no benchmark).
        const measurable = measurableSource(entry) ? (api ? '.measurable' : '.measurable.unbenchmarked') : '';
        // `.profiled`: a local profile is stored, so its flame graph can be shown.
        const profiled = local?.record.profile ? '.profiled' : '';
        item.contextValue = `component${profile}${measurable}${profiled}`;
        item.command = { command: 'wpBench.openDeclaration', title: vscode.l10n.t('Open declaration'), arguments: [node] };
        return item;
      }
      case 'problems': {
        const n = this.bench.problems.length;
        const item = new vscode.TreeItem(vscode.l10n.t('Problems'), vscode.TreeItemCollapsibleState.Collapsed);
        item.description = vscode.l10n.t('{0} — files or entries WP Bench could not use', formatCount(n));
        item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
        item.id = 'wpBench.problems';
        return item;
      }
      case 'problem': {
        const p = node.problem;
        const item = new vscode.TreeItem(plainText(p.message, 200), vscode.TreeItemCollapsibleState.None);
        item.description = p.file ? `${p.file}:${p.line}` : '';
        item.tooltip = plainText(p.message, 400);
        item.iconPath = new vscode.ThemeIcon(p.severity === 'info' ? 'info' : 'warning');
        if (p.file) {
          const at = new vscode.Range(p.line - 1, p.column - 1, p.line - 1, p.column - 1);
          item.command = { command: 'vscode.open', title: 'Open', arguments: [vscode.Uri.file(p.absFile), { selection: at }] };
        }
        return item;
      }
      case 'function': {
        const local = this.bench.localResult(node.entry.kind, node.entry.slug);
        const top = local ? topFunctions(local)[node.index] : undefined;
        const item = new vscode.TreeItem(top?.label ?? '', vscode.TreeItemCollapsibleState.None);
        item.id = `wpBench.c.${node.entry.kind}.${node.entry.slug}.fn.${node.index}`;
        if (!top || !local) return item;
        item.description = top.description;
        item.tooltip = lensTooltip(top.fn, local);
        item.iconPath = new vscode.ThemeIcon('symbol-method');
        item.contextValue = 'function';
        item.accessibilityInformation = { label: vscode.l10n.t('{0}, profiled: {1}', top.label, top.description) };
        const at = new vscode.Range(Math.max(0, top.fn.line - 1), 0, Math.max(0, top.fn.line - 1), 0);
        item.command = { command: 'vscode.open', title: vscode.l10n.t('Open'), arguments: [vscode.Uri.file(top.absFile), { selection: at }] };
        return item;
      }
      case 'visitor': {
        const local = this.bench.localResult(node.entry.kind, node.entry.slug);
        const t = local && visitorTreeText(local.record);
        const item = new vscode.TreeItem(t?.label ?? vscode.l10n.t('Visitor'), vscode.TreeItemCollapsibleState.None);
        item.description = t?.description ?? '';
        item.accessibilityInformation = { label: t?.spoken ?? '' };
        item.tooltip = t ? `${t.spoken}\n${vscode.l10n.t('Measured locally in headless Chromium. Click for the waterfall and filmstrip.')}` : undefined;
        item.iconPath = new vscode.ThemeIcon('globe');
        item.id = `wpBench.c.${node.entry.kind}.${node.entry.slug}.visitor`;
        item.contextValue = 'visitor';
        if (local?.record.local.browser && !('unavailable' in local.record.local.browser)) item.command = { command: 'wpBench.showBrowserReport', title: vscode.l10n.t('Show What the Visitor Pays'), arguments: [{ kind: node.entry.kind, slug: node.entry.slug }] };
        return item;
      }
      case 'context': {
        const r = this.contextRecord(node.entry);
        const item = new vscode.TreeItem(contextLabel(node.context), vscode.TreeItemCollapsibleState.None);
        // A local measurement's line has its CPU instructions beside time when they were counted.
        const local = apiBenchmarked(this.bench.outcome(node.entry.kind, node.entry.slug)) ? undefined : this.bench.localResult(node.entry.kind, node.entry.slug);
        item.description = local ? localContextLine(local.record, node.context) : r ? contextLine(r, node.context) : '';
        item.id = `wpBench.c.${node.entry.kind}.${node.entry.slug}.${node.context}`;
        return item;
      }
    }
  }
}
