// Parsing of the rate-limit headers and the /me body. Neither format is published: accept the plausible ones.
import type { AccountInfo, QuotaSnapshot } from '../model';

export type HeaderBag = Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  const v = headers[name] ?? headers[name.toLowerCase()];
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' && s.trim() !== '' ? s.trim() : undefined;
}

function toCount(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.floor(value) : null;
  if (typeof value !== 'string') return null;
  const cleaned = value.trim().replace(/[,_\s]/g, '');
  if (!/^\d+(\.\d+)?$/.test(cleaned)) return null;
  const n = Number(cleaned);
  return Number.isFinite(n) ? Math.floor(n) : null;
}

const SECONDS_2001 = 1_000_000_000; // epoch seconds below this are read as "seconds from now"
const MS_2001 = 1_000_000_000_000;

/**
 * A reset value as epoch milliseconds. Accepts epoch seconds, epoch milliseconds, seconds until reset,
 * ISO 8601 and `YYYY-MM-DD HH:MM:SS` (read as UTC: the spec does not say which zone).
 */
/** A reset time is believed only between 2000 and 400 days from now: anything else (1e20, garbage) is "unknown". */
const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST_AHEAD_MS = 400 * 24 * 3600 * 1000;

export function plausibleTime(t: number | null, now: number): number | null {
  return t !== null && Number.isFinite(t) && t >= EARLIEST && t <= now + LATEST_AHEAD_MS ? t : null;
}

export function parseResetValue(value: unknown, now: number): number | null {
  return plausibleTime(parseResetRaw(value, now), now);
}

function parseResetRaw(value: unknown, now: number): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value))) {
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0) return null;
    if (n >= MS_2001) return Math.round(n);
    if (n >= SECONDS_2001) return Math.round(n * 1000);
    return now + Math.round(n * 1000);
  }
  if (typeof value !== 'string') return null;
  const s = value.trim();
  const mysql = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(s);
  if (mysql) {
    const [, y, mo, d, h = '0', mi = '0', sec = '0'] = mysql;
    const t = Date.UTC(+y, +mo - 1, +d, +h, +mi, +sec);
    return Number.isFinite(t) ? t : null;
  }
  // V8's Date.parse guesses at almost anything; only trust strings that carry a year.
  if (!/\b\d{4}\b/.test(s)) return null;
  const t = Date.parse(s);
  return Number.isFinite(t) ? t : null;
}

/** The quota numbers carried by a response, or undefined when it carries none. */
export function parseRateLimitHeaders(headers: HeaderBag, now: number): QuotaSnapshot | undefined {
  const limit = toCount(header(headers, 'x-ratelimit-limit'));
  const remaining = toCount(header(headers, 'x-ratelimit-remaining'));
  const resetRaw = header(headers, 'x-ratelimit-reset');
  const resetAt = parseResetValue(resetRaw, now);
  if (limit === null && remaining === null && resetAt === null) return undefined;
  const used = limit !== null && remaining !== null ? Math.max(0, limit - remaining) : null;
  return { limit, remaining, used, resetAt, tier: null, observedAt: now };
}

const TIER_KEYS = ['tier', 'plan', 'subscription', 'tier_name', 'plan_name'];
const LIMIT_KEYS = ['quota', 'limit', 'monthly_quota', 'quota_limit', 'requests_limit', 'monthly_limit', 'requests_per_month', 'allowance'];
const USED_KEYS = ['used', 'usage', 'requests_used', 'quota_used', 'used_this_month', 'requests_this_month'];
const REMAINING_KEYS = ['remaining', 'quota_remaining', 'requests_remaining', 'left'];
const RESET_KEYS = ['reset', 'reset_at', 'resets_at', 'reset_date', 'resets_on', 'reset_time', 'period_end', 'renews_at'];

function pick(objects: Record<string, unknown>[], keys: string[]): unknown {
  for (const o of objects) {
    for (const k of keys) {
      if (Object.prototype.hasOwnProperty.call(o, k) && o[k] !== null && o[k] !== undefined && typeof o[k] !== 'object') return o[k];
    }
  }
  return undefined;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads the /me body whatever its field names; the raw object is kept. */
export function parseAccount(body: unknown, now: number): AccountInfo {
  const objects: Record<string, unknown>[] = [];
  if (isPlainObject(body)) {
    objects.push(body);
    // Plausible nesting: { data: {...} }, { account: {...} }, { quota: { limit, used } }, { usage: {...} }.
    for (const k of ['data', 'account', 'subscription', 'quota', 'usage', 'plan']) {
      if (isPlainObject(body[k])) objects.push(body[k] as Record<string, unknown>);
    }
  }
  const tierRaw = pick(objects, TIER_KEYS);
  const limit = toCount(pick(objects, LIMIT_KEYS));
  let used = toCount(pick(objects, USED_KEYS));
  let remaining = toCount(pick(objects, REMAINING_KEYS));
  if (used === null && limit !== null && remaining !== null) used = Math.max(0, limit - remaining);
  if (remaining === null && limit !== null && used !== null) remaining = Math.max(0, limit - used);
  return {
    tier: typeof tierRaw === 'string' || typeof tierRaw === 'number' ? String(tierRaw) : null,
    limit,
    used,
    remaining,
    resetAt: parseResetValue(pick(objects, RESET_KEYS), now),
    raw: body,
  };
}

export function snapshotFromAccount(account: AccountInfo, now: number): QuotaSnapshot {
  return {
    limit: account.limit,
    remaining: account.remaining,
    used: account.used,
    resetAt: account.resetAt,
    tier: account.tier,
    observedAt: now,
  };
}

/** Merge a newer partial snapshot into what we knew (headers carry no tier; /me may carry no reset). */
export function mergeSnapshots(previous: QuotaSnapshot | undefined, next: QuotaSnapshot): QuotaSnapshot {
  if (!previous) return next;
  return {
    limit: next.limit ?? previous.limit,
    remaining: next.remaining ?? previous.remaining,
    used: next.used ?? previous.used,
    resetAt: next.resetAt ?? previous.resetAt,
    tier: next.tier ?? previous.tier,
    observedAt: next.observedAt,
  };
}
