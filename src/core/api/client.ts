// The benchmark API client: typed results, human errors, quota tracking, de-duplication, a concurrency bound,
// bounded retries, a stop after 429 and a key that never leaves the API origin.
import { l10n } from '../l10n';
import { trimTrailing } from '../scan/text';
import { isValidSlug, type AccountInfo, type ComponentKind, type LookupResult, type QuotaSnapshot } from '../model';
import type { Logger } from '../logger';
import { nullLogger } from '../logger';
import { ApiError, errors } from './errors';
import { mergeSnapshots, parseAccount, parseRateLimitHeaders, parseResetValue, snapshotFromAccount } from './quota';
import { parseRecord, RecordShapeError } from './record';
import { asTransportError, isLoopbackHost, type HttpResponse, type HttpTransport, type ProxySettings, type TransportFactory } from './transport';

export interface ClientOptions {
  /** Everything before `/v1`, e.g. `https://api.example.com/api`. */
  apiUrl: string;
  getKey: () => Promise<string | undefined> | string | undefined;
  transport: TransportFactory;
  /** Proxy settings handed to the transport (undefined: the environment's HTTP(S)_PROXY / NO_PROXY). */
  proxy?: ProxySettings;
  concurrency?: number;
  timeoutMs?: number;
  maxRetries?: number;
  maxBodyBytes?: number;
  logger?: Logger;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export const DEFAULTS = { concurrency: 4, timeoutMs: 15_000, maxRetries: 2, maxBodyBytes: 1024 * 1024 };

export { isLoopbackHost };

/** Validates and normalises the API address: https, or http on loopback only; no credentials, query or fragment. */
export function normaliseApiUrl(raw: string | undefined): URL {
  const text = (raw ?? '').trim();
  if (!text) throw errors.missingUrl();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw errors.insecureUrl(l10n.t('it is not a valid URL'));
  }
  if (url.username || url.password) throw errors.insecureUrl(l10n.t('it contains a user name or password'));
  if (url.protocol === 'http:') {
    if (!isLoopbackHost(url.hostname)) throw errors.insecureUrl(l10n.t('plain http:// is only allowed for loopback addresses'));
  } else if (url.protocol !== 'https:') {
    throw errors.insecureUrl(l10n.t('the scheme {0} is not supported', url.protocol));
  }
  url.search = '';
  url.hash = '';
  // Accept an address pasted with the version segment: everything before /v1 is the base.
  url.pathname = trimTrailing(url.pathname, '/').replace(/\/v1$/, '') || '/';
  return url;
}

export type QuotaListener = (snapshot: QuotaSnapshot) => void;

class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}
  /** `first`: ahead of everything waiting (/me, which lookups may be waiting on). */
  async acquire(first = false): Promise<() => void> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => (first ? this.waiting.unshift(resolve) : this.waiting.push(resolve)));
    this.active++;
    return () => {
      this.active--;
      this.waiting.shift()?.();
    };
  }
}

