// The one walk over a component's files, used to copy it into the throwaway site, to hash it (the result cache, the
// editor's stale marks) and to read its headers. A component is not trusted: its folder may hold link loops, links out
// of it (to ~/.ssh), FIFOs and links to devices. So the walk never follows a link out of the folder's real path,
// never enters a folder it is already inside (a loop), never opens what is not a regular file (lstat/stat first; a
// FIFO's open() would block a thread for good), stops at a number of entries and of bytes, and stops when its
// signal aborts (the time limit, Ctrl-C, Cancel). What it leaves out is listed with the reason.
import { constants, promises as fs, type Stats } from 'node:fs';
import * as path from 'node:path';
import { measuredText } from './measuredText';

/** Not part of what WordPress loads: version control and build tooling (never copied, hashed or walked). */
export const SKIP_NAMES: ReadonlySet<string> = new Set(['.git', '.svn', '.hg', 'node_modules']);
/** Files and folders one walk accepts before it gives up. */
export const MAX_TREE_ENTRIES = 50_000;
/** Bytes of regular files one walk accepts before it gives up. */
export const MAX_TREE_BYTES = 512 * 1024 * 1024;

export interface TreeFile {
  /** '/'-separated path inside the walked folder, as it is copied */
  rel: string;
  /** the real path to read (a link's target) */
  abs: string;
  size: number;
}

export interface SkippedEntry {
  rel: string;
  /** why it was left out: 'a link loop', 'a FIFO', 'a link out of the component', … */
  why: string;
  /** a symbolic link's own text, when the entry is one */
  link?: string;
}

export interface Tree {
  /** the walked folder's real path */
  root: string;
  /** folders, parents before their children */
  dirs: string[];
  /** regular files, in a fixed order (names sorted in each folder, depth first) */
  files: TreeFile[];
  skipped: SkippedEntry[];
  bytes: number;
}

export interface WalkOptions {
  signal?: AbortSignal;
  /** default MAX_TREE_ENTRIES */
  maxEntries?: number;
  /** default MAX_TREE_BYTES */
  maxBytes?: number;
  /** names never walked (default SKIP_NAMES) */
  skipNames?: ReadonlySet<string>;
  /**
   * Follow links that lead out of the folder (WordPress core: Debian's package links into /usr/share/javascript).
   * Loops and anything not a regular file are still left out. Never for a component.
   */
  followOutside?: boolean | readonly string[];
  /** what the folder is called in messages (default: the component) */
  label?: string;
}

/** The walk met more files, folders or bytes than it accepts. */
export class TreeLimitError extends Error {
  constructor(
    readonly limit: 'entries' | 'bytes',
    readonly cap: number,
    readonly root: string,
  ) {
    super(
      limit === 'entries'
        ? `${root} holds more than ${cap.toLocaleString('en-US')} files and folders (not counting .git, .svn, .hg, node_modules): too many to copy or hash`
        : `${root} holds more than ${bytesText(cap)} of files (not counting .git, .svn, .hg, node_modules): too much to copy or hash`,
    );
  }
}

