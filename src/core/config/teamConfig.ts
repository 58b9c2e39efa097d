// Team configuration: `.wp-bench.json` at the repository root, shared by everyone working on a site.
// Read by the CLI (`wp-bench check`) and the extension. It can set judgement settings only — minimum grade,
// budgets, ignored slugs, the default context and context weights — and never the API address or the key:
// a repository must not be able to send anyone's key elsewhere.
// Plain TypeScript: no vscode.
import { isListableName } from '../scan/lookup';
import { l10n } from '../l10n';
import { constants as fsConstants, promises as fs, stat as statCallback, type Stats } from 'node:fs';
import * as path from 'node:path';
import type { Node } from 'jsonc-parser';
import { CONTEXT_NAMES, isValidSlug, type ContextName, type ScanProblem } from '../model';
import { LineIndex, parseJsonTree, problemAt } from '../scan/text';
import { BROWSER_FIGURES, type BrowserFigure } from '../measure/compare/comparison';

export const TEAM_CONFIG_FILE = '.wp-bench.json';
/** A larger team config is refused (it is a handful of settings). */
export const TEAM_CONFIG_MAX_BYTES = 256 * 1024;

export const GRADE_LETTERS = ['A', 'B', 'C', 'D', 'E', 'F'] as const;
export type GradeLetter = (typeof GRADE_LETTERS)[number];

export type BudgetMetric = 'ttfbMs' | 'memoryMb' | 'queries';
export const BUDGET_METRICS: readonly BudgetMetric[] = ['ttfbMs', 'memoryMb', 'queries'];

/** Upper bounds on the site total (sum of measured deltas) for one context. */
export type Budget = Partial<Record<BudgetMetric, number>>;

export interface TeamConfig {
  /** Components graded worse than this letter fail `check` and get a diagnostic in the extension. */
  minimumGrade?: GradeLetter;
  budgets: Partial<Record<ContextName, Budget>>;
  /** Slugs never looked up, judged or counted in the site total. */
  ignore: string[];
  /** Context the CLI's budget flags and reports use by default. */
  context?: ContextName;
  /** Weights used only to order components "worst first" in reports (never to judge). */
  contextWeights?: Record<ContextName, number>;
  /**
   * 1-based positions of the settings in the file, keyed by path (`minimumGrade`, `budgets.homepage.ttfbMs`, …),
   * so reports can point at the line that set a budget.
   */
  positions: Record<string, { line: number; column: number }>;
  /** `wp-bench measure --baseline-ref`: maximum regression in percent and per-context ceilings of the component. */
  measure?: MeasureSettings;
  /** The file read, relative to the root (forward slashes); absent when there is none. */
  file?: string;
}

export interface MeasureSettings {
  /** Largest allowed increase of an added cost, in percent of the baseline's (a noise floor applies too). */
  maxRegressionPercent?: number;
  /**
   * `--instructions`: the largest allowed increase of the CPU instructions of a request, in percent of the whole
   * request's count at the baseline ref (default 0.25); an increase within the run's spread never fails.
   */
  instructions?: number;
  /** Upper bounds on the measured component's own added cost, per context (ttfbMs, memoryMb, queries). */
  ceilings: Partial<Record<ContextName, Budget>>;
  /**
   * `--browser`: upper bounds on what the component adds to the homepage in the browser at the working tree
   * (bytes_kb, requests, render_blocking, fcp_ms, lcp_ms, tbt_ms, cls; the record's names and units).
   */
  browser?: Partial<Record<BrowserFigure, number>>;
}

export function emptyTeamConfig(): TeamConfig {
  return { budgets: {}, ignore: [], positions: {} };
}

/** Keys a team config can never set: they decide where the key goes. */
const REFUSED_KEYS = new Set(['apiurl', 'apikey', 'key', 'api', 'url', 'token', 'wpbench.apiurl']);
const KNOWN_KEYS = new Set(['$schema', 'minimumGrade', 'budgets', 'ignore', 'context', 'contextWeights', 'measure']);

function isContext(v: unknown): v is ContextName {
  return typeof v === 'string' && (CONTEXT_NAMES as readonly string[]).includes(v);
}

