// The monthly quota of each key and the X-RateLimit-* headers that report it (reset: the next month, UTC).
import { formatMysqlUtc } from './dataset';
import type { DemoKey } from './keys';

export type RateLimitFormat = 'epoch' | 'seconds' | 'iso' | 'mysql';

export function nextMonthUtc(nowMs: number): number {
  const d = new Date(nowMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

function monthKey(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 7);
}

/** Each key's usage this month, from its initialUsed; it starts again at 0 when the month (UTC) changes. */
export function monthlyUsage(keys: Map<string, DemoKey>, now: () => number): (key: string) => { month: string; used: number } {
  const usageByKey = new Map<string, { month: string; used: number }>();
  return (key) => {
    const month = monthKey(now());
    let e = usageByKey.get(key);
    if (!e) {
      e = { month, used: keys.get(key)?.initialUsed ?? 0 };
      usageByKey.set(key, e);
    } else if (e.month !== month) {
      e.month = month;
      e.used = 0;
    }
    return e;
  };
}

export function rateLimitHeaders(k: DemoKey, used: number, t: number, format: RateLimitFormat): Record<string, string> {
  const reset = nextMonthUtc(t);
  let value: string;
  switch (format) {
    case 'seconds':
      value = String(Math.max(0, Math.ceil((reset - t) / 1000)));
      break;
    case 'iso':
      value = new Date(reset).toISOString().replace(/\.\d{3}Z$/, 'Z');
      break;
    case 'mysql':
      value = formatMysqlUtc(reset);
      break;
    default:
      value = String(Math.floor(reset / 1000));
  }
  return {
    'X-RateLimit-Limit': String(k.quota),
    'X-RateLimit-Remaining': String(Math.max(0, k.quota - used)),
    'X-RateLimit-Reset': value,
  };
}
