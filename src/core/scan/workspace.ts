// scanWorkspace(): walks a folder tree and finds WordPress plugins and themes the way WordPress does.
// Plain Node (fs.promises + callback fs for the 8 KiB header reads); no vscode.
import * as fs from 'fs';
import * as path from 'path';
import { isValidSlug, type ComponentLocation, type DetectedComponent, type ScanProblem, type ScanResult } from '../model';
import { parseComposerJson, parseComposerLock, type InstallerPath } from './composer';
import { AsyncFs, SlicedSyncFs, type IoMode, type ScanFs } from './fsaccess';
import { PLUGIN_HEADER_NAMES, THEME_HEADER_NAMES, parseFileHeaderLocations, type HeaderMatch } from './headers';
import { mergeComponents, normalizeProblems } from './merge';
import { lastPathPart, pluginFileSlug } from './text';
import { parseWpEnv } from './wpenv';

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
/** Folders never searched for content roots or composer files: bundled libraries carry their own headers. */
const SKIP_DIRS = new Set(['.git', '.svn', '.hg', 'node_modules', 'vendor', 'bower_components', 'CVS']);
const CONFIG_FILES = new Set(['composer.json', 'composer.lock', '.wp-env.json', '.wp-env.override.json']);
const MAX_CONFIG_BYTES = 8 * 1024 * 1024;

type Dirent = fs.Dirent;

interface Ctx {
  root: string;
  stats: ScanResult['stats'];
  problems: ScanProblem[];
  components: DetectedComponent[];
  fs: ScanFs;
  allPluginFiles: boolean;
  entries: number;
  maxFiles: number;
  truncated: boolean;
  signal?: AbortSignal;
  /** Real paths of folders walked (loop and duplicate guard). */
  walked: Set<string>;
  /** Real paths of plugins / mu-plugins / themes folders already scanned. */
  roleDirs: Set<string>;
  composerFiles: { dir: string; installerPaths: InstallerPath[] }[];
}

function rel(ctx: Ctx, abs: string): string {
  const r = path.relative(ctx.root, abs);
  return r.split(path.sep).join('/');
}

function checkAbort(ctx: Ctx): void {
  if (ctx.signal?.aborted) {
    throw ctx.signal.reason instanceof Error ? ctx.signal.reason : Object.assign(new Error('Scan aborted'), { name: 'AbortError' });
  }
}

/** Counts directory entries against maxFiles; false once the bound is passed. */
function admit(ctx: Ctx, n: number): boolean {
  if (ctx.truncated) return false;
  ctx.entries += n;
  if (ctx.entries > ctx.maxFiles) {
    ctx.truncated = true;
    ctx.problems.push({
      file: '',
      line: 1,
      column: 1,
      message: `Scan stopped after ${ctx.maxFiles} directory entries (maxFiles); results are incomplete.`,
    });
    return false;
  }
  return true;
}

async function readDir(ctx: Ctx, dir: string): Promise<Dirent[] | null> {
  checkAbort(ctx);
  if (ctx.truncated) return null;
  return ctx.fs.readdir(dir, (n) => admit(ctx, n));
}

/** Directory test that follows symlinks (PHP's is_dir()); stats only what readdir could not tell. */
async function isDirEntry(ctx: Ctx, dir: string, e: Dirent): Promise<boolean> {
  if (e.isDirectory()) return true;
  if (!e.isSymbolicLink()) return false;
  return ctx.fs.isDirectory(path.join(dir, e.name));
}

/** Reads the first 8 KiB and parses it at once (the buffer is reused afterwards). */
async function headers(ctx: Ctx, file: string, names: string[], required?: string): Promise<Record<string, HeaderMatch> | null> {
  checkAbort(ctx);
  return ctx.fs.withHead(file, (buf) => (buf ? parseFileHeaderLocations(buf, names, required) : null));
}

function realpathOf(ctx: Ctx, p: string): Promise<string | null> {
  return ctx.fs.realpath(p);
}

function loc(ctx: Ctx, file: string, m: HeaderMatch | undefined, source: ComponentLocation['source']): ComponentLocation {
  return m
    ? { file: rel(ctx, file), line: m.line, column: m.column, length: m.length, source }
    : { file: rel(ctx, file), line: 1, column: 1, length: 0, source };
}