/**
 * Parses the text of a `.wp-bench.json`. Never throws: every unusable part is a problem (file, line), the rest is
 * used; malformed JSON gives the defaults. Comments and trailing commas are accepted (it is edited by hand).
 */
export function parseTeamConfig(text: string, file: string): { config: TeamConfig; problems: ScanProblem[] } {
  const problems: ScanProblem[] = [];
  const config: TeamConfig = { ...emptyTeamConfig(), file };
  const index = new LineIndex(text);
  const at = (node: Node, message: string) => problems.push(problemAt(file, index, node.offset, message));
  const mark = (key: string, node: Node) => {
    config.positions[key] = index.position(node.offset);
  };
  const syntax: ScanProblem[] = [];
  const root = parseJsonTree(text, file, index, syntax, { disallowComments: false, allowTrailingComma: true, allowEmptyContent: true });
  if (syntax.length) {
    problems.push(...syntax.map((p) => ({ ...p, message: l10n.t('{0}; the team config is not used', p.message) })));
    return { config: { ...emptyTeamConfig(), file }, problems };
  }
  if (!root) return { config, problems };
  if (root.type !== 'object') {
    at(root, l10n.t('The team config must be a JSON object; it is not used'));
    return { config, problems };
  }
  for (const prop of root.children ?? []) {
    const [keyNode, value] = prop.children ?? [];
    if (!keyNode || typeof keyNode.value !== 'string' || !value) continue;
    const key = keyNode.value;
    if (REFUSED_KEYS.has(key.toLowerCase())) {
      at(keyNode, l10n.t('"{0}" is refused: the team config can never set the API address or the API key (use your own settings or WPBENCH_API_URL / WPBENCH_API_KEY)', key));
      continue;
    }
    if (!KNOWN_KEYS.has(key)) {
      at(keyNode, l10n.t('Unknown setting "{0}" is ignored (known: minimumGrade, budgets, ignore, context, contextWeights, measure)', key.slice(0, 60)));
      continue;
    }
    switch (key) {
      case '$schema':
        break;
      case 'minimumGrade': {
        const g = typeof value.value === 'string' ? value.value.trim().toUpperCase() : '';
        if (value.type === 'string' && (GRADE_LETTERS as readonly string[]).includes(g)) {
          config.minimumGrade = g as GradeLetter;
          mark('minimumGrade', keyNode);
        } else at(value, l10n.t('minimumGrade must be one of "A", "B", "C", "D", "E", "F"'));
        break;
      }
      case 'context':
        if (isContext(value.value) && value.type === 'string') {
          config.context = value.value;
          mark('context', keyNode);
        } else at(value, l10n.t('context must be "activation", "homepage" or "admin"'));
        break;
      case 'ignore':
        if (value.type !== 'array') {
          at(value, l10n.t('ignore must be an array of slugs'));
          break;
        }
        for (const item of value.children ?? []) {
          // A wordpress.org slug, or any folder name WordPress lists (a premium `Divi`, `LayerSlider`).
          if (item.type === 'string' && (isValidSlug(item.value) || isListableName(item.value))) config.ignore.push(item.value);
          else at(item, l10n.t('ignore entries must be plugin or theme slugs or folder names (no "/", "\\" or control characters)'));
        }
        break;
      case 'budgets':
        readBudgets(value, config, at, mark);
        break;
      case 'contextWeights':
        readWeights(value, config, at, mark, keyNode);
        break;
      case 'measure':
        readMeasure(value, config, at, mark);
        break;
    }
  }
  return { config, problems };
}

