// The session's line to the API: the settings it was built from, the client (replaced when the address, the limits
// or the proxy change), the key state, the quota figures and the persisted quota guard of the current address. A
// replaced client bumps `generation`: whoever started a request under an older one drops its answer.
import { l10n } from '../l10n';
import { BenchClient, normaliseApiUrl } from '../api/client';
import { ApiError } from '../api/errors';
import { mergeSnapshots } from '../api/quota';
import type { DiskCache } from '../cache/diskCache';
import type { AccountInfo, QuotaSnapshot } from '../model';
import type { Notices } from './notices';
import { QuotaGuard } from '../lookup/quotaGuard';
import type { SessionHost, SessionSettings } from './types';

export function missingUrl(): ApiError {
  return new ApiError('missing-url', l10n.t('No API address is set. Run "WP Bench: Set API Address".'));
}

export interface ConnectionEvents {
  /** Quota figures, the key state or the client changed (the status bar reads them). */
  quotaChanged(): void;
  /** A key change was applied: look up again (it may unlock what the old key could not). */
  lookUp(): Promise<void>;
}

export class ApiConnection {
  private settingsValue: SessionSettings;
  private clientValue: BenchClient | undefined;
  private clientError: ApiError | undefined;
  /** Bumped when the client is replaced: answers of an older client are dropped. */
  private generationValue = 0;
  private guardValue: QuotaGuard;
  private quotaSnapshot: QuotaSnapshot | undefined;
  private account: AccountInfo | undefined;
  private validatedAccount: { key: string; account: AccountInfo; at: number } | undefined;
  private hasKeyValue = false;
  /** The key in use, for the per-key 429 block (kept in memory only; the guard stores its fingerprint). */
  private currentKey: string | undefined;
  private keyChange: { key: string | undefined; done: Promise<void> } | undefined;
  /** The key the last key change was applied for: a second report of the same key keeps newer quota figures. */
  private appliedKey: string | undefined;
  /** How many key changes were applied (each forgets blocks and looks up again): one per write of the key. */
  keyChangesApplied = 0;

  /** `settings`: the host's settings, read once by the session (the cache was built from them too). */
  constructor(
    private readonly host: SessionHost,
    settings: SessionSettings,
    private readonly cache: DiskCache,
    private readonly notices: Notices,
    private readonly events: ConnectionEvents,
    private readonly now: () => number,
  ) {
    this.settingsValue = settings;
    this.guardValue = new QuotaGuard(undefined, now);
    this.rebuildClient();
  }

  get settings(): SessionSettings {
    return this.settingsValue;
  }
  get client(): BenchClient | undefined {
    return this.clientValue;
  }
  get generation(): number {
    return this.generationValue;
  }
  /** The guard of the current address (a new address gets its own file). */
  get guard(): QuotaGuard {
    return this.guardValue;
  }
  get hasApiUrl(): boolean {
    return this.settingsValue.apiUrl !== '';
  }
  get apiUrlProblem(): ApiError | undefined {
    return this.clientError;
  }
  get hasKey(): boolean {
    return this.hasKeyValue;
  }
  get quota(): QuotaSnapshot | undefined {
    return this.quotaSnapshot;
  }
  get lastAccount(): AccountInfo | undefined {
    return this.account;
  }
  /** Epoch ms until which no lookup is sent with the current key (a 429, remembered across reloads), or null. */
  get blockedUntil(): number | null {
    return this.guardValue.blockedUntil(this.currentKey) ?? this.clientValue?.blockedUntil ?? null;
  }

  /** The client, or why there is none (no address, or one that cannot be used). */
  requireClient(): BenchClient {
    if (!this.clientValue) throw this.clientError ?? missingUrl();
    return this.clientValue;
  }

  async refreshKeyState(): Promise<void> {
    this.currentKey = await this.host.getKey();
    this.hasKeyValue = !!this.currentKey;
    this.host.setContext('wpBench.hasKey', this.hasKeyValue);
    this.events.quotaChanged();
  }

  /** Reads the settings again: a new client when the address, the limits or the proxy changed. */
  settingsChanged(): void {
    const before = this.settingsValue;
    this.settingsValue = this.host.settings();
    if (before.ttlHours !== this.settingsValue.ttlHours) this.cache.setTtlHours(this.settingsValue.ttlHours);
    const clientChanged =
      before.apiUrl !== this.settingsValue.apiUrl ||
      before.concurrency !== this.settingsValue.concurrency ||
      before.timeoutSeconds !== this.settingsValue.timeoutSeconds ||
      JSON.stringify(before.proxy ?? null) !== JSON.stringify(this.settingsValue.proxy ?? null);
    if (clientChanged) this.rebuildClient();
  }

