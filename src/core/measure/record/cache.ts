// Local results, cached by what they hold: a hash of the component's files (never its folder's name) and the run's
// set-up (resultKey): measuring unchanged files again, or an identical copy elsewhere, answers at once. One JSON file
// per key, written atomically.
import { crypto } from '../../lazyNode';
import type { Hash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { MeasuredComponent } from '../component/component';
import { CONTEXTS, type LocalRecord } from './method';
import { MAX_TREE_BYTES, TreeLimitError, readChunks, readRegular, throwIfAborted, walkTree, type SkippedEntry, type WalkOptions } from '../component/tree';

const MAX_ENTRY_BYTES = 1024 * 1024;
/** Files up to this size are read ahead, several at once; larger ones are read in chunks when their turn comes. */
const READ_AHEAD_MAX = 4 * 1024 * 1024;

export interface HashOptions extends Pick<WalkOptions, 'signal' | 'maxEntries' | 'maxBytes'> {
  /** files read at once (default 8; the editor uses fewer, leaving Node's thread pool to the rest) */
  concurrency?: number;
  /** told what the walk left out (links out of the component, loops, FIFOs, devices): nothing of it is hashed */
  onSkipped?: (skipped: SkippedEntry[]) => void;
}

/**
 * sha256 over the relative path and bytes of every file that is copied into the site (the same walk as the copy:
 * src/core/measure/tree.ts), in a fixed order; a must-use plugin's file with the sub-folders it loads. Never opens a
 * FIFO or a device; stops when `signal` aborts; rejects with TreeLimitError past the walk's caps. (A child theme's
 * parent is hashed apart: the engine adds its hash to the cache key.)
 */
export async function componentHash(
  c: Pick<MeasuredComponent, 'source' | 'singleFile' | 'kind'> & Partial<Pick<MeasuredComponent, 'mustUse' | 'muFolders'>>,
  opts: HashOptions = {},
): Promise<string> {
  const { signal } = opts;
  const h = crypto().createHash('sha256');
  // A must-use plugin is loaded otherwise than the same file as a plugin: never the same key.
  h.update(`${c.kind}${c.mustUse ? ':mu' : ''}\0`);
  if (c.singleFile) {
    const st = await fs.stat(c.source);
    if (!st.isFile()) throw new Error(`${c.source} is not a regular file`);
    const max = opts.maxBytes ?? MAX_TREE_BYTES;
    if (st.size > max) throw new TreeLimitError('bytes', max, c.source);
    h.update(path.basename(c.source)).update('\0');
    if (c.mustUse) h.update(String(st.size)).update('\0');
    await readChunks(c.source, st.size, (b) => h.update(b), signal);
    for (const f of c.mustUse ? (c.muFolders ?? []) : []) {
      h.update(`\0${f}/\0`);
      await hashTree(h, path.join(path.dirname(c.source), f), opts);
    }
    return h.digest('hex');
  }
  await hashTree(h, c.source, opts);
  return h.digest('hex');
}

/** The hash a record keeps of what was measured: the component's files, a child theme's with its parent's. */
export async function sourceHash(c: MeasuredComponent, opts: HashOptions = {}): Promise<string> {
  const own = await componentHash(c, opts);
  if (!c.parent) return own;
  const parent = await componentHash({ kind: 'theme', source: c.parent.source, singleFile: false }, opts);
  return crypto().createHash('sha256').update(`${own}\0${parent}`).digest('hex');
}

/** Feeds the relative path, size and bytes of every file of the folder's walk to `h`, in the walk's order. */
async function hashTree(h: Hash, root: string, opts: HashOptions): Promise<void> {
  const { signal } = opts;
  const tree = await walkTree(root, { signal, maxEntries: opts.maxEntries, maxBytes: opts.maxBytes });
  if (tree.skipped.length) opts.onSkipped?.(tree.skipped);
  const files = tree.files;
  const ahead = Math.max(1, opts.concurrency ?? 8);
  const reads: Array<Promise<Buffer> | undefined> = new Array(files.length);
  let next = 0;
  for (let k = 0; k < files.length; k++) {
    throwIfAborted(signal);
    // A bounded window of reads in flight, consumed in order.
    for (; next < files.length && next < k + ahead; next++) {
      if (files[next].size > READ_AHEAD_MAX) continue;
      const p = readRegular(files[next].abs, files[next].size, signal);
      p.catch(() => undefined);
      reads[next] = p;
    }
    const f = files[k];
    h.update(f.rel).update('\0');
    const read = reads[k];
    if (read) {
      reads[k] = undefined;
      const data = await read;
      h.update(String(data.length)).update('\0').update(data);
    } else {
      h.update(String(f.size)).update('\0');
      await readChunks(f.abs, f.size, (b) => h.update(b), signal);
    }
  }
}

/** A record's shape (what this version reads). Not its slug: the key is the content, and a copy's folder is its own. */
/** What one component's result is keyed by: what was measured (its content) and how (the run's set-up). */
export interface ResultKeyParts {
  /** componentHash of the component's files (never its folder's name or path) */
  component: string;
  /** a child theme's parent theme, hashed apart */
  parent?: string;
  wordpress: string;
  php: string;
  runtime: string;
  /** the WordPress core the site runs (the run's set-up, with its version) */
  core: string;
  rounds: number;
  warmup: number;
  /** the database server (engine and version, or --db's address); absent on SQLite */
  database?: string;
  /** what held the measured PHP (bubblewrap, none, playground): the record says it */
  sandbox: string;
  findings?: boolean;
  /** `--browser`: the device and loads per side ("desktop 5") */
  browser?: string;
  instructions?: boolean;
}

/** The result cache's key: a hash of what a record holds and how it was measured. */
export function resultKey(p: ResultKeyParts): string {
  return MeasureCache.key({
    component: p.component,
    ...(p.parent ? { parent: p.parent } : {}),
    wordpress: p.wordpress,
    php: p.php,
    runtime: p.runtime,
    rounds: p.rounds,
    warmup: p.warmup,
    core: p.core,
    sandbox: p.sandbox,
    ...(p.database ? { database: p.database, tables: 'a database and a user per side' } : {}),
    ...(p.findings ? { findings: 1 } : {}),
    ...(p.instructions ? { instructions: 1 } : {}),
    ...(p.browser ? { browser: p.browser } : {}),
  });
}

function isRecord(v: unknown): v is LocalRecord {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as LocalRecord;
  if (r.source !== 'local' || typeof r.slug !== 'string' || r.benchmarked !== true || typeof r.local !== 'object' || r.local === null) return false;
  if (typeof r.contexts !== 'object' || r.contexts === null) return false;
  for (const c of CONTEXTS) {
    const m = r.contexts[c];
    if (m === null) continue;
    if (typeof m !== 'object' || ![m.ttfb_delta_ms, m.memory_delta_kb, m.queries_delta].every((x) => typeof x === 'number' && Number.isFinite(x))) return false;
  }
  return true;
}

/**
 * Local results and the template database, each with a keyed checksum (HMAC-SHA256) under a key of 32 random bytes
 * kept in the cache folder (mode 0600). The sandbox keeps the measured PHP away from that folder; the checksum makes
 * any change made outside WP Bench (an unsandboxed run's PHP, a hand edit) visible: such an entry is discarded, said
 * through `warn`, and measured again. (Unsandboxed PHP runs as you and could read the key too: the sandbox is what
 * keeps the cache out of its reach.)
 */
export class MeasureCache {
  private readonly dir: string;
  private secret: Promise<Buffer> | undefined;
  constructor(cacheDir: string) {
    this.dir = path.join(cacheDir, 'measure-v1');
  }

  static key(parts: Record<string, string | number>): string {
    return crypto().createHash('sha256').update(JSON.stringify(Object.entries(parts).sort())).digest('hex');
  }

  /** The checksum key: read, or made once (the first writer wins; everyone reads what is on disk). */
  private keyBytes(): Promise<Buffer> {
    this.secret ??= (async () => {
      const file = path.join(this.dir, 'checksum.key');
      await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
      await fs.writeFile(file, crypto().randomBytes(32), { flag: 'wx', mode: 0o600 }).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'EEXIST') throw e;
      });
      const st = await fs.lstat(file);
      if (!st.isFile() || st.size !== 32) {
        // Replaced or damaged (a link, a folder, other bytes): a new key, so every entry signed with the old one
        // fails its check, is discarded and measured again.
        await fs.rm(file, { recursive: true, force: true });
        await fs.writeFile(file, crypto().randomBytes(32), { flag: 'wx', mode: 0o600 }).catch((e: NodeJS.ErrnoException) => {
          if (e.code !== 'EEXIST') throw e;
        });
      }
      return fs.readFile(file);
    })();
    this.secret.catch(() => (this.secret = undefined));
    return this.secret;
  }

  private async mac(kind: string, name: string, data: Buffer | string): Promise<string> {
    return crypto().createHmac('sha256', await this.keyBytes()).update(`${kind}\0${name}\0`).update(data).digest('hex');
  }

  private static same(a: string, b: unknown): boolean {
    return typeof b === 'string' && a.length === b.length && crypto().timingSafeEqual(Buffer.from(a), Buffer.from(b));
  }

  /** Where the database of a fresh install is kept for the next runs. */
  templateFile(key: string): string {
    return path.join(this.dir, 'sites', `${key}.sqlite`);
  }

  async saveTemplate(dbFile: string, target: string): Promise<void> {
    await fs.mkdir(path.dirname(target), { recursive: true });
    const data = await fs.readFile(dbFile);
    const mac = await this.mac('template', path.basename(target), data);
    const tmp = `${target}.${crypto().randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(`${tmp}.mac`, mac);
    await fs.writeFile(tmp, data);
    await fs.rename(`${tmp}.mac`, `${target}.mac`);
    await fs.rename(tmp, target);
  }

  /**
   * The template database's bytes when its checksum holds; undefined when there is none. A template that fails its
   * check is removed and `warn` says so (the run then installs WordPress afresh and saves a new one).
   */
  async readTemplate(target: string, warn: (line: string) => void = () => undefined): Promise<Buffer | undefined> {
    const st = await fs.lstat(target).catch(() => undefined);
    if (!st) return undefined;
    const [data, mac] = await Promise.all([
      st.isFile() && st.size <= 64 * 1024 * 1024 ? fs.readFile(target).catch(() => undefined) : undefined,
      fs.readFile(`${target}.mac`, 'utf8').catch(() => undefined),
    ]);
    if (data && MeasureCache.same(await this.mac('template', path.basename(target), data), mac?.trim())) return data;
    warn('the cached template database failed its check (changed outside WP Bench, or tampered with): discarded; WordPress is installed afresh');
    await Promise.all([fs.rm(target, { force: true, recursive: true }), fs.rm(`${target}.mac`, { force: true })]);
    return undefined;
  }

  /**
   * The entry of `key` (a hash of what was measured and how: resultKey), answered under `slug` — the name of the copy
   * that asks (two identical copies in folders of different names share one entry). Only an entry whose checksum
   * fails is said (`warn`) as changed outside WP Bench; one whose checksum holds but that this version cannot read is
   * dropped without a word. Either is removed and measured again.
   */
  async get(key: string, slug: string, warn: (line: string) => void = () => undefined): Promise<LocalRecord | undefined> {
    const file = path.join(this.dir, `${key}.json`);
    const st = await fs.lstat(file).catch(() => undefined);
    if (!st) return undefined;
    let signed = false;
    let record: unknown;
    if (st.isFile() && st.size <= MAX_ENTRY_BYTES) {
      try {
        const v = JSON.parse(await fs.readFile(file, 'utf8')) as { mac?: unknown; record?: unknown };
        record = v.record;
        signed = typeof v === 'object' && v !== null && MeasureCache.same(await this.mac('result', key, JSON.stringify(v.record ?? null)), v.mac);
      } catch {
        signed = false;
      }
    }
    if (signed && isRecord(record)) return { ...record, slug };
    if (!signed) warn(`the cached result for ${slug} failed its check (changed outside WP Bench, tampered with, or written by an older version): discarded; measuring again`);
    await fs.rm(file, { force: true, recursive: true });
    return undefined;
  }

  async set(key: string, record: LocalRecord): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    const file = path.join(this.dir, `${key}.json`);
    const tmp = `${file}.${crypto().randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(tmp, JSON.stringify({ mac: await this.mac('result', key, JSON.stringify(record)), record }));
    await fs.rename(tmp, file);
  }
}
