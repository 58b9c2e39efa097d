// What the workspace declares: the last scan of each folder, the live parses of open, edited files (which override
// the scan for that file), the team config, and the component list built from them all. No requests and no events:
// the session decides when to redraw and what to look up.
import { l10n } from '../l10n';
import { countNoun } from '../present/format';
import * as path from 'node:path';
import type { DetectedComponent, ScanProblem } from '../model';
import { lookupDecision, parseDeclarationDocument, scanWorkspace } from '../scan';
import { loadTeamConfig, type TeamConfig } from '../config/teamConfig';
import { entryKey, type ComponentEntry, type SessionHost } from './types';

export class WorkspaceDocuments {
  /** Scan results per workspace folder root. */
  private readonly scanned = new Map<string, { components: DetectedComponent[]; problems: ScanProblem[]; ownComposerFiles?: string[] }>();
  /** Live parses of open, edited files (absolute path), overriding the scan for that file. */
  private readonly live = new Map<string, { components: DetectedComponent[]; problems: ScanProblem[] }>();
  /** Bumped by every edit and close of a file: a parse that finishes after a newer event is dropped. */
  private readonly liveVersion = new Map<string, number>();
  private entries: ComponentEntry[] = [];
  private team: { root: string; config: TeamConfig; problems: ScanProblem[] } | undefined;

  constructor(
    private readonly host: Pick<SessionHost, 'folders' | 'scan' | 'logger' | 'setContext'>,
    private readonly now: () => number,
  ) {}

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

  /**
   * Scans every folder (and reads the team config of the first); the results replace the old ones only when the
   * whole scan finished. False when it was cancelled (a newer scan, or the window closing): nothing changed then.
   */
  async scan(signal: AbortSignal): Promise<boolean> {
    const folders = this.host.folders();
    const first = folders[0];
    const loaded = first ? await loadTeamConfig(first.root).catch(() => undefined) : undefined;
    const team = first && loaded ? { root: first.root, ...loaded } : undefined;
    const results = new Map<string, { components: DetectedComponent[]; problems: ScanProblem[] }>();
    const scan = this.host.scan ?? ((root: string, signal: AbortSignal) => scanWorkspace(root, { io: 'async', signal }));
    for (const folder of folders) {
      if (signal.aborted) return false;
      const started = this.now();
      try {
        const result = await scan(folder.root, signal);
        results.set(folder.root, { components: result.components, problems: result.problems });
        this.host.logger.info(`scan ${folder.name}: ${countNoun(result.components.length, 'component')}, ${countNoun(result.problems.length, 'problem')} (${this.now() - started} ms)`);
      } catch (err) {
        if (signal.aborted) return false;
        this.host.logger.error(`scan of ${folder.name} failed: ${(err as Error).message}`);
        results.set(folder.root, { components: [], problems: [{ file: '', line: 1, column: 1, message: l10n.t('The scan of {0} failed: {1}', folder.name, (err as Error).message) }] });
      }
    }
    if (signal.aborted) return false;
    this.team = team;
    this.scanned.clear();
    for (const [root, r] of results) this.scanned.set(root, r);
    this.rebuildEntries();
    this.host.setContext('wpBench.nothingDetected', this.entries.length === 0);
    return true;
  }

  /**
   * Re-parses an edited declaration file (composer.json, composer.lock, .wp-env.json, a blueprint). `isClosed` is
   * asked after parsing: a document closed meanwhile is not brought back. True when the components were rebuilt.
   */
  async update(absFile: string, text: string, isClosed: () => boolean): Promise<boolean> {
    const folder = this.folderOf(absFile);
    if (!folder || isClosed()) return false;
    const version = (this.liveVersion.get(absFile) ?? 0) + 1;
    this.liveVersion.set(absFile, version);
    const rel = path.relative(folder, absFile).split(path.sep).join('/');
    const ownFolder = this.scanned.get(folder)?.ownComposerFiles?.includes(rel) ?? false;
    const parsed = await parseDeclarationDocument(absFile, text, rel, { ownFolder });
    if (!parsed || isClosed() || this.liveVersion.get(absFile) !== version) return false;
    this.live.set(absFile, parsed);
    this.rebuildEntries();
    return true;
  }

  /** A closed document falls back to what is on disk (and a parse still running for it is dropped). True when it had a live parse. */
  forget(absFile: string): boolean {
    this.liveVersion.set(absFile, (this.liveVersion.get(absFile) ?? 0) + 1);
    if (!this.live.delete(absFile)) return false;
    this.rebuildEntries();
    return true;
  }

  /** One entry per `kind/slug` over every folder's scan and every live parse (a live file hides its scanned self). */
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
}
