// One workspace session: what the workspace declares (scans + live edits, per folder), what the API said about it
// (one store of outcomes per API address), the team config, and every rule about when a request may be sent
// (key, trust, consent, per-scan limit, quota block, rejected key, recent failures). No vscode: the editor reaches
// it through SessionHost, and plain-Node tests drive it with fakes.
//
// The session is the orchestration: which collaborator does what, and when the surfaces hear of it.
//   ApiConnection      settings, key state, the client (and its replacement), quota figures    connection.ts
//   WorkspaceDocuments folder scans, live edits, the team config, the component list          documents.ts
//   ScanCycles         when to scan (one more run at most), whenSettled                        scanCycles.ts
//   LookupRunner       outcomes per address, lookupAll / lookupOne over cache then API         lookupRunner.ts
//   LookupConsent      whether a request may go, and the questions that decide it             consent.ts
//   Notices            one message per problem, not one per slug                               notices.ts
//   WorkspaceJudgement ignore lists, minimum grade, diagnostics, the `wp-bench check` verdict  judgement.ts
import { INSTALLED_SOURCES } from '../scan/merge';
import * as path from 'node:path';
import { ApiError } from '../api/errors';
import { l10n } from '../l10n';
import { DiskCache } from '../cache/diskCache';
import { LookupService, type LookupOutcome } from '../lookup/lookupService';
import type { AccountInfo, ComponentKind, QuotaSnapshot, ScanProblem } from '../model';
import type { Judgement } from '../report/judge';
import type { TeamConfig } from '../config/teamConfig';
import { ApiConnection } from './connection';
import { LookupConsent, type Prompt } from './consent';
import { WorkspaceDocuments } from './documents';
import { DisposableStore, Emitter } from './events';
import { WorkspaceJudgement } from './judgement';
import { contains, LocalResults } from './localResults';
import { SiteResults, type SiteResult } from './siteResults';
import type { LocalResult } from '../measure/record/method';
import { LookupRunner } from './lookupRunner';
import { Notices } from './notices';
import { ScanCycles } from './scanCycles';
import type { ComponentEntry, LookupAllOptions, SessionHost, SessionSettings, SessionState } from './types';

export { entryKey } from './types';
export type { ComponentEntry, FolderSettings, SessionHost, SessionSettings, SessionState } from './types';

export class WorkspaceSession extends DisposableStore {
  private readonly connection: ApiConnection;
  private readonly documents: WorkspaceDocuments;
  private readonly cycles: ScanCycles;
  private readonly consent: LookupConsent;
  private readonly runner: LookupRunner;
  private readonly notices: Notices;
  private readonly rules: WorkspaceJudgement;
  readonly lookups: LookupService;
  /** Measurements made on this machine (Measure Locally), per `${kind}:${slug}`. */
  readonly local: LocalResults;
  /** Site measurements made on this machine (Measure Site Locally), per workspace folder. */
  readonly sites: SiteResults;
  private readonly cache: DiskCache;
  private readonly now: () => number;
  private readonly changed = this._register(new Emitter<void>());
  readonly onDidChange = this.changed.event;
  private readonly quotaChanged = this._register(new Emitter<void>());
  readonly onDidChangeQuota = this.quotaChanged.event;
  private lastKeyChange: Promise<void> | undefined;
  /** Notifications shown, by error kind (tests check that a 300-slug scan shows one, not 300). */
  readonly notificationsShown: Record<string, number>;

  constructor(private readonly host: SessionHost) {
    super();
    this.now = host.now ?? Date.now;
    const settings = host.settings();
    this.cache = new DiskCache({ dir: host.storageDir, ttlHours: settings.ttlHours, logger: host.logger });
    this.lookups = new LookupService(this.cache, () => this.connection.client, this.now);
    this.notices = new Notices(host, () => this.quotaChanged.fire());
    this.notificationsShown = this.notices.shown;
    this.connection = new ApiConnection(host, settings, this.cache, this.notices, { quotaChanged: () => this.quotaChanged.fire(), lookUp: () => this.lookupAll() }, this.now);
    this.consent = new LookupConsent(host, this.connection, (opts) => this.lookupAll(opts));
    this.runner = new LookupRunner({
      host,
      connection: this.connection,
      consent: this.consent,
      notices: this.notices,
      service: this.lookups,
      items: () => this.activeEntries.filter((e) => e.lookup === 'yes').map((e) => ({ kind: e.kind, slug: e.slug })),
      changed: () => this.changed.fire(),
    });
    this.documents = new WorkspaceDocuments(host, this.now);
    this.cycles = new ScanCycles({
      scan: (signal) => this.documents.scan(signal),
      afterScan: () => this.afterScan(),
      changed: () => this.changed.fire(),
      isDisposed: () => this.isDisposed,
    });
    this.local = this._register(new LocalResults(path.join(host.storageDir, 'local-results.json')));
    this.sites = this._register(new SiteResults(path.join(host.storageDir, 'site-results.json')));
    this.rules = new WorkspaceJudgement(host, this.documents, (kind, slug) => this.outcome(kind, slug), this.local, () => this.siteResult());
    this._register(this.local.onDidChange(() => this.changed.fire()));
    this._register(this.sites.onDidChange(() => this.changed.fire()));
    this._register(this.cycles);
    this._register(this.connection);
  }

