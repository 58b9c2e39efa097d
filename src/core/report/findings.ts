// The rules of `wp-bench check` and the findings of one component: what a report says about a component graded
// worse than the team accepts, not benchmarked, not in the dataset or not looked up. Pure: no I/O, no vscode.
import { formatAge, signedKb, signedMs, signedQueries } from '../present/format';
import type { ComponentKind, ContextMeasurement, ContextName } from '../model';
import { plainText } from './plain';
import type { BudgetMetric } from '../config/teamConfig';
import type { ComponentVerdict, JudgeConfig } from './verdict';

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

export const CONTEXT_LABEL: Record<ContextName, string> = { activation: 'activation', homepage: 'homepage', admin: 'admin' };

function describe(v: ComponentVerdict): string {
  const what = `${v.kind === 'plugin' ? 'Plugin' : 'Theme'} ${v.name && v.name !== v.slug ? `"${plainText(v.name, 80)}" (${v.slug})` : v.slug}`;
  return what;
}

function staleNote(v: ComponentVerdict, now: number): string {
  if (!v.stale || v.fetchedAt === null) return '';
  return ` (stale: cached ${formatAge(now - v.fetchedAt)})`;
}

function contextSummary(m: ContextMeasurement | null, ctx: ContextName): string {
  if (!m) return `not measured on the ${CONTEXT_LABEL[ctx]}`;
  return `${signedMs(m.ttfbDeltaMs)} TTFB, ${signedKb(m.memoryDeltaKb)}, ${signedQueries(m.queriesDelta)} on the ${CONTEXT_LABEL[ctx]}`;
}

export function componentFindings(v: ComponentVerdict, config: JudgeConfig, now: number): Finding[] {
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
