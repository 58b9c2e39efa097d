// What `wp-bench merge` needs of each file it reads (the JSON of `measure SITE --site [--shard K/N] --json`, often a
// CI artifact it did not write), checked before anything is done with it: shard numbers in range (a file claiming
// `n = 1e9` once ran the merge out of memory), every array and object the merge and the reports read of the shape
// they expect, numbers finite, strings strings of a bounded length, no `__proto__` key anywhere. What is wrong is said
// as the field and what it holds, shortened and escaped. A record without `--shard` is a site record too.
import { CONTEXTS } from '../record/method';
import { browserDeltaProblem, browserFiguresProblem, browserInfoProblem } from './siteBrowserShape';

/** The most shards a record may claim (`--shard K/N` takes N ≤ 64; merged records have never had more). */
export const MAX_SHARDS = 1000;
/** The most members (as isSiteRecord), names in a list, drop-ins. */
const MAX_MEMBERS = 5000;
/** The most state-dependent entries: every configuration (two per member, the clean site, the stack) in every context, with room. */
const MAX_STATE_DEPENDENT = 50_000;

const NOT_A_RECORD = 'not a site record (measure SITE --site --json)';

/** Invisible and control characters: each written as its escape (`\u001b`), never printed. */
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g;
const escaped = (s: string) => s.replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Text from a file (a file name, a version) for a message: at most `max` characters, control characters escaped. */
export function printable(text: string, max = 200): string {
  return escaped(text.length > max ? `${text.slice(0, max)}…` : text);
}

/** A value from a file, as a message says what it got: `"abc"` (quoted, at most 40 characters), `1e+300`, `an object`. */
export function shown(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (typeof v === 'string') return v.length > 40 ? `${escaped(JSON.stringify(`${v.slice(0, 40)}…`))} (${v.length} characters)` : escaped(JSON.stringify(v));
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (v === null || typeof v === 'number' || typeof v === 'boolean') return String(v);
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** The first wrong field found, said as its message (caught by siteRecordProblem). */
class Wrong extends Error {}

type Obj = Record<string, unknown>;

function fail(at: string, want: string, got: unknown): never {
  throw new Wrong(`${at} must be ${want} (got ${shown(got)})`);
}

/** `at.key`, or `at["key"]` (shown, escaped) for a key no identifier spells. */
const field = (at: string, key: string) => (/^[A-Za-z_][A-Za-z0-9_]{0,60}$/.test(key) ? (at ? `${at}.${key}` : key) : `${at}[${shown(key)}]`);

function object(v: unknown, at: string, orNull = false): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(at, orNull ? 'an object or null' : 'an object', v);
  return v as Obj;
}

function array(v: unknown, at: string, max: number): unknown[] {
  if (!Array.isArray(v)) fail(at, 'an array', v);
  if (v.length > max) fail(at, `an array of at most ${max}`, v);
  return v;
}

function finite(v: unknown, at: string, atLeastZero = false): void {
  if (typeof v !== 'number' || !Number.isFinite(v) || (atLeastZero && v < 0)) fail(at, atLeastZero ? 'a finite number ≥ 0' : 'a finite number', v);
}

function integer(v: unknown, at: string, from: number, to: number): void {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < from || v > to) fail(at, `an integer from ${from} to ${to}`, v);
}

function string(v: unknown, at: string, max: number, orNull = false): void {
  if (!(typeof v === 'string' && v.length <= max) && !(orNull && v === null)) fail(at, `a string of at most ${max} characters${orNull ? ' or null' : ''}`, v);
}

function oneOf(v: unknown, at: string, values: readonly string[]): void {
  if (typeof v !== 'string' || !values.includes(v)) fail(at, values.length === 2 ? `"${values[0]}" or "${values[1]}"` : `one of ${values.join(', ')}`, v);
}

/** `true` or no such field (must_use, other_shard, not_installed). */
function flag(o: Obj, key: string, at: string): void {
  if (o[key] !== undefined && o[key] !== true) fail(field(at, key), 'true or absent', o[key]);
}