/** Update URI that is set and is not this item's wordpress.org address (or is `false`). */
export function isForeignUpdateUri(uri: string, kind: 'plugin' | 'theme', slug: string): boolean {
  const u = uri.trim();
  if (u === '') return false;
  const s = slug.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re =
    kind === 'plugin'
      ? new RegExp(`^(?:https?://)?(?:(?:www\\.)?wordpress\\.org/plugins|w\\.org/plugin)/${s}/?$`, 'i')
      : new RegExp(`^(?:https?://)?(?:(?:www\\.)?wordpress\\.org/themes|w\\.org/theme)/${s}/?$`, 'i');
  return !re.test(u);
}

/** PHP empty() on a header value. */
const phpEmpty = (v: string | undefined) => v === undefined || v === '' || v === '0';

// ---- plugins: get_plugins() -------------------------------------------------------------------

interface HeadedFile {
  file: string;
  headers: Record<string, HeaderMatch>;
}

async function readPluginHeaders(ctx: Ctx, file: string): Promise<HeadedFile | null> {
  const h = await headers(ctx, file, PLUGIN_HEADER_NAMES, 'Plugin Name');
  if (!h || phpEmpty(h['Plugin Name']?.value)) return null;
  return { file, headers: h };
}

/**
 * get_plugins(): top-level *.php and *.php directly inside each sub-folder, never deeper;
 * names starting with `.` skipped; symlinked folders followed; a file counts only with a non-empty
 * Plugin Name. Several headed files in one folder are one slug (the folder name).
 */
async function scanPluginsDir(ctx: Ctx, dir: string): Promise<void> {
  const entries = await readDir(ctx, dir);
  if (!entries) return;
  await Promise.all(
    entries.map(async (e) => {
      if (e.name.startsWith('.')) return;
      const abs = path.join(dir, e.name);
      if (await isDirEntry(ctx, dir, e)) {
        const sub = await readDir(ctx, abs);
        if (!sub) return;
        const files = sub.filter((s) => !s.name.startsWith('.') && s.name.endsWith('.php'));
        // Fast path: a headed `<folder>/<folder>.php` settles slug, name and version; WordPress
        // would list the folder's other headed files as more plugins of the same slug, which only
        // adds locations. `allPluginFiles` reads them all.
        const main = files.find((s) => s.name === e.name + '.php');
        if (main && !ctx.allPluginFiles) {
          const h = await readPluginHeaders(ctx, path.join(abs, main.name));
          if (h) {
            addPlugin(ctx, e.name, [h], main.name);
            return;
          }
        }
        const rest = main && !ctx.allPluginFiles ? files.filter((f) => f !== main) : files;
        const headed = (await Promise.all(rest.map((s) => readPluginHeaders(ctx, path.join(abs, s.name))))).filter(
          (h): h is HeadedFile => h !== null,
        );
        if (headed.length) addPlugin(ctx, e.name, headed, e.name + '.php');
      } else if (e.name.endsWith('.php')) {
        const h = await readPluginHeaders(ctx, abs);
        if (h) addPlugin(ctx, pluginFileSlug(e.name), [h], e.name);
      }
    }),
  );
}

function addPlugin(ctx: Ctx, slug: string, headed: HeadedFile[], preferred: string): void {
  // The name and version come from `<folder>/<folder>.php` when it has a header, else the first by file name.
  headed.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const main = headed.find((h) => path.basename(h.file) === preferred) ?? headed[0];
  const nameLoc = main.headers['Plugin Name'];
  if (!isValidSlug(slug)) {
    ctx.problems.push({
      file: rel(ctx, main.file),
      line: nameLoc.line,
      column: nameLoc.column,
      message: `Plugin "${nameLoc.value}" has no valid slug: "${slug}"`,
      slug,
    });
    return;
  }
  const c: DetectedComponent = {
    kind: 'plugin',
    slug,
    name: nameLoc.value,
    version: main.headers['Version']?.value ?? null,
    locations: headed.map((h) => loc(ctx, h.file, h.headers['Plugin Name'], 'plugin-header')),
  };
  const updateUri = main.headers['Update URI']?.value;
  if (updateUri !== undefined && isForeignUpdateUri(updateUri, 'plugin', slug)) c.possibleFork = true;
  ctx.components.push(c);
}

