// Local measurements of the workspace's components (WP Bench: Measure Locally), one per `${kind}:${slug}`: the
// record the engine returned, the folder or file that was measured and the content hash of its files at that time.
// A record whose files changed since is stale; it is measured again only when the user asks. Persisted as one JSON
// file in the extension's storage; a record that does not have the engine's shape is dropped on load.
import * as path from 'node:path';
import { sourceHash } from '../measure/record/cache';
import { ComponentLoadingError, detectComponent } from '../measure/component/component';
import { TreeLimitError } from '../measure/component/tree';
import { CONTEXTS, type LocalRecord, type LocalResult } from '../measure/record/method';
import type { ComponentKind } from '../model';
import { Emitter } from './events';
import { readJsonFile, writeJsonAtomic } from './jsonStore';
import { localKey } from '../report/judge';


export { localKey };

/** Files the editor's hashing reads at once: the extension host shares Node's small thread pool with everything else. */
const HOST_READS = 2;

/**
 * The content hash of what `measure PATH` copies into the site; undefined when PATH holds no component any more.
 * Runs in the extension host, so it never blocks it: the copy's own walk (src/core/measure/component/tree.ts: a FIFO or a
 * device is never opened, no link is followed out of the component or round a loop), at most two reads at once.
 * Rejects with the signal's reason when `signal` aborts, with TreeLimitError past the walk's caps, and with
 * ComponentLoadingError when the component is there but not what WordPress needs to load it (a child theme's parent
 * missing, a mu-plugins sub-folder without one loader): its message says what to do.
 */
export async function hashOfPath(p: string, signal?: AbortSignal): Promise<string | undefined> {
  try {
    // A child theme is measured with its parent: a change there makes the record stale too.
    return await sourceHash(await detectComponent(p, signal), { signal, concurrency: HOST_READS });
  } catch (err) {
    if (signal?.aborted || err instanceof TreeLimitError || err instanceof ComponentLoadingError) throw err;
    return undefined;
  }
}

// A profiled result carries its call trees (a few hundred frames per context): room for many.
const MAX_FILE_BYTES = 16 * 1024 * 1024;

function isLocalRecord(v: unknown): v is LocalRecord {
  const r = v as LocalRecord;
  if (typeof r !== 'object' || r === null || r.source !== 'local' || typeof r.slug !== 'string' || typeof r.name !== 'string') return false;
  if (typeof r.local !== 'object' || r.local === null || typeof r.contexts !== 'object' || r.contexts === null) return false;
  return CONTEXTS.every((c) => {
    const m = r.contexts[c];
    return m === null || (typeof m === 'object' && [m.ttfb_delta_ms, m.memory_delta_kb, m.queries_delta].every((x) => typeof x === 'number' && Number.isFinite(x)));
  });
}

export class LocalResults {
  private readonly byKey = new Map<string, LocalResult>();
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private loaded: Promise<void> | undefined;
  /** Stops the hashing still running when the results are disposed (the window closes). */
  private readonly stop = new AbortController();

  constructor(
    private readonly file: string,
    private readonly hashOf: (source: string, signal?: AbortSignal) => Promise<string | undefined> = hashOfPath,
  ) {}

  /** The files' hash now; undefined when they cannot be hashed (gone, past the caps): the record is then stale. */
  private currentHash(source: string): Promise<string | undefined> {
    return this.hashOf(source, this.stop.signal).catch(() => undefined);
  }

  get(kind: ComponentKind, slug: string): LocalResult | undefined {
    return this.byKey.get(localKey(kind, slug));
  }

  all(): LocalResult[] {
    return [...this.byKey.values()];
  }

  /** Every record by `${kind}:${slug}` (the shape `JudgeConfig.local` takes). */
  records(): Map<string, LocalRecord> {
    return new Map([...this.byKey].map(([k, v]) => [k, v.record]));
  }

  /** Keys of the records whose files changed since they were measured. */
  staleKeys(): Set<string> {
    return new Set([...this.byKey].filter(([, v]) => v.stale).map(([k]) => k));
  }

  /** Whether load() has been called (it checks the results against their files itself). */
  get loadStarted(): boolean {
    return this.loaded !== undefined;
  }

  /** Reads the stored results once, then checks each against its files. */
  load(): Promise<void> {
    this.loaded ??= (async () => {
      const data = await readJsonFile(this.file, MAX_FILE_BYTES);
      for (const v of Array.isArray((data as { results?: unknown })?.results) ? (data as { results: unknown[] }).results : []) {
        const r = v as LocalResult;
        if ((r?.kind !== 'plugin' && r?.kind !== 'theme') || typeof r.slug !== 'string' || typeof r.source !== 'string' || !path.isAbsolute(r.source) || typeof r.hash !== 'string' || !isLocalRecord(r.record)) continue;
        this.byKey.set(localKey(r.kind, r.slug), { kind: r.kind, slug: r.slug, source: r.source, hash: r.hash, record: r.record, stale: false });
      }
      await this.recheck();
    })();
    return this.loaded;
  }

  /** Stores a fresh measurement; `hash` is the files' hash taken before the run started. */
  async set(kind: ComponentKind, slug: string, source: string, hash: string, record: LocalRecord): Promise<LocalResult> {
    await this.load();
    const result: LocalResult = { kind, slug, source, hash, record, stale: false };
    this.byKey.set(localKey(kind, slug), result);
    // Files edited during the run make it stale at once.
    const now = await this.currentHash(source);
    if (!this.stop.signal.aborted) result.stale = now !== hash;
    await this.save();
    this.changed.fire();
    return result;
  }

  /** Hashes the files of the results (all, or those whose source holds `file`) again; true when one changed state. */
  async recheck(file?: string): Promise<boolean> {
    let changed = false;
    for (const r of this.byKey.values()) {
      if (file !== undefined && !contains(r.source, file)) continue;
      const now = await this.currentHash(r.source);
      if (this.stop.signal.aborted) return changed;
      const stale = now !== r.hash;
      if (stale !== r.stale) {
        r.stale = stale;
        changed = true;
      }
    }
    if (changed) this.changed.fire();
    return changed;
  }

  async delete(kind: ComponentKind, slug: string): Promise<void> {
    if (this.byKey.delete(localKey(kind, slug))) {
      await this.save();
      this.changed.fire();
    }
  }

  private async save(): Promise<void> {
    await writeJsonAtomic(this.file, { version: 1, results: this.all().map(({ stale: _stale, ...r }) => r) });
  }

  dispose(): void {
    this.stop.abort();
    this.changed.dispose();
  }
}

/** `file` is `source` itself or inside the folder `source`. */
export function contains(source: string, file: string): boolean {
  const rel = path.relative(source, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
