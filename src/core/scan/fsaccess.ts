// File-system access for the scanner, in two flavours with the same (promise) interface:
// - 'sliced' (default): synchronous calls, yielding to the event loop every few milliseconds.
//   Header reads are tiny (≤ 8 KiB from the page cache), and a thread-pool hop per open/read/close
//   costs more than the work itself: on 20,000 files this is 2–3× faster than fs.promises, and the
//   event loop still runs every `sliceMs`.
// - 'async': fs.promises / callback fs with bounded parallelism, for slow (network) file systems.
import { l10n } from '../l10n';
import * as fs from 'fs';
import { fsp } from '../lazyNode';
import { HEADER_BYTES } from './headers';

export type IoMode = 'sliced' | 'async';

export interface IoStats {
  filesOpened: number;
  bytesRead: number;
  dirsRead: number;
}

export interface ScanFs {
  /** `admit(n)` is called as soon as the entries are known; false drops them (bound reached). */
  readdir(dir: string, admit?: (n: number) => boolean): Promise<fs.Dirent[] | null>;
  isDirectory(p: string): Promise<boolean>;
  exists(p: string): Promise<boolean>;
  realpath(p: string): Promise<string | null>;
  /**
   * First 8 KiB of a file, handed to `use` (the buffer may be reused after `use` returns);
   * `use` gets null and why when the file is not a regular file (FIFO, socket, device: never opened)
   * or cannot be opened. `regular`: the caller already knows it is a regular file (a non-link dirent),
   * which saves a stat. A directory is empty, as file_get_contents() makes it. `plain`: the file was known not to be
   * a symbolic link (a regular dirent, or an lstat), so its real path is its folder's and its name.
   */
  withHead<T>(file: string, use: (head: Buffer | null, why?: string, plain?: boolean) => T, regular?: boolean): Promise<T>;
  /**
   * withHead() for several files (the top-level files of one plugin folder): `use(i, head, length, why)` for each, in
   * any order. Only the first `length` bytes of `head` are the file's (sliced mode hands over its one reused buffer:
   * no view per file). Sliced mode reads them in one go, without a promise per file.
   */
  withHeads(files: string[], regular: boolean[], use: HeadUse, firstDecides?: boolean): Promise<void>;
  /** How many folders a caller should work on at once: 1 in sliced mode (all synchronous anyway), more in async mode. */
  readonly parallel: number;
  /** Sliced mode's calls without a promise, for a caller that pauses between folders itself; absent in async mode. */
  readonly sync?: SyncScanFs;
  /** The whole file as UTF-8, or why not (not a regular file, over `maxBytes`, unreadable). */
  readText(file: string, maxBytes: number): Promise<TextRead>;
}

export type TextRead = { text: string } | { text: null; why: string };

/**
 * What withHeads() hands each file: its index, the head (only the first `length` bytes are the file's) or null and why
 * it was not read. With `firstDecides`, files[0] is read first and a true answer means the others are not read
 * (`<folder>/<folder>.php` with a header settles its folder).
 */
export type HeadUse = (i: number, head: Buffer | null, length: number, why?: string) => boolean | void;

/**
 * The synchronous core of sliced mode: a plugins folder of 2,000 plain folders is read without a promise per folder
 * (about 10 ms of 0.2 s on npm run bench's figure 1b). The caller keeps the event loop turning: `due()` between
 * folders, then `await pause()`.
 */
export interface SyncScanFs {
  due(): boolean;
  pause(): Promise<void>;
  readdirNow(dir: string, admit?: (n: number) => boolean): fs.Dirent[] | null;
  headsNow(files: string[], regular: boolean[], use: HeadUse, firstDecides?: boolean): void;
}

/** Why a path is not read: anything but a regular file (after following links) is never opened. */
function special(st: fs.Stats): string | null {
  if (st.isFile() || st.isDirectory()) return null;
  const what = st.isFIFO() ? l10n.t('a FIFO') : st.isSocket() ? l10n.t('a socket') : st.isCharacterDevice() || st.isBlockDevice() ? l10n.t('a device') : l10n.t('not a regular file');
  return l10n.t('is {0}, not a regular file; it was not opened', what);
}

function tooLarge(size: number, maxBytes: number): string {
  return l10n.t('is {0} MB, over the {1} MB read limit; skipped', Math.max(1, Math.round(size / 1048576)), Math.round(maxBytes / 1048576));
}

const errWhy = (err: unknown) => l10n.t('could not be read ({0})', (err as NodeJS.ErrnoException)?.code ?? 'error');

/**
 * The synchronous calls of the hot path, read once: in a bundle, `import * as fs` reaches `fs.openSync` through a
 * getter on every call, which a first (not yet optimised) scan of 20,000 files pays for.
 */
