// Site measurements (WP Bench: Measure Site Locally), one per workspace folder: the record `measure ROOT --site`
// returned. It is stale when a measured member's files changed since (each member's hash is in the record) or when
// the folder's components are no longer those the run saw; it is measured again only when the user asks. Persisted
// as one JSON file in the extension's storage; an entry without the record's shape is dropped on load.
import * as path from 'node:path';
import { isSiteRecord, type SiteRecord } from '../measure/siteRun/siteRecord';
import { Emitter } from './events';
import { readJsonFile, writeJsonAtomic } from './jsonStore';
import { l10n } from '../l10n';
import { contains, hashOfPath } from './localResults';

export interface SiteResult {
  /** the workspace folder measured (absolute) */
  root: string;
  record: SiteRecord;
  /** why the numbers are no longer the site's (files changed since): undefined while they are */
  stale?: string;
}

const MAX_FILE_BYTES = 8 * 1024 * 1024;

export class SiteResults {
  private readonly byRoot = new Map<string, SiteResult>();
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private loaded: Promise<void> | undefined;
  private readonly stop = new AbortController();

  constructor(
    private readonly file: string,
    private readonly hashOf: (source: string, signal?: AbortSignal) => Promise<string | undefined> = hashOfPath,
  ) {}

  get(root: string): SiteResult | undefined {
    return this.byRoot.get(root);
  }

  all(): SiteResult[] {
    return [...this.byRoot.values()];
  }

  get loadStarted(): boolean {
    return this.loaded !== undefined;
  }

  load(): Promise<void> {
    this.loaded ??= (async () => {
      const data = await readJsonFile(this.file, MAX_FILE_BYTES);
      const list = (data as { sites?: unknown })?.sites;
      for (const v of Array.isArray(list) ? list : []) {
        const s = v as SiteResult;
        if (typeof s?.root !== 'string' || !path.isAbsolute(s.root) || !isSiteRecord(s.record)) continue;
        this.byRoot.set(s.root, { root: s.root, record: s.record });
      }
      await this.recheck();
    })();
    return this.loaded;
  }

  /** Stores a fresh site measurement of `root` (it replaces the folder's previous one). */
  async set(root: string, record: SiteRecord): Promise<SiteResult> {
    await this.load();
    const result: SiteResult = { root, record };
    this.byRoot.set(root, result);
    // Files edited during the run make it stale at once.
    result.stale = await this.whyStale(result);
    await this.save();
    this.changed.fire();
    return result;
  }

  /**
   * Checks the results (all, or those with a member holding `file`) against their members' files and, when given,
   * the folder's components now (`current(root)`: "kind:slug" of what the scan finds installed); true when one
   * changed state.
   */
  async recheck(file?: string, current?: (root: string) => Set<string> | undefined): Promise<boolean> {
    let changed = false;
    for (const r of this.byRoot.values()) {
      if (file !== undefined && !r.record.components.some((c) => c.path !== undefined && contains(path.join(r.root, c.path), file))) continue;
      const why = await this.whyStale(r, current?.(r.root));
      if (this.stop.signal.aborted) return changed;
      if (why !== r.stale) {
        r.stale = why;
        changed = true;
      }
    }
    if (changed) this.changed.fire();
    return changed;
  }

  private async whyStale(r: SiteResult, now?: Set<string>): Promise<string | undefined> {
    for (const c of r.record.components) {
      if (c.path === undefined || c.hash === undefined) continue;
      const h = await this.hashOf(path.join(r.root, ...c.path.split('/')), this.stop.signal).catch(() => undefined);
      if (h !== c.hash) return l10n.t('{0} changed since', `${c.kind} ${c.slug}`);
    }
    if (now) {
      // Added: installed now, not in the record at all; gone: measured then (it had files), not installed now.
      const listed = new Set(r.record.components.map((c) => `${c.kind}:${c.slug}`));
      const measured = r.record.components.filter((c) => c.path !== undefined).map((c) => `${c.kind}:${c.slug}`);
      const added = [...now].find((k) => !listed.has(k));
      const gone = measured.find((k) => !now.has(k));
      if (added) return l10n.t('{0} was added since', added.replace(':', ' '));
      if (gone) return l10n.t('{0} is gone since', gone.replace(':', ' '));
    }
    return undefined;
  }

  private async save(): Promise<void> {
    await writeJsonAtomic(this.file, { version: 1, sites: this.all().map(({ stale: _s, ...r }) => r) });
  }

  dispose(): void {
    this.stop.abort();
    this.changed.dispose();
  }
}

/**
 * Folders that look like a site's root, inside the open folders: the open folders themselves, and the folder above
 * each `wp-content` (or Bedrock's `web/app`) holding a component.
 */
export function siteRoots(folders: string[], componentFiles: string[]): string[] {
  const roots = new Set(folders);
  for (const f of componentFiles) {
    const parts = f.split(path.sep);
    const wc = parts.lastIndexOf('wp-content');
    if (wc > 0) roots.add(parts.slice(0, wc).join(path.sep) || path.sep);
    const app = parts.lastIndexOf('app');
    if (app > 1 && parts[app - 1] === 'web' && ['plugins', 'mu-plugins', 'themes'].includes(parts[app + 1])) roots.add(parts.slice(0, app - 1).join(path.sep) || path.sep);
  }
  return [...roots].filter((r) => folders.some((f) => contains(f, r))).sort();
}