// ---- mu-plugins: get_mu_plugins() ---------------------------------------------------------------

/**
 * get_mu_plugins(): every top-level entry ending in `.php` (WordPress does not skip `.`-names here),
 * header or not (no header: the file name is the name); `index.php` of at most 30 bytes is skipped.
 * Sub-folders of mu-plugins are NOT read: WordPress core only loads top-level files (loaders such
 * as Bedrock's autoloader load sub-folders, but that is the loader's choice, and the loader file
 * itself is what WordPress lists).
 */
async function scanMuPluginsDir(ctx: Ctx, dir: string): Promise<void> {
  const entries = await readDir(ctx, dir);
  if (!entries) return;
  await Promise.all(
    entries.map(async (e) => {
      if (!e.name.endsWith('.php')) return;
      const abs = path.join(dir, e.name);
      const r = await ctx.fs.withHead(abs, (buf) =>
        buf ? { size: buf.length, h: parseFileHeaderLocations(buf, PLUGIN_HEADER_NAMES) } : null,
      );
      if (!r) return;
      if (e.name === 'index.php' && r.size <= 30) return; // "Silence is golden."
      const headers = r.h;
      const nameLoc = phpEmpty(headers['Plugin Name']?.value) ? undefined : headers['Plugin Name'];
      const slug = pluginFileSlug(e.name);
      const location = loc(ctx, abs, nameLoc, 'mu-plugin');
      if (!isValidSlug(slug)) {
        const { file, line, column } = location;
        ctx.problems.push({ file, line, column, message: `Must-use plugin file "${e.name}" has no valid slug`, slug });
        return;
      }
      const c: DetectedComponent = {
        kind: 'plugin',
        slug,
        name: nameLoc ? nameLoc.value : e.name,
        version: headers['Version']?.value ?? null,
        locations: [location],
      };
      const updateUri = headers['Update URI']?.value;
      if (updateUri !== undefined && isForeignUpdateUri(updateUri, 'plugin', slug)) c.possibleFork = true;
      ctx.components.push(c);
    }),
  );
}

// ---- themes: search_theme_directories() --------------------------------------------------------

/**
 * search_theme_directories(): a folder with style.css is a theme; otherwise each sub-folder with a
 * style.css is one (group/theme). `.`-names and CVS are skipped at the top level. (Core checks the
 * group's name, not the sub-folder's, so `group/.x/style.css` is listed by WordPress: we list it
 * too, and its slug is then rejected as invalid.) Folders with no style.css at all are listed by
 * WordPress only as broken ("Stylesheet is missing") themes; we skip them.
 * A style.css without `Theme Name` is NOT an error in WP_Theme (only the theme upgrader rejects
 * such an archive): WordPress lists it under its folder name, so we report it with name null.
 */
async function scanThemesDir(ctx: Ctx, dir: string): Promise<void> {
  const entries = await readDir(ctx, dir);
  if (!entries) return;
  await Promise.all(
    entries.map(async (e) => {
      if (e.name.startsWith('.') || e.name === 'CVS') return;
      if (!(await isDirEntry(ctx, dir, e))) return;
      const abs = path.join(dir, e.name);
      const inner = await readDir(ctx, abs);
      if (!inner) return;
      if (inner.some((x) => x.name === 'style.css')) {
        await addTheme(ctx, abs, e.name, inner);
        return;
      }
      await Promise.all(
        inner.map(async (s) => {
          if (s.isFile() || (!s.isDirectory() && !s.isSymbolicLink())) return;
          const subAbs = path.join(abs, s.name);
          const subEntries = await readDir(ctx, subAbs);
          if (subEntries && subEntries.some((x) => x.name === 'style.css')) {
            await addTheme(ctx, subAbs, `${e.name}/${s.name}`, subEntries);
          }
        }),
      );
    }),
  );
}

function exists(ctx: Ctx, p: string): Promise<boolean> {
  return ctx.fs.exists(p);
}

const headers_ = (ctx: Ctx, file: string) => headers(ctx, file, THEME_HEADER_NAMES);

