// The extension's state: what the workspace declares (scan + live edits) and what the API said about it.
// Owns the client's lifetime and every rule about when a request may be sent (trust, consent, quota, key).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { BenchClient, normaliseApiUrl } from '../core/api/client';
import { ApiError } from '../core/api/errors';
import { mergeSnapshots } from '../core/api/quota';
import type { TransportFactory } from '../core/api/transport';
import { DiskCache } from '../core/cache/diskCache';
import type { Logger } from '../core/logger';
import { LookupService, type LookupItem, type LookupOutcome } from '../core/lookupService';
import type { AccountInfo, ComponentKind, ComponentLocation, DetectedComponent, LookupDecision, QuotaSnapshot, ScanProblem } from '../core/model';
import { judge, type Judgement } from '../core/report/judge';
import { GRADE_LETTERS, loadTeamConfig, type GradeLetter, type TeamConfig } from '../core/teamConfig';
import { isDeclarationFile, lookupDecision, parseDeclarationDocument, scanWorkspace } from '../core/scan';
import type { ApiKeyStore } from './apiKey';
import { readSettings, type Settings } from './config';

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
  /** Looked up, or why not (core's lookupDecision over every place that declares it; `ignored` is not set here). */
  lookup: LookupDecision;
}

export interface UiPorts {
  /** Asks the user; resolves to the chosen item title or undefined. */
  ask(message: string, ...items: string[]): Thenable<string | undefined>;
  error(message: string, ...items: string[]): Thenable<string | undefined>;
  info(message: string, ...items: string[]): Thenable<string | undefined>;
  runCommand(id: string): Thenable<unknown>;
}

export function entryKey(kind: ComponentKind, slug: string): string {
  return `${kind}/${slug}`;
}

export class Bench implements vscode.Disposable {
  private settings: Settings = readSettings();
  private client: BenchClient | undefined;
  private clientError: ApiError | undefined;
  readonly lookups: LookupService;
  private readonly cache: DiskCache;
  /** Scan results per workspace folder root. */
  private readonly scanned = new Map<string, { components: DetectedComponent[]; problems: ScanProblem[] }>();
  /** Live parses of open, edited files (absolute path → components and problems), overriding the scan for that file. */
  private readonly live = new Map<string, { components: DetectedComponent[]; problems: ScanProblem[] }>();
  private entries: ComponentEntry[] = [];
  /** `.wp-bench.json` of the first workspace folder (the team's shared settings). */
  private team: { root: string; config: TeamConfig; problems: ScanProblem[] } | undefined;
  private readonly outcomes = new Map<string, LookupOutcome>();
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly quotaEmitter = new vscode.EventEmitter<void>();
  readonly onDidChangeQuota = this.quotaEmitter.event;
  private quotaSnapshot: QuotaSnapshot | undefined;
  private account: AccountInfo | undefined;
  private validatedAccount: { key: string; account: AccountInfo } | undefined;
  private hasKeyValue = false;
  private untrustedConsent = false;
  private scanning: Promise<void> | undefined;
  private notified = { authKind: '', quotaReset: 0 };
  private disposables: vscode.Disposable[] = [];
  state: 'idle' | 'scanning' | 'looking-up' = 'idle';

  constructor(
    storageDir: string,
    private readonly keys: ApiKeyStore,
    private readonly transport: TransportFactory,
    private readonly logger: Logger,
    private readonly ui: UiPorts,
  ) {
    this.cache = new DiskCache({ dir: storageDir, ttlHours: this.settings.ttlHours, logger });
    this.lookups = new LookupService(this.cache, () => this.client);
    this.rebuildClient();
  }

  get config(): Settings {
    return this.settings;
  }

