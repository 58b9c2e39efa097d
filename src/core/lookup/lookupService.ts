// Cache in front of the client: one request per unique slug per cache lifetime, none for fresh entries,
// stale entries returned (marked) when the network cannot be used or fails.
import { l10n } from '../l10n';
import type { BenchClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { DiskCache } from '../cache/diskCache';
import { isValidSlug, type ComponentKind, type LookupResult } from '../model';

export interface LookupOutcome {
  kind: ComponentKind;
  slug: string;
  /** Latest known answer, fresh or stale; undefined when nothing is known. */
  result?: LookupResult;
  /** When the answer was fetched (epoch ms). */
  fetchedAt?: number;
  /** The answer is older than its lifetime (or a refresh failed and an older one is shown). */
  stale: boolean;
  /** Answered without a request. */
  fromCache: boolean;
  /** The refresh failed (or was not allowed); result, if any, is the older answer. */
  error?: ApiError;
}

export interface LookupItem {
  kind: ComponentKind;
  slug: string;
}

export class LookupService {
  constructor(
    private readonly cache: DiskCache,
    private readonly client: () => BenchClient | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  private get apiId(): string | undefined {
    return this.client()?.apiId;
  }

  /** Memory-only view for hot paths (hovers): never does I/O. */
  peek(kind: ComponentKind, slug: string): LookupOutcome | undefined {
    const apiId = this.apiId;
    if (!apiId) return undefined;
    const hit = this.cache.peek(apiId, kind, slug);
    return hit ? { kind, slug, result: hit.result, fetchedAt: hit.savedAt, stale: hit.stale, fromCache: true } : undefined;
  }

  /** Which of these items need a request (not cached, or stale). Deduplicated, order kept. */
  async needsRequest(items: LookupItem[]): Promise<LookupItem[]> {
    const apiId = this.apiId;
    const seen = new Set<string>();
    const out: LookupItem[] = [];
    for (const item of items) {
      const k = `${item.kind}/${item.slug}`;
      if (seen.has(k) || !isValidSlug(item.slug)) continue;
      seen.add(k);
      const hit = apiId ? await this.cache.get(apiId, item.kind, item.slug) : undefined;
      if (!hit || hit.stale) out.push(item);
    }
    return out;
  }

  /**
   * The answer for one slug. `network: false` answers from the cache only; `force` refetches even a fresh entry.
   */
  get(kind: ComponentKind, slug: string, opts: { network: boolean; force?: boolean }): Promise<LookupOutcome> {
    // Two callers for one slug share one cache read, one request and one cache write.
    const key = `${kind}/${slug}/${opts.network ? 1 : 0}${opts.force ? 1 : 0}`;
    const running = this.inFlight.get(key);
    if (running) return running;
    const p = this.fetch(kind, slug, opts).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, p);
    return p;
  }

  private readonly inFlight = new Map<string, Promise<LookupOutcome>>();

  private async fetch(kind: ComponentKind, slug: string, opts: { network: boolean; force?: boolean }): Promise<LookupOutcome> {
    const client = this.client();
    const hit = client ? await this.cache.get(client.apiId, kind, slug) : undefined;
    if (hit && !hit.stale && !opts.force) {
      return { kind, slug, result: hit.result, fetchedAt: hit.savedAt, stale: false, fromCache: true };
    }
    const fallback = (error?: ApiError): LookupOutcome => ({
      kind,
      slug,
      result: hit?.result,
      fetchedAt: hit?.savedAt,
      stale: hit !== undefined,
      fromCache: true,
      error,
    });
    if (!client || !opts.network) return fallback();
    try {
      const result = await client.lookup(kind, slug);
      await this.cache.set(client.apiId, kind, slug, result);
      return { kind, slug, result, fetchedAt: this.now(), stale: false, fromCache: false };
    } catch (err) {
      // Anything unexpected (a throwing transport factory, say) is still an answer with a message, never a rejection.
      return fallback(err instanceof ApiError ? err : new ApiError('network', l10n.t('The request failed: {0}', String((err as Error)?.message ?? err).slice(0, 200))));
    }
  }

  /** Looks up many items, unique ones only, with the client's concurrency bound. */
  async getMany(items: LookupItem[], opts: { network: boolean; force?: boolean }): Promise<Map<string, LookupOutcome>> {
    const unique = new Map<string, LookupItem>();
    for (const item of items) unique.set(`${item.kind}/${item.slug}`, item);
    const out = new Map<string, LookupOutcome>();
    await Promise.all(
      [...unique].map(async ([key, item]) => {
        out.set(key, await this.get(item.kind, item.slug, opts));
      }),
    );
    return out;
  }
}
