// The judgement of `wp-bench check`: which components are graded worse than the team accepts, whether the site
// total stays within its budgets, and what could not be judged. Pure: no I/O, no vscode.
import type { DetectedComponent, ScanProblem } from '../model';
import { addToTotal, siteTotal, type SiteTotal } from '../present/outcome';
import type { LookupOutcome } from '../lookup/lookupService';
import { componentFindings, type Finding, type ReportLocation } from './findings';
import { compareVerdicts, itemKey, verdictFor, withLocal, type ComponentState, type ComponentVerdict, type JudgeConfig, type SkipReason } from './verdict';
import { judgeBudgets, stackTotal, type BudgetVerdict } from './budgets';
import type { SiteRecord } from '../measure/siteRun/siteRecord';

// What the judgement is made of, where each part lives: the rules and a component's findings, the verdict per
// component, the budgets. Re-exported so that every report imports the judgement from here.
export { CONTEXT_LABEL, RULES, type Finding, type Level, type ReportLocation, type RuleId, type RuleInfo } from './findings';
export {
  compareVerdicts,
  isLocalOnly,
  itemKey,
  localKey,
  localLabel,
  orderedLocations,
  totalSources,
  type ComponentState,
  type ComponentVerdict,
  type JudgeConfig,
  type SkipReason,
  type UnknownReason,
} from './verdict';
export { budgetMissing, budgetUnit, METRIC_LABEL, type BudgetVerdict } from './budgets';

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
  /** The site's stack measured locally (`JudgeConfig.site`): the budgets were judged on it; every format shows it. */
  site?: SiteRecord;
}

export function judge(input: JudgeInput): Judgement {
  const now = input.now ?? Date.now();
  const { config } = input;
  const ignored = new Set(config.ignore);
  const kept = input.components.filter((c) => !ignored.has(c.slug));
  const verdicts = kept.map((c) => withLocal(verdictFor(c, input.outcomes.get(itemKey(c.kind, c.slug)), config, input.skipped), config)).sort(compareVerdicts);
  const findings: Finding[] = [];
  for (const v of verdicts) findings.push(...componentFindings(v, config, now));
  const total = siteTotal(verdicts.filter((v) => v.source === 'api').map((v) => v.outcome));
  // Local measurements count in the total, and the total says how many of its components they are.
  const locals = verdicts.filter((v) => v.source === 'local');
  for (const v of locals) addToTotal(total.contexts, v.contexts!);
  total.components = verdicts.length;
  total.local = locals.length;
  total.unknown = verdicts.length - total.benchmarked - locals.length;

  // The sum stays the site total; with the site measured as a whole, the budgets are judged on the stack as it runs.
  const judged = config.site
    ? judgeBudgets(stackTotal(config.site), config.budgets, input.budgetLocations, input.budgetLocation, 'stack')
    : judgeBudgets(total, config.budgets, input.budgetLocations, input.budgetLocation);
  const budgets = judged.budgets;
  findings.push(...judged.findings);

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
    ...(config.site ? { site: config.site } : {}),
  };
}