  get hasApiUrl(): boolean {
    return this.settings.apiUrl !== '';
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

  get blockedUntil(): number | null {
    return this.client?.blockedUntil ?? null;
  }

  get components(): readonly ComponentEntry[] {
    return this.entries;
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

  isIgnored(slug: string): boolean {
    return this.settings.ignore.includes(slug) || (this.team?.config.ignore.includes(slug) ?? false);
  }

  /** Minimum grade: the user's explicit setting, else the team config's, else C. */
  get minimumGrade(): string {
    if (this.settings.minimumGradeExplicit) return this.settings.minimumGrade;
    return this.team?.config.minimumGrade ?? this.settings.minimumGrade;
  }

  get teamConfig(): { root: string; config: TeamConfig; problems: ScanProblem[] } | undefined {
    return this.team;
  }

  /** The same judgement as `wp-bench check`, over what the workspace declares and what is known (no request). */
  judgement(): Judgement {
    const outcomes = new Map<string, LookupOutcome>();
    for (const e of this.entries) {
      const o = this.outcome(e.kind, e.slug);
      if (o) outcomes.set(entryKey(e.kind, e.slug), o);
    }
    const root = this.team?.root ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    const components: DetectedComponent[] = this.entries.map((e) => ({
      kind: e.kind,
      slug: e.slug,
      name: e.name,
      version: e.version,
      possibleFork: e.possibleFork,
      lookup: e.lookup,
      locations: e.locations.map((l) => ({ ...l, file: path.relative(root, l.file).split(path.sep).join('/'), source: l.source })),
    }));
    const grade = this.minimumGrade.charAt(0).toUpperCase();
    return judge({
      components,
      outcomes,
      config: {
        failOn: (GRADE_LETTERS as readonly string[]).includes(grade) ? (grade as GradeLetter) : 'C',
        context: this.team?.config.context ?? 'homepage',
        budgets: this.team?.config.budgets ?? {},
        ignore: [...this.settings.ignore, ...(this.team?.config.ignore ?? [])],
        contextWeights: this.team?.config.contextWeights,
      },
    });
  }

  outcome(kind: ComponentKind, slug: string): LookupOutcome | undefined {
    return this.outcomes.get(entryKey(kind, slug)) ?? this.lookups.peek(kind, slug);
  }

  async refreshKeyState(): Promise<void> {
    this.hasKeyValue = !!(await this.keys.get());
    await vscode.commands.executeCommand('setContext', 'wpBench.hasKey', this.hasKeyValue);
    this.quotaEmitter.fire();
  }

  async onSettingsChanged(): Promise<void> {
    const before = this.settings;
    this.settings = readSettings();
    if (before.ttlHours !== this.settings.ttlHours) this.cache.setTtlHours(this.settings.ttlHours);
    const clientChanged =
      before.apiUrl !== this.settings.apiUrl ||
      before.concurrency !== this.settings.concurrency ||
      before.timeoutSeconds !== this.settings.timeoutSeconds;
    if (clientChanged) {
      this.rebuildClient();
      this.outcomes.clear();
      await this.lookupAll();
    }
    this.emitter.fire();
  }

  async onKeyChanged(): Promise<void> {
    this.notified.authKind = '';
    await this.refreshKeyState();
    const validated = this.validatedAccount;
    this.rebuildClient();
    // The /me answer that validated this key is still true: no second /me.
    if (validated && validated.key === (await this.keys.get())) {
      this.account = validated.account;
      this.quotaSnapshot = { limit: validated.account.limit, used: validated.account.used, remaining: validated.account.remaining, resetAt: validated.account.resetAt, tier: validated.account.tier, observedAt: Date.now() };
      this.quotaEmitter.fire();
    }
    await this.lookupAll();
  }

  private rebuildClient(): void {
    void this.client?.dispose();
    this.client = undefined;
    this.clientError = undefined;
    void vscode.commands.executeCommand('setContext', 'wpBench.hasApiUrl', this.hasApiUrl);
    if (!this.hasApiUrl) {
      this.quotaEmitter.fire();
      return;
    }
    try {
      normaliseApiUrl(this.settings.apiUrl);
      this.client = new BenchClient({
        apiUrl: this.settings.apiUrl,
        getKey: () => this.keys.get(),
        transport: this.transport,
        concurrency: this.settings.concurrency,
        timeoutMs: this.settings.timeoutSeconds * 1000,
        logger: this.logger,
      });
      this.client.onQuota((q) => {
        this.quotaSnapshot = mergeSnapshots(this.quotaSnapshot, q);
        this.quotaEmitter.fire();
      });
    } catch (err) {
      this.clientError = err instanceof ApiError ? err : undefined;
      this.logger.warn(`API address not usable: ${(err as Error).message}`);
    }
    this.quotaSnapshot = undefined;
    this.account = undefined;
    this.quotaEmitter.fire();
  }

  /** Scans every workspace folder (in the background), then looks up what is not cached. */
  rescan(): Promise<void> {
    this.scanning ??= this.doRescan().finally(() => (this.scanning = undefined));
    return this.scanning;
  }

  private async doRescan(): Promise<void> {
    this.state = 'scanning';
    this.emitter.fire();
    const folders = vscode.workspace.workspaceFolders ?? [];
    this.scanned.clear();
    const first = folders.find((f) => f.uri.scheme === 'file');
    if (first) {
      const loaded = await loadTeamConfig(first.uri.fsPath).catch(() => undefined);
      this.team = loaded ? { root: first.uri.fsPath, ...loaded } : undefined;
      for (const p of this.team?.problems ?? []) this.logger.warn(`${p.file}:${p.line}: ${p.message}`);
    } else {
      this.team = undefined;
    }
    for (const folder of folders) {
      if (folder.uri.scheme !== 'file') continue;
      const started = Date.now();
      try {
        const result = await scanWorkspace(folder.uri.fsPath);
        this.scanned.set(folder.uri.fsPath, { components: result.components, problems: result.problems });
        this.logger.info(`scan ${folder.name}: ${result.components.length} components, ${result.problems.length} problems (${Date.now() - started} ms)`);
      } catch (err) {
        this.logger.error(`scan of ${folder.name} failed: ${(err as Error).message}`);
      }
    }
    this.rebuildEntries();
    await vscode.commands.executeCommand('setContext', 'wpBench.nothingDetected', this.entries.length === 0);
    this.state = 'idle';
    this.emitter.fire();
    await this.lookupAll();
  }

  /** Re-parses an edited composer.json/composer.lock/.wp-env.json/blueprint; only new slugs are looked up. */
  async updateDocument(document: vscode.TextDocument): Promise<void> {
    if (document.uri.scheme !== 'file' || !isDeclarationFile(path.basename(document.uri.fsPath))) return;
    const folder = vscode.workspace.getWorkspaceFolder(document.uri);
    if (!folder) return;
    const rel = path.relative(folder.uri.fsPath, document.uri.fsPath).split(path.sep).join('/');
    const parsed = await parseDeclarationDocument(document.uri.fsPath, document.getText(), rel);
    if (!parsed || document.isClosed) return;
    this.live.set(document.uri.fsPath, parsed);
    this.rebuildEntries();
    this.emitter.fire();
    await this.lookupAll();
  }

  /** A closed document falls back to what is on disk. */
  forgetDocument(document: vscode.TextDocument): void {
    if (this.live.delete(document.uri.fsPath)) {
      this.rebuildEntries();
      this.emitter.fire();
    }
  }

  /** Checks a key with /me (free) before it is stored. */
  async validateKey(key: string): Promise<AccountInfo> {
    if (!this.client) throw this.clientError ?? new ApiError('missing-url', 'No API address is set. Run "WP Bench: Set API Address".');
    const probe = new BenchClient({
      apiUrl: this.settings.apiUrl,
      getKey: () => key,
      transport: this.transport,
      timeoutMs: this.settings.timeoutSeconds * 1000,
      logger: this.logger,
    });
    try {
      const account = await probe.me();
      this.validatedAccount = { key, account };
      return account;
    } finally {
      void probe.dispose();
    }
  }

  private rebuildEntries(): void {
    const merged = new Map<string, ComponentEntry>();
    const add = (root: string, c: DetectedComponent, filter: (abs: string) => boolean) => {
      const locations = c.locations
        .map((l) => ({ ...l, file: path.join(root, ...l.file.split('/')) }))
        .filter((l) => filter(l.file));
      if (locations.length === 0) return;
      const key = entryKey(c.kind, c.slug);
      const existing = merged.get(key);
      if (existing) {
        for (const l of locations) existing.locations.push(l);
        existing.name ??= c.name;
        existing.version ??= c.version;
        existing.possibleFork ||= c.possibleFork === true;
        existing.wordpressOrgUri ||= c.wordpressOrgUri === true;
      } else {
        merged.set(key, { kind: c.kind, slug: c.slug, name: c.name, version: c.version, locations, possibleFork: c.possibleFork === true, wordpressOrgUri: c.wordpressOrgUri === true, lookup: 'yes' });
      }
    };
    for (const [root, result] of this.scanned) for (const c of result.components) add(root, c, (f) => !this.live.has(f));
    for (const [file, parsed] of this.live) {
      const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file));
      if (folder) for (const c of parsed.components) add(folder.uri.fsPath, c, () => true);
    }
    // The same rule as the scan, over every place that declares it (scan and live edits together).
    for (const e of merged.values()) e.lookup = lookupDecision(e);
    this.entries = [...merged.values()];
  }

