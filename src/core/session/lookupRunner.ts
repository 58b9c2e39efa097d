// What the API said about the workspace, and how it is asked: cached answers first (no request), then only what is
// missing or stale, and only when LookupConsent allows it. Outcomes are kept per API address, so answers of another
// address never show; an answer that arrives after the client was replaced is dropped.
import { l10n } from '../l10n';
import { ApiError } from '../api/errors';
import type { LookupItem, LookupOutcome, LookupService } from '../lookup/lookupService';
import type { ComponentKind } from '../model';
import type { ApiConnection } from './connection';
import type { LookupConsent } from './consent';
import type { Notices } from './notices';
import { entryKey, type LookupAllOptions, type SessionHost } from './types';

export interface LookupRunnerDeps {
  host: Pick<SessionHost, 'getKey'>;
  connection: Pick<ApiConnection, 'client' | 'generation' | 'guard' | 'hasKey' | 'blockedUntil' | 'settings' | 'requireClient'>;
  consent: Pick<LookupConsent, 'mayRequest' | 'askToExceedLimit'>;
  notices: Pick<Notices, 'report'>;
  service: LookupService;
  /** What a lookup without `only` covers (the session: active entries the scanner says to look up). */
  items: () => LookupItem[];
  /** Outcomes or the state changed (the surfaces redraw). */
  changed: () => void;
}

export class LookupRunner {
  /** Outcomes per API address, then per `kind/slug`. */
  private readonly outcomesByApi = new Map<string, Map<string, LookupOutcome>>();
  private inFlight = 0;

  constructor(private readonly d: LookupRunnerDeps) {}

  /** Lookups (of either kind) not finished yet: the session is `looking-up` meanwhile. */
  get busy(): boolean {
    return this.inFlight > 0;
  }

  private get outcomes(): Map<string, LookupOutcome> {
    const apiId = this.d.connection.client?.apiId ?? '';
    let m = this.outcomesByApi.get(apiId);
    if (!m) this.outcomesByApi.set(apiId, (m = new Map()));
    return m;
  }

  outcome(kind: ComponentKind, slug: string): LookupOutcome | undefined {
    return this.outcomes.get(entryKey(kind, slug)) ?? this.d.service.peek(kind, slug);
  }

  /** Forgets every address's outcomes (the cache was cleared). */
  clear(): void {
    this.outcomesByApi.clear();
  }

  /**
   * Fills outcomes from the cache, then asks the API for what is missing or stale — only if key, trust, consent,
   * quota, the rejected-key latch and the per-scan limit allow it. Slugs that failed in the last 10 minutes wait.
   */
  async lookupAll(opts: LookupAllOptions = {}): Promise<void> {
    const { connection, service } = this.d;
    const items: LookupItem[] = opts.only ?? this.d.items();
    const client = connection.client;
    if (!client) {
      this.d.changed();
      return;
    }
    const generation = connection.generation;
    this.inFlight++;
    try {
      await connection.guard.load();
      // Cached answers first (no request), so the surfaces fill at once.
      const cached = await service.getMany(items, { network: false });
      if (generation !== connection.generation) return;
      for (const [k, o] of cached) if (o.result) this.outcomes.set(k, o);
      this.d.changed();
      const needed = (opts.force ? uniqueItems(items) : await service.needsRequest(items)).filter((i) => opts.force || !connection.guard.recentlyFailed(i.kind, i.slug));
      if (generation !== connection.generation || needed.length === 0 || !(await this.d.consent.mayRequest(needed.length))) return;
      if (needed.length > connection.settings.maxPerScan && !opts.consented) {
        this.d.consent.askToExceedLimit(needed);
        return;
      }
      this.d.changed();
      const results = await service.getMany(needed, { network: true, force: opts.force });
      if (generation !== connection.generation) return; // a replaced client's answers never land in the new state
      const key = await this.d.host.getKey();
      let firstError: ApiError | undefined;
      for (const [k, o] of results) {
        this.outcomes.set(k, o);
        if (o.error) {
          firstError ??= o.error;
          await connection.guard.record(o.error, key, o);
        } else {
          connection.guard.succeeded(o.kind, o.slug);
        }
      }
      if (firstError) void this.d.notices.report(firstError);
    } finally {
      this.inFlight--;
      this.d.changed();
    }
  }

  /** What the cache holds for a slug, never a request (the comparison counts what it would cost first). */
  async cachedOutcome(kind: ComponentKind, slug: string): Promise<LookupOutcome> {
    return this.d.service.get(kind, slug, { network: false });
  }

  /** Slugs (of one kind) without a fresh cached answer: each would cost one request. */
  async uncached(kind: ComponentKind, slugs: readonly string[]): Promise<string[]> {
    const out: string[] = [];
    for (const slug of slugs) {
      const o = await this.cachedOutcome(kind, slug);
      if (!o.result || o.stale) out.push(slug);
    }
    return out;
  }

  /** Looks up one slug on demand (palette lookup, tree refresh): the user asked, so a recent failure is retried. */
  async lookupOne(kind: ComponentKind, slug: string, force = false): Promise<LookupOutcome> {
    const { connection, service } = this.d;
    connection.requireClient();
    await connection.guard.load();
    const generation = connection.generation;
    const cached = await service.get(kind, slug, { network: false });
    if (cached.result && !cached.stale && !force) return cached;
    const key = await this.d.host.getKey();
    const rejected = key ? connection.guard.rejection(key) : undefined;
    if (!connection.hasKey || !key || connection.blockedUntil !== null || rejected) {
      const error = !connection.hasKey || !key
        ? new ApiError('missing-key', l10n.t('No API key is set. Run "WP Bench: Set API Key".'))
        : rejected
          ? new ApiError(rejected.kind, l10n.t('{0} Set another key with "WP Bench: Set API Key".', rejected.message))
          : new ApiError('quota-exceeded', l10n.t('The monthly quota is used up; cached data only until the reset.'), { resetAt: connection.blockedUntil });
      return { ...cached, error };
    }
    if (!(await this.d.consent.mayRequest(1))) return { ...cached, error: new ApiError('cancelled', l10n.t('This workspace is not trusted: allow WP Bench lookups first.')) };
    this.inFlight++;
    try {
      const outcome = await service.get(kind, slug, { network: true, force });
      if (generation !== connection.generation) return outcome;
      if (outcome.result || !this.outcomes.has(entryKey(kind, slug))) this.outcomes.set(entryKey(kind, slug), outcome);
      if (outcome.error) {
        await connection.guard.record(outcome.error, key, outcome);
        void this.d.notices.report(outcome.error);
      } else {
        connection.guard.succeeded(kind, slug);
      }
      return outcome;
    } finally {
      this.inFlight--;
      this.d.changed();
    }
  }
}

function uniqueItems(items: LookupItem[]): LookupItem[] {
  const seen = new Map<string, LookupItem>();
  for (const i of items) seen.set(entryKey(i.kind, i.slug), i);
  return [...seen.values()];
}
