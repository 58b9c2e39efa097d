// One workspace session: what the workspace declares (scans + live edits, per folder), what the API said about it
// (one store of outcomes per API address), the team config, and every rule about when a request may be sent
// (key, trust, consent, per-scan limit, quota block, rejected key, recent failures). No vscode: the editor reaches
// it through SessionHost, and plain-Node tests drive it with fakes.
import { l10n } from '../l10n';
import { countNoun, plural } from '../present/format';
import * as path from 'node:path';
import { BenchClient, normaliseApiUrl } from '../api/client';
import { ApiError } from '../api/errors';
import { mergeSnapshots } from '../api/quota';
import type { ProxySettings, TransportFactory } from '../api/transport';
import { DiskCache } from '../cache/diskCache';
import type { Logger } from '../logger';
import { LookupService, type LookupItem, type LookupOutcome } from '../lookup/lookupService';
import type { AccountInfo, ComponentKind, ComponentLocation, DetectedComponent, LookupDecision, QuotaSnapshot, ScanProblem, ScanResult, VersionSource } from '../model';
import { judge, type Judgement } from '../report/judge';
import { lookupDecision, parseDeclarationDocument, scanWorkspace } from '../scan';
import { GRADE_LETTERS, loadTeamConfig, type GradeLetter, type TeamConfig } from '../config/teamConfig';
import { DisposableStore, Emitter } from './events';
import { LocalResults, type LocalResult } from './localResults';
import { QuotaGuard } from './quotaGuard';

export interface ComponentEntry {
  kind: ComponentKind;
  slug: string;
  name: string | null;
  version: string | null;
  /** Absolute file paths with 1-based line/column. */
  locations: { file: string; line: number; column: number; length: number; source: ComponentLocation['source'] }[];
  /** Its header's Update URI points away from wordpress.org (a fork or a custom plugin with a w.org-like slug). */
  possibleFork: boolean;
  /** A header's Plugin/Theme/Update URI names this slug on wordpress.org. */
  wordpressOrgUri: boolean;
  /** Every declaration is the site's own must-use code (see DetectedComponent.mustUse). */
  mustUse: boolean;
  /** Every header that declares it lies outside its workspace folder (see DetectedComponent.outsideWorkspace). */
  outsideWorkspace: boolean;
  /** Looked up, or why not (lookupDecision over every place that declares it; `ignored` is not set here). */
  lookup: LookupDecision;
  /** Workspace folders (roots) that declare it. */
  folders: string[];
  /** When the places that install it disagree on the version (see DetectedComponent.versions). */
  versions?: VersionSource[];
}

/** Application-wide settings (one value per window). */
export interface SessionSettings {
  apiUrl: string;
  ttlHours: number;
  concurrency: number;
  timeoutSeconds: number;
  maxPerScan: number;
  /** The editor's proxy settings (VS Code: http.proxy, http.noProxy, http.proxyStrictSSL, http.proxyAuthorization). */
  proxy?: ProxySettings;
}

/** Resource-scoped settings, read per workspace folder. */
export interface FolderSettings {
  ignore: string[];
  minimumGrade: string;
  /** The user set diagnostics.minimumGrade explicitly (it then overrides .wp-bench.json). */
  minimumGradeExplicit: boolean;
  diagnosticsEnabled: boolean;
}

/** Everything the session needs from the editor (or a test). */
export interface SessionHost {
  /** Workspace folders on disk (file scheme). */
  folders(): { root: string; name: string }[];
  isTrusted(): boolean;
  settings(): SessionSettings;
  folderSettings(root: string | undefined): FolderSettings;
  getKey(): Promise<string | undefined>;
  /** The API origin the stored key was saved or validated for (persisted), undefined when not known yet. */
  keyOrigin(): string | undefined;
  setKeyOrigin(origin: string | undefined): Promise<void> | void;
  /** A question with buttons; resolves to the chosen button or undefined (dismissed). */
  ask(message: string, ...items: string[]): Promise<string | undefined>;
  error(message: string, ...items: string[]): Promise<string | undefined>;
  runCommand(id: string): Promise<unknown>;
  setContext(key: string, value: unknown): void;
  transport: TransportFactory;
  logger: Logger;
  /** Cache and persisted quota state live here. */
  storageDir: string;
  now?: () => number;
  /** Scanner (default: scanWorkspace with asynchronous I/O). */
  scan?: (root: string, signal: AbortSignal) => Promise<ScanResult>;
}