const { openSync, readSync, closeSync, readdirSync, lstatSync, statSync } = fs;

/** Read-only and non-blocking: even a FIFO that slipped past the stat (a race) cannot hang the scan. */
const O_READ =
  process.platform === 'win32' ? fs.constants.O_RDONLY : fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

class Limiter {
  private active = 0;
  private readonly queue: (() => void)[] = [];
  constructor(private readonly max: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((r) => this.queue.push(r));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  }
}

export class SlicedSyncFs implements ScanFs, SyncScanFs {
  readonly parallel = 1;
  readonly sync: SyncScanFs = this;
  // Date.now(), not performance.now(): milliseconds are enough for 8 ms slices, and `performance` loads perf_hooks.
  private last = Date.now();
  private readonly buf = Buffer.allocUnsafe(HEADER_BYTES);
  /** Whether the last head() read a file known not to be a link. */
  private plain = false;
  /** Why a missing file was not read, worded once per scan (most `<folder>/<folder>.php` probes find nothing). */
  private enoent?: string;
  constructor(private readonly stats: IoStats, private readonly sliceMs = 8) {}

  private calls = 0;
  /**
   * True when the current slice is used up: the caller must `await this.pause()` first. The clock is read every 8th
   * call (8 header reads from the page cache take well under a millisecond).
   */
  due(): boolean {
    return (++this.calls & 7) === 0 && Date.now() - this.last >= this.sliceMs;
  }
  async pause(): Promise<void> {
    await new Promise<void>((r) => setImmediate(r));
    this.last = Date.now();
  }
  async readdir(dir: string, admit?: (n: number) => boolean): Promise<fs.Dirent[] | null> {
    if (this.due()) await this.pause();
    return this.readdirNow(dir, admit);
  }
  readdirNow(dir: string, admit?: (n: number) => boolean): fs.Dirent[] | null {
    let r: fs.Dirent[];
    try {
      r = readdirSync(dir, { withFileTypes: true });
    } catch {
      return null;
    }
    this.stats.dirsRead++;
    return !admit || admit(r.length) ? r : null;
  }
  async isDirectory(p: string): Promise<boolean> {
    if (this.due()) await this.pause();
    try {
      return statSync(p).isDirectory();
    } catch {
      return false;
    }
  }
  async exists(p: string): Promise<boolean> {
    if (this.due()) await this.pause();
    return fs.existsSync(p);
  }
  async realpath(p: string): Promise<string | null> {
    if (this.due()) await this.pause();
    try {
      // One call (libc realpath(3)) rather than an lstat and a Stats object per path component, as the JS version
      // does; Windows keeps the JS version (the native one turns mapped drives into UNC paths).
      return process.platform === 'win32' ? fs.realpathSync(p) : fs.realpathSync.native(p);
    } catch {
      return null;
    }
  }
  /** Reads the first 8 KiB into the reused buffer: the byte count, or why the file was not read. */
  private head(file: string, regular?: boolean): number | string {
    let fd: number;
    this.plain = regular === true;
    try {
      if (!regular) {
        // A missing file is common (the `<folder>/<folder>.php` probe): no exception built for it. lstat first (the
        // same one call for a plain file), then stat to follow a link.
        let st = lstatSync(file, { throwIfNoEntry: false });
        this.plain = st !== undefined && !st.isSymbolicLink();
        if (st && !this.plain) st = statSync(file, { throwIfNoEntry: false });
        if (!st) return (this.enoent ??= errWhy({ code: 'ENOENT' }));
        const why = special(st);
        if (why) return why;
      }
      fd = openSync(file, O_READ);
    } catch (err) {
      return errWhy(err);
    }
    this.stats.filesOpened++;
    let n = 0;
    try {
      n = readSync(fd, this.buf, 0, HEADER_BYTES, 0);
    } catch {
      n = 0; // EISDIR, EAGAIN: file_get_contents() gives '' too
    } finally {
      closeSync(fd);
    }
    this.stats.bytesRead += n;
    return n;
  }
  async withHead<T>(file: string, use: (head: Buffer | null, why?: string, plain?: boolean) => T, regular?: boolean): Promise<T> {
    if (this.due()) await this.pause();
    const h = this.head(file, regular);
    return typeof h === 'string' ? use(null, h) : use(this.buf.subarray(0, h), undefined, this.plain);
  }
  async withHeads(files: string[], regular: boolean[], use: HeadUse, firstDecides = false): Promise<void> {
    for (let i = 0; i < files.length; i++) {
      if (this.due()) await this.pause();
      if (this.headInto(files, regular, use, i) === true && firstDecides && i === 0) return;
    }
  }
  headsNow(files: string[], regular: boolean[], use: HeadUse, firstDecides = false): void {
    for (let i = 0; i < files.length; i++) if (this.headInto(files, regular, use, i) === true && firstDecides && i === 0) return;
  }
  private headInto(files: string[], regular: boolean[], use: HeadUse, i: number): boolean | void {
    const h = this.head(files[i], regular[i]);
    return typeof h === 'string' ? use(i, null, 0, h) : use(i, this.buf, h);
  }
  async readText(file: string, maxBytes: number): Promise<TextRead> {
    if (this.due()) await this.pause();
    try {
      const st = statSync(file);
      const why = special(st) ?? (st.isDirectory() ? 'is a folder' : st.size > maxBytes ? tooLarge(st.size, maxBytes) : null);
      if (why) return { text: null, why };
      const fd = openSync(file, O_READ);
      this.stats.filesOpened++;
      try {
        const st2 = fs.fstatSync(fd);
        if (!st2.isFile()) return { text: null, why: l10n.t('is not a regular file; it was not read') };
        if (st2.size > maxBytes) return { text: null, why: tooLarge(st2.size, maxBytes) };
        const b = fs.readFileSync(fd);
        this.stats.bytesRead += b.length;
        return { text: b.toString('utf8') };
      } finally {
        closeSync(fd);
      }
    } catch (err) {
      return { text: null, why: errWhy(err) };
    }
  }
}

