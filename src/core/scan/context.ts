// The state one scan shares across its modules (Ctx), and what every source of declarations uses: paths relative to
// the root, problems, the abort check, header reads, locations, URI flags, listable names. Plain Node; no vscode.
import { l10n } from '../l10n';
import type * as fs from 'fs';
import * as path from 'path';
import type { ComponentKind, ComponentLocation, DetectedComponent, ScanProblem, ScanResult } from '../model';
import { AsyncFs, SlicedSyncFs, type IoMode, type ScanFs } from './fsaccess';
import { parseFileHeaderLocations, type HeaderMatch } from './headers';
import { isListableName, wordPressOrgUriSlug } from './lookup';

export interface ScanOptions {
  /** Upper bound on directory entries looked at (default 200,000). The scan stops there, with a problem. */
  maxFiles?: number;
  signal?: AbortSignal;
  /** Concurrent file-system operations in 'async' mode (default 64). */
  concurrency?: number;
  /**
   * 'sliced' (default): synchronous reads in slices of a few ms between event-loop turns (fast on
   * local disks); 'async': fs.promises with bounded parallelism (for slow network file systems).
   */
  io?: IoMode;
  /**
   * Read every *.php of each plugin folder, to locate every headed file (default false: when
   * `<folder>/<folder>.php` has a Plugin Name, the folder's other files are not opened).
   */
  allPluginFiles?: boolean;
}

export const DEFAULT_MAX_FILES = 200_000;

export type Role = 'plugins' | 'mu-plugins' | 'themes';

export type Dirent = fs.Dirent;

/** What a folder holds as "the plugin or theme under development" (a repository root, or `.` of .wp-env.json). */
export interface SelfInfo {
  plugin?: { slug: string; file: string; headers: Record<string, HeaderMatch> };
  theme?: { slug: string; file: string; headers: Record<string, HeaderMatch> };
}

export interface Ctx {
  root: string;
  /** The root's real path: the walk never leaves it (links are compared by real path, not text). */
  realRoot: string;
  stats: ScanResult['stats'];
  problems: ScanProblem[];
  components: DetectedComponent[];
  fs: ScanFs;
  allPluginFiles: boolean;
  /** Shared by every view of the scan (see tentativeContentRoot): entries counted, and whether the bound was passed. */
  limit: { entries: number; truncated: boolean; problems: ScanProblem[] };
  maxFiles: number;
  signal?: AbortSignal;
  /** Real paths of folders walked (loop and duplicate guard). */
  walked: Set<string>;
  /** Real paths of plugins / mu-plugins / themes folders already scanned. */
  roleDirs: Set<string>;
  /**
   * Header files read through no link from a plugins folder inside the workspace (a plain folder, a plain file): their
   * real path is inside, so markOutside() need not resolve them.
   */
  readInside: Set<string>;
  /** Relative paths of the composer files read as an installed theme's own (ScanResult.ownComposerFiles). */
  ownComposerFiles: string[];
  /** installer-paths targets (scanned as role folders after the walk) and core install dirs: never walked. */
  noWalk: Set<string>;
  installerTargets: { dir: string; role: Role }[];
  /** Child themes' `Template:` lines, resolved once every theme is known. */
  parents: { child: DetectedComponent; parent: string; location: ComponentLocation }[];
  selfCache: Map<string, Promise<SelfInfo>>;
  /** In a tentative content root: how many of its role folders were already scanned through another path. */
  alreadyScanned?: { count: number };
  /** The root is mapped by a .wp-env.json as a whole plugins/mu-plugins/themes folder (Automattic/vip-go-mu-plugins). */
  rootMounted?: boolean;
  /** What the root itself was taken for (a plugin or theme under development), dropped when it is mounted instead. */
  rootSelf: DetectedComponent[];
  /** The root's .wp-env.json installs "." under these names (`"wp-content/plugins/performance": "."`). */
  rootInstalls: { kind: ComponentKind; slug: string }[];
  /** The root's own plugin or theme (its headers), not a collection's items: what an install name renames. */
  rootOwn: DetectedComponent[];
  /** The `"."` entries of the root's .wp-env.json, renamed with it. */
  rootEntries: DetectedComponent[];
  /** mu-plugins sub-folders with a headed file that no top-level file loads: settled once Composer's packages are known. */
  unloadedMu: { dir: string; name: string; headed: HeadedFile[] }[];
  /** The "no style.css" problems, dropped with a folder that turns out not to be a content root (TinyMCE's themes/). */
  brokenThemes: WeakSet<ScanProblem>;
}

export interface HeadedFile {
  file: string;
  headers: Record<string, HeaderMatch>;
}

/** path.sep, read once (in a bundle, `path.sep` is a getter call). */
export const SEP = path.sep;

export function rel(ctx: Ctx, abs: string): string {
  // The common case, a normalised path under a normalised root (every file the scan found): a slice, as
  // path.relative() would give after resolving both. Anything else (Windows, `.` or `..` parts, doubled or trailing
  // separators) goes through path.relative().
  if (SEP === '/' && abs.startsWith(ctx.root) && abs[ctx.root.length] === '/' && ctx.root !== '/' && !abs.includes('/.') && !abs.includes('//') && !abs.endsWith('/')) {
    return abs.slice(ctx.root.length + 1);
  }
  const r = path.relative(ctx.root, abs);
  return r.split(path.sep).join('/');
}