export type SessionState = 'idle' | 'scanning' | 'looking-up';

export function entryKey(kind: ComponentKind, slug: string): string {
  return `${kind}/${slug}`;
}

type Prompt = 'untrusted' | 'limit' | 'origin';

export class WorkspaceSession extends DisposableStore {
  private settingsValue: SessionSettings;
  private client: BenchClient | undefined;
  private clientError: ApiError | undefined;
  /** Bumped when the client is replaced: answers of an older client are dropped. */
  private generation = 0;
  private guard: QuotaGuard;
  readonly lookups: LookupService;
  /** Measurements made on this machine (Measure Locally), per `${kind}:${slug}`. */
  readonly local: LocalResults;
  private readonly cache: DiskCache;
  private readonly now: () => number;
  /** Scan results per workspace folder root. */
  private readonly scanned = new Map<string, { components: DetectedComponent[]; problems: ScanProblem[]; ownComposerFiles?: string[] }>();
  /** Live parses of open, edited files (absolute path), overriding the scan for that file. */
  private readonly live = new Map<string, { components: DetectedComponent[]; problems: ScanProblem[] }>();
  /** Bumped by every edit and close of a file: a parse that finishes after a newer event is dropped. */
  private readonly liveVersion = new Map<string, number>();
  private entries: ComponentEntry[] = [];
  private team: { root: string; config: TeamConfig; problems: ScanProblem[] } | undefined;
  /** Outcomes per API address, then per `kind/slug`. */
  private readonly outcomesByApi = new Map<string, Map<string, LookupOutcome>>();
  private readonly changed = this._register(new Emitter<void>());
  readonly onDidChange = this.changed.event;
  private readonly quotaChanged = this._register(new Emitter<void>());
  readonly onDidChangeQuota = this.quotaChanged.event;
  private quotaSnapshot: QuotaSnapshot | undefined;
  private account: AccountInfo | undefined;
  private validatedAccount: { key: string; account: AccountInfo; at: number } | undefined;
  private hasKeyValue = false;
  /** The key in use, for the per-key 429 block (kept in memory only; the guard stores its fingerprint). */
  private currentKey: string | undefined;
  private untrustedConsent = false;
  /** Prompts on screen, and prompts the user dismissed (not asked again in this session). */
  private readonly asking = new Set<Prompt>();
  private readonly declined = new Set<Prompt>();
  private cycle: Promise<void> | undefined;
  private rescanQueued = false;
  private scanAbort: AbortController | undefined;
  private scanning = false;
  private lookupsInFlight = 0;
  private notified = { authKind: '', quotaReset: 0, wrongAddress: false };
  /** Notifications shown, by error kind (tests check that a 300-slug scan shows one, not 300). */
  readonly notificationsShown: Record<string, number> = {};

  constructor(private readonly host: SessionHost) {
    super();
    this.now = host.now ?? Date.now;
    this.settingsValue = host.settings();
    this.cache = new DiskCache({ dir: host.storageDir, ttlHours: this.settingsValue.ttlHours, logger: host.logger });
    this.lookups = new LookupService(this.cache, () => this.client, this.now);
    this.guard = new QuotaGuard(undefined, this.now);
    this.rebuildClient();
    this.local = this._register(new LocalResults(path.join(host.storageDir, 'local-results.json')));
    this._register(this.local.onDidChange(() => this.changed.fire()));
    this._register({ dispose: () => this.scanAbort?.abort() });
    this._register({ dispose: () => void this.client?.dispose() });
  }

  // ---- what the surfaces read -------------------------------------------------------------------

  get config(): SessionSettings {
    return this.settingsValue;
  }
  get hasApiUrl(): boolean {
    return this.settingsValue.apiUrl !== '';
  }
  get apiUrlProblem(): ApiError | undefined {
    return this.clientError;
  }
  /** The workspace is trusted (Measure Locally runs only then). */
  get trusted(): boolean {
    return this.host.isTrusted();
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
    return this.guard.blockedUntil(this.currentKey) ?? this.client?.blockedUntil ?? null;
  }
  get state(): SessionState {
    return this.scanning ? 'scanning' : this.lookupsInFlight > 0 ? 'looking-up' : 'idle';
  }
  get components(): readonly ComponentEntry[] {
    return this.entries;
  }
  get teamConfig(): { root: string; config: TeamConfig; problems: ScanProblem[] } | undefined {
    return this.team;
  }