function readMeasure(value: Node, config: TeamConfig, at: (n: Node, m: string) => void, mark: (k: string, n: Node) => void): void {
  if (value.type !== 'object') {
    at(value, l10n.t('measure must be an object with maxRegressionPercent, instructions, ceilings and/or browser'));
    return;
  }
  const settings: MeasureSettings = { ceilings: {} };
  for (const prop of value.children ?? []) {
    const [kNode, vNode] = prop.children ?? [];
    if (!kNode || !vNode) continue;
    if (kNode.value === 'maxRegressionPercent') {
      if (vNode.type !== 'number' || !Number.isFinite(vNode.value) || vNode.value < 0 || vNode.value > 10000) {
        at(vNode, l10n.t('measure.maxRegressionPercent must be a number from 0 to 10000'));
        continue;
      }
      settings.maxRegressionPercent = vNode.value;
      mark('measure.maxRegressionPercent', kNode);
    } else if (kNode.value === 'instructions') {
      if (vNode.type !== 'number' || !Number.isFinite(vNode.value) || vNode.value < 0 || vNode.value > 100) {
        at(vNode, l10n.t('measure.instructions must be a number from 0 to 100 (percent of the request at the baseline ref)'));
        continue;
      }
      settings.instructions = vNode.value;
      mark('measure.instructions', kNode);
    } else if (kNode.value === 'ceilings') {
      const holder = { ...emptyTeamConfig(), budgets: settings.ceilings };
      readBudgets(vNode, holder, at, (k, n) => mark(`measure.${k.replace(/^budgets\./, 'ceilings.')}`, n), 'measure.ceilings');
    } else if (kNode.value === 'browser') {
      const browser = readBrowserBudgets(vNode, at, mark);
      if (browser) settings.browser = browser;
    } else {
      at(kNode, l10n.t('Unknown setting "measure.{0}" is ignored (known: maxRegressionPercent, instructions, ceilings, browser)', String(kNode.value).slice(0, 40)));
    }
  }
  config.measure = settings;
}

/** `measure.browser`: a number ≥ 0 per browser figure (requests and render_blocking whole); each at its line. */
function readBrowserBudgets(value: Node, at: (n: Node, m: string) => void, mark: (k: string, n: Node) => void): Partial<Record<BrowserFigure, number>> | undefined {
  const names = BROWSER_FIGURES.join(', ');
  if (value.type !== 'object') {
    at(value, l10n.t('measure.browser must be an object of budgets ({0})', names));
    return undefined;
  }
  const out: Partial<Record<BrowserFigure, number>> = {};
  for (const prop of value.children ?? []) {
    const [kNode, vNode] = prop.children ?? [];
    if (!kNode || !vNode) continue;
    const f = kNode.value as BrowserFigure;
    if (!(BROWSER_FIGURES as readonly string[]).includes(f)) {
      at(kNode, l10n.t('Unknown figure "{0}" in measure.browser is ignored (use {1})', String(kNode.value).slice(0, 40), names));
      continue;
    }
    const whole = f === 'requests' || f === 'render_blocking';
    if (vNode.type !== 'number' || !Number.isFinite(vNode.value) || vNode.value < 0 || (whole && !Number.isInteger(vNode.value))) {
      at(vNode, whole ? l10n.t('measure.browser.{0} must be a whole number ≥ 0', f) : l10n.t('measure.browser.{0} must be a number ≥ 0', f));
      continue;
    }
    out[f] = vNode.value;
    mark(`measure.browser.${f}`, kNode);
  }
  return Object.keys(out).length ? out : undefined;
}

function readBudgets(value: Node, config: TeamConfig, at: (n: Node, m: string) => void, mark: (k: string, n: Node) => void, name = 'budgets'): void {
  if (value.type !== 'object') {
    at(value, l10n.t('{0} must be an object keyed by context ("activation", "homepage", "admin")', name));
    return;
  }
  for (const prop of value.children ?? []) {
    const [ctxNode, budgetNode] = prop.children ?? [];
    if (!ctxNode || !budgetNode) continue;
    if (!isContext(ctxNode.value)) {
      at(ctxNode, l10n.t('Unknown context "{0}" in {1} is ignored (use "activation", "homepage" or "admin")', String(ctxNode.value).slice(0, 40), name));
      continue;
    }
    const ctx = ctxNode.value;
    if (budgetNode.type !== 'object') {
      at(budgetNode, l10n.t('{0}.{1} must be an object with ttfbMs, memoryMb and/or queries', name, ctx));
      continue;
    }
    const budget: Budget = {};
    for (const p of budgetNode.children ?? []) {
      const [mNode, vNode] = p.children ?? [];
      if (!mNode || !vNode) continue;
      const metric = mNode.value as string;
      if (!(BUDGET_METRICS as readonly string[]).includes(metric)) {
        at(mNode, l10n.t('Unknown metric "{0}" in {1}.{2} is ignored (use ttfbMs, memoryMb, queries)', String(metric).slice(0, 40), name, ctx));
        continue;
      }
      if (vNode.type !== 'number' || !Number.isFinite(vNode.value) || vNode.value < 0) {
        at(vNode, l10n.t('{0}.{1}.{2} must be a number ≥ 0', name, ctx, metric));
        continue;
      }
      budget[metric as BudgetMetric] = vNode.value;
      mark(`budgets.${ctx}.${metric}`, mNode);
    }
    if (Object.keys(budget).length) config.budgets[ctx] = budget;
  }
}