  /** Components that may be looked up: not ignored. */
  get activeEntries(): ComponentEntry[] {
    return this.entries.filter((e) => !this.isIgnored(e.slug));
  }

  /**
   * Fills outcomes from the cache, then asks the API for what is missing or stale — only if trust, key, quota and
   * the per-scan bound allow it.
   */
  async lookupAll(opts: { force?: boolean; only?: LookupItem[]; consented?: boolean } = {}): Promise<void> {
    const items: LookupItem[] = opts.only ?? this.activeEntries.filter((e) => e.lookup === 'yes').map((e) => ({ kind: e.kind, slug: e.slug }));
    if (!this.client) {
      this.emitter.fire();
      return;
    }
    // Cached answers first (no request), so the UI fills at once.
    const cached = await this.lookups.getMany(items, { network: false });
    for (const [k, o] of cached) if (o.result) this.outcomes.set(k, o);
    this.emitter.fire();
    const needed = opts.force ? uniqueItems(items) : await this.lookups.needsRequest(items);
    if (needed.length === 0 || !this.mayRequest(needed.length)) return;
    if (needed.length > this.settings.maxPerScan && !opts.consented) {
      this.askToExceedLimit(needed);
      return;
    }
    this.state = 'looking-up';
    this.emitter.fire();
    let results: Map<string, LookupOutcome>;
    try {
      results = await this.lookups.getMany(needed, { network: true, force: opts.force });
    } finally {
      this.state = 'idle';
    }
    let firstError: ApiError | undefined;
    for (const [k, o] of results) {
      this.outcomes.set(k, o);
      firstError ??= o.error;
    }
    this.state = 'idle';
    this.emitter.fire();
    if (firstError) void this.report(firstError);
  }