function bytesText(n: number): string {
  return n >= 1024 * 1024 && n % (1024 * 1024) === 0 ? `${(n / (1024 * 1024)).toLocaleString('en-US')} MiB` : `${n.toLocaleString('en-US')} bytes`;
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A file name's bytes as text: valid UTF-8 as it is, every other byte as \xNN. */
function bytesName(b: Buffer): string {
  let out = '';
  for (let i = 0; i < b.length; i++) out += b[i] < 0x80 ? String.fromCharCode(b[i]) : `\\x${b[i].toString(16).padStart(2, '0')}`;
  return out;
}

/** The abort reason as an Error (what a rejected walk throws when its signal aborts). */
function aborted(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  if (r instanceof Error) return r;
  const e = new Error('aborted');
  e.name = 'AbortError';
  return e;
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw aborted(signal);
}

/** p is `root` or below it (both real paths). */
export function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  // `..foo` is a name inside; only `..` or `../…` leaves.
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** What a non-regular, non-folder entry is, for the skipped list. */
export function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Walks `root` (a folder): every regular file that is copied, the folders to make, and what is left out and why.
 * Rejects with TreeLimitError past the caps, with the signal's reason when it aborts.
 */
export async function walkTree(root: string, opts: WalkOptions = {}): Promise<Tree> {
  const { signal } = opts;
  const maxEntries = opts.maxEntries ?? MAX_TREE_ENTRIES;
  const maxBytes = opts.maxBytes ?? MAX_TREE_BYTES;
  const skipNames = opts.skipNames ?? SKIP_NAMES;
  const label = opts.label ?? 'the component';
  throwIfAborted(signal);
  const real = await fs.realpath(root);
  const rootSt = await fs.stat(real);
  if (!rootSt.isDirectory()) throw new Error(`${root} is not a folder`);
  const tree: Tree = { root: real, dirs: [], files: [], skipped: [], bytes: 0 };
  let entries = 0;
  const count = () => {
    if (++entries > maxEntries) throw new TreeLimitError('entries', maxEntries, root);
  };
  // The real folders the walk is inside (real path, and device:inode where the file system has inodes): entering one
  // of them again is a loop. Only the current chain, not every folder seen: a link to a sibling folder is copied as a
  // folder of its own (as before); links that fan out without a loop are stopped by the caps.
  const ids = (dirPath: string, st: Stats) => (st.ino ? [dirPath, `${st.dev}:${st.ino}`] : [dirPath]);
  const inside = new Set<string>(ids(real, rootSt));

  const walk = async (dir: string, rel: string): Promise<void> => {
    let names: string[];
    try {
      const raw = await fs.readdir(dir, { encoding: 'buffer' });
      names = [];
      for (const b of raw) {
        const name = b.toString('utf8');
        // A name that is not valid UTF-8 cannot be opened through its decoded form: named, never dropped silently.
        if (Buffer.from(name, 'utf8').equals(b)) names.push(name);
        else tree.skipped.push({ rel: rel ? `${rel}/${bytesName(b)}` : bytesName(b), why: 'a name that is not valid UTF-8 (WordPress cannot load it by name either)' });
      }
      names.sort(byName);
    } catch (err) {
      if (rel === '') throw err;
      tree.skipped.push({ rel, why: `a folder that cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})` });
      return;
    }
    for (const name of names) {
      throwIfAborted(signal);
      if (skipNames.has(name)) continue;
      const r = rel ? `${rel}/${name}` : name;
      const p = path.join(dir, name);
      let st = await fs.lstat(p).catch(() => undefined);
      if (!st) continue; // gone since readdir
      let target = p;
      let link: string | undefined;
      if (st.isSymbolicLink()) {
        link = await fs.readlink(p).catch(() => '?');
        let to: string;
        try {
          to = await fs.realpath(p);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          tree.skipped.push({ rel: r, link, why: code === 'ELOOP' ? 'a link loop' : code === 'ENOENT' || code === 'ENOTDIR' ? 'a dangling link' : `a link that cannot be followed (${code ?? 'error'})` });
          continue;
        }
        // A list: links out are followed only into those folders (the system's, for WordPress core).
        const outsideOk = Array.isArray(opts.followOutside) ? opts.followOutside.some((prefix) => to.startsWith(prefix)) : opts.followOutside === true;
        if (!outsideOk && !isInside(real, to)) {
          tree.skipped.push({ rel: r, link, why: `a link out of ${label}` });
          continue;
        }
        st = await fs.stat(to).catch(() => undefined);
        if (!st) {
          tree.skipped.push({ rel: r, link, why: 'a dangling link' });
          continue;
        }
        target = to;
      }
      if (st.isDirectory()) {
        // `dir` is a real path, so `p` is one too unless it is a link (then `target` is).
        const own = ids(target, st);
        if (own.some((id) => inside.has(id))) {
          tree.skipped.push({ rel: r, ...(link !== undefined ? { link } : {}), why: link !== undefined ? 'a link loop' : 'a folder loop' });
          continue;
        }
        count();
        tree.dirs.push(r);
        for (const id of own) inside.add(id);
        try {
          await walk(target, r);
        } finally {
          for (const id of own) inside.delete(id);
        }
      } else if (st.isFile()) {
        count();
        tree.bytes += st.size;
        if (tree.bytes > maxBytes) throw new TreeLimitError('bytes', maxBytes, root);
        tree.files.push({ rel: r, abs: target, size: st.size });
      } else {
        tree.skipped.push({ rel: r, ...(link !== undefined ? { link } : {}), why: link !== undefined ? `a link to ${kindOf(st)}` : kindOf(st) });
      }
    }
  };
  await walk(real, '');
  return tree;
}

/**
 * "a -> . (a link loop), fifo (a FIFO), … and 3 more": the skipped entries for one progress line (`max` named).
 */
export function skippedText(skipped: readonly SkippedEntry[], max = 5): string {
  // File names and link targets are the component's: printed on one line, their control and bidirectional characters escaped.
  const named = skipped.slice(0, max).map((s) => `${measuredText(s.rel)}${s.link !== undefined ? ` -> ${measuredText(s.link)}` : ''} (${s.why})`);
  return named.join(', ') + (skipped.length > max ? `, and ${skipped.length - max} more` : '');
}

/** The progress line: "skipped 2 entries of the component: a -> . (a link loop), fifo (a FIFO)". */
export function skippedLine(what: string, skipped: readonly SkippedEntry[]): string {
  return `skipped ${skipped.length} ${skipped.length === 1 ? 'entry' : 'entries'} of ${what}: ${skippedText(skipped)}`;
}

/** Opens a regular file without ever blocking on a FIFO (O_NONBLOCK) and checks what was opened; null when it is not one. */
export async function openRegular(file: string): Promise<fs.FileHandle | null> {
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
  const fh = await fs.open(file, flags).catch(() => null);
  if (!fh) return null;
  try {
    if ((await fh.stat()).isFile()) return fh;
  } catch {
    /* closed below */
  }
  await fh.close().catch(() => undefined);
  return null;
}

/** Up to `max` bytes of a regular file from its start; null when it is not a regular file or cannot be read. */
export async function readHead(file: string, max: number): Promise<Buffer | null> {
  const st = await fs.stat(file).catch(() => undefined);
  if (!st?.isFile()) return null;
  const fh = await openRegular(file);
  if (!fh) return null;
  try {
    const buf = Buffer.alloc(max);
    let got = 0;
    while (got < max) {
      const { bytesRead } = await fh.read(buf, got, max - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return buf.subarray(0, got);
  } catch {
    return null;
  } finally {
    await fh.close().catch(() => undefined);
  }
}

const CHUNK = 1024 * 1024;

/**
 * Feeds a regular file's bytes to `update` in order, in chunks (never all of a large file in memory), checking the
 * signal between chunks; at most `limit` bytes. Returns how many bytes were read (0 when it is not a regular file;
 * a read error ends it early: the caller hashes what there was, as an unreadable file hashed empty before).
 */
export async function readChunks(file: string, limit: number, update: (chunk: Buffer) => void, signal?: AbortSignal): Promise<number> {
  const fh = await openRegular(file);
  if (!fh) return 0;
  let pos = 0;
  try {
    const buf = Buffer.alloc(Math.min(CHUNK, Math.max(1, limit)));
    while (pos < limit) {
      throwIfAborted(signal);
      const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, limit - pos), pos);
      if (bytesRead === 0) break;
      update(buf.subarray(0, bytesRead));
      pos += bytesRead;
    }
  } catch (err) {
    if (signal?.aborted) throw aborted(signal);
    void err;
  } finally {
    await fh.close().catch(() => undefined);
  }
  return pos;
}

/** The whole of a regular file, at most `limit` bytes (empty when it is not a regular file or cannot be read). */
export async function readRegular(file: string, limit: number, signal?: AbortSignal): Promise<Buffer> {
  const parts: Buffer[] = [];
  await readChunks(file, limit, (c) => parts.push(Buffer.from(c)), signal);
  return Buffer.concat(parts);
}
