// What the commands share: the version, and the command line as parsed, with its number flags.
import { UsageError } from './scan';

export const VERSION = '0.1.0';

export interface Parsed {
  positional: string[];
  flags: Map<string, string | true>;
}

/** One request's time limit, in seconds: a timer past ~24.8 days overflows in Node and fires at once. */
export const REQUEST_TIMEOUT_RANGE = { min: 1, max: 3600 } as const;

/** A number flag, ≥ 0 (whole when `integer`), or within `range` when one is given: one message says what is accepted. */
export function numberFlag(parsed: Parsed, name: string, integer = false, range?: { min: number; max: number }): number | undefined {
  const raw = parsed.flags.get(name);
  if (raw === undefined) return undefined;
  const n = typeof raw === 'string' && /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : NaN;
  const ok = Number.isFinite(n) && (!integer || Number.isInteger(n)) && (!range || (n >= range.min && n <= range.max));
  if (!ok) throw new UsageError(`${name} needs a${integer ? ' whole' : ''} number ${range ? `from ${range.min} to ${range.max}` : '≥ 0'}`);
  return n;
}