  // ---- what the surfaces read -------------------------------------------------------------------

  get config(): SessionSettings {
    return this.connection.settings;
  }
  get hasApiUrl(): boolean {
    return this.connection.hasApiUrl;
  }
  get apiUrlProblem(): ApiError | undefined {
    return this.connection.apiUrlProblem;
  }
  /** The workspace is trusted (Measure Locally runs only then). */
  get trusted(): boolean {
    return this.host.isTrusted();
  }
  get hasKey(): boolean {
    return this.connection.hasKey;
  }
  get quota(): QuotaSnapshot | undefined {
    return this.connection.quota;
  }
  get lastAccount(): AccountInfo | undefined {
    return this.connection.lastAccount;
  }
  /** Epoch ms until which no lookup is sent with the current key (a 429, remembered across reloads), or null. */
  get blockedUntil(): number | null {
    return this.connection.blockedUntil;
  }
  get state(): SessionState {
    return this.cycles.scanning ? 'scanning' : this.runner.busy ? 'looking-up' : 'idle';
  }
  get components(): readonly ComponentEntry[] {
    return this.documents.components;
  }
  get teamConfig(): { root: string; config: TeamConfig; problems: ScanProblem[] } | undefined {
    return this.documents.teamConfig;
  }

  /** Scan problems with absolute file paths (an edited file's own problems replace the scan's). */
  get problems(): (ScanProblem & { absFile: string })[] {
    return this.documents.problems;
  }

  /** The workspace folder holding a file (the longest root that contains it). */
  folderOf(file: string): string | undefined {
    return this.documents.folderOf(file);
  }

  /** Ignored by the team config or by the wpBench.ignore of the folder (of `file`, else of any folder declaring it). */
  isIgnored(slug: string, file?: string): boolean {
    return this.rules.isIgnored(slug, file);
  }

  /** Minimum grade for a file's folder: the user's explicit setting, else the team config's, else C. */
  minimumGrade(file?: string): string {
    return this.rules.minimumGrade(file);
  }

  diagnosticsEnabled(file: string): boolean {
    return this.rules.diagnosticsEnabled(file);
  }

  /** Components that may be looked up: not ignored. */
  get activeEntries(): ComponentEntry[] {
    return this.documents.components.filter((e) => !this.isIgnored(e.slug));
  }

  /** The local measurement of a component, when it was measured on this machine. */
  localResult(kind: ComponentKind, slug: string): LocalResult | undefined {
    return this.local.get(kind, slug);
  }

  /**
   * The site measurement of `root`, else the latest of a site in the open folders (a folder, or a site's folder
   * inside one: Measure Site Locally on a sub-folder of a monorepo).
   */
  siteResult(root?: string): SiteResult | undefined {
    if (root !== undefined) return this.sites.get(root);
    const folders = this.host.folders().map((f) => f.root);
    return this.sites
      .all()
      .filter((r) => folders.some((f) => contains(f, r.root)))
      .sort((a, b) => (b.record.measured_at ?? '').localeCompare(a.record.measured_at ?? ''))[0];
  }

  /** "kind:slug" of the components installed under `root` now (a plugin's or theme's header, a must-use plugin). */
  installedIn(root: string): Set<string> {
    return new Set(this.documents.components.filter((e) => e.locations.some((l) => INSTALLED_SOURCES.has(l.source) && contains(root, l.file))).map((e) => `${e.kind}:${e.slug}`));
  }

  outcome(kind: ComponentKind, slug: string): LookupOutcome | undefined {
    return this.runner.outcome(kind, slug);
  }

  /** The same judgement as `wp-bench check`, over what the workspace declares and what is known (no request). */
  judgement(): Judgement {
    return this.rules.judgement();
  }

  // ---- settings, key, client -----------------------------------------------------------------------

  async refreshKeyState(): Promise<void> {
    await this.connection.refreshKeyState();
  }

  /** Settings changed: a new client when the address or limits change; ignore lists re-judge and look up. */
  onSettingsChanged(): Promise<void> {
    return this.cycles.tracked(this.settingsChanged());
  }

  private async settingsChanged(): Promise<void> {
    this.connection.settingsChanged();
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
    const done = this.cycles.tracked(this.connection.keyChanged());
    this.lastKeyChange = done;
    return done;
  }

  /** The key change reported last (by the key store's event), finished: what Set API Key waits for, nothing else. */
  async whenKeyApplied(): Promise<void> {
    await this.lastKeyChange?.catch(() => undefined);
  }

