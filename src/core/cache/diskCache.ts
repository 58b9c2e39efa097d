// Persistent lookup cache: one small JSON file per (API, kind, slug), written atomically (temp + rename), so two
// processes never lose each other's completed writes and a torn or corrupt file costs only that entry.
import { crypto } from '../lazyNode';
import { constants as fsConstants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isValidResult } from '../api/record';
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

/** A cache file is input like a network answer: validated the same way on every read. */
function isStoredEntry(v: unknown, kind: ComponentKind, slug: string): v is StoredEntry {
  if (typeof v !== 'object' || v === null) return false;
  const e = v as StoredEntry;
  if (e.v !== 1 || typeof e.savedAt !== 'number' || !Number.isFinite(e.savedAt)) return false;
  return isValidResult(e.result, kind, slug);
}

/** Cache entries are small; anything larger, or not a regular file (a FIFO), is not read. */
const MAX_ENTRY_BYTES = 1024 * 1024;
const O_READ = process.platform === 'win32' ? fsConstants.O_RDONLY : fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0);

async function readEntryFile(file: string): Promise<string | undefined> {
  const st = await fs.stat(file).catch(() => undefined);
  if (!st?.isFile() || st.size > MAX_ENTRY_BYTES) return st ? '' : undefined;
  const fh = await fs.open(file, O_READ).catch(() => undefined);
  if (!fh) return undefined;
  try {
    return (await fh.readFile()).toString('utf8');
  } finally {
    await fh.close();
  }
}

export class DiskCache {
  private readonly memory = new Map<string, StoredEntry>();
  /** The first failed write (an unwritable folder): answers then last for this run only, and the caller says so. */
  writeError: string | undefined;
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
    const text = await readEntryFile(file).catch(() => undefined);
    if (text === undefined) return undefined;
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
    const tmp = `${file}.${process.pid}.${crypto().randomBytes(4).toString('hex')}.tmp`;
    try {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(tmp, JSON.stringify(entry), 'utf8');
      await fs.rename(tmp, file);
    } catch (err) {
      await fs.rm(tmp, { force: true }).catch(() => undefined);
      this.writeError ??= `${(err as NodeJS.ErrnoException).code ?? 'error'} in ${this.options.dir}`;
      this.logger.warn(`cache: could not save ${kind} ${slug}: ${(err as Error).message}`);
    }
  }

  /** Drops every entry (all APIs). */
  async clear(): Promise<void> {
    this.memory.clear();
    await fs.rm(path.join(this.options.dir, FORMAT_DIR), { recursive: true, force: true });
  }

  private hit(entry: StoredEntry): CacheHit {
    const now = this.now();
    const ageMs = Math.max(0, now - entry.savedAt);
    // An entry dated in the future (a clock change, a hand-edited file) is stale, never fresh until that date.
    const future = entry.savedAt > now + 60_000;
    return { result: entry.result, savedAt: entry.savedAt, ageMs, stale: future || ageMs > this.ttl[entry.result.state] };
  }

  private memoryKey(apiId: string, kind: ComponentKind, slug: string): string {
    return `${apiId}\n${kind}\n${slug}`;
  }

  private fileFor(apiId: string, kind: ComponentKind, slug: string): string {
    const api = crypto().createHash('sha256').update(apiId).digest('hex').slice(0, 16);
    // Slugs are validated ([a-z0-9_-]), so they are safe file names.
    return path.join(this.options.dir, FORMAT_DIR, api, `${kind}-${slug}.json`);
  }
}