function optional(o: Obj, key: string, at: string, check: (v: unknown, at: string) => void): void {
  if (o[key] !== undefined) check(o[key], field(at, key));
}

/** `{ contexts: { activation, homepage, admin } }`, each context's figures or null. */
function contexts(v: unknown, at: string): Obj {
  const o = object(v, at);
  const c = object(o.contexts, `${at}.contexts`);
  for (const ctx of CONTEXTS) {
    const f = c[ctx];
    if (f === null) continue;
    const fig = object(f, `${at}.contexts.${ctx}`, true);
    for (const k of ['ttfb_delta_ms', 'memory_delta_kb', 'queries_delta']) finite(fig[k], `${at}.contexts.${ctx}.${k}`);
    optional(fig, 'spread', `${at}.contexts.${ctx}`, (s, sAt) => {
      const sp = object(s, sAt);
      for (const k of ['ttfb_ms', 'memory_kb', 'queries']) finite(sp[k], `${sAt}.${k}`);
      optional(sp, 'ttfb_interval_ms', sAt, range);
    });
  }
  return o;
}

/** `--browser`'s figures (siteBrowserShape.ts), where a record has them. */
function browser(problem: typeof browserDeltaProblem) {
  return (v: unknown, at: string): void => {
    const p = problem(v, at);
    if (p) throw new Wrong(p);
  };
}

function member(v: unknown, at: string): void {
  const c = object(v, at);
  oneOf(c.kind, `${at}.kind`, ['plugin', 'theme']);
  string(c.slug, `${at}.slug`, 300);
  string(c.name, `${at}.name`, 1000);
  for (const k of ['must_use', 'not_installed', 'other_shard']) flag(c, k, at);
  for (const k of ['alone', 'in_site']) if (c[k] !== null) contexts(object(c[k], `${at}.${k}`, true), `${at}.${k}`);
  if (c.in_site !== null) optional(c.in_site as Obj, 'browser', `${at}.in_site`, browser(browserDeltaProblem));
  string(c.left_out, `${at}.left_out`, 2000, true);
  optional(c, 'note', at, (x, a) => string(x, a, 2000));
  optional(c, 'measured_with', at, (x, a) => string(x, a, 300));
  optional(c, 'path', at, (x, a) => string(x, a, 2000));
  optional(c, 'hash', at, (x, a) => string(x, a, 200));
}

/** `[low, high]`: a state-dependent entry's range of queries or of memory. */
function range(v: unknown, at: string): void {
  if (!Array.isArray(v) || v.length !== 2) fail(at, 'an array of 2 numbers', v);
  v.forEach((x, i) => finite(x, `${at}[${i}]`));
}

function stateDependent(v: unknown, at: string): void {
  const d = object(v, at);
  string(d.config, `${at}.config`, 400);
  oneOf(d.context, `${at}.context`, CONTEXTS);
  range(d.queries, `${at}.queries`);
  range(d.memory_kb, `${at}.memory_kb`);
}

function local(v: unknown): void {
  const l = object(v, 'local');
  if (l.database !== null && l.database !== undefined) {
    const db = object(l.database, 'local.database', true);
    oneOf(db.engine, 'local.database.engine', ['mariadb', 'mysql', 'sqlite']);
    string(db.version, 'local.database.version', 100);
    optional(db, 'server', 'local.database', (x, a) => oneOf(x, a, ['throwaway', 'external', 'file']));
  }
  string(l.theme, 'local.theme', 300, true);
  for (const k of ['wordpress', 'php', 'runtime']) string(l[k], `local.${k}`, 100);
  for (const k of ['rounds', 'configurations', 'duration_s']) finite(l[k], `local.${k}`, true);
  optional(l, 'warmup_rounds', 'local', (x, a) => finite(x, a, true));
  optional(l, 'rounds_taken', 'local', (x, a) => {
    const t = object(x, a);
    for (const k of ['min', 'median', 'max']) finite(t[k], `${a}.${k}`, true);
  });
  optional(l, 'shard', 'local', (x, a) => {
    const s = object(x, a);
    integer(s.n, `${a}.n`, 1, MAX_SHARDS);
    integer(s.k, `${a}.k`, 1, s.n as number);
  });
  optional(l, 'shards', 'local', (x, a) => integer(x, a, 1, MAX_SHARDS));
  optional(l, 'browser', 'local', browser(browserInfoProblem));
}