  /** Scan problems with absolute file paths (an edited file's own problems replace the scan's). */
  get problems(): (ScanProblem & { absFile: string })[] {
    const out: (ScanProblem & { absFile: string })[] = [];
    for (const [root, s] of this.scanned) {
      for (const p of s.problems) {
        const absFile = path.join(root, ...p.file.split('/'));
        if (!this.live.has(absFile)) out.push({ ...p, absFile });
      }
    }
    for (const [absFile, l] of this.live) for (const p of l.problems) out.push({ ...p, absFile });
    return out;
  }

  /** The workspace folder holding a file (the longest root that contains it). */
  folderOf(file: string): string | undefined {
    let best: string | undefined;
    for (const f of this.host.folders()) {
      const rel = path.relative(f.root, file);
      if (!rel.startsWith('..') && !path.isAbsolute(rel) && (!best || f.root.length > best.length)) best = f.root;
    }
    return best;
  }

  /** Ignored by the team config or by the wpBench.ignore of the folder (of `file`, else of any folder declaring it). */
  isIgnored(slug: string, file?: string): boolean {
    if (this.team?.config.ignore.includes(slug)) return true;
    const roots = file !== undefined ? [this.folderOf(file)] : this.entries.find((e) => e.slug === slug)?.folders ?? [undefined];
    return roots.some((r) => this.host.folderSettings(r).ignore.includes(slug));
  }

  /** Minimum grade for a file's folder: the user's explicit setting, else the team config's, else C. */
  minimumGrade(file?: string): string {
    const s = this.host.folderSettings(file !== undefined ? this.folderOf(file) : this.host.folders()[0]?.root);
    if (s.minimumGradeExplicit) return s.minimumGrade;
    return this.team?.config.minimumGrade ?? s.minimumGrade;
  }

  diagnosticsEnabled(file: string): boolean {
    return this.host.folderSettings(this.folderOf(file)).diagnosticsEnabled;
  }

  /** Components that may be looked up: not ignored. */
  get activeEntries(): ComponentEntry[] {
    return this.entries.filter((e) => !this.isIgnored(e.slug));
  }

  private get outcomes(): Map<string, LookupOutcome> {
    const apiId = this.client?.apiId ?? '';
    let m = this.outcomesByApi.get(apiId);
    if (!m) this.outcomesByApi.set(apiId, (m = new Map()));
    return m;
  }

  /** The local measurement of a component, when it was measured on this machine. */
  localResult(kind: ComponentKind, slug: string): LocalResult | undefined {
    return this.local.get(kind, slug);
  }

  outcome(kind: ComponentKind, slug: string): LookupOutcome | undefined {
    return this.outcomes.get(entryKey(kind, slug)) ?? this.lookups.peek(kind, slug);
  }

  /** The same judgement as `wp-bench check`, over what the workspace declares and what is known (no request). */
  judgement(): Judgement {
    const outcomes = new Map<string, LookupOutcome>();
    for (const e of this.entries) {
      const o = this.outcome(e.kind, e.slug);
      if (o) outcomes.set(entryKey(e.kind, e.slug), o);
    }
    const root = this.team?.root ?? this.host.folders()[0]?.root ?? '';
    const components: DetectedComponent[] = this.entries.map((e) => ({
      kind: e.kind,
      slug: e.slug,
      name: e.name,
      version: e.version,
      possibleFork: e.possibleFork,
      mustUse: e.mustUse,
      lookup: e.lookup,
      locations: e.locations.map((l) => ({ ...l, file: path.relative(root, l.file).split(path.sep).join('/') })),
    }));
    const grade = this.minimumGrade().charAt(0).toUpperCase();
    const folderIgnore = this.host.folders().flatMap((f) => this.host.folderSettings(f.root).ignore);
    const problems = this.problems.map((p) => ({ ...p, file: path.relative(root, p.absFile).split(path.sep).join('/') }));
    return judge({
      components,
      outcomes,
      problems,
      config: {
        failOn: (GRADE_LETTERS as readonly string[]).includes(grade) ? (grade as GradeLetter) : 'C',
        context: this.team?.config.context ?? 'homepage',
        budgets: this.team?.config.budgets ?? {},
        ignore: [...new Set([...folderIgnore, ...(this.team?.config.ignore ?? [])])],
        contextWeights: this.team?.config.contextWeights,
        local: this.local.records(),
        localStale: this.local.staleKeys(),
      },
    });
  }

