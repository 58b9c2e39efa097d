// The verdict per component: its state (benchmarked, not benchmarked, not in the dataset, unknown and why), its grade
// against the team's minimum, its local measurement when the API has none, and the order reports list them in.
// Pure: no I/O, no vscode.
import { shortDatabase } from '../measure/database/database';
import { isWorseThan } from '../present/format';
import type { LookupOutcome } from '../lookup/lookupService';
import {
  CONTEXT_NAMES,
  type ComponentKind,
  type ComponentLocation,
  type ContextMeasurement,
  type ContextName,
  type DetectedComponent,
  type LookupDecision,
} from '../model';
import { compareWorstFirst, type SiteTotal } from '../present/outcome';
import type { Budget, GradeLetter } from '../config/teamConfig';
import type { LocalRecord } from '../measure/record/method';
import type { SiteRecord } from '../measure/siteRun/siteRecord';

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
  // The database when the record says it (records from before it was chosen ran on SQLite and say nothing).
  const db = r.local.database ? `, ${shortDatabase(r.local.database)}` : '';
  return `measured locally, PHP ${php}, WordPress ${r.local.wordpress_version}${db}, ${r.benchmarked_at.slice(0, 10)}`;
}

/** "12 from the benchmark API, 3 measured locally, 2 unknown": how much of a site total is local. */
export function totalSources(t: SiteTotal): string {
  return `${t.benchmarked} from the benchmark API, ${t.local ?? 0} measured locally, ${t.unknown} unknown`;
}

/** Key of `JudgeConfig.local`. */
export function localKey(kind: ComponentKind, slug: string): string {
  return `${kind}:${slug}`;
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
  /**
   * The site's whole stack measured locally (`check --measure-local --site`, `measure SITE --site`): the budgets are
   * judged on the stack as it runs instead of on the sum of the components' figures; every report shows it.
   */
  site?: SiteRecord;
  /** Why `site` is no longer the site's (the editor: a member's files changed since), said in every report. */
  siteStale?: string;
}

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

export function verdictFor(c: DetectedComponent, outcome: LookupOutcome | undefined, config: JudgeConfig, skipped?: Map<string, SkipReason>): ComponentVerdict {
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
    const skippedReason = never ?? skipped?.get(key);
    v.unknownReason = skippedReason ?? (outcome?.error ? 'error' : 'not-looked-up');
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
  const weights = config.contextWeights;
  if (weights) {
    let sum = 0;
    for (const ctx of CONTEXT_NAMES) sum += (r.contexts[ctx]?.ttfbDeltaMs ?? 0) * (weights[ctx] ?? 0);
    v.weightedTtfbMs = sum;
  }
  const failOn = config.failOn;
  v.failed = failOn !== null && isWorseThan(r.grade, failOn);
  return v;
}

/** A component without an API benchmark takes its local measurement, when there is one. */
export function withLocal(v: ComponentVerdict, config: JudgeConfig): ComponentVerdict {
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

/** Order of reports: worst first (compareWorstFirst), or by weighted TTFB when context weights are set. */
export function compareVerdicts(a: ComponentVerdict, b: ComponentVerdict): number {
  if (a.weightedTtfbMs !== null || b.weightedTtfbMs !== null) {
    const wa = a.weightedTtfbMs ?? -1;
    const wb = b.weightedTtfbMs ?? -1;
    if (wa !== wb) return wb - wa;
  }
  return compareWorstFirst(a, b) || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0);
}
