// The judgement of `wp-bench check`: which components are graded worse than the team accepts, whether the site
// total stays within its budgets, and what could not be judged. Pure: no I/O, no vscode.
import { countNoun, formatAge, formatMemoryKb, formatMs, isWorseThan, signedKb, signedMs, signedQueries } from '../present/format';
import type { LookupOutcome } from '../lookup/lookupService';
import {
  CONTEXT_NAMES,
  type ComponentKind,
  type ComponentLocation,
  type ContextMeasurement,
  type ContextName,
  type DetectedComponent,
  type LookupDecision,
  type ScanProblem,
} from '../model';
import { addToTotal, compareWorstFirst, siteTotal, type SiteTotal } from '../present/outcome';
import { plainText } from './plain';
import type { Budget, BudgetMetric, GradeLetter } from '../config/teamConfig';
import type { LocalRecord } from '../measure/method';

export type RuleId = 'grade-below-threshold' | 'budget-exceeded' | 'not-benchmarked' | 'not-in-dataset' | 'not-looked-up' | 'scan-problem';
export type Level = 'error' | 'warning' | 'note';

export interface RuleInfo {
  id: RuleId;
  name: string;
  level: Level;
  short: string;
  full: string;
}

/** One rule per kind of judgement (the SARIF rules, in this order). */
export const RULES: readonly RuleInfo[] = [
  {
    id: 'grade-below-threshold',
    name: 'GradeBelowThreshold',
    level: 'error',
    short: 'Plugin or theme graded worse than the minimum grade',
    full: 'The component\'s WP Bench performance grade is worse than the minimum grade (--fail-on, or "minimumGrade" in .wp-bench.json). It fails the check.',
  },
  {
    id: 'budget-exceeded',
    name: 'BudgetExceeded',
    level: 'error',
    short: 'Site total exceeds a performance budget',
    full: 'The site total — the sum of the measured deltas of every plugin and theme in one context — is above a budget (--budget-*, or "budgets" in .wp-bench.json). Unmeasured components are not counted, so the real total can only be higher. It fails the check.',
  },
  {
    id: 'not-benchmarked',
    name: 'NotBenchmarked',
    level: 'note',
    short: 'Plugin or theme known but not benchmarked yet',
    full: 'WP Bench knows the component but has not measured it yet, so it is neither graded nor counted in the site total. Never a failure.',
  },
  {
    id: 'not-in-dataset',
    name: 'NotInDataset',
    level: 'note',
    short: 'Plugin or theme not in the benchmark dataset',
    full: 'The slug is not in the WP Bench dataset (a private, premium or renamed component), so it is neither graded nor counted in the site total. Never a failure; add it to "ignore" in .wp-bench.json to silence it.',
  },
  {
    id: 'not-looked-up',
    name: 'NotLookedUp',
    level: 'note',
    short: 'Plugin or theme not looked up',
    full: 'No answer is known for the component: it was beyond --max-requests, not cached in --offline mode, or its lookup failed. It is neither graded nor counted in the site total. Never a failure by itself (a failed lookup sets its own exit code).',
  },
  {
    id: 'scan-problem',
    name: 'ScanProblem',
    level: 'warning',
    short: 'A file the scan could not read, an entry it refused, or a note of the scan',
    full: 'Level warning: the scan could not read a file or refused an entry (a malformed composer.json, a theme folder without style.css, an empty submodule); what it declares is neither judged nor counted in the site total. Level note: information about the scan (a link that leads out of the workspace, an mu-plugins sub-folder that nothing loads); it leaves nothing uncounted. Never a failure.',
  },
];

export interface ReportLocation {
  /** Relative to the checked folder, forward slashes. */
  file: string;
  line: number;
  column: number;
  length?: number;
}

