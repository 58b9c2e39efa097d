// Lookups of `wp-bench check`: the cache first, then at most `maxRequests` requests (first ones by kind/slug),
// or none at all offline. What is not looked up is reported, never guessed. Plain Node: no vscode.
import type { ApiError } from '../api/errors';
import type { LookupOutcome, LookupService } from '../lookupService';
import { isValidSlug, type ComponentKind } from '../model';
import { TransportError, type TransportFactory } from '../api/transport';
import { isLocalOnly, itemKey, type SkipReason } from './judge';
import type { DetectedComponent } from '../model';

export const DEFAULT_MAX_REQUESTS = 200;

export interface CheckLookupOptions {
  /** false: the cache only, not one request. */
  network: boolean;
  /** Requests allowed at most; the rest is answered from the cache (stale) or reported as not looked up. */
  maxRequests: number;
  /** Ask the API even for fresh cache entries (still bounded by maxRequests). */
  force?: boolean;
}

export interface CheckLookupResult {
  outcomes: Map<string, LookupOutcome>;
  /** Items without a request because of the bound (`limit`) or `--offline`. */
  skipped: Map<string, SkipReason>;
  /** Items for which a request was allowed. */
  requested: number;
  /** Items that needed a request and did not get one because of maxRequests. */
  overLimit: { kind: ComponentKind; slug: string }[];
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
        const o = await service.get(i.kind, i.slug, { network: false });
        outcomes.set(itemKey(i.kind, i.slug), o);
        if (!o.result) skipped.set(itemKey(i.kind, i.slug), 'offline');
      }),
    );
    return { outcomes, skipped, requested: 0, overLimit: [] };
  }
  const needing = opts.force ? sorted : await service.needsRequest(sorted);
  const max = Math.max(0, Math.floor(opts.maxRequests));
  const allowed = new Set(needing.slice(0, max).map((i) => itemKey(i.kind, i.slug)));
  const overLimit = needing.slice(max);
  for (const i of overLimit) skipped.set(itemKey(i.kind, i.slug), 'limit');
  await Promise.all(
    sorted.map(async (i) => {
      const key = itemKey(i.kind, i.slug);
      const network = allowed.has(key);
      outcomes.set(key, await service.get(i.kind, i.slug, { network, force: network && opts.force }));
    }),
  );
  return { outcomes, skipped, requested: allowed.size, overLimit };
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
