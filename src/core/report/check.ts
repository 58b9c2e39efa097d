// Lookups of `wp-bench check`: the cache first, then at most `maxRequests` requests (first ones by kind/slug),
// or none at all offline. What is not looked up is reported, never guessed. Plain Node: no vscode.
import { ApiError, errors } from '../api/errors';
import type { QuotaGuard } from '../lookup/quotaGuard';
import type { LookupOutcome, LookupService } from '../lookup/lookupService';
import { isValidSlug, type ComponentKind } from '../model';
import { TransportError, type TransportFactory } from '../api/transport';
import { isLocalOnly, itemKey, type SkipReason } from './judge';
import type { DetectedComponent } from '../model';

export const DEFAULT_MAX_REQUESTS = 200;

export interface CheckLookupOptions {
  /** false: the cache only, not one request. */
  network: boolean;
  /** No API address at all (`check --offline --measure-local`): not even the cache is read; every item is "offline". */
  noApi?: boolean;
  /** Requests allowed at most; the rest is answered from the cache (stale) or reported as not looked up. */
  maxRequests: number;
  /** Ask the API even for fresh cache entries (still bounded by maxRequests). */
  force?: boolean;
  /**
   * The persisted quota state (the extension's rules): nothing is sent while a 429 block lasts or to a key the API
   * refused before; slugs that failed in the last 10 minutes wait; every answer is recorded for the next run.
   */
  guard?: { state: QuotaGuard; key: string | undefined; retryFailed?: boolean };
  /** Epoch ms after which no request is started (`check --timeout-s`); what is left is reported as not looked up. */
  deadline?: number;
  /** Stop sending after this many timeouts in a row (a server that trickles bodies); default 3. */
  maxConsecutiveTimeouts?: number;
  /** Called when the deadline passes with requests in flight: the caller cuts them short (closes its client). */
  onDeadline?: () => void;
  /** Requests in flight at once (the client's own bound applies too); default 4. */
  concurrency?: number;
  now?: () => number;
}

export interface CheckLookupResult {
  outcomes: Map<string, LookupOutcome>;
  /** Items without a request because of the bound (`limit`) or `--offline`. */
  skipped: Map<string, SkipReason>;
  /** Items for which a request was allowed. */
  requested: number;
  /** Items that needed a request and did not get one because of maxRequests. */
  overLimit: { kind: ComponentKind; slug: string }[];
  /** Sending stopped early: the run's time limit, or timeouts in a row. */
  stoppedBy?: 'time' | 'timeouts';
}

/** A transport that refuses to be used: --offline never touches the network, even by mistake. */
export const offlineTransport: TransportFactory = () => ({
  request: () => Promise.reject(new TransportError('aborted', 'offline: no request is sent')),
  close: async () => undefined,
});

/**
 * Looks up the components, once each. Header-only components whose Update URI points away from wordpress.org are
 * never looked up (as in the extension): reported with the reason `local`.
 */