export interface Finding {
  ruleId: RuleId;
  level: Level;
  /** Plain text (API strings are included as they are: escape for the output format). */
  message: string;
  /** Primary location first; may be empty. */
  locations: ReportLocation[];
  kind?: ComponentKind;
  slug?: string;
  context?: ContextName;
  metric?: BudgetMetric;
}

export type ComponentState = 'benchmarked' | 'not-benchmarked' | 'not-in-dataset' | 'unknown';
export type UnknownReason = 'limit' | 'time' | 'timeouts' | 'offline' | 'local' | 'not-a-wordpress-org-slug' | 'not-from-wordpress-org' | 'outside-workspace' | 'error' | 'not-looked-up';

export interface ComponentVerdict {
  kind: ComponentKind;
  slug: string;
  name: string | null;
  version: string | null;
  locations: ComponentLocation[];
  state: ComponentState;
  grade: string | null;
  score: number | null;
  contexts: Record<ContextName, ContextMeasurement | null> | null;
  stale: boolean;
  fetchedAt: number | null;
  profileUrl: string | null;
  synthetic: boolean;
  unknownReason?: UnknownReason;
  error?: string;
  /** Graded worse than the fail-on grade. */
  failed: boolean;
  /** Σ weight × measured TTFB delta, when context weights are set. */
  weightedTtfbMs: number | null;
  outcome?: LookupOutcome;
  /**
   * Where the figures come from: the benchmark API, or a local measurement (`JudgeConfig.local`: a component the
   * API has no benchmark for, measured on this machine). Local figures are counted in the site total and never
   * graded (no grade the API did not give).
   */
  source: 'api' | 'local';
  /** source "local": the record, and how it is said everywhere ("measured locally, PHP 8.2, WordPress 6.1.9, 2026-11-25") */
  local?: LocalRecord;
  localLabel?: string;
}

/** How a local measurement is said in every report and surface (spelt out for screen readers too). */
export function localLabel(r: LocalRecord): string {
  const php = /^\d+\.\d+/.exec(r.local.php_version)?.[0] ?? r.local.php_version;
  return `measured locally, PHP ${php}, WordPress ${r.local.wordpress_version}, ${r.benchmarked_at.slice(0, 10)}`;
}

/** "12 from the benchmark API, 3 measured locally, 2 unknown": how much of a site total is local. */
export function totalSources(t: SiteTotal): string {
  return `${t.benchmarked} from the benchmark API, ${t.local ?? 0} measured locally, ${t.unknown} unknown`;
}

/** Key of `JudgeConfig.local`. */
export function localKey(kind: ComponentKind, slug: string): string {
  return `${kind}:${slug}`;
}

export interface BudgetVerdict {
  context: ContextName;
  metric: BudgetMetric;
  limit: number;
  /** Sum of the measured deltas, in the metric's unit (ms, MB, queries). */
  actual: number;
  exceeded: boolean;
  /** Benchmarked components without a measurement in this context. */
  notMeasured: number;
  /** Components without a benchmark at all (not benchmarked, not in dataset, not looked up). */
  unknown: number;
}

export interface JudgeConfig {
  /** Components graded worse than this fail; null: grades never fail. */
  failOn: GradeLetter | null;
  /** Context shown in reports. */
  context: ContextName;
  budgets: Partial<Record<ContextName, Budget>>;
  ignore: string[];
  contextWeights?: Record<ContextName, number>;
  /**
   * Local measurements (`wp-bench measure`, `check --measure-local`, the editor's Measure Locally), keyed
   * `${kind}:${slug}`: used for components the API has no benchmark for (never instead of the API's numbers),
   * marked `source: 'local'` and counted in the site total.
   */
  local?: ReadonlyMap<string, LocalRecord>;
  /** Keys of `local` whose component's files changed since it was measured: shown, marked stale. */
  localStale?: ReadonlySet<string>;
}

