// The "Plugins & Themes" view: a site total, then Plugins and Themes worst first, each with its three contexts.
import * as vscode from 'vscode';
import { formatCount, plural } from '../core/format';
import { budgetLines } from '../core/report/formats';
import { accessibleSummary, compareWorstFirst, contextLabel, contextLine, siteTotal, siteTotalLine, summaryText } from '../core/present';
import { CONTEXT_NAMES, type ComponentKind, type ContextName, type ScanProblem } from '../core/model';
import { plainText } from '../core/report/judge';
import { lookupNote } from '../core/scan/lookup';
import type { Bench, ComponentEntry } from './bench';
import { hoverFor } from './hover';

export type Node =
  | { type: 'total' }
  | { type: 'total-context'; context: ContextName }
  | { type: 'group'; kind: ComponentKind }
  | { type: 'component'; entry: ComponentEntry }
  | { type: 'context'; entry: ComponentEntry; context: ContextName }
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
        return CONTEXT_NAMES.map((context) => ({ type: 'total-context', context }) as Node);
      case 'group':
        return this.visible(node.kind).map((entry) => ({ type: 'component', entry }) as Node);
      case 'problems':
        return this.bench.problems.map((problem) => ({ type: 'problem', problem }) as Node);
      case 'component': {
        const r = this.bench.outcome(node.entry.kind, node.entry.slug)?.result;
        return r?.state === 'benchmarked' ? CONTEXT_NAMES.map((context) => ({ type: 'context', entry: node.entry, context }) as Node) : [];
      }
      default:
        return [];
    }
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.type) {
      case 'total': {
        const total = siteTotal(this.bench.activeEntries.map((e) => this.bench.outcome(e.kind, e.slug)));
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
        ];
        // Budgets from the team's .wp-bench.json: the same verdict as `wp-bench check`.
        const judgement = this.bench.teamConfig && Object.keys(this.bench.teamConfig.config.budgets).length ? this.bench.judgement() : undefined;
        if (judgement?.budgets.length) {
          const over = judgement.budgets.filter((b) => b.exceeded).length;
          item.description = `${over ? vscode.l10n.t('over budget ({0})', over) : vscode.l10n.t('within budget')} · ${base}`;
          item.iconPath = new vscode.ThemeIcon(over ? 'error' : 'pass', new vscode.ThemeColor(over ? 'charts.red' : 'charts.green'));
          lines.push('', ...budgetLines(judgement).map((l) => `- ${l}`), '', vscode.l10n.t('_Budgets from .wp-bench.json._'));
        } else {
          item.description = base;
        }
        item.tooltip = new vscode.MarkdownString(lines.join('\n'));
        item.id = 'wpBench.total';
        item.contextValue = 'total';
        return item;
      }
      case 'total-context': {
        const total = siteTotal(this.bench.activeEntries.map((e) => this.bench.outcome(e.kind, e.slug)));
        const item = new vscode.TreeItem(contextLabel(node.context), vscode.TreeItemCollapsibleState.None);
        item.description = siteTotalLine(total.contexts[node.context]);
        item.id = `wpBench.total.${node.context}`;
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
        const name = result && result.state !== 'not-in-dataset' ? result.record.name : (entry.name ?? entry.slug);
        const item = new vscode.TreeItem(
          name,
          result?.state === 'benchmarked' ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
        );
        item.id = `wpBench.c.${entry.kind}.${entry.slug}`;
        const notInRepo = entry.locations.every((l) => l.source === 'theme-parent');
        const state = !outcome && entry.lookup !== 'yes' ? lookupNote(entry.lookup) : summaryText(outcome);
        item.description = notInRepo ? vscode.l10n.t('{0} · not in this repository', state) : state;
        const spoken = !outcome && entry.lookup !== 'yes' ? vscode.l10n.t('not looked up: {0}', lookupNote(entry.lookup)) : accessibleSummary(outcome);
        const label = entry.kind === 'plugin' ? vscode.l10n.t('{0}, plugin {1}, {2}', name, entry.slug, spoken) : vscode.l10n.t('{0}, theme {1}, {2}', name, entry.slug, spoken);
        item.accessibilityInformation = { label: notInRepo ? vscode.l10n.t('{0}, not in this repository', label) : label };
        item.tooltip = hoverFor(this.bench, entry);
        if (result?.state === 'benchmarked') item.iconPath = new vscode.ThemeIcon('circle-filled', gradeColor(result.record.grade));
        else if (outcome?.error && !result) item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
        else item.iconPath = new vscode.ThemeIcon('circle-outline');
        item.contextValue = result && result.state !== 'not-in-dataset' && result.record.profileUrl ? 'component.withProfile' : 'component';
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
      case 'context': {
        const r = this.bench.outcome(node.entry.kind, node.entry.slug)?.result;
        const item = new vscode.TreeItem(contextLabel(node.context), vscode.TreeItemCollapsibleState.None);
        item.description = r?.state === 'benchmarked' ? contextLine(r.record, node.context) : '';
        item.id = `wpBench.c.${node.entry.kind}.${node.entry.slug}.${node.context}`;
        return item;
      }
    }
  }
}