  /** A question the user has not answered yet (trust or the per-scan limit); lookups wait for it, the UI does not. */
  pendingConsent: 'untrusted' | 'limit' | undefined;

  private mayRequest(count: number): boolean {
    if (!this.hasKeyValue) return false;
    if (this.blockedUntil !== null) return false;
    if (!vscode.workspace.isTrusted && !this.untrustedConsent) {
      if (!this.pendingConsent) {
        this.pendingConsent = 'untrusted';
        const allow = 'Allow Lookups';
        void this.ui
          .ask(`This workspace is not trusted. WP Bench found ${count} plugins and themes; looking them up sends their slugs to the benchmark API with your key.`, allow)
          .then((choice) => {
            this.pendingConsent = undefined;
            if (choice === allow) void this.allowUntrustedLookups();
          });
      }
      return false;
    }
    return true;
  }

  /** The user agreed to send lookups from this untrusted workspace (for this session). */
  async allowUntrustedLookups(): Promise<void> {
    this.untrustedConsent = true;
    await this.lookupAll();
  }

  private askToExceedLimit(needed: LookupItem[]): void {
    if (this.pendingConsent) return;
    this.pendingConsent = 'limit';
    const limit = this.settings.maxPerScan;
    const all = `Look Up All ${needed.length}`;
    const some = `Only ${limit}`;
    void this.ui
      .ask(`This scan would send ${needed.length} requests (each counts against your monthly quota); the limit per scan is ${limit}.`, all, some)
      .then((choice) => {
        this.pendingConsent = undefined;
        if (choice === all) void this.lookupAll({ only: needed, consented: true });
        else if (choice === some && limit > 0) void this.lookupAll({ only: needed.slice(0, limit), consented: true });
      });
  }