export async function lookupForCheck(service: LookupService, items: DetectedComponent[], opts: CheckLookupOptions): Promise<CheckLookupResult> {
  const unique = new Map<string, { kind: ComponentKind; slug: string }>();
  const local = new Set<string>();
  for (const i of items) {
    if (!isValidSlug(i.slug)) continue;
    const key = itemKey(i.kind, i.slug);
    // Declared elsewhere too (composer, .wp-env) in either tree: it names the wordpress.org item.
    if (isLocalOnly(i)) local.add(key);
    else unique.set(key, { kind: i.kind, slug: i.slug });
  }
  for (const key of unique.keys()) local.delete(key);
  const sorted = [...unique.values()].sort((a, b) => (a.kind !== b.kind ? (a.kind < b.kind ? -1 : 1) : a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  const skipped = new Map<string, SkipReason>([...local].map((k) => [k, 'local' as const]));
  const outcomes = new Map<string, LookupOutcome>();
  if (!opts.network) {
    await Promise.all(
      sorted.map(async (i) => {
        if (opts.noApi) return void skipped.set(itemKey(i.kind, i.slug), 'offline');
        const o = await service.get(i.kind, i.slug, { network: false });
        outcomes.set(itemKey(i.kind, i.slug), o);
        if (!o.result) skipped.set(itemKey(i.kind, i.slug), 'offline');
      }),
    );
    return { outcomes, skipped, requested: 0, overLimit: [] };
  }
  const guard = opts.guard;
  await guard?.state.load();
  // A block or a refused key from an earlier run: not one request, the cached answers with the reason.
  const refusal = guard ? refusalOf(guard.state, guard.key) : undefined;
  const recent = (i: { kind: string; slug: string }) => !opts.force && !guard?.retryFailed && guard?.state.recentlyFailed(i.kind, i.slug) === true;
  const needing = refusal ? [] : (opts.force ? sorted : await service.needsRequest(sorted)).filter((i) => !recent(i));
  const max = Math.max(0, Math.floor(opts.maxRequests));
  const allowed = new Set(needing.slice(0, max).map((i) => itemKey(i.kind, i.slug)));
  const overLimit = needing.slice(max);
  for (const i of overLimit) skipped.set(itemKey(i.kind, i.slug), 'limit');
  // Requests go through a small pool so that sending can stop: after the deadline, or after timeouts in a row.
  const now = opts.now ?? Date.now;
  const maxTimeouts = opts.maxConsecutiveTimeouts ?? 3;
  let inARow = 0;
  let stoppedBy: CheckLookupResult['stoppedBy'];
  const mayStart = () => {
    if (stoppedBy) return false;
    if (opts.deadline !== undefined && now() >= opts.deadline) stoppedBy = 'time';
    else if (inARow >= maxTimeouts) stoppedBy = 'timeouts';
    return !stoppedBy;
  };
  const networkItems = sorted.filter((i) => allowed.has(itemKey(i.kind, i.slug)));
  const queue = [...networkItems];
  const sent = new Set<string>();
  const worker = async () => {
    for (let i = queue.shift(); i; i = queue.shift()) {
      const key = itemKey(i.kind, i.slug);
      if (!mayStart()) {
        skipped.set(key, stoppedBy === 'time' ? 'time' : 'timeouts');
        continue;
      }
      sent.add(key);
      const o = await service.get(i.kind, i.slug, { network: true, force: opts.force });
      inARow = o.error?.kind === 'timeout' ? inARow + 1 : 0;
      outcomes.set(key, o);
    }
  };
  const timer = opts.deadline !== undefined && opts.onDeadline ? setTimeout(() => {
    stoppedBy ??= 'time';
    opts.onDeadline?.();
  }, Math.max(0, opts.deadline - now())) : undefined;
  try {
    await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 4) }, worker));
  } finally {
    clearTimeout(timer);
  }
  await Promise.all(
    sorted.map(async (i) => {
      const key = itemKey(i.kind, i.slug);
      const network = sent.has(key);
      let o = network ? outcomes.get(key)! : await service.get(i.kind, i.slug, { network: false });
      if (network && guard) {
        if (o.error) await guard.state.record(o.error, guard.key, i);
        else guard.state.succeeded(i.kind, i.slug);
      } else if (!network && (!o.result || o.stale)) {
        if (refusal) o = { ...o, error: refusal };
        else if (recent(i)) o = { ...o, error: new ApiError('server', `The lookup of ${i.kind} ${i.slug} failed less than 10 minutes ago; it is not asked again yet.`) };
      }
      outcomes.set(key, o);
    }),
  );
  return { outcomes, skipped, requested: sent.size, overLimit, stoppedBy };
}

/** Why nothing may be sent at all, from the persisted state. */
function refusalOf(state: QuotaGuard, key: string | undefined): ApiError | undefined {
  const blocked = state.blockedUntil(key);
  if (blocked !== null) return errors.quotaExceeded(blocked);
  const rejected = key ? state.rejection(key) : undefined;
  if (rejected) return new ApiError(rejected.kind, `${rejected.message} (refused on an earlier run; not sent again until the key changes).`);
  return undefined;
}

/** Errors of the lookups, one per kind, with how many items each hit. */
export function lookupErrors(outcomes: Iterable<LookupOutcome>): { error: ApiError; count: number }[] {
  const byKind = new Map<string, { error: ApiError; count: number }>();
  for (const o of outcomes) {
    if (!o.error) continue;
    const e = byKind.get(o.error.kind);
    if (e) e.count++;
    else byKind.set(o.error.kind, { error: o.error, count: 1 });
  }
  return [...byKind.values()];
}