function readWeights(
  value: Node,
  config: TeamConfig,
  at: (n: Node, m: string) => void,
  mark: (k: string, n: Node) => void,
  keyNode: Node,
): void {
  if (value.type !== 'object') {
    at(value, l10n.t('contextWeights must be an object like {"activation": 0, "homepage": 3, "admin": 1}'));
    return;
  }
  const weights: Record<ContextName, number> = { activation: 0, homepage: 0, admin: 0 };
  let any = false;
  for (const prop of value.children ?? []) {
    const [cNode, wNode] = prop.children ?? [];
    if (!cNode || !wNode) continue;
    if (!isContext(cNode.value)) {
      at(cNode, l10n.t('Unknown context "{0}" in contextWeights is ignored', String(cNode.value).slice(0, 40)));
      continue;
    }
    if (wNode.type !== 'number' || !Number.isFinite(wNode.value) || wNode.value < 0) {
      at(wNode, l10n.t('contextWeights.{0} must be a number ≥ 0', cNode.value));
      continue;
    }
    weights[cNode.value] = wNode.value;
    any = true;
  }
  if (any) {
    config.contextWeights = weights;
    mark('contextWeights', keyNode);
  }
}

/** Reads `<root>/.wp-bench.json`; a missing file gives the defaults and no problem. */
export async function loadTeamConfig(root: string): Promise<{ config: TeamConfig; problems: ScanProblem[] }> {
  const file = path.join(root, TEAM_CONFIG_FILE);
  let handle: fs.FileHandle;
  try {
    // stat (following links) before opening: a FIFO, socket or device named .wp-bench.json is never opened (a
    // blocking open of a FIFO would hang `check` and the extension host); the open is non-blocking as well.
    // The callback stat: a folder without the file (most) never loads fs/promises (about 1 ms of a `wp-bench scan`).
    const st = await new Promise<Stats>((resolve, reject) => statCallback(file, (err, s) => (err ? reject(err) : resolve(s))));
    if (!st.isFile()) {
      return { config: emptyTeamConfig(), problems: [{ file: TEAM_CONFIG_FILE, line: 1, column: 1, message: l10n.t('The team config is not a regular file (a FIFO, socket, device or folder); it was not opened and is not used') }] };
    }
    handle = await fs.open(file, process.platform === 'win32' ? 'r' : fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { config: emptyTeamConfig(), problems: [] };
    return { config: emptyTeamConfig(), problems: [{ file: TEAM_CONFIG_FILE, line: 1, column: 1, message: l10n.t('Could not read the team config: {0}', code ?? 'error') }] };
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { config: emptyTeamConfig(), problems: [{ file: TEAM_CONFIG_FILE, line: 1, column: 1, message: l10n.t('The team config is not a file; it is not used') }] };
    if (stat.size > TEAM_CONFIG_MAX_BYTES) {
      return { config: emptyTeamConfig(), problems: [{ file: TEAM_CONFIG_FILE, line: 1, column: 1, message: l10n.t('The team config is larger than {0} KiB; it is not used', TEAM_CONFIG_MAX_BYTES / 1024) }] };
    }
    const text = (await handle.readFile('utf8')).replace(/^\uFEFF/, '');
    return parseTeamConfig(text, TEAM_CONFIG_FILE);
  } finally {
    await handle.close();
  }
}