  /** How many key changes were applied (each forgets blocks and looks up again): one per write of the key. */
  get keyChangesApplied(): number {
    return this.connection.keyChangesApplied;
  }

  /** Checks a key with /me (free) before it is stored. */
  async validateKey(key: string): Promise<AccountInfo> {
    return this.connection.validateKey(key);
  }

  async fetchAccount(): Promise<AccountInfo> {
    this.connection.requireClient();
    if (!(await this.consent.keyMayGo())) throw new ApiError('cancelled', l10n.t('The API address changed since the key was saved: allow sending the key there first (or set the key again).'));
    return this.connection.fetchAccount();
  }

  async clearCache(): Promise<void> {
    await this.cache.clear();
    this.runner.clear();
    this.changed.fire();
  }

  // ---- scanning ------------------------------------------------------------------------------------

  /** Refresh or the same address set again: an address found wrong is checked anew (and said again if still wrong). */
  recheckAddress(): void {
    this.connection.recheckAddress();
  }

  /**
   * Scans every workspace folder in the background, then looks up what is not cached. Asked for while a scan or
   * its lookups run, it cancels the scan in progress and schedules exactly one more run; the promise resolves
   * when no run is left.
   */
  rescan(): Promise<void> {
    return this.cycles.rescan();
  }

  /**
   * Resolves once nothing is running or queued: no scan cycle, key or settings change, and no lookup in flight (a
   * command's own lookups are waited for by their count). For tests and demos that must act on a quiet session: a
   * condition, not a pause.
   */
  async whenSettled(): Promise<void> {
    await this.cycles.whenSettled(() => this.state === 'idle');
  }

  private async afterScan(): Promise<void> {
    // Local measurements: loaded once, then checked against their files after each scan (stale when changed).
    if (this.local.loadStarted) await this.local.recheck();
    else await this.local.load(); // checks them itself
    // Site measurements: stale when a member's files changed or the folder's components are no longer the same.
    await this.sites.load();
    await this.sites.recheck(undefined, (root) => this.installedIn(root));
    await this.lookupAll();
  }

  /**
   * Re-parses an edited declaration file (composer.json, composer.lock, .wp-env.json, a blueprint); only new
   * slugs are looked up. `isClosed` is asked after parsing: a document closed meanwhile is not brought back.
   */
  async updateDocument(absFile: string, text: string, isClosed: () => boolean): Promise<void> {
    if (!(await this.documents.update(absFile, text, isClosed))) return;
    this.changed.fire();
    await this.lookupAll();
  }

  /** A closed document falls back to what is on disk (and a parse still running for it is dropped). */
  forgetDocument(absFile: string): void {
    if (this.documents.forget(absFile)) this.changed.fire();
  }

  // ---- lookups --------------------------------------------------------------------------------------

  /**
   * Fills outcomes from the cache, then asks the API for what is missing or stale — only if key, trust, consent,
   * quota, the rejected-key latch and the per-scan limit allow it. Slugs that failed in the last 10 minutes wait.
   */
  lookupAll(opts: LookupAllOptions = {}): Promise<void> {
    return this.runner.lookupAll(opts);
  }

  /** A question the user has not answered yet (trust or the per-scan limit); lookups wait for it, the UI does not. */
  get pendingConsent(): Prompt | undefined {
    return this.consent.pending;
  }

  /**
   * The key was saved or validated for the current address (Set API Key). Returns the undo, for a key that could not
   * be saved after all: the old key stays bound to its old address.
   */
  bindKeyToCurrentOrigin(): Promise<() => Promise<void>> {
    return this.consent.bindKeyToCurrentOrigin();
  }

  /** The user agreed to send lookups from this untrusted workspace (for this session). */
  allowUntrustedLookups(): Promise<void> {
    return this.consent.allowUntrustedLookups();
  }

  /** What the cache holds for a slug, never a request (the comparison counts what it would cost first). */
  cachedOutcome(kind: ComponentKind, slug: string): Promise<LookupOutcome> {
    return this.runner.cachedOutcome(kind, slug);
  }

  /** Slugs (of one kind) without a fresh cached answer: each would cost one request. */
  uncached(kind: ComponentKind, slugs: readonly string[]): Promise<string[]> {
    return this.runner.uncached(kind, slugs);
  }

  /** Looks up one slug on demand (palette lookup, tree refresh): the user asked, so a recent failure is retried. */
  lookupOne(kind: ComponentKind, slug: string, force = false): Promise<LookupOutcome> {
    return this.runner.lookupOne(kind, slug, force);
  }
}

/** The workspace-level ignore list after "Ignore in This Workspace": the folder's own value plus the slug, never the merged list. */
export function withIgnored(workspaceValue: readonly string[] | undefined, slug: string): string[] {
  const list = (workspaceValue ?? []).filter((s) => typeof s === 'string');
  return list.includes(slug) ? list : [...list, slug];
}