  /** Looks up one slug on demand (palette lookup, tree refresh). */
  async lookupOne(kind: ComponentKind, slug: string, force = false): Promise<LookupOutcome> {
    if (!this.client) throw this.clientError ?? new ApiError('missing-url', 'No API address is set. Run "WP Bench: Set API Address".');
    const cached = await this.lookups.get(kind, slug, { network: false });
    if (cached.result && !cached.stale && !force) return cached;
    if (!this.hasKeyValue || this.blockedUntil !== null) {
      const blocked = this.blockedUntil;
      const error = !this.hasKeyValue
        ? new ApiError('missing-key', 'No API key is set. Run "WP Bench: Set API Key".')
        : new ApiError('quota-exceeded', 'The monthly quota is used up; cached data only until the reset.', { resetAt: blocked });
      return { ...cached, error };
    }
    if (!this.mayRequest(1)) return { ...cached, error: new ApiError('cancelled', 'This workspace is not trusted: allow WP Bench lookups first.') };
    const outcome = await this.lookups.get(kind, slug, { network: true, force });
    if (outcome.result || !this.outcomes.has(entryKey(kind, slug))) this.outcomes.set(entryKey(kind, slug), outcome);
    this.emitter.fire();
    if (outcome.error) void this.report(outcome.error);
    return outcome;
  }

  async fetchAccount(): Promise<AccountInfo> {
    if (!this.client) throw this.clientError ?? new ApiError('missing-url', 'No API address is set. Run "WP Bench: Set API Address".');
    this.account = await this.client.me();
    this.quotaEmitter.fire();
    return this.account;
  }

  async clearCache(): Promise<void> {
    await this.cache.clear();
    this.outcomes.clear();
    this.emitter.fire();
  }

  /** Notifications shown, by error kind (tests check that a 300-slug scan shows one, not 300). */
  readonly notificationsShown: Record<string, number> = {};

  /** One message per problem: a scan of 300 slugs that hits a bad key shows it once, not 300 times. */
  private async report(error: ApiError): Promise<void> {
    const count = () => (this.notificationsShown[error.kind] = (this.notificationsShown[error.kind] ?? 0) + 1);
    if (error.kind === 'quota-exceeded') {
      const reset = error.details.resetAt ?? 0;
      if (this.notified.quotaReset === reset) return;
      this.notified.quotaReset = reset;
      count();
      this.quotaEmitter.fire();
      void this.ui.error(error.message, 'Show Account').then((c) => c && this.ui.runCommand('wpBench.showAccount'));
      return;
    }
    if (error.kind === 'invalid-key' || error.kind === 'forbidden' || error.kind === 'missing-key') {
      if (this.notified.authKind === error.kind) return;
      this.notified.authKind = error.kind;
      count();
      const choice = await this.ui.error(error.message, 'Set API Key');
      if (choice) await this.ui.runCommand('wpBench.setApiKey');
      return;
    }
    this.logger.warn(error.message);
  }

  dispose(): void {
    void this.client?.dispose();
    this.emitter.dispose();
    this.quotaEmitter.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

function uniqueItems(items: LookupItem[]): LookupItem[] {
  const seen = new Map<string, LookupItem>();
  for (const i of items) seen.set(entryKey(i.kind, i.slug), i);
  return [...seen.values()];
}