async function addTheme(ctx: Ctx, abs: string, stylesheet: string, entries: Dirent[]): Promise<void> {
  const styleFile = path.join(abs, 'style.css');
  const headers = (await headers_(ctx, styleFile)) ?? {};
  const slug = lastPathPart(stylesheet);
  const nameLoc = headers['Theme Name'];
  const location = loc(ctx, styleFile, nameLoc, 'theme-header');
  if (!isValidSlug(slug)) {
    ctx.problems.push({
      file: location.file,
      line: location.line,
      column: location.column,
      message: `Theme folder "${stylesheet}" is not a valid slug`,
      slug,
    });
    return;
  }
  const names = new Set(entries.map((x) => x.name));
  let blockTheme = false;
  for (const d of ['templates', 'block-templates']) {
    if (!blockTheme && names.has(d)) blockTheme = await exists(ctx, path.join(abs, d, 'index.html'));
  }
  const c: DetectedComponent = {
    kind: 'theme',
    slug,
    name: nameLoc ? nameLoc.value : null,
    version: headers['Version']?.value ?? null,
    locations: [location],
  };
  if (blockTheme) c.blockTheme = true;
  const updateUri = headers['Update URI']?.value;
  if (updateUri !== undefined && isForeignUpdateUri(updateUri, 'theme', slug)) c.possibleFork = true;
  const tpl = headers['Template'];
  // A theme naming itself as Template is "theme_child_invalid" in WP_Theme: no parent.
  if (tpl && tpl.value !== stylesheet) {
    const parent = lastPathPart(tpl.value);
    const tplLoc = loc(ctx, styleFile, tpl, 'theme-header');
    if (!isValidSlug(parent)) {
      ctx.problems.push({ file: tplLoc.file, line: tplLoc.line, column: tplLoc.column, message: `Parent theme "${tpl.value}" is not a valid slug`, slug: parent });
    } else if (parent !== slug) {
      c.parentOf = [parent];
      // The parent is reported even when its folder is missing, located at the child's Template line.
      ctx.components.push({ kind: 'theme', slug: parent, name: null, version: null, locations: [tplLoc], parentOf: [slug] });
    }
  }
  ctx.components.push(c);
}

// ---- content roots and the walk ----------------------------------------------------------------

async function scanRoleDir(ctx: Ctx, dir: string, role: 'plugins' | 'mu-plugins' | 'themes'): Promise<void> {
  const real = await realpathOf(ctx, dir);
  if (!real || ctx.roleDirs.has(real)) return;
  ctx.roleDirs.add(real);
  if (role === 'plugins') await scanPluginsDir(ctx, dir);
  else if (role === 'mu-plugins') await scanMuPluginsDir(ctx, dir);
  else await scanThemesDir(ctx, dir);
}

/** wp-content (or Bedrock's web/app): plugins, mu-plugins and themes. Nothing else in it is walked. */
async function scanContentRoot(ctx: Ctx, dir: string): Promise<void> {
  await Promise.all([
    scanRoleDir(ctx, path.join(dir, 'plugins'), 'plugins'),
    scanRoleDir(ctx, path.join(dir, 'mu-plugins'), 'mu-plugins'),
    scanRoleDir(ctx, path.join(dir, 'themes'), 'themes'),
  ]);
}

async function readConfig(ctx: Ctx, file: string): Promise<void> {
  checkAbort(ctx);
  const raw = await ctx.fs.readText(file, MAX_CONFIG_BYTES);
  if (raw === null) {
    // Unreadable or too large: say which, so a 50 MB composer.json is reported rather than silently ignored.
    const size = await fs.promises.stat(file).then((st) => (st.isFile() ? st.size : 0), () => 0);
    if (size > MAX_CONFIG_BYTES) {
      ctx.problems.push({ file: rel(ctx, file), line: 1, column: 1, message: `File is ${Math.round(size / 1048576)} MB, over the ${MAX_CONFIG_BYTES / 1048576} MB read limit; skipped` });
    }
    return;
  }
  const text = raw.replace(/^\uFEFF/, '');
  const relFile = rel(ctx, file);
  const base = path.basename(file);
  if (base === 'composer.json') {
    const r = parseComposerJson(text, relFile);
    ctx.components.push(...r.components);
    ctx.problems.push(...r.problems);
    ctx.composerFiles.push({ dir: path.dirname(file), installerPaths: r.installerPaths });
  } else if (base === 'composer.lock') {
    const r = parseComposerLock(text, relFile);
    ctx.components.push(...r.components);
    ctx.problems.push(...r.problems);
  } else {
    const r = parseWpEnv(text, relFile, path.basename(path.dirname(file)));
    ctx.components.push(...r.components);
    ctx.problems.push(...r.problems);
  }
}