/**
 * The inverse of rel(): the absolute path of a location's file. A concatenation where rel() sliced (a plain relative
 * path under a normalised root), path.join() for anything else.
 */
export function absOf(ctx: Ctx, file: string): string {
  if (SEP === '/' && ctx.root !== '/' && !ctx.root.endsWith('/') && file !== '' && file[0] !== '/' && file[0] !== '.' && !file.includes('/.') && !file.includes('//')) {
    return ctx.root + '/' + file;
  }
  return path.join(ctx.root, ...file.split('/'));
}

/** path.join(dir, name) for a normalised folder and a name read from it (no separator, never `.` or `..`), without re-normalising. */
export function childPath(dir: string, name: string): string {
  return dir.endsWith(SEP) ? dir + name : dir + SEP + name;
}

/** Runs `fn` over `items`, `n` at a time: in sliced mode one, so only one folder's entries are alive at once. */
export async function eachLimit<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, lane));
}
export function checkAbort(ctx: Ctx): void {
  if (ctx.signal?.aborted) {
    throw ctx.signal.reason instanceof Error ? ctx.signal.reason : Object.assign(new Error('Scan aborted'), { name: 'AbortError' }); // l10n-ignore: an AbortError, never shown
  }
}

export function problem(ctx: Ctx, abs: string, message: string, at?: { line: number; column: number }, extra?: Partial<ScanProblem>): void {
  ctx.problems.push({ file: rel(ctx, abs), line: at?.line ?? 1, column: at?.column ?? 1, message, ...extra });
}

/** Reads the first 8 KiB and parses it at once (the buffer is reused afterwards). A file that is not read is a problem. */
export async function headers(ctx: Ctx, file: string, names: string[], required?: string, regular?: boolean): Promise<Record<string, HeaderMatch> | null> {
  checkAbort(ctx);
  return ctx.fs.withHead(
    file,
    (buf, why) => {
      if (buf) return parseFileHeaderLocations(buf, names, required);
      problem(ctx, file, l10n.t('{0} {1}; WordPress would not list it either.', path.basename(file), why ?? l10n.t('could not be read')));
      return null;
    },
    regular,
  );
}

export function loc(ctx: Ctx, file: string, m: HeaderMatch | undefined, source: ComponentLocation['source']): ComponentLocation {
  return m
    ? { file: rel(ctx, file), line: m.line, column: m.column, length: m.length, source }
    : { file: rel(ctx, file), line: 1, column: 1, length: 0, source };
}

/** Update URI that is set and is not this item's wordpress.org address (or is `false`). */
export function isForeignUpdateUri(uri: string, kind: 'plugin' | 'theme', slug: string): boolean {
  const u = uri.trim();
  if (u === '') return false;
  return wordPressOrgUriSlug(u, kind) !== slug.toLowerCase();
}

/** PHP empty() on a header value. */
export const phpEmpty = (v: string | undefined) => v === undefined || v === '' || v === '0';

/** Flags from a header's URIs: fork (Update URI elsewhere) and wordpress.org evidence (a URI naming the slug). */
export function uriFlags(c: DetectedComponent, h: Record<string, HeaderMatch>, uriHeader: 'Plugin URI' | 'Theme URI'): DetectedComponent {
  const updateUri = h['Update URI']?.value;
  if (updateUri !== undefined && isForeignUpdateUri(updateUri, c.kind, c.slug)) c.possibleFork = true;
  if (wordPressOrgUriSlug(updateUri, c.kind) === c.slug || wordPressOrgUriSlug(h[uriHeader]?.value, c.kind) === c.slug) c.wordpressOrgUri = true;
  return c;
}

/** A folder or file name WordPress lists: listed as it is; a name no one can display safely is a problem instead. */
export function listable(ctx: Ctx, name: string, file: string, at: { line: number; column: number } | undefined, what: string): boolean {
  if (isListableName(name)) return true;
  problem(ctx, file, l10n.t('{0} "{1}" has a name WP Bench cannot show (control characters, or over 200 characters); skipped', what, name), at, { slug: name });
  return false;
}
export function newCtx(absRoot: string, options: ScanOptions): Ctx {
  const ctx: Ctx = {
    root: absRoot,
    realRoot: absRoot,
    stats: { filesOpened: 0, bytesRead: 0, dirsRead: 0 },
    problems: [],
    components: [],
    fs: null as unknown as ScanFs,
    allPluginFiles: options.allPluginFiles === true,
    limit: { entries: 0, truncated: false, problems: [] },
    maxFiles: options.maxFiles ?? DEFAULT_MAX_FILES,
    signal: options.signal,
    walked: new Set(),
    roleDirs: new Set(),
    readInside: new Set(),
    ownComposerFiles: [],
    noWalk: new Set(),
    installerTargets: [],
    parents: [],
    selfCache: new Map(),
    rootSelf: [],
    rootInstalls: [],
    rootOwn: [],
    rootEntries: [],
    unloadedMu: [],
    brokenThemes: new WeakSet(),
  };
  ctx.fs = options.io === 'async' ? new AsyncFs(ctx.stats, options.concurrency) : new SlicedSyncFs(ctx.stats);
  return ctx;
}