  // ---- settings, key, client -----------------------------------------------------------------------

  async refreshKeyState(): Promise<void> {
    this.currentKey = await this.host.getKey();
    this.hasKeyValue = !!this.currentKey;
    this.host.setContext('wpBench.hasKey', this.hasKeyValue);
    this.quotaChanged.fire();
  }

  /** Settings changed: a new client when the address or limits change; ignore lists re-judge and look up. */
  onSettingsChanged(): Promise<void> {
    return this.tracked(this.settingsChanged());
  }

  private async settingsChanged(): Promise<void> {
    const before = this.settingsValue;
    this.settingsValue = this.host.settings();
    if (before.ttlHours !== this.settingsValue.ttlHours) this.cache.setTtlHours(this.settingsValue.ttlHours);
    const clientChanged =
      before.apiUrl !== this.settingsValue.apiUrl ||
      before.concurrency !== this.settingsValue.concurrency ||
      before.timeoutSeconds !== this.settingsValue.timeoutSeconds ||
      JSON.stringify(before.proxy ?? null) !== JSON.stringify(this.settingsValue.proxy ?? null);
    if (clientChanged) this.rebuildClient();
    this.changed.fire();
    // An un-ignored slug, a new address, a larger limit: look up what is now missing (cached first, no request twice).
    await this.lookupAll();
  }

  /**
   * The key was set (the same key again counts) or cleared: forget its refusal and the block, look up again. The
   * key store reports each write once; calls for the same key while one runs still share it (a second run would
   * replace the client and drop the first one's answers, and forget a 429 the first one met).
   */
  onKeyChanged(): Promise<void> {
    const done = this.tracked(this.keyChanged());
    this.lastKeyChange = done;
    return done;
  }

  private lastKeyChange: Promise<void> | undefined;

  /** The key change reported last (by the key store's event), finished: what Set API Key waits for, nothing else. */
  async whenKeyApplied(): Promise<void> {
    await this.lastKeyChange?.catch(() => undefined);
  }

  private async keyChanged(): Promise<void> {
    const key = await this.host.getKey();
    if (this.keyChange && this.keyChange.key === key) return this.keyChange.done;
    const done = this.applyKeyChange().finally(() => {
      if (this.keyChange?.done === done) this.keyChange = undefined;
    });
    this.keyChange = { key, done };
    return done;
  }

  private keyChange: { key: string | undefined; done: Promise<void> } | undefined;
  /** The key the last key change was applied for: a second report of the same key keeps newer quota figures. */
  private appliedKey: string | undefined;

  /** How many key changes were applied (each forgets blocks and looks up again): one per write of the key. */
  keyChangesApplied = 0;