function isContentRootName(dir: string, name: string): boolean {
  // Bedrock keeps wp-content in web/app.
  return name === 'wp-content' || (name === 'app' && path.basename(dir) === 'web');
}

async function walk(ctx: Ctx, dir: string, real: string, skip: ReadonlySet<string> = new Set()): Promise<void> {
  const entries = await readDir(ctx, dir);
  if (!entries) return;
  await Promise.all(
    entries.map(async (e) => {
      const abs = path.join(dir, e.name);
      if (skip.has(e.name)) return;
      if (e.isFile() || (e.isSymbolicLink() && CONFIG_FILES.has(e.name))) {
        if (CONFIG_FILES.has(e.name)) await readConfig(ctx, abs);
        return;
      }
      if (SKIP_DIRS.has(e.name)) return;
      let childReal: string | null = path.join(real, e.name);
      if (e.isSymbolicLink()) {
        if (!(await isDirEntry(ctx, dir, e))) return;
        childReal = await realpathOf(ctx, abs); // followed once: the real path is remembered below
      } else if (!e.isDirectory()) {
        return;
      }
      if (!childReal || ctx.walked.has(childReal)) return;
      ctx.walked.add(childReal);
      if (isContentRootName(dir, e.name)) await scanContentRoot(ctx, abs);
      else await walk(ctx, abs, childReal);
    }),
  );
}

/**
 * Finds plugins and themes under `root`: every wp-content (and Bedrock web/app) folder,
 * composer.json / composer.lock / .wp-env.json files outside vendor and node_modules, and the
 * folders named by composer `extra.installer-paths`. If `root` itself is a wp-content folder (or
 * holds plugins/, mu-plugins/ or themes/ folders directly) it is a content root too.
 */
export async function scanWorkspace(root: string, options: ScanOptions = {}): Promise<ScanResult> {
  const absRoot = path.resolve(root);
  const ctx: Ctx = {
    root: absRoot,
    stats: { filesOpened: 0, bytesRead: 0, dirsRead: 0 },
    problems: [],
    components: [],
    fs: null as unknown as ScanFs,
    allPluginFiles: options.allPluginFiles === true,
    entries: 0,
    maxFiles: options.maxFiles ?? DEFAULT_MAX_FILES,
    truncated: false,
    signal: options.signal,
    walked: new Set(),
    roleDirs: new Set(),
    composerFiles: [],
  };
  ctx.fs = options.io === 'async' ? new AsyncFs(ctx.stats, options.concurrency) : new SlicedSyncFs(ctx.stats);
  checkAbort(ctx);
  const realRoot = (await realpathOf(ctx, absRoot)) ?? absRoot;
  ctx.walked.add(realRoot);

  // Is the root itself a content root?
  const roles = ['plugins', 'mu-plugins', 'themes'] as const;
  const rootEntries = (await ctx.fs.readdir(absRoot)) ?? []; // not counted against maxFiles
  ctx.stats.dirsRead--; // read again by the walk below
  const rootIsContent =
    path.basename(absRoot) === 'wp-content' ||
    rootEntries.some((e) => (roles as readonly string[]).includes(e.name) && (e.isDirectory() || e.isSymbolicLink()));
  const pending: Promise<void>[] = [];
  if (rootIsContent) pending.push(scanContentRoot(ctx, absRoot));
  pending.push(walk(ctx, absRoot, realRoot, rootIsContent ? new Set(roles) : new Set()));
  await Promise.all(pending);

  // extra.installer-paths (relative to each composer.json).
  const extra: Promise<void>[] = [];
  for (const cf of ctx.composerFiles) {
    for (const ip of cf.installerPaths) {
      if (ip.dir === null || (ip.role !== 'plugins' && ip.role !== 'mu-plugins' && ip.role !== 'themes')) continue;
      extra.push(scanRoleDir(ctx, path.resolve(cf.dir, ip.dir), ip.role));
    }
  }
  await Promise.all(extra);
  checkAbort(ctx);

  return {
    root: absRoot,
    components: mergeComponents(ctx.components),
    problems: normalizeProblems(ctx.problems),
    stats: ctx.stats,
  };
}