function startOfNextMonthUtc(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

export class BenchClient {
  private readonly base: URL;
  private readonly opts: Required<Pick<ClientOptions, 'concurrency' | 'timeoutMs' | 'maxRetries' | 'maxBodyBytes'>>;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly semaphore: Semaphore;
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly listeners = new Set<QuotaListener>();
  private transportPromise: Promise<HttpTransport> | undefined;
  private quotaSnapshot: QuotaSnapshot | undefined;
  private blockedUntilMs: number | null = null;
  /** The key that got 401/403, so a scan does not send it 300 times. Cleared when the key changes. */
  private rejectedKey: { key: string; error: ApiError } | undefined;
  /** Requests actually sent, by path kind; the benchmark and tests read it. */
  readonly sent = { lookups: 0, me: 0 };

  constructor(private readonly options: ClientOptions) {
    this.base = normaliseApiUrl(options.apiUrl);
    this.opts = {
      concurrency: Math.max(1, Math.floor(options.concurrency ?? DEFAULTS.concurrency)),
      timeoutMs: Math.min(3_600_000, Math.max(100, options.timeoutMs ?? DEFAULTS.timeoutMs)), // a longer timer overflows and fires at once
      maxRetries: Math.min(2, Math.max(0, options.maxRetries ?? DEFAULTS.maxRetries)),
      maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    };
    this.logger = options.logger ?? nullLogger;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.random = options.random ?? Math.random;
    this.semaphore = new Semaphore(this.opts.concurrency);
  }

  get origin(): string {
    return this.base.origin;
  }

  /** Identifies the API for cache keys: origin plus api root. */
  get apiId(): string {
    return this.base.origin + this.base.pathname.replace(/\/$/, '');
  }

  get quota(): QuotaSnapshot | undefined {
    return this.quotaSnapshot;
  }

  /** Epoch ms until which no plugin/theme request is sent (after a 429), or null. */
  get blockedUntil(): number | null {
    if (this.blockedUntilMs !== null && this.now() >= this.blockedUntilMs) this.blockedUntilMs = null;
    return this.blockedUntilMs;
  }

  onQuota(listener: QuotaListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  lookup(kind: ComponentKind, slug: string): Promise<LookupResult> {
    if (!isValidSlug(slug)) return Promise.reject(errors.invalidSlug(slug));
    const path = `${kind === 'plugin' ? 'plugins' : 'themes'}/${encodeURIComponent(slug)}`;
    return this.dedupe(path, async () => {
      const res = await this.send(path, true);
      if (res.status === 404) {
        await this.confirmAddress();
        return { state: 'not-in-dataset', kind, slug } as LookupResult;
      }
      this.address = 'confirmed';
      try {
        return parseRecord(parseJson(res), kind, slug);
      } catch (err) {
        if (err instanceof RecordShapeError) throw errors.unreadable(err.message, res.status);
        throw err;
      }
    });
  }

  me(): Promise<AccountInfo> {
    return this.dedupe('me', async () => {
      const res = await this.send('me', false);
      if (res.status === 404) throw errors.unreadable(l10n.t('the /me endpoint was not found: check the API address'), 404);
      const account = parseAccount(parseJson(res), this.now());
      this.address = 'confirmed';
      this.publish(snapshotFromAccount(account, this.now()));
      return account;
    });
  }

  /** Ends the client: requests in flight are cut off, retries stop, nothing more is sent. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const t = this.transportPromise;
    this.transportPromise = undefined;
    if (t) await (await t).close();
  }

  private disposed = false;

  /**
   * Whether the API address is known to be a WP Bench API. A 404 means "not in the dataset" only from the API
   * itself: an address missing its path (or pointing at another server) answers 404 to everything, and caching
   * those as "not in dataset" would hide the mistake for a cache lifetime. So the first 404 before any good
   * answer asks /me (free, never counted): a 404 or unreadable body there makes every lookup of this client fail
   * with "wrong address", and nothing more is sent. Any other /me failure leaves the 404 as it is.
   */
  private address: 'unknown' | 'confirmed' | 'wrong' | Promise<void> = 'unknown';

  /** The user asked again (Refresh, the same address set again): a "wrong address" verdict is checked anew. */
  recheckAddress(): void {
    if (this.address === 'wrong') this.address = 'unknown';
  }

  private addressIsWrong(): boolean {
    return this.address === 'wrong';
  }

  private async confirmAddress(): Promise<void> {
    if (this.address === 'confirmed') return;
    if (this.address === 'wrong') throw errors.wrongAddress();
    this.startAddressCheck();
    await this.address;
    if (this.addressIsWrong()) throw errors.wrongAddress();
  }

  /** Starts the /me check once; called before the 404's slot is released, so no queued lookup slips past it. */
  private startAddressCheck(): void {
    if (this.address === 'unknown') {
      const check: Promise<void> = this.me().then(
        () => undefined,
        (err) => {
          // A lookup answered 200 meanwhile: that settles it, whatever /me said.
          if (this.address !== check) return;
          const wrong = err instanceof ApiError && (err.kind === 'unreadable' || err.kind === 'redirect');
          this.address = wrong ? 'wrong' : 'confirmed';
          if (wrong) this.logger.error(`/me failed after a 404 (${err.message}): the API address is not a WP Bench API`);
        },
      );
      this.address = check;
    }
  }

  private dedupe<T>(key: string, work: () => Promise<T>): Promise<T> {
    const existing = this.inFlight.get(key);
    if (existing) return existing as Promise<T>;
    const p = work().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, p);
    return p;
  }

  private transport(): Promise<HttpTransport> {
    this.transportPromise ??= Promise.resolve(
      this.options.transport({ connections: this.opts.concurrency, timeoutMs: this.opts.timeoutMs, proxy: this.options.proxy }),
    );
    return this.transportPromise;
  }

  private publish(snapshot: QuotaSnapshot): void {
    this.quotaSnapshot = mergeSnapshots(this.quotaSnapshot, snapshot);
    for (const l of this.listeners) {
      try {
        l(this.quotaSnapshot);
      } catch (err) {
        this.logger.error(`quota listener failed: ${String(err)}`);
      }
    }
  }

  /** Sends one GET with retries; returns 200 and 404 responses, throws typed errors for the rest. */
  private async send(path: string, counted: boolean): Promise<HttpResponse> {
    if (this.disposed) throw errors.cancelled();
    const key = ((await this.options.getKey()) ?? '').trim();
    if (!key) throw errors.missingKey();
    // A header value must be Latin-1 without line breaks: anything else would be a transport error, retried and
    // reported as the network's fault. Say what it is and send nothing.
    if (/[^\x20-\x7e\xa0-\xff]/.test(key)) throw errors.unsendableKey();
    let attempt = 0;
    for (;;) {
      try {
        return await this.sendOnce(path, key, counted);
      } catch (err) {
        if (this.disposed) throw errors.cancelled();
        if (!(err instanceof ApiError) || !err.retryable || attempt >= this.opts.maxRetries) throw err;
        attempt++;
        // Exponential backoff with full jitter: 250 ms, 500 ms (+ up to the same again).
        const delay = 250 * 2 ** (attempt - 1) * (1 + this.random());
        this.logger.warn(`${path}: ${err.kind}; retry ${attempt} of ${this.opts.maxRetries} in ${Math.round(delay)} ms`);
        await this.sleep(delay);
      }
    }
  }

  private async sendOnce(path: string, key: string, counted: boolean): Promise<HttpResponse> {
    let release = await this.semaphore.acquire(!counted);
    // A lookup that gets its slot while the address is being checked waits for the answer (and gives the slot to
    // /me): a wrong address then costs at most the lookups already in flight, not the whole queue.
    while (counted && this.address instanceof Promise) {
      release();
      await this.address;
      release = await this.semaphore.acquire();
    }
    // Checked after the wait for a slot: a 429 or 401 that arrived meanwhile stops the queued requests too.
    try {
      this.assertMaySend(key, counted);
    } catch (err) {
      release();
      throw err;
    }
    const started = this.now();
    let url = new URL(`${this.base.pathname.replace(/\/$/, '')}/v1/${path}`, this.base.origin);
    try {
      const transport = await this.transport();
      for (let hop = 0; ; hop++) {
        // The key only ever goes to the configured origin.
        if (url.origin !== this.base.origin) throw errors.redirect(302);
        if (counted) this.sent.lookups++;
        else this.sent.me++;
        let res: HttpResponse;
        try {
          res = await transport.request({
            url: url.toString(),
            headers: { authorization: `Bearer ${key}`, accept: 'application/json', 'user-agent': 'wp-bench' },
            timeoutMs: this.opts.timeoutMs,
            maxBytes: this.opts.maxBodyBytes,
          });
        } catch (err) {
          const failure = asTransportError(err);
          if (failure) {
            if (failure.failure === 'timeout') throw errors.timeout(Math.round(this.opts.timeoutMs / 1000));
            if (failure.failure === 'too-large' || failure.failure === 'malformed') throw errors.unreadable(failure.message);
            if (failure.failure === 'aborted') throw errors.cancelled();
            throw errors.network(failure.message);
          }
          // Not the transport's own failure (a bug, a broken transport): another try would fail the same way.
          throw errors.network(String((err as Error)?.message ?? err), false);
        }
        this.logger.info(`GET ${path} → ${res.status} (${this.now() - started} ms)`);
        const snapshot = parseRateLimitHeaders(res.headers, this.now());
        if (snapshot) this.publish(snapshot);
        if (res.status >= 300 && res.status < 400) {
          const location = headerValue(res.headers, 'location');
          if (!location) throw errors.redirect(res.status);
          if (hop >= 2) throw errors.redirectLoop(res.status);
          try {
            url = new URL(location, url);
          } catch {
            throw errors.redirect(res.status);
          }
          if (url.origin !== this.base.origin) {
            this.logger.warn(`${path}: redirect to another origin refused; the key was not sent there`);
            throw errors.redirect(res.status);
          }
          continue;
        }
        if (counted && res.status === 404) this.startAddressCheck();
        return this.check(res, key);
      }
    } finally {
      release();
    }
  }

  private assertMaySend(key: string, counted: boolean): void {
    if (counted && this.address === 'wrong') throw errors.wrongAddress();
    if (this.rejectedKey && this.rejectedKey.key === key) throw this.rejectedKey.error;
    const blocked = counted ? this.blockedUntil : null;
    if (blocked !== null) throw errors.quotaExceeded(blocked);
  }

  private check(res: HttpResponse, key: string): HttpResponse {
    const { status } = res;
    if (status === 200 || status === 404) return res;
    if (status === 401 || status === 403) {
      const error = status === 401 ? errors.invalidKey() : errors.forbidden();
      this.rejectedKey = { key, error };
      throw error;
    }
    if (status === 429) {
      const fromHeader = parseRateLimitHeaders(res.headers, this.now())?.resetAt ?? null;
      const retryAfter = parseResetValue(headerValue(res.headers, 'retry-after'), this.now());
      const known = fromHeader ?? retryAfter ?? this.quotaSnapshot?.resetAt ?? null;
      const resetAt = known !== null && known > this.now() ? known : startOfNextMonthUtc(this.now());
      this.blockedUntilMs = resetAt;
      this.publish({ limit: null, remaining: 0, used: this.quotaSnapshot?.limit ?? null, resetAt, tier: null, observedAt: this.now() });
      throw errors.quotaExceeded(resetAt);
    }
    if (status >= 500) throw errors.server(status);
    throw errors.unreadable(l10n.t('unexpected HTTP status {0}', status), status);
  }
}

function headerValue(headers: HttpResponse['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function parseJson(res: HttpResponse): unknown {
  try {
    return JSON.parse(res.body.toString('utf8'));
  } catch {
    throw errors.unreadable(l10n.t('the body is not valid JSON'), res.status);
  }
}

export { ApiError };