/** A `__proto__` key anywhere (JSON.parse makes it an own key; spread into the merged record it would be one there too): walked without recursion, however deep. */
function prototypeKeys(root: unknown): void {
  type Node = { v: unknown; up?: Node; key?: string | number };
  const pathOf = (n: Node): string => {
    const keys: Array<string | number> = [];
    for (let x: Node | undefined = n; x?.up; x = x.up) keys.push(x.key!);
    return keys.reverse().reduce<string>((at, k) => (typeof k === 'number' ? `${at}[${k}]` : field(at, k)), '');
  };
  const todo: Node[] = [{ v: root }];
  while (todo.length) {
    const n = todo.pop()!;
    if (Array.isArray(n.v)) n.v.forEach((v, i) => typeof v === 'object' && v !== null && todo.push({ v, up: n, key: i }));
    else if (typeof n.v === 'object' && n.v !== null) {
      if (Object.prototype.hasOwnProperty.call(n.v, '__proto__')) throw new Wrong(`${field(pathOf(n), '__proto__')} is not allowed (a prototype key)`);
      for (const [key, v] of Object.entries(n.v)) if (typeof v === 'object' && v !== null) todo.push({ v, up: n, key });
    }
  }
}

/**
 * What is wrong with `v` as a site record (one read from a file), said as `FIELD must be … (got …)`; undefined when it
 * has the shape every reader of a site record expects. Fields it does not read are left alone (a later version's).
 */
export function siteRecordProblem(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return `${NOT_A_RECORD}: it must be an object (got ${shown(v)})`;
  const r = v as Obj;
  if (r.source !== 'local') return `${NOT_A_RECORD}: source must be "local" (got ${shown(r.source)})`;
  try {
    prototypeKeys(r);
    optional(r, 'measured_at', '', (x, a) => string(x, a, 100));
    const site = contexts(r.site, 'site');
    optional(site, 'browser', 'site', browser(browserDeltaProblem));
    optional(site, 'clean', 'site', (x, a) => {
      optional(object(x, a), 'browser', a, browser(browserFiguresProblem));
      const c = object(object(x, a).contexts, `${a}.contexts`);
      for (const ctx of CONTEXTS) {
        if (c[ctx] === null) continue;
        const m = object(c[ctx], `${a}.contexts.${ctx}`, true);
        for (const k of ['ttfb_ms', 'memory_kb', 'queries']) finite(m[k], `${a}.contexts.${ctx}.${k}`);
      }
    });
    const sum = contexts(r.sum_of_alone, 'sum_of_alone');
    optional(sum, 'not_counted', 'sum_of_alone', (x, a) => {
      for (const [ctx, list] of Object.entries(object(x, a))) array(list, field(a, ctx), MAX_MEMBERS).forEach((s, i) => string(s, `${field(a, ctx)}[${i}]`, 300));
    });
    array(r.components, 'components', MAX_MEMBERS).forEach((c, i) => member(c, `components[${i}]`));
    array(r.drop_ins_left_out, 'drop_ins_left_out', MAX_MEMBERS).forEach((d, i) => string(d, `drop_ins_left_out[${i}]`, 2000));
    optional(r, 'state_dependent', '', (x, a) => array(x, a, MAX_STATE_DEPENDENT).forEach((d, i) => stateDependent(d, `${a}[${i}]`)));
    local(r.local);
    return undefined;
  } catch (e) {
    if (e instanceof Wrong) return e.message;
    throw e;
  }
}