export interface JudgeInput {
  components: DetectedComponent[];
  /** Keyed `kind/slug`. */
  outcomes: Map<string, LookupOutcome>;
  config: JudgeConfig;
  /** Components deliberately not looked up (`kind/slug` → why). */
  skipped?: Map<string, SkipReason>;
  /** Where a budget result points, by `context.metric` (e.g. the .wp-bench.json line that set it). */
  budgetLocations?: Partial<Record<string, ReportLocation>>;
  /** Fallback location of budget results (the repository's composer.json, line 1), if any. */
  budgetLocation?: ReportLocation;
  /** The scan's problems, files relative to the checked folder: every report carries them. */
  problems?: readonly ScanProblem[];
  now?: number;
}

/** A problem of the scan as reports show it. */
export interface ReportProblem {
  file: string;
  line: number;
  column: number;
  message: string;
  severity: 'warning' | 'info';
}

export interface Judgement {
  components: ComponentVerdict[];
  findings: Finding[];
  total: SiteTotal;
  budgets: BudgetVerdict[];
  failed: boolean;
  config: JudgeConfig;
  counts: {
    components: number;
    /** benchmarked by the API */
    benchmarked: number;
    /** measured locally (JudgeConfig.local), counted in the site total */
    local: number;
    notBenchmarked: number;
    notInDataset: number;
    unknown: number;
    stale: number;
    ignored: number;
    gradeFailures: number;
    budgetFailures: number;
    /** Everything the scan reported (problems and notes): the length of `problems`. */
    problems: number;
    /** Problems that left a component or file uncounted (severity `warning`: a theme folder without style.css, a file not read). */
    uncounted: number;
    /** Notes of the scan (severity `info`): information only; what they concern is counted or listed elsewhere, or not part of the site. */
    notes: number;
  };
  /** Some records are the emulator's synthetic data. */
  synthetic: boolean;
  /** The scan's problems (files it could not read, entries it refused), in file order. */
  problems: ReportProblem[];
}

export const CONTEXT_LABEL: Record<ContextName, string> = { activation: 'activation', homepage: 'homepage', admin: 'admin' };

export type SkipReason = 'limit' | 'time' | 'timeouts' | 'offline' | 'local';

/**
 * Never looked up, as in the extension: only headers declare it and their Update URI says it is not the
 * wordpress.org item (a fork, or a custom plugin with a w.org-like slug), so its numbers would be another's.
 */
export function isLocalOnly(c: { possibleFork?: boolean; lookup?: LookupDecision; locations: readonly { source: string }[] }): boolean {
  if (c.lookup !== undefined) return c.lookup !== 'yes' && c.lookup !== 'ignored';
  return c.possibleFork === true && c.locations.every((l) => l.source === 'plugin-header' || l.source === 'theme-header' || l.source === 'mu-plugin');
}

export function itemKey(kind: ComponentKind, slug: string): string {
  return `${kind}/${slug}`;
}


const SOURCE_PREFERENCE: Record<ComponentLocation['source'], number> = {
  'composer.json': 0,
  'plugin-header': 1,
  'theme-header': 1,
  'mu-plugin': 2,
  'wp-env': 3,
  blueprint: 3,
  'vip-load-plugin': 3,
  'composer.lock': 4,
  'theme-parent': 5,
};

