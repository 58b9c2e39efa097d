// Persistent lookup cache: one small JSON file per (API, kind, slug), written atomically (temp + rename), so two
// processes never lose each other's completed writes and a torn or corrupt file costs only that entry.
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isValidSlug, type ComponentKind, type LookupResult } from '../model';
import type { Logger } from '../logger';
import { nullLogger } from '../logger';

export interface CacheOptions {
  /** Directory owned by the host: the extension's global storage, the CLI's XDG cache dir. */
  dir: string;
  /** Lifetime of benchmarked records (default 24 h). */
  ttlHours?: number;
  /** Lifetime of "known, not benchmarked" answers (default 6 h). */
  notBenchmarkedTtlHours?: number;
  /** Lifetime of "not in dataset" answers (default 24 h). */
  notFoundTtlHours?: number;
  now?: () => number;
  logger?: Logger;
}

export interface CacheHit {
  result: LookupResult;
  savedAt: number;
  ageMs: number;
  /** Older than its lifetime: show it marked stale while revalidating. */
  stale: boolean;
}

interface StoredEntry {
  v: 1;
  savedAt: number;
  result: LookupResult;
}

const HOUR = 3_600_000;
const FORMAT_DIR = 'lookups-v1';

function isStoredEntry(v: unknown, kind: ComponentKind, slug: string): v is StoredEntry {
  if (typeof v !== 'object' || v === null) return false;
  const e = v as StoredEntry;
  if (e.v !== 1 || typeof e.savedAt !== 'number' || typeof e.result !== 'object' || e.result === null) return false;
  const r = e.result;
  if (r.state === 'not-in-dataset') return r.kind === kind && r.slug === slug;
  if (r.state !== 'benchmarked' && r.state !== 'not-benchmarked') return false;
  return typeof r.record === 'object' && r.record !== null && r.record.slug === slug && r.record.kind === kind && typeof r.record.contexts === 'object';
}

export class DiskCache {
  private readonly memory = new Map<string, StoredEntry>();
  private readonly now: () => number;
  private readonly logger: Logger;
  private readonly ttl: Record<LookupResult['state'], number>;

  constructor(private readonly options: CacheOptions) {
    this.now = options.now ?? Date.now;
    this.logger = options.logger ?? nullLogger;
    this.ttl = {
      benchmarked: (options.ttlHours ?? 24) * HOUR,
      'not-benchmarked': (options.notBenchmarkedTtlHours ?? 6) * HOUR,
      'not-in-dataset': (options.notFoundTtlHours ?? 24) * HOUR,
    };
  }

  /** Applies a changed record lifetime (the setting) without losing what is cached. */
  setTtlHours(hours: number): void {
    this.ttl.benchmarked = hours * HOUR;
  }

  get dir(): string {
    return this.options.dir;
  }

  /** Cached answer from memory only (no I/O): for hovers and other hot paths. */
  peek(apiId: string, kind: ComponentKind, slug: string): CacheHit | undefined {
    const entry = this.memory.get(this.memoryKey(apiId, kind, slug));
    return entry ? this.hit(entry) : undefined;
  }

  async get(apiId: string, kind: ComponentKind, slug: string): Promise<CacheHit | undefined> {
    if (!isValidSlug(slug)) return undefined;
    const mk = this.memoryKey(apiId, kind, slug);
    const known = this.memory.get(mk);
    if (known) return this.hit(known);
    const file = this.fileFor(apiId, kind, slug);
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch {
      return undefined;
    }
    let entry: unknown;
    try {
      entry = JSON.parse(text);
    } catch {
      entry = undefined;
    }
    if (!isStoredEntry(entry, kind, slug)) {
      this.logger.warn(`cache: discarded an unreadable entry for ${kind} ${slug}`);
      await fs.rm(file, { force: true }).catch(() => undefined);
      return undefined;
    }
    this.memory.set(mk, entry);
    return this.hit(entry);
  }

  async set(apiId: string, kind: ComponentKind, slug: string, result: LookupResult): Promise<void> {
    if (!isValidSlug(slug)) return;
    const entry: StoredEntry = { v: 1, savedAt: this.now(), result };
    this.memory.set(this.memoryKey(apiId, kind, slug), entry);
    const file = this.fileFor(apiId, kind, slug);
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(tmp, JSON.stringify(entry), 'utf8');
      await fs.rename(tmp, file);
    } catch (err) {
      await fs.rm(tmp, { force: true }).catch(() => undefined);
      this.logger.warn(`cache: could not save ${kind} ${slug}: ${(err as Error).message}`);
    }
  }

  /** Drops every entry (all APIs). */
  async clear(): Promise<void> {
    this.memory.clear();
    await fs.rm(path.join(this.options.dir, FORMAT_DIR), { recursive: true, force: true });
  }

  private hit(entry: StoredEntry): CacheHit {
    const ageMs = Math.max(0, this.now() - entry.savedAt);
    return { result: entry.result, savedAt: entry.savedAt, ageMs, stale: ageMs > this.ttl[entry.result.state] };
  }

  private memoryKey(apiId: string, kind: ComponentKind, slug: string): string {
    return `${apiId}\n${kind}\n${slug}`;
  }

  private fileFor(apiId: string, kind: ComponentKind, slug: string): string {
    const api = createHash('sha256').update(apiId).digest('hex').slice(0, 16);
    // Slugs are validated ([a-z0-9_-]), so they are safe file names.
    return path.join(this.options.dir, FORMAT_DIR, api, `${kind}-${slug}.json`);
  }
}
