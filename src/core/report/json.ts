// The JSON report of a check (stable, documented in the README).
import { CONTEXT_NAMES, isoTime } from '../model';
import { totalSources, type ComponentVerdict, type Finding, type Judgement } from './judge';
import type { RenderOptions } from './reportText';
import type { LocalRecord } from '../measure/record/method';

/** Version of the JSON shape; bumped only on an incompatible change. */
export const JSON_REPORT_VERSION = 1;

function contextsJson(v: ComponentVerdict) {
  return v.contexts ? Object.fromEntries(CONTEXT_NAMES.map((c) => [c, v.contexts![c] ? { ...v.contexts![c]! } : null])) : null;
}

/** `check --measure-local --instructions`: how the counts were taken, the contexts that varied, and each context's figures. */
function instructionsJson(r: LocalRecord) {
  const how = r.local.instructions!;
  const contexts = Object.fromEntries(
    CONTEXT_NAMES.map((c) => {
      const delta = r.contexts[c]?.instructions_delta;
      return [c, typeof delta === 'number' ? { delta, clean: r.local.baseline[c]?.instructions ?? null, spread: r.local.spread[c]?.instructions ?? null } : null];
    }),
  );
  return { ...how, varying: how.varying ?? [], contexts };
}

function componentJson(v: ComponentVerdict, findings: Finding[]) {
  return {
    kind: v.kind,
    slug: v.slug,
    name: v.name,
    version: v.version,
    state: v.state,
    grade: v.grade,
    score: v.score,
    failed: v.failed,
    stale: v.stale,
    fetchedAt: isoTime(v.fetchedAt),
    synthetic: v.synthetic,
    unknownReason: v.unknownReason ?? null,
    source: v.source,
    local: v.local ? { label: v.localLabel, runtime: v.local.local.runtime, php_version: v.local.local.php_version, wordpress_version: v.local.local.wordpress_version, measured_at: v.local.benchmarked_at, rounds: v.local.local.rounds, database: v.local.local.database ?? null, estimated_grade: v.local.speed_score?.grade ?? null, ...(v.local.findings ? { findings: v.local.findings, findings_root: v.local.findings_root ?? null } : {}), ...(v.local.local.instructions ? { instructions: instructionsJson(v.local) } : {}) } : null,
    contexts: contextsJson(v),
    profileUrl: v.profileUrl,
    locations: v.locations.map((l) => ({ file: l.file, line: l.line, column: l.column, source: l.source })),
    findings: findings.filter((f) => f.kind === v.kind && f.slug === v.slug).map((f) => ({ ruleId: f.ruleId, level: f.level, message: f.message })),
  };
}

function totalJson(t: Judgement['total']) {
  return {
    ...Object.fromEntries(CONTEXT_NAMES.map((c) => [c, { ...t.contexts[c] }])),
    components: t.components,
    benchmarked: t.benchmarked,
    local: t.local ?? 0,
    unknown: t.unknown,
    sources: totalSources(t),
  };
}

/** The JSON report (shape documented in the README; `version` changes only on an incompatible change). */
export function toJson(j: Judgement, opts: RenderOptions = {}): string {
  const d = opts.diff;
  const body: Record<string, unknown> = {
    version: JSON_REPORT_VERSION,
    passed: !j.failed,
    failOn: j.config.failOn,
    context: j.config.context,
    counts: { ...j.counts },
    siteTotal: totalJson(j.total),
    budgets: j.budgets.map((b) => ({ ...b })),
    components: j.components.map((v) => componentJson(v, j.findings)),
    findings: j.findings.map((f) => ({ ruleId: f.ruleId, level: f.level, message: f.message, kind: f.kind ?? null, slug: f.slug ?? null, context: f.context ?? null, metric: f.metric ?? null, locations: f.locations.map((l) => ({ file: l.file, line: l.line, column: l.column })) })),
    problems: j.problems.map((p) => ({ ...p })),
  };
  // The site's stack measured locally (check --measure-local --site): the record as `measure SITE --site --json` prints it.
  if (j.site) body.site = j.config.siteStale ? { ...j.site, stale: j.config.siteStale } : j.site;
  if (d) {
    const lite = (v: ComponentVerdict) => ({ kind: v.kind, slug: v.slug, name: v.name, version: v.version, state: v.state, grade: v.grade, contexts: contextsJson(v) });
    body.diff = {
      ref: d.ref,
      headline: d.headline,
      added: d.added.map(lite),
      removed: d.removed.map(lite),
      changed: d.changed,
      siteTotal: { base: totalJson(d.base), head: totalJson(d.head), delta: d.delta },
    };
  }
  return JSON.stringify(body, null, 2);
}