/** Declaring locations, the one to annotate first: composer.json entry, then headers, mu-plugins, .wp-env.json, the lock. */
export function orderedLocations(locations: ComponentLocation[]): ComponentLocation[] {
  return [...locations].sort((a, b) => SOURCE_PREFERENCE[a.source] - SOURCE_PREFERENCE[b.source] || (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}

export function budgetUnit(metric: BudgetMetric, value: number): string {
  if (metric === 'ttfbMs') return formatMs(value);
  if (metric === 'memoryMb') return formatMemoryKb(value * 1024);
  return countNoun(Math.round(value), 'query', 'queries');
}

export const METRIC_LABEL: Record<BudgetMetric, string> = { ttfbMs: 'TTFB', memoryMb: 'memory', queries: 'queries' };

function describe(v: ComponentVerdict): string {
  const what = `${v.kind === 'plugin' ? 'Plugin' : 'Theme'} ${v.name && v.name !== v.slug ? `"${plainText(v.name, 80)}" (${v.slug})` : v.slug}`;
  return what;
}

function verdictFor(c: DetectedComponent, outcome: LookupOutcome | undefined, input: JudgeInput): ComponentVerdict {
  const key = itemKey(c.kind, c.slug);
  const result = outcome?.result;
  const v: ComponentVerdict = {
    kind: c.kind,
    slug: c.slug,
    name: c.name,
    version: c.version,
    locations: orderedLocations(c.locations),
    state: 'unknown',
    grade: null,
    score: null,
    contexts: null,
    stale: outcome?.stale === true && result !== undefined,
    fetchedAt: result && outcome?.fetchedAt !== undefined ? outcome.fetchedAt : null,
    profileUrl: null,
    synthetic: false,
    failed: false,
    weightedTtfbMs: null,
    outcome,
    source: 'api',
  };
  if (outcome?.error) v.error = outcome.error.message;
  if (!result) {
    // Never looked up (the scan's lookup decision) wins over why a lookup was skipped in this run.
    const never: UnknownReason | undefined = !isLocalOnly(c) ? undefined : c.lookup === 'not-a-wordpress-org-slug' || c.lookup === 'not-from-wordpress-org' || c.lookup === 'outside-workspace' ? c.lookup : 'local';
    const skipped = never ?? input.skipped?.get(key);
    v.unknownReason = skipped ?? (outcome?.error ? 'error' : 'not-looked-up');
    return v;
  }
  if (result.state === 'not-in-dataset') {
    v.state = 'not-in-dataset';
    return v;
  }
  const r = result.record;
  v.name = r.name || c.name;
  v.profileUrl = r.profileUrl;
  v.synthetic = r.synthetic === true;
  if (result.state === 'not-benchmarked') {
    v.state = 'not-benchmarked';
    return v;
  }
  v.state = 'benchmarked';
  v.grade = r.grade;
  v.score = r.score;
  v.contexts = r.contexts;
  const weights = input.config.contextWeights;
  if (weights) {
    let sum = 0;
    for (const ctx of CONTEXT_NAMES) sum += (r.contexts[ctx]?.ttfbDeltaMs ?? 0) * (weights[ctx] ?? 0);
    v.weightedTtfbMs = sum;
  }
  const failOn = input.config.failOn;
  v.failed = failOn !== null && isWorseThan(r.grade, failOn);
  return v;
}

/** A component without an API benchmark takes its local measurement, when there is one. */
function withLocal(v: ComponentVerdict, config: JudgeConfig): ComponentVerdict {
  if (v.state === 'benchmarked') return v;
  const r = config.local?.get(localKey(v.kind, v.slug));
  if (!r) return v;
  const contexts = Object.fromEntries(
    CONTEXT_NAMES.map((c) => {
      const m = r.contexts[c];
      return [c, m ? { ttfbDeltaMs: m.ttfb_delta_ms, memoryDeltaKb: m.memory_delta_kb, queriesDelta: m.queries_delta } : null];
    }),
  ) as Record<ContextName, ContextMeasurement | null>;
  let weighted: number | null = null;
  if (config.contextWeights) weighted = CONTEXT_NAMES.reduce((sum, c) => sum + (contexts[c]?.ttfbDeltaMs ?? 0) * (config.contextWeights![c] ?? 0), 0);
  return { ...v, state: 'benchmarked', source: 'local', local: r, localLabel: localLabel(r), contexts, grade: null, score: null, failed: false, stale: config.localStale?.has(localKey(v.kind, v.slug)) ?? false, weightedTtfbMs: weighted, name: v.name ?? r.name, unknownReason: undefined };
}

function staleNote(v: ComponentVerdict, now: number): string {
  if (!v.stale || v.fetchedAt === null) return '';
  return ` (stale: cached ${formatAge(now - v.fetchedAt)})`;
}

function contextSummary(m: ContextMeasurement | null, ctx: ContextName): string {
  if (!m) return `not measured on the ${CONTEXT_LABEL[ctx]}`;
  return `${signedMs(m.ttfbDeltaMs)} TTFB, ${signedKb(m.memoryDeltaKb)}, ${signedQueries(m.queriesDelta)} on the ${CONTEXT_LABEL[ctx]}`;
}

function componentFindings(v: ComponentVerdict, config: JudgeConfig, now: number): Finding[] {
  const locations: ReportLocation[] = v.locations.map((l) => ({ file: l.file, line: l.line, column: l.column, length: l.length }));
  const base = { kind: v.kind, slug: v.slug, locations };
  const synthetic = v.synthetic ? ' [synthetic data]' : '';
  const stale = staleNote(v, now);
  switch (v.state) {
    case 'benchmarked':
      if (!v.failed) return [];
      return [
        {
          ...base,
          ruleId: 'grade-below-threshold',
          level: 'error',
          message: `${describe(v)} is graded ${plainText(v.grade ?? '?', 8)} (score ${v.score ?? '?'}), worse than the minimum grade ${config.failOn}: ${contextSummary(v.contexts?.[config.context] ?? null, config.context)}.${stale}${synthetic}`,
        },
      ];
    case 'not-benchmarked':
      return [{ ...base, ruleId: 'not-benchmarked', level: 'note', message: `${describe(v)} is known to WP Bench but not benchmarked yet; it is not counted in the site total.${stale}${synthetic}` }];
    case 'not-in-dataset':
      return [{ ...base, ruleId: 'not-in-dataset', level: 'note', message: `${describe(v)} is not in the WP Bench dataset; it is not counted in the site total.${stale}` }];
    default: {
      const why =
        v.unknownReason === 'limit'
          ? 'it was beyond --max-requests'
          : v.unknownReason === 'time'
            ? 'the run reached its time limit (--timeout-s) before it was asked'
            : v.unknownReason === 'timeouts'
              ? 'sending stopped after 3 timeouts in a row (the server is too slow)'
          : v.unknownReason === 'offline'
            ? 'it is not in the cache (--offline)'
            : v.unknownReason === 'local'
              ? 'its header\'s Update URI says it is not the wordpress.org item (a fork or a custom plugin), so it is never looked up'
              : v.unknownReason === 'not-a-wordpress-org-slug'
                ? 'its folder or file name is not a wordpress.org slug, so it cannot be a wordpress.org item and is never looked up'
                : v.unknownReason === 'not-from-wordpress-org'
                  ? 'it is a must-use plugin and nothing says it is the wordpress.org item, so it is never looked up'
                : v.unknownReason === 'outside-workspace'
                  ? 'it was found through a symbolic link to a folder outside the workspace, so its name is never sent'
              : v.unknownReason === 'error'
              ? `the lookup failed: ${plainText(v.error ?? 'error', 200)}`
              : 'it was not looked up';
      return [{ ...base, ruleId: 'not-looked-up', level: v.unknownReason === 'error' ? 'warning' : 'note', message: `${describe(v)} has no benchmark answer: ${why}. It is not counted in the site total.` }];
    }
  }
}

/** Order of reports: worst first (compareWorstFirst), or by weighted TTFB when context weights are set. */
export function compareVerdicts(a: ComponentVerdict, b: ComponentVerdict): number {
  if (a.weightedTtfbMs !== null || b.weightedTtfbMs !== null) {
    const wa = a.weightedTtfbMs ?? -1;
    const wb = b.weightedTtfbMs ?? -1;
    if (wa !== wb) return wb - wa;
  }
  return compareWorstFirst(a, b) || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0);
}

export function judge(input: JudgeInput): Judgement {
  const now = input.now ?? Date.now();
  const { config } = input;
  const ignored = new Set(config.ignore);
  const kept = input.components.filter((c) => !ignored.has(c.slug));
  const verdicts = kept.map((c) => withLocal(verdictFor(c, input.outcomes.get(itemKey(c.kind, c.slug)), input), config)).sort(compareVerdicts);
  const findings: Finding[] = [];
  for (const v of verdicts) findings.push(...componentFindings(v, config, now));
  const total = siteTotal(verdicts.filter((v) => v.source === 'api').map((v) => v.outcome));
  // Local measurements count in the total, and the total says how many of its components they are.
  const locals = verdicts.filter((v) => v.source === 'local');
  for (const v of locals) addToTotal(total.contexts, v.contexts!);
  total.components = verdicts.length;
  total.local = locals.length;
  total.unknown = verdicts.length - total.benchmarked - locals.length;

  const budgets: BudgetVerdict[] = [];
  for (const ctx of CONTEXT_NAMES) {
    const budget = config.budgets[ctx];
    if (!budget) continue;
    const t = total.contexts[ctx];
    for (const metric of ['ttfbMs', 'memoryMb', 'queries'] as const) {
      const limit = budget[metric];
      if (limit === undefined) continue;
      const actual = metric === 'ttfbMs' ? t.ttfbDeltaMs : metric === 'memoryMb' ? t.memoryDeltaKb / 1024 : t.queriesDelta;
      const verdict: BudgetVerdict = { context: ctx, metric, limit, actual, exceeded: actual > limit, notMeasured: t.notMeasured, unknown: total.unknown };
      budgets.push(verdict);
      if (!verdict.exceeded) continue;
      const loc = input.budgetLocations?.[`${ctx}.${metric}`] ?? input.budgetLocation;
      const missing = [
        verdict.notMeasured ? `${verdict.notMeasured} not measured in this context` : null,
        verdict.unknown ? `${verdict.unknown} without a benchmark` : null,
      ].filter(Boolean);
      findings.push({
        ruleId: 'budget-exceeded',
        level: 'error',
        message: `The site total on the ${CONTEXT_LABEL[ctx]} adds ${budgetUnit(metric, actual)}${metric === 'queries' ? '' : ` ${METRIC_LABEL[metric]}`}, over the budget of ${budgetUnit(metric, limit)}${missing.length ? ` (${missing.join(', ')}: not counted, so the real total can only be higher)` : ''}.`,
        locations: loc ? [loc] : [],
        context: ctx,
        metric,
      });
    }
  }

  const problems: ReportProblem[] = (input.problems ?? [])
    .map((p) => ({ file: p.file, line: p.line, column: p.column, message: p.message, severity: p.severity ?? ('warning' as const) }))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  const count = (s: ComponentState) => verdicts.filter((v) => v.state === s).length;
  const gradeFailures = verdicts.filter((v) => v.failed).length;
  const budgetFailures = budgets.filter((b) => b.exceeded).length;
  return {
    components: verdicts,
    findings,
    total,
    budgets,
    failed: gradeFailures > 0 || budgetFailures > 0,
    config,
    counts: {
      components: verdicts.length,
      benchmarked: verdicts.filter((v) => v.state === 'benchmarked' && v.source === 'api').length,
      local: verdicts.filter((v) => v.source === 'local').length,
      notBenchmarked: count('not-benchmarked'),
      notInDataset: count('not-in-dataset'),
      unknown: count('unknown'),
      stale: verdicts.filter((v) => v.stale).length,
      ignored: input.components.length - kept.length,
      gradeFailures,
      budgetFailures,
      problems: problems.length,
      uncounted: problems.filter((p) => p.severity !== 'info').length,
      notes: problems.filter((p) => p.severity === 'info').length,
    },
    synthetic: verdicts.some((v) => v.synthetic),
    problems,
  };
}