  private async applyKeyChange(): Promise<void> {
    this.keyChangesApplied++;
    this.notified.authKind = '';
    this.notified.quotaReset = 0;
    await this.guard.keyChanged();
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
      this.quotaChanged.fire();
    }
    await this.lookupAll();
  }

  private rebuildClient(): void {
    void this.client?.dispose();
    this.generation++;
    this.client = undefined;
    this.clientError = undefined;
    this.notified.wrongAddress = false;
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
        const generation = this.generation;
        client.onQuota((q) => {
          if (generation !== this.generation) return;
          this.quotaSnapshot = mergeSnapshots(this.quotaSnapshot, q);
          this.quotaChanged.fire();
        });
        this.client = client;
        this.guard = new QuotaGuard(QuotaGuard.fileFor(this.host.storageDir, client.apiId), this.now);
      } catch (err) {
        this.clientError = err instanceof ApiError ? err : undefined;
        this.host.logger.warn(`API address not usable: ${(err as Error).message}`);
      }
    }
    this.quotaChanged.fire();
  }

  /** Checks a key with /me (free) before it is stored. */
  async validateKey(key: string): Promise<AccountInfo> {
    if (!this.client) throw this.clientError ?? missingUrl();
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

  async fetchAccount(): Promise<AccountInfo> {
    if (!this.client) throw this.clientError ?? missingUrl();
    if (!(await this.keyMayGo())) throw new ApiError('cancelled', l10n.t('The API address changed since the key was saved: allow sending the key there first (or set the key again).'));
    this.account = await this.client.me();
    this.quotaChanged.fire();
    return this.account;
  }

  async clearCache(): Promise<void> {
    await this.cache.clear();
    this.outcomesByApi.clear();
    this.changed.fire();
  }

  // ---- scanning ------------------------------------------------------------------------------------

  /** Refresh or the same address set again: an address found wrong is checked anew (and said again if still wrong). */
  recheckAddress(): void {
    this.client?.recheckAddress();
    this.notified.wrongAddress = false;
  }

  /**
   * Scans every workspace folder in the background, then looks up what is not cached. Asked for while a scan or
   * its lookups run, it cancels the scan in progress and schedules exactly one more run; the promise resolves
   * when no run is left.
   */
  rescan(): Promise<void> {
    this.rescanQueued = true;
    this.scanAbort?.abort();
    this.cycle ??= this.tracked(this.runCycles().finally(() => (this.cycle = undefined)));
    return this.cycle;
  }

  /** What the session started and has not finished: scan cycles, key and settings changes (see whenSettled). */
  private readonly running = new Set<Promise<unknown>>();
  private tracked<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    work.then(
      () => this.running.delete(work),
      () => this.running.delete(work),
    );
    return work;
  }

  /**
   * Resolves once nothing is running or queued: no scan cycle, key or settings change, and no lookup in flight (a
   * command's own lookups are waited for by their count). For tests and demos that must act on a quiet session: a
   * condition, not a pause.
   */
  async whenSettled(): Promise<void> {
    while (this.running.size > 0 || this.state !== 'idle') {
      if (this.running.size > 0) await Promise.allSettled([...this.running]);
      else await new Promise<void>((r) => setImmediate(r));
    }
  }

  private async runCycles(): Promise<void> {
    while (this.rescanQueued && !this.isDisposed) {
      this.rescanQueued = false;
      const completed = await this.scanOnce();
      if (!completed) continue;
      // Local measurements: loaded once, then checked against their files after each scan (stale when changed).
      if (this.local.loadStarted) await this.local.recheck();
      else await this.local.load(); // checks them itself
      await this.lookupAll();
    }
  }

  /** One scan of every folder; false when it was cancelled (a newer scan, or the window closing). */
  private async scanOnce(): Promise<boolean> {
    const abort = new AbortController();
    this.scanAbort = abort;
    this.scanning = true;
    this.changed.fire();
    try {
      const folders = this.host.folders();
      const first = folders[0];
      const loaded = first ? await loadTeamConfig(first.root).catch(() => undefined) : undefined;
      const team = first && loaded ? { root: first.root, ...loaded } : undefined;
      const results = new Map<string, { components: DetectedComponent[]; problems: ScanProblem[] }>();
      const scan = this.host.scan ?? ((root: string, signal: AbortSignal) => scanWorkspace(root, { io: 'async', signal }));
      for (const folder of folders) {
        if (abort.signal.aborted) return false;
        const started = this.now();
        try {
          const result = await scan(folder.root, abort.signal);
          results.set(folder.root, { components: result.components, problems: result.problems });
          this.host.logger.info(`scan ${folder.name}: ${countNoun(result.components.length, 'component')}, ${countNoun(result.problems.length, 'problem')} (${this.now() - started} ms)`);
        } catch (err) {
          if (abort.signal.aborted) return false;
          this.host.logger.error(`scan of ${folder.name} failed: ${(err as Error).message}`);
          results.set(folder.root, { components: [], problems: [{ file: '', line: 1, column: 1, message: l10n.t('The scan of {0} failed: {1}', folder.name, (err as Error).message) }] });
        }
      }
      if (abort.signal.aborted) return false;
      this.team = team;
      this.scanned.clear();
      for (const [root, r] of results) this.scanned.set(root, r);
      this.rebuildEntries();
      this.host.setContext('wpBench.nothingDetected', this.entries.length === 0);
      return true;
    } finally {
      if (this.scanAbort === abort) {
        this.scanAbort = undefined;
        this.scanning = false;
      }
      this.changed.fire();
    }
  }

  /**
   * Re-parses an edited declaration file (composer.json, composer.lock, .wp-env.json, a blueprint); only new
   * slugs are looked up. `isClosed` is asked after parsing: a document closed meanwhile is not brought back.
   */
  async updateDocument(absFile: string, text: string, isClosed: () => boolean): Promise<void> {
    const folder = this.folderOf(absFile);
    if (!folder || isClosed()) return;
    const version = (this.liveVersion.get(absFile) ?? 0) + 1;
    this.liveVersion.set(absFile, version);
    const rel = path.relative(folder, absFile).split(path.sep).join('/');
    const ownFolder = this.scanned.get(folder)?.ownComposerFiles?.includes(rel) ?? false;
    const parsed = await parseDeclarationDocument(absFile, text, rel, { ownFolder });
    if (!parsed || isClosed() || this.liveVersion.get(absFile) !== version) return;
    this.live.set(absFile, parsed);
    this.rebuildEntries();
    this.changed.fire();
    await this.lookupAll();
  }

  /** A closed document falls back to what is on disk (and a parse still running for it is dropped). */
  forgetDocument(absFile: string): void {
    this.liveVersion.set(absFile, (this.liveVersion.get(absFile) ?? 0) + 1);
    if (this.live.delete(absFile)) {
      this.rebuildEntries();
      this.changed.fire();
    }
  }

  private rebuildEntries(): void {
    const merged = new Map<string, ComponentEntry>();
    const add = (root: string, c: DetectedComponent, keep: (abs: string) => boolean) => {
      const locations = c.locations.map((l) => ({ ...l, file: path.join(root, ...l.file.split('/')) })).filter((l) => keep(l.file));
      if (locations.length === 0) return;
      const key = entryKey(c.kind, c.slug);
      const existing = merged.get(key);
      if (existing) {
        for (const l of locations) existing.locations.push(l);
        existing.name ??= c.name;
        existing.version ??= c.version;
        existing.possibleFork ||= c.possibleFork === true;
        existing.wordpressOrgUri ||= c.wordpressOrgUri === true;
        existing.mustUse &&= c.mustUse === true;
        existing.outsideWorkspace &&= c.outsideWorkspace === true;
        existing.versions ??= c.versions;
        if (!existing.folders.includes(root)) existing.folders.push(root);
      } else {
        merged.set(key, {
          kind: c.kind,
          slug: c.slug,
          name: c.name,
          version: c.version,
          locations,
          possibleFork: c.possibleFork === true,
          wordpressOrgUri: c.wordpressOrgUri === true,
          mustUse: c.mustUse === true,
          outsideWorkspace: c.outsideWorkspace === true,
          lookup: 'yes',
          folders: [root],
          ...(c.versions ? { versions: c.versions } : {}),
        });
      }
    };
    for (const [root, result] of this.scanned) for (const c of result.components) add(root, c, (f) => !this.live.has(f));
    for (const [file, parsed] of this.live) {
      const root = this.folderOf(file);
      if (root) for (const c of parsed.components) add(root, c, () => true);
    }
    // The scanner's rule, over every place that declares it (scan and live edits together).
    for (const e of merged.values()) e.lookup = lookupDecision(e);
    this.entries = [...merged.values()];
  }

  // ---- lookups --------------------------------------------------------------------------------------

  /**
   * Fills outcomes from the cache, then asks the API for what is missing or stale — only if key, trust, consent,
   * quota, the rejected-key latch and the per-scan limit allow it. Slugs that failed in the last 10 minutes wait.
   */
  async lookupAll(opts: { force?: boolean; only?: LookupItem[]; consented?: boolean } = {}): Promise<void> {
    const items: LookupItem[] = opts.only ?? this.activeEntries.filter((e) => e.lookup === 'yes').map((e) => ({ kind: e.kind, slug: e.slug }));
    const client = this.client;
    if (!client) {
      this.changed.fire();
      return;
    }
    const generation = this.generation;
    this.lookupsInFlight++;
    try {
      await this.guard.load();
      // Cached answers first (no request), so the surfaces fill at once.
      const cached = await this.lookups.getMany(items, { network: false });
      if (generation !== this.generation) return;
      for (const [k, o] of cached) if (o.result) this.outcomes.set(k, o);
      this.changed.fire();
      const needed = (opts.force ? uniqueItems(items) : await this.lookups.needsRequest(items)).filter((i) => opts.force || !this.guard.recentlyFailed(i.kind, i.slug));
      if (generation !== this.generation || needed.length === 0 || !(await this.mayRequest(needed.length))) return;
      if (needed.length > this.settingsValue.maxPerScan && !opts.consented) {
        this.askToExceedLimit(needed);
        return;
      }
      this.changed.fire();
      const results = await this.lookups.getMany(needed, { network: true, force: opts.force });
      if (generation !== this.generation) return; // a replaced client's answers never land in the new state
      const key = await this.host.getKey();
      let firstError: ApiError | undefined;
      for (const [k, o] of results) {
        this.outcomes.set(k, o);
        if (o.error) {
          firstError ??= o.error;
          await this.guard.record(o.error, key, o);
        } else {
          this.guard.succeeded(o.kind, o.slug);
        }
      }
      if (firstError) void this.report(firstError);
    } finally {
      this.lookupsInFlight--;
      this.changed.fire();
    }
  }

  /** A question the user has not answered yet (trust or the per-scan limit); lookups wait for it, the UI does not. */
  get pendingConsent(): Prompt | undefined {
    return this.asking.has('untrusted') ? 'untrusted' : this.asking.has('limit') ? 'limit' : this.asking.has('origin') ? 'origin' : undefined;
  }

  /**
   * The key is bound to the API origin it was saved or validated for: a changed address (a settings sync, a link,
   * another profile) does not receive it until the user says so. A key saved before any address binds to the first.
   */
  private async keyMayGo(): Promise<boolean> {
    const origin = this.client?.origin;
    if (!origin) return false;
    const bound = this.host.keyOrigin();
    if (bound === undefined) {
      await this.host.setKeyOrigin(origin);
      return true;
    }
    if (bound === origin) return true;
    const send = l10n.t('Send the Key There');
    this.prompt('origin', l10n.t('The API address changed to {0}. Your API key was saved for {1}. Send the key to {0}?', origin, bound), [send], async (choice) => {
      if (choice !== send) return;
      await this.host.setKeyOrigin(origin);
      await this.lookupAll();
    });
    return false;
  }

  /**
   * The key was saved or validated for the current address (Set API Key). Returns the undo, for a key that could not
   * be saved after all: the old key stays bound to its old address.
   */
  async bindKeyToCurrentOrigin(): Promise<() => Promise<void>> {
    const before = this.host.keyOrigin();
    await this.host.setKeyOrigin(this.client?.origin);
    this.declined.delete('origin');
    return async () => void (await this.host.setKeyOrigin(before));
  }

  private async mayRequest(count: number): Promise<boolean> {
    if (!this.hasKeyValue || this.blockedUntil !== null) return false;
    const key = await this.host.getKey();
    if (!key || this.guard.rejection(key)) return false;
    if (!(await this.keyMayGo())) return false;
    if (!this.host.isTrusted() && !this.untrustedConsent) {
      const allow = l10n.t('Allow Lookups');
      const message = plural(
        count,
        l10n.t('This workspace is not trusted. WP Bench found 1 plugin or theme; looking it up sends its slug to the benchmark API with your key.'),
        l10n.t('This workspace is not trusted. WP Bench found {0} plugins and themes; looking them up sends their slugs to the benchmark API with your key.', count),
      );
      this.prompt('untrusted', message, [allow], (choice) => choice === allow && this.allowUntrustedLookups());
      return false;
    }
    return true;
  }

  /** Asks once at a time; a dismissed question is not asked again in this session. */
  private prompt(which: Prompt, message: string, items: string[], onChoice: (choice: string) => unknown): void {
    if (this.asking.has(which) || this.declined.has(which)) return;
    this.asking.add(which);
    this.host.logger.info(`asking (${which}): ${message}`);
    void this.host.ask(message, ...items).then((choice) => {
      this.asking.delete(which);
      this.host.logger.info(`answer (${which}): ${choice ?? 'dismissed'}`);
      if (choice === undefined) this.declined.add(which);
      else void onChoice(choice);
    });
  }

  /** The user agreed to send lookups from this untrusted workspace (for this session). */
  async allowUntrustedLookups(): Promise<void> {
    this.untrustedConsent = true;
    this.declined.delete('untrusted');
    await this.lookupAll();
  }

  private askToExceedLimit(needed: LookupItem[]): void {
    const limit = this.settingsValue.maxPerScan;
    const all = l10n.t('Look Up All {0}', needed.length);
    const some = l10n.t('Only {0}', limit);
    const message = plural(
      needed.length,
      l10n.t('This scan would send 1 request (it counts against your monthly quota); the limit per scan is {0}.', limit),
      l10n.t('This scan would send {0} requests (each counts against your monthly quota); the limit per scan is {1}.', needed.length, limit),
    );
    this.prompt('limit', message, [all, some], (choice) => {
      if (choice === all) return this.lookupAll({ only: needed, consented: true });
      if (choice === some && limit > 0) return this.lookupAll({ only: needed.slice(0, limit), consented: true });
      return undefined;
    });
  }

  /** What the cache holds for a slug, never a request (the comparison counts what it would cost first). */
  async cachedOutcome(kind: ComponentKind, slug: string): Promise<LookupOutcome> {
    return this.lookups.get(kind, slug, { network: false });
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
    if (!this.client) throw this.clientError ?? missingUrl();
    await this.guard.load();
    const generation = this.generation;
    const cached = await this.lookups.get(kind, slug, { network: false });
    if (cached.result && !cached.stale && !force) return cached;
    const key = await this.host.getKey();
    const rejected = key ? this.guard.rejection(key) : undefined;
    if (!this.hasKeyValue || !key || this.blockedUntil !== null || rejected) {
      const error = !this.hasKeyValue || !key
        ? new ApiError('missing-key', l10n.t('No API key is set. Run "WP Bench: Set API Key".'))
        : rejected
          ? new ApiError(rejected.kind, l10n.t('{0} Set another key with "WP Bench: Set API Key".', rejected.message))
          : new ApiError('quota-exceeded', l10n.t('The monthly quota is used up; cached data only until the reset.'), { resetAt: this.blockedUntil });
      return { ...cached, error };
    }
    if (!(await this.mayRequest(1))) return { ...cached, error: new ApiError('cancelled', l10n.t('This workspace is not trusted: allow WP Bench lookups first.')) };
    this.lookupsInFlight++;
    try {
      const outcome = await this.lookups.get(kind, slug, { network: true, force });
      if (generation !== this.generation) return outcome;
      if (outcome.result || !this.outcomes.has(entryKey(kind, slug))) this.outcomes.set(entryKey(kind, slug), outcome);
      if (outcome.error) {
        await this.guard.record(outcome.error, key, outcome);
        void this.report(outcome.error);
      } else {
        this.guard.succeeded(kind, slug);
      }
      return outcome;
    } finally {
      this.lookupsInFlight--;
      this.changed.fire();
    }
  }

  /** One message per problem: a scan of 300 slugs that hits a bad key shows it once, not 300 times. */
  private async report(error: ApiError): Promise<void> {
    const count = () => (this.notificationsShown[error.kind] = (this.notificationsShown[error.kind] ?? 0) + 1);
    if (error.kind === 'quota-exceeded') {
      const reset = error.details.resetAt ?? 0;
      if (this.notified.quotaReset === reset) return;
      this.notified.quotaReset = reset;
      count();
      this.quotaChanged.fire();
      const show = l10n.t('Show Account');
      void this.host.error(error.message, show).then((c) => c === show && this.host.runCommand('wpBench.showAccount'));
      return;
    }
    if (error.kind === 'invalid-key' || error.kind === 'forbidden' || error.kind === 'missing-key') {
      if (this.notified.authKind === error.kind) return;
      this.notified.authKind = error.kind;
      count();
      const setKey = l10n.t('Set API Key');
      const choice = await this.host.error(error.message, setKey);
      if (choice === setKey) await this.host.runCommand('wpBench.setApiKey');
      return;
    }
    if (error.kind === 'wrong-address') {
      if (this.notified.wrongAddress) return;
      this.notified.wrongAddress = true;
      count();
      const setUrl = l10n.t('Set API Address');
      const choice = await this.host.error(error.message, setUrl);
      if (choice === setUrl) await this.host.runCommand('wpBench.setApiUrl');
      return;
    }
    this.host.logger.warn(error.message);
  }
}

function missingUrl(): ApiError {
  return new ApiError('missing-url', l10n.t('No API address is set. Run "WP Bench: Set API Address".'));
}

function uniqueItems(items: LookupItem[]): LookupItem[] {
  const seen = new Map<string, LookupItem>();
  for (const i of items) seen.set(entryKey(i.kind, i.slug), i);
  return [...seen.values()];
}

/** The workspace-level ignore list after "Ignore in This Workspace": the folder's own value plus the slug, never the merged list. */
export function withIgnored(workspaceValue: readonly string[] | undefined, slug: string): string[] {
  const list = (workspaceValue ?? []).filter((s) => typeof s === 'string');
  return list.includes(slug) ? list : [...list, slug];
}