export class AsyncFs implements ScanFs {
  private readonly io: Limiter;
  readonly parallel: number;
  constructor(private readonly stats: IoStats, concurrency = 64) {
    this.parallel = Math.max(1, concurrency);
    this.io = new Limiter(this.parallel);
  }
  async readdir(dir: string, admit?: (n: number) => boolean): Promise<fs.Dirent[] | null> {
    const r = await this.io.run(() => fsp().readdir(dir, { withFileTypes: true })).catch(() => null);
    if (!r) return null;
    this.stats.dirsRead++;
    return !admit || admit(r.length) ? r : null;
  }
  isDirectory(p: string): Promise<boolean> {
    return this.io.run(() => fsp().stat(p)).then((s) => s.isDirectory(), () => false);
  }
  exists(p: string): Promise<boolean> {
    return this.io.run(() => fsp().stat(p)).then(() => true, () => false);
  }
  realpath(p: string): Promise<string | null> {
    return this.io.run(() => fsp().realpath(p)).catch(() => null);
  }
  withHead<T>(file: string, use: (head: Buffer | null, why?: string, plain?: boolean) => T, regular?: boolean): Promise<T> {
    return this.io.run(
      () =>
        new Promise<T>((resolve, reject) => {
          const done = (b: Buffer | null, why?: string) => {
            try {
              resolve(use(b, why, regular === true));
            } catch (e) {
              reject(e);
            }
          };
          const open = () => fs.open(file, O_READ, (err, fd) => {
            if (err) return done(null, errWhy(err));
            this.stats.filesOpened++;
            const buf = Buffer.allocUnsafe(HEADER_BYTES);
            fs.read(fd, buf, 0, HEADER_BYTES, 0, (rerr, n) => {
              fs.close(fd, () => undefined);
              const got = rerr ? 0 : n;
              this.stats.bytesRead += got;
              done(buf.subarray(0, got));
            });
          });
          if (regular) return open();
          fs.stat(file, (err, st) => {
            if (err) return done(null, errWhy(err));
            const why = special(st);
            if (why) return done(null, why);
            open();
          });
        }),
    );
  }
  async withHeads(files: string[], regular: boolean[], use: HeadUse, firstDecides = false): Promise<void> {
    const read = (f: string, i: number) => this.withHead(f, (b, why) => use(i, b, b ? b.length : 0, why), regular[i]);
    if (firstDecides && files.length && (await read(files[0], 0)) === true) return;
    const from = firstDecides ? 1 : 0;
    await Promise.all(files.slice(from).map((f, k) => read(f, k + from)));
  }
  readText(file: string, maxBytes: number): Promise<TextRead> {
    return this.io
      .run(async (): Promise<TextRead> => {
        const st = await fsp().stat(file);
        const why = special(st) ?? (st.isDirectory() ? 'is a folder' : st.size > maxBytes ? tooLarge(st.size, maxBytes) : null);
        if (why) return { text: null, why };
        const fh = await fsp().open(file, O_READ);
        this.stats.filesOpened++;
        try {
          const st2 = await fh.stat();
          if (!st2.isFile()) return { text: null, why: l10n.t('is not a regular file; it was not read') };
          if (st2.size > maxBytes) return { text: null, why: tooLarge(st2.size, maxBytes) };
          const b = await fh.readFile();
          this.stats.bytesRead += b.length;
          return { text: b.toString('utf8') };
        } finally {
          await fh.close();
        }
      })
      .catch((err: unknown): TextRead => ({ text: null, why: errWhy(err) }));
  }
}