  /**
   * The key was set or cleared. Reports for the same key while one runs share it (a second run would replace the
   * client and drop the first one's answers, and forget a 429 the first one met).
   */
  async keyChanged(): Promise<void> {
    const key = await this.host.getKey();
    if (this.keyChange && this.keyChange.key === key) return this.keyChange.done;
    const done = this.applyKeyChange().finally(() => {
      if (this.keyChange?.done === done) this.keyChange = undefined;
    });
    this.keyChange = { key, done };
    return done;
  }

  private async applyKeyChange(): Promise<void> {
    this.keyChangesApplied++;
    this.notices.keyChanged();
    await this.guardValue.keyChanged();
    await this.refreshKeyState();
    const validated = this.validatedAccount;
    const previous = this.quotaSnapshot;
    this.rebuildClient();
    // The /me answer that validated this key is still true: no second /me. But when this key change is reported a
    // second time (the command, then the secret store's event), lookups may have run since: their rate-limit headers
    // are newer than the validation and stay (a late second run showed "0 / 500,000" after 13 lookups).
    const key = await this.host.getKey();
    const again = this.appliedKey === key;
    this.appliedKey = key;
    if (validated && validated.key === key) {
      const a = validated.account;
      const newer = again && previous && previous.observedAt > validated.at ? previous : undefined;
      this.account = a;
      this.quotaSnapshot = newer ?? { limit: a.limit, used: a.used, remaining: a.remaining, resetAt: a.resetAt, tier: a.tier, observedAt: validated.at };
      this.events.quotaChanged();
    }
    await this.events.lookUp();
  }

  private rebuildClient(): void {
    void this.clientValue?.dispose();
    this.generationValue++;
    this.clientValue = undefined;
    this.clientError = undefined;
    this.notices.addressChanged();
    this.host.setContext('wpBench.hasApiUrl', this.hasApiUrl);
    this.quotaSnapshot = undefined;
    this.account = undefined;
    if (this.hasApiUrl) {
      try {
        normaliseApiUrl(this.settingsValue.apiUrl);
        const client = new BenchClient({
          apiUrl: this.settingsValue.apiUrl,
          getKey: () => this.host.getKey(),
          transport: this.host.transport,
          proxy: this.settingsValue.proxy,
          concurrency: this.settingsValue.concurrency,
          timeoutMs: this.settingsValue.timeoutSeconds * 1000,
          logger: this.host.logger,
          now: this.now,
        });
        const generation = this.generationValue;
        client.onQuota((q) => {
          if (generation !== this.generationValue) return;
          this.quotaSnapshot = mergeSnapshots(this.quotaSnapshot, q);
          this.events.quotaChanged();
        });
        this.clientValue = client;
        this.guardValue = new QuotaGuard(QuotaGuard.fileFor(this.host.storageDir, client.apiId), this.now);
      } catch (err) {
        this.clientError = err instanceof ApiError ? err : undefined;
        this.host.logger.warn(`API address not usable: ${(err as Error).message}`);
      }
    }
    this.events.quotaChanged();
  }

  /** Checks a key with /me (free) before it is stored. */
  async validateKey(key: string): Promise<AccountInfo> {
    this.requireClient();
    const probe = new BenchClient({
      apiUrl: this.settingsValue.apiUrl,
      getKey: () => key,
      transport: this.host.transport,
      proxy: this.settingsValue.proxy,
      timeoutMs: this.settingsValue.timeoutSeconds * 1000,
      logger: this.host.logger,
    });
    try {
      const account = await probe.me();
      this.validatedAccount = { key, account, at: this.now() };
      return account;
    } finally {
      void probe.dispose();
    }
  }

  /** The account behind the key (/me). The caller checked first that the key may go to this address. */
  async fetchAccount(): Promise<AccountInfo> {
    this.account = await (this.clientValue as BenchClient).me();
    this.events.quotaChanged();
    return this.account;
  }

  /** Refresh or the same address set again: an address found wrong is checked anew (and said again if still wrong). */
  recheckAddress(): void {
    this.clientValue?.recheckAddress();
    this.notices.addressChanged();
  }

  dispose(): void {
    void this.clientValue?.dispose();
  }
}
