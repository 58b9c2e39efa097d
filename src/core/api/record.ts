// Validation of benchmark records. Unknown fields are ignored; a missing required field makes the record unreadable.
import { l10n } from '../l10n';
import { CONTEXT_NAMES, type BenchmarkRecord, type ComponentKind, type ContextMeasurement, type ContextName, type LookupResult } from '../model';

export class RecordShapeError extends Error {}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function num(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new RecordShapeError(l10n.t('{0} is not a number', field));
  return v;
}

function optionalNum(v: unknown, field: string): number | null {
  return v === null || v === undefined ? null : num(v, field);
}

function optionalString(v: unknown, field: string): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string') throw new RecordShapeError(l10n.t('{0} is not a string', field));
  return v;
}

function context(v: unknown, name: ContextName): ContextMeasurement | null {
  // null (or absent) means "not measured", never zero.
  if (v === null || v === undefined) return null;
  if (!isObject(v)) throw new RecordShapeError(l10n.t('contexts.{0} is neither an object nor null', name));
  return {
    ttfbDeltaMs: num(v.ttfb_delta_ms, `contexts.${name}.ttfb_delta_ms`),
    memoryDeltaKb: num(v.memory_delta_kb, `contexts.${name}.memory_delta_kb`),
    queriesDelta: num(v.queries_delta, `contexts.${name}.queries_delta`),
  };
}

/** Only http(s) profile links are kept: anything else (javascript:, command:, data:) is dropped. */
export function safeLink(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  try {
    const u = new URL(v);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : null;
  } catch {
    return null;
  }
}

/** Turns a 200 body into a lookup result, or throws RecordShapeError saying what is wrong. */
export function parseRecord(body: unknown, kind: ComponentKind, slug: string): LookupResult {
  if (!isObject(body)) throw new RecordShapeError(l10n.t('the body is not a JSON object'));
  if (typeof body.benchmarked !== 'boolean') throw new RecordShapeError(l10n.t('"benchmarked" is missing or not true/false'));
  if (body.slug !== undefined && body.slug !== slug) throw new RecordShapeError(l10n.t('the record is for "{0}", not "{1}"', String(body.slug).slice(0, 60), slug));
  const name = typeof body.name === 'string' && body.name.trim() !== '' ? body.name : slug;
  const metadata = isObject(body.metadata) ? body.metadata : {};
  const links = isObject(body.links) ? body.links : {};
  const base = {
    slug,
    kind,
    name,
    benchmarkedAt: optionalString(body.benchmarked_at, 'benchmarked_at'),
    activeInstalls: optionalNum(metadata.active_installs, 'metadata.active_installs'),
    rating: optionalNum(metadata.rating, 'metadata.rating'),
    profileUrl: safeLink(links.profile),
    ...(body.synthetic === true ? { synthetic: true } : {}),
  };
  if (!body.benchmarked) {
    const record: BenchmarkRecord = {
      ...base,
      benchmarked: false,
      grade: null,
      score: null,
      contexts: { activation: null, homepage: null, admin: null },
    };
    return { state: 'not-benchmarked', record };
  }
  if (!isObject(body.speed_score)) throw new RecordShapeError(l10n.t('"speed_score" is missing'));
  const grade = body.speed_score.grade;
  if (typeof grade !== 'string' || !/^[A-F][+-]?$/.test(grade.trim())) throw new RecordShapeError(l10n.t('"speed_score.grade" is missing or not a grade'));
  const score = num(body.speed_score.numeric, 'speed_score.numeric');
  if (!isObject(body.contexts)) throw new RecordShapeError(l10n.t('"contexts" is missing or not an object'));
  const contexts = {} as Record<ContextName, ContextMeasurement | null>;
  for (const c of CONTEXT_NAMES) contexts[c] = context(body.contexts[c], c);
  return { state: 'benchmarked', record: { ...base, benchmarked: true, grade: grade.trim(), score, contexts } };
}

const finite = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const finiteOrNull = (v: unknown) => v === null || finite(v);
const stringOrNull = (v: unknown) => v === null || typeof v === 'string';

/**
 * A stored (normalised) answer checked as strictly as a network answer: a cache file is input too. The grade is a
 * grade, numbers are finite, contexts are the three known ones or "not measured", the profile link is http(s).
 */
export function isValidResult(r: unknown, kind: ComponentKind, slug: string): r is LookupResult {
  if (!isObject(r)) return false;
  if (r.state === 'not-in-dataset') return r.kind === kind && r.slug === slug;
  if (r.state !== 'benchmarked' && r.state !== 'not-benchmarked') return false;
  const rec = r.record;
  if (!isObject(rec) || rec.slug !== slug || rec.kind !== kind || typeof rec.name !== 'string') return false;
  if (!stringOrNull(rec.benchmarkedAt) || !finiteOrNull(rec.activeInstalls) || !finiteOrNull(rec.rating)) return false;
  if (rec.profileUrl !== null && safeLink(rec.profileUrl) !== rec.profileUrl) return false;
  if (rec.synthetic !== undefined && typeof rec.synthetic !== 'boolean') return false;
  if (!isObject(rec.contexts)) return false;
  for (const c of ['activation', 'homepage', 'admin'] as const) {
    const m = rec.contexts[c];
    if (m === null) continue;
    if (!isObject(m) || !finite(m.ttfbDeltaMs) || !finite(m.memoryDeltaKb) || !finite(m.queriesDelta)) return false;
  }
  if (r.state === 'not-benchmarked') return rec.benchmarked === false;
  return rec.benchmarked === true && typeof rec.grade === 'string' && /^[A-F][+-]?$/.test(rec.grade) && finite(rec.score);
}
