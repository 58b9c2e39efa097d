// scanWorkspace(): walks a folder tree and finds WordPress plugins and themes the way WordPress does, plus what
// composer.json / composer.lock, .wp-env.json and Playground blueprints declare. Plain Node; no vscode.
import { l10n } from '../l10n';
import type * as fs from 'fs';
import * as path from 'path';
import type { ComponentKind, ComponentLocation, DetectedComponent, ScanProblem, ScanResult } from '../model';
import { isBlueprintFile, parseBlueprint } from './blueprint';
import { analyzeComposer, type InstallerPath } from './composer';
import { AsyncFs, SlicedSyncFs, type IoMode, type ScanFs } from './fsaccess';
import { PLUGIN_HEADER_NAMES, THEME_HEADER_NAMES, parseFileHeaderLocations, type HeaderMatch } from './headers';
import { decideLookups, isListableName, selfSlug, wordPressOrgUriSlug } from './lookup';
import { mergeComponents, normalizeProblems } from './merge';
import { loadedSubFolders, phpTokens, vipLoadPluginCalls, vipPluginFolder, type PhpToken } from './php';
import { LineIndex, lastPathPart, pluginFileSlug } from './text';
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
/** Folders never searched for content roots or declarations: bundled libraries carry their own headers. */
const SKIP_DIRS = new Set(['.git', '.svn', '.hg', 'node_modules', 'vendor', 'bower_components', 'CVS']);
const WP_ENV_FILES = new Set(['.wp-env.json', '.wp-env.override.json']);
const MAX_CONFIG_BYTES = 8 * 1024 * 1024;
/** Folders WordPress loads plugins and themes from, inside a content root (VIP loads client-mu-plugins like mu-plugins). */
const ROLE_DIRS = { plugins: 'plugins', 'mu-plugins': 'mu-plugins', 'client-mu-plugins': 'mu-plugins', themes: 'themes' } as const;
type Role = 'plugins' | 'mu-plugins' | 'themes';

type Dirent = fs.Dirent;

/** What a folder holds as "the plugin or theme under development" (a repository root, or `.` of .wp-env.json). */
interface SelfInfo {
  plugin?: { slug: string; file: string; headers: Record<string, HeaderMatch> };
  theme?: { slug: string; file: string; headers: Record<string, HeaderMatch> };
}

interface Ctx {
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

/** path.sep, read once (in a bundle, `path.sep` is a getter call). */
const SEP = path.sep;

function rel(ctx: Ctx, abs: string): string {
  // The common case, a normalised path under a normalised root (every file the scan found): a slice, as
  // path.relative() would give after resolving both. Anything else (Windows, `.` or `..` parts, doubled or trailing
  // separators) goes through path.relative().
  if (SEP === '/' && abs.startsWith(ctx.root) && abs[ctx.root.length] === '/' && ctx.root !== '/' && !abs.includes('/.') && !abs.includes('//') && !abs.endsWith('/')) {
    return abs.slice(ctx.root.length + 1);
  }
  const r = path.relative(ctx.root, abs);
  return r.split(path.sep).join('/');
}

/** path.join(dir, name) for a normalised folder and a name read from it (no separator, never `.` or `..`), without re-normalising. */
function childPath(dir: string, name: string): string {
  return dir.endsWith(SEP) ? dir + name : dir + SEP + name;
}

/** Runs `fn` over `items`, `n` at a time: in sliced mode one, so only one folder's entries are alive at once. */
async function eachLimit<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, lane));
}

/** Whether a path stays inside the opened folder (what leaves it is never read). */
function insideRoot(ctx: Ctx, abs: string): boolean {
  return !path.relative(ctx.root, abs).startsWith('..');
}

/** Whether a real path (after following links) lies inside the root's real path. */
function insideRealRoot(ctx: Ctx, real: string): boolean {
  const r = path.relative(ctx.realRoot, real);
  return r === '' || (r !== '..' && !r.startsWith(`..${path.sep}`) && !path.isAbsolute(r));
}

/** A link the scan does not follow, because it leads out of the workspace: said once, as a note. */
function outsideLink(ctx: Ctx, abs: string, folder: boolean): void {
  const name = path.basename(abs);
  const message = folder
    ? l10n.t('{0} is a symbolic link to a folder outside the workspace; not walked.', name)
    : l10n.t('{0} is a symbolic link to a file outside the workspace; not read.', name);
  problem(ctx, abs, message, undefined, { severity: 'info' });
}

function checkAbort(ctx: Ctx): void {
  if (ctx.signal?.aborted) {
    throw ctx.signal.reason instanceof Error ? ctx.signal.reason : Object.assign(new Error('Scan aborted'), { name: 'AbortError' }); // l10n-ignore: an AbortError, never shown
  }
}

function problem(ctx: Ctx, abs: string, message: string, at?: { line: number; column: number }, extra?: Partial<ScanProblem>): void {
  ctx.problems.push({ file: rel(ctx, abs), line: at?.line ?? 1, column: at?.column ?? 1, message, ...extra });
}

/** Counts directory entries against maxFiles; false once the bound is passed. */
function admit(ctx: Ctx, n: number): boolean {
  if (ctx.limit.truncated) return false;
  ctx.limit.entries += n;
  if (ctx.limit.entries > ctx.maxFiles) {
    ctx.limit.truncated = true;
    ctx.limit.problems.push({
      file: '',
      line: 1,
      column: 1,
      message: l10n.t('Scan stopped after {0} directory entries (maxFiles); results are incomplete. Open a smaller folder, or exclude generated trees.', ctx.maxFiles),
    });
    return false;
  }
  return true;
}

async function readDir(ctx: Ctx, dir: string): Promise<Dirent[] | null> {
  checkAbort(ctx);
  if (ctx.limit.truncated) return null;
  return ctx.fs.readdir(dir, (n) => admit(ctx, n));
}

/** Directory test that follows symlinks (PHP's is_dir()); stats only what readdir could not tell. */
async function isDirEntry(ctx: Ctx, dir: string, e: Dirent): Promise<boolean> {
  if (e.isDirectory()) return true;
  if (!e.isSymbolicLink()) return false;
  return ctx.fs.isDirectory(path.join(dir, e.name));
}

/** A link whose target is not there: WordPress does not list it (is_dir() and is_file() say no); said, never skipped silently. */
async function brokenLink(ctx: Ctx, dir: string, e: Dirent): Promise<boolean> {
  const abs = path.join(dir, e.name);
  if (!e.isSymbolicLink() || (await ctx.fs.exists(abs))) return false;
  problem(ctx, abs, l10n.t('{0} is a symbolic link to something that is not there; WordPress does not list it. Restore its target or remove the link.', e.name));
  return true;
}

/** Reads the first 8 KiB and parses it at once (the buffer is reused afterwards). A file that is not read is a problem. */
async function headers(ctx: Ctx, file: string, names: string[], required?: string, regular?: boolean): Promise<Record<string, HeaderMatch> | null> {
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

function loc(ctx: Ctx, file: string, m: HeaderMatch | undefined, source: ComponentLocation['source']): ComponentLocation {
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
const phpEmpty = (v: string | undefined) => v === undefined || v === '' || v === '0';

/** Flags from a header's URIs: fork (Update URI elsewhere) and wordpress.org evidence (a URI naming the slug). */
function uriFlags(c: DetectedComponent, h: Record<string, HeaderMatch>, uriHeader: 'Plugin URI' | 'Theme URI'): DetectedComponent {
  const updateUri = h['Update URI']?.value;
  if (updateUri !== undefined && isForeignUpdateUri(updateUri, c.kind, c.slug)) c.possibleFork = true;
  if (wordPressOrgUriSlug(updateUri, c.kind) === c.slug || wordPressOrgUriSlug(h[uriHeader]?.value, c.kind) === c.slug) c.wordpressOrgUri = true;
  return c;
}

/** A folder or file name WordPress lists: listed as it is; a name no one can display safely is a problem instead. */
function listable(ctx: Ctx, name: string, file: string, at: { line: number; column: number } | undefined, what: string): boolean {
  if (isListableName(name)) return true;
  problem(ctx, file, l10n.t('{0} "{1}" has a name WP Bench cannot show (control characters, or over 200 characters); skipped', what, name), at, { slug: name });
  return false;
}

// ---- plugins: get_plugins() -------------------------------------------------------------------

interface HeadedFile {
  file: string;
  headers: Record<string, HeaderMatch>;
}

async function readPluginHeaders(ctx: Ctx, file: string, regular?: boolean): Promise<HeadedFile | null> {
  const h = await headers(ctx, file, PLUGIN_HEADER_NAMES, 'Plugin Name', regular);
  if (!h || phpEmpty(h['Plugin Name']?.value)) return null;
  return { file, headers: h };
}

/** The headed *.php files directly in `dir` (get_plugins() for one folder), `<folder>.php` first when it is headed. */
async function headedPhpFiles(ctx: Ctx, dir: string, entries: Dirent[], folderName: string, inside = false): Promise<HeadedFile[]> {
  const files = entries.filter((s) => !s.name.startsWith('.') && s.name.endsWith('.php'));
  // Fast path: a headed `<folder>/<folder>.php` settles slug, name and version; WordPress would list the
  // folder's other headed files as more plugins of the same slug, which only adds locations.
  const main = files.find((s) => s.name === folderName + '.php');
  if (main && !ctx.allPluginFiles) {
    const h = await readPluginHeaders(ctx, childPath(dir, main.name), main.isFile());
    if (h && inside && main.isFile()) ctx.readInside.add(h.file);
    if (h) return [h];
  }
  const rest = main && !ctx.allPluginFiles ? files.filter((f) => f !== main) : files;
  // One await for the folder, not a promise per file: the same reads and checks as readPluginHeaders().
  checkAbort(ctx);
  const paths = rest.map((s) => childPath(dir, s.name));
  const headed: (HeadedFile | undefined)[] = new Array(rest.length);
  await ctx.fs.withHeads(
    paths,
    rest.map((s) => s.isFile()),
    (i, buf, why) => {
      if (!buf) return void problem(ctx, paths[i], l10n.t('{0} {1}; WordPress would not list it either.', path.basename(paths[i]), why ?? l10n.t('could not be read')));
      const h = parseFileHeaderLocations(buf, PLUGIN_HEADER_NAMES, 'Plugin Name');
      if (phpEmpty(h['Plugin Name']?.value)) return;
      headed[i] = { file: paths[i], headers: h };
      if (inside && rest[i].isFile()) ctx.readInside.add(paths[i]);
    },
  );
  return headed.filter((h): h is HeadedFile => h !== undefined);
}

/**
 * get_plugins(): top-level *.php and *.php directly inside each sub-folder, never deeper;
 * names starting with `.` skipped; symlinked folders followed; a file counts only with a non-empty
 * Plugin Name. Several headed files in one folder are one slug (the folder name, as it is).
 */
async function scanPluginsDir(ctx: Ctx, dir: string, inside = false): Promise<void> {
  const entries = await readDir(ctx, dir);
  if (!entries) return;
  await eachLimit(entries, ctx.fs.parallel, async (e) => {
    if (e.name.startsWith('.')) return;
    const abs = childPath(dir, e.name);
    if (await isDirEntry(ctx, dir, e)) {
      // Fast path: a headed `<folder>/<folder>.php` settles slug, name and version without listing the folder
      // (its other headed files would only add locations of the same slug). Missing or not a plain file: list it.
      // Kept inline: one more async layer per folder costs ~5 MB of peak memory on 2,000 plugins (npm run bench).
      let mainRead = false;
      if (!ctx.allPluginFiles) {
        const main = childPath(abs, e.name + '.php');
        let plain = false;
        const h = await ctx.fs.withHead(main, (buf, _why, p) => ((plain = p === true), buf ? parseFileHeaderLocations(buf, PLUGIN_HEADER_NAMES, 'Plugin Name') : null));
        if (h && !phpEmpty(h['Plugin Name']?.value)) {
          if (inside && plain && e.isDirectory()) ctx.readInside.add(main);
          addPlugin(ctx, e.name, [{ file: main, headers: h }], e.name + '.php');
          return;
        }
        mainRead = h !== null; // read, no header: not read again below
      }
      const sub = await readDir(ctx, abs);
      if (!sub) return;
      const headed = await headedPhpFiles(ctx, abs, mainRead ? sub.filter((x) => x.name !== e.name + '.php') : sub, e.name, inside && e.isDirectory());
      if (headed.length) addPlugin(ctx, e.name, headed, e.name + '.php');
    } else if (e.name.endsWith('.php')) {
      const h = await readPluginHeaders(ctx, abs, e.isFile());
      if (h && inside && e.isFile()) ctx.readInside.add(h.file);
      if (h) addPlugin(ctx, pluginFileSlug(e.name), [h], e.name);
    } else {
      await brokenLink(ctx, dir, e);
    }
  });
}

function mainFile(headed: HeadedFile[], preferred: string): HeadedFile {
  // The name and version come from `<folder>/<folder>.php` when it has a header, else the first by file name.
  headed.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return headed.find((h) => path.basename(h.file) === preferred) ?? headed[0];
}

function addPlugin(ctx: Ctx, slug: string, headed: HeadedFile[], preferred: string, mustUse = false): void {
  const main = mainFile(headed, preferred);
  const nameLoc = main.headers['Plugin Name'];
  if (!listable(ctx, slug, main.file, nameLoc, `Plugin "${nameLoc.value}"`)) return;
  const c: DetectedComponent = {
    kind: 'plugin',
    slug,
    name: nameLoc.value,
    version: main.headers['Version']?.value ?? null,
    locations: headed.map((h) => loc(ctx, h.file, h.headers['Plugin Name'], mustUse ? 'mu-plugin' : 'plugin-header')),
  };
  if (mustUse) c.mustUse = true;
  ctx.components.push(uriFlags(c, main.headers, 'Plugin URI'));
}

// ---- mu-plugins: get_mu_plugins() ---------------------------------------------------------------

/**
 * get_mu_plugins(): every top-level entry ending in `.php` (WordPress does not skip `.`-names here),
 * header or not (no header: the file name is the name); `index.php` of at most 30 bytes is skipped.
 * Sub-folders: WordPress core never loads them; a loader does. A sub-folder with a headed plugin file (read as
 * get_plugins() reads a plugin folder) is a must-use plugin of the site when a top-level file of the folder
 * loads it (see loadedSubFolders: Bedrock's autoloader, a require naming the folder); otherwise an `info`
 * problem says it is not loaded. A sub-folder without a headed file (a library) is neither.
 * In VIP's client-mu-plugins, `wpcom_vip_load_plugin()` calls of the top-level files declare plugins.
 */
async function scanMuPluginsDir(ctx: Ctx, dir: string): Promise<void> {
  const entries = await readDir(ctx, dir);
  if (!entries) return;
  const subFolders: { name: string; headed: HeadedFile[] }[] = [];
  const loaded: string[] = [];
  await Promise.all(
    entries.map(async (e) => {
      if (!e.name.endsWith('.php')) {
        if (e.name.startsWith('.')) return;
        if (!(await isDirEntry(ctx, dir, e))) {
          await brokenLink(ctx, dir, e);
          return;
        }
        const sub = await readDir(ctx, path.join(dir, e.name));
        const headed = sub ? await headedPhpFiles(ctx, path.join(dir, e.name), sub, e.name) : [];
        if (headed.length) subFolders.push({ name: e.name, headed });
        return;
      }
      const abs = path.join(dir, e.name);
      const r = await ctx.fs.withHead(
        abs,
        (buf, why) => {
          if (buf) return { size: buf.length, h: parseFileHeaderLocations(buf, PLUGIN_HEADER_NAMES) };
          problem(ctx, abs, l10n.t('Must-use plugin {0} {1}.', e.name, why ?? l10n.t('could not be read')));
          return null;
        },
        e.isFile(),
      );
      if (!r) return;
      if (e.name === 'index.php' && r.size <= 30) return; // "Silence is golden."
      loaded.push(abs);
      const headers = r.h;
      const nameLoc = phpEmpty(headers['Plugin Name']?.value) ? undefined : headers['Plugin Name'];
      const slug = pluginFileSlug(e.name);
      const location = loc(ctx, abs, nameLoc, 'mu-plugin');
      if (!listable(ctx, slug, abs, location, l10n.t('Must-use plugin file "{0}"', e.name))) return;
      const c: DetectedComponent = {
        kind: 'plugin',
        slug,
        name: nameLoc ? nameLoc.value : e.name,
        version: headers['Version']?.value ?? null,
        locations: [location],
        mustUse: true,
      };
      ctx.components.push(uriFlags(c, headers, 'Plugin URI'));
    }),
  );
  const vip = path.basename(dir) === 'client-mu-plugins';
  if (subFolders.length === 0 && !vip) return;
  const loads = { all: false, folders: new Set<string>() };
  await Promise.all(
    loaded.map(async (file) => {
      const read = await loaderTokens(ctx, file);
      if (!read) return;
      const l = loadedSubFolders(read.tokens);
      loads.all ||= l.all || path.basename(file) === 'bedrock-autoloader.php';
      for (const f of l.folders) loads.folders.add(f);
      if (vip) addVipLoadCalls(ctx, file, read.tokens, read.index);
    }),
  );
  for (const s of subFolders) {
    if (loads.all || loads.folders.has(s.name)) addPlugin(ctx, s.name, s.headed, s.name + '.php', true);
    else ctx.unloadedMu.push({ dir, name: s.name, headed: s.headed });
  }
}

/**
 * mu-plugins sub-folders that no top-level file loads. One that a Composer `wordpress-muplugin` package installs is
 * listed with its header (Composer put it there for the site), with a note that it runs only through a loader; any
 * other is a note, not listed.
 */
function settleUnloadedMu(ctx: Ctx): void {
  const composer = new Set(
    ctx.components.filter((c) => c.kind === 'plugin' && c.locations.some((l) => l.source === 'composer.json' || l.source === 'composer.lock')).map((c) => c.slug),
  );
  for (const s of ctx.unloadedMu) {
    const main = mainFile(s.headed, s.name + '.php');
    const nameLoc = main.headers['Plugin Name'];
    if (composer.has(s.name)) {
      addPlugin(ctx, s.name, s.headed, s.name + '.php', true);
      problem(
        ctx,
        main.file,
        l10n.t('Must-use plugin "{0}" is installed by Composer into the sub-folder {1}/ of {2}/: listed, but WordPress loads only the top-level files, so it runs only when a loader requires it (Bedrock\'s autoloader, a top-level file that requires it), and none there does.', nameLoc.value, s.name, path.basename(s.dir)),
        nameLoc,
        { severity: 'info' },
      );
      continue;
    }
    problem(
      ctx,
      main.file,
      l10n.t('Must-use plugin "{0}" is in the sub-folder {1}/ of {2}/: not loaded unless a loader requires it (WordPress loads only the top-level files, and no file there requires this folder or is Bedrock\'s autoloader); not listed.', nameLoc.value, s.name, path.basename(s.dir)),
      nameLoc,
      { severity: 'info' },
    );
  }
}

/** Loader code is read whole up to this size; a larger top-level mu-plugin is not searched (with a problem). */
const MAX_LOADER_BYTES = 512 * 1024;

async function loaderTokens(ctx: Ctx, file: string): Promise<{ tokens: PhpToken[]; index: LineIndex } | null> {
  checkAbort(ctx);
  const r = await ctx.fs.readText(file, MAX_LOADER_BYTES);
  if (r.text !== null) return { tokens: phpTokens(r.text), index: new LineIndex(r.text) };
  problem(ctx, file, l10n.t('{0} {1}; what it loads (sub-folders, wpcom_vip_load_plugin() calls) is not known.', path.basename(file), r.why), undefined, { severity: 'info' });
  return null;
}

/** VIP's `wpcom_vip_load_plugin( 'liveblog' )`: a plugin of the plugins folder, declared at the call. */
function addVipLoadCalls(ctx: Ctx, file: string, tokens: PhpToken[], index: LineIndex): void {
  for (const call of vipLoadPluginCalls(tokens)) {
    const at = index.position(call.offset);
    const slug = call.plugin === null ? '' : vipPluginFolder(call.plugin);
    if (call.plugin === null || slug === '') {
      problem(ctx, file, l10n.t('wpcom_vip_load_plugin() without a plain string as its first argument: WP Bench cannot tell which plugin it loads.'), at, { severity: 'info' });
      continue;
    }
    const location: ComponentLocation = { file: rel(ctx, file), line: at.line, column: at.column + 1, length: Math.max(0, call.length - 2), source: 'vip-load-plugin' };
    if (!listable(ctx, slug, file, location, l10n.t('Plugin loaded by wpcom_vip_load_plugin()'))) continue;
    ctx.components.push({ kind: 'plugin', slug, name: null, version: null, locations: [location] });
  }
}

// ---- themes: search_theme_directories() --------------------------------------------------------

/**
 * search_theme_directories(): a folder with style.css is a theme; otherwise each sub-folder with a
 * style.css is one (group/theme). `.`-names and CVS are skipped at the top level. (Core checks the
 * group's name, not the sub-folder's, so `group/.x/style.css` is listed by WordPress: we list it
 * too.) A folder with no style.css at all is listed by WordPress only as a broken theme ("Stylesheet
 * is missing"): we say so with a problem. A style.css without `Theme Name` is NOT an error in WP_Theme:
 * WordPress lists it under its folder name, so we report it with name null.
 */
async function scanThemesDir(ctx: Ctx, dir: string): Promise<void> {
  const entries = await readDir(ctx, dir);
  if (!entries) return;
  await Promise.all(
    entries.map(async (e) => {
      if (e.name.startsWith('.') || e.name === 'CVS') return;
      if (!(await isDirEntry(ctx, dir, e))) {
        await brokenLink(ctx, dir, e);
        return;
      }
      const abs = path.join(dir, e.name);
      const inner = await readDir(ctx, abs);
      if (!inner) return;
      if (inner.some((x) => x.name === 'style.css')) {
        await addTheme(ctx, abs, e.name, inner);
        return;
      }
      let found = 0;
      await Promise.all(
        inner.map(async (s) => {
          if (s.isFile() || (!s.isDirectory() && !s.isSymbolicLink())) return;
          const subAbs = path.join(abs, s.name);
          const subEntries = await readDir(ctx, subAbs);
          if (subEntries && subEntries.some((x) => x.name === 'style.css')) {
            found++;
            await addTheme(ctx, subAbs, `${e.name}/${s.name}`, subEntries);
          }
        }),
      );
      if (found === 0 && !ctx.limit.truncated) {
        // A warning: it leaves a theme of the site uncounted (an uninitialised submodule, most often).
        problem(ctx, abs, l10n.t('Theme folder "{0}" has no style.css: WordPress lists it as a broken theme ("Stylesheet is missing"); not counted.', e.name));
        ctx.brokenThemes.add(ctx.problems[ctx.problems.length - 1]);
      }
    }),
  );
}

async function addTheme(ctx: Ctx, abs: string, stylesheet: string, entries: Dirent[]): Promise<void> {
  const styleFile = path.join(abs, 'style.css');
  const styleEntry = entries.find((x) => x.name === 'style.css');
  const headers = (await ctx.fs.withHead(
    styleFile,
    (buf, why) => {
      if (buf) return parseFileHeaderLocations(buf, THEME_HEADER_NAMES);
      problem(ctx, styleFile, `style.css ${why ?? l10n.t('could not be read')}.`);
      return null;
    },
    styleEntry?.isFile(),
  )) ?? {};
  const slug = lastPathPart(stylesheet);
  const nameLoc = headers['Theme Name'];
  const location = loc(ctx, styleFile, nameLoc, 'theme-header');
  if (!listable(ctx, slug, styleFile, location, l10n.t('Theme folder'))) return;
  const names = new Set(entries.map((x) => x.name));
  let blockTheme = false;
  for (const d of ['templates', 'block-templates']) {
    if (!blockTheme && names.has(d)) blockTheme = await ctx.fs.exists(path.join(abs, d, 'index.html'));
  }
  const c: DetectedComponent = {
    kind: 'theme',
    slug,
    name: nameLoc ? nameLoc.value : null,
    version: headers['Version']?.value ?? null,
    locations: [location],
  };
  if (blockTheme) c.blockTheme = true;
  uriFlags(c, headers, 'Theme URI');
  const tpl = headers['Template'];
  // A theme naming itself as Template is "theme_child_invalid" in WP_Theme: no parent.
  if (tpl && tpl.value !== stylesheet) {
    const parent = lastPathPart(tpl.value);
    const tplLoc = loc(ctx, styleFile, tpl, 'theme-parent');
    if (listable(ctx, parent, styleFile, tplLoc, l10n.t('Parent theme')) && parent !== slug) {
      c.parent = parent;
      ctx.parents.push({ child: c, parent, location: tplLoc });
    }
  }
  ctx.components.push(c);
}

/**
 * Parents named by child themes. A parent installed or declared in the repository is that component (the
 * child's Template line is one more place to hover it); one that is neither (only the child is tracked, a
 * premium parent uploaded by hand) is still part of the site: a component with the source `theme-parent`.
 */
function addParents(ctx: Ctx): void {
  for (const { child, parent, location } of ctx.parents) {
    ctx.components.push({ kind: 'theme', slug: parent, name: null, version: null, locations: [location], parentOf: [child.slug] });
  }
}

// ---- the plugin or theme in a folder (a plugin or theme repository; `.` of .wp-env.json) ---------

/** The plugin or theme a folder's header makes, slugged by its strongest evidence (see selfSlug). */
function selfEntry(kind: ComponentKind, folder: string, file: string, h: Record<string, HeaderMatch>): NonNullable<SelfInfo['plugin']> {
  const uri = h[kind === 'plugin' ? 'Plugin URI' : 'Theme URI']?.value;
  return { slug: selfSlug(kind, folder, { uri, updateUri: h['Update URI']?.value, textDomain: h['Text Domain']?.value }), file, headers: h };
}

function selfInfo(ctx: Ctx, dir: string, entries?: Dirent[]): Promise<SelfInfo> {
  let p = ctx.selfCache.get(dir);
  if (!p) {
    p = readSelf(ctx, dir, entries);
    ctx.selfCache.set(dir, p);
  }
  return p;
}

async function readSelf(ctx: Ctx, dir: string, given?: Dirent[]): Promise<SelfInfo> {
  const entries = given ?? (await readDir(ctx, dir)) ?? [];
  const folder = path.basename(dir);
  const out: SelfInfo = {};
  const headed = await headedPhpFiles(ctx, dir, entries, folder);
  if (headed.length) {
    const main = mainFile(headed, folder + '.php');
    const h = main.headers;
    out.plugin = selfEntry('plugin', folder, main.file, h);
  }
  const style = entries.find((x) => x.name === 'style.css');
  if (style) {
    const file = path.join(dir, 'style.css');
    const h = await headers(ctx, file, THEME_HEADER_NAMES, 'Theme Name', style.isFile());
    if (h && !phpEmpty(h['Theme Name']?.value)) {
      out.theme = selfEntry('theme', folder, file, h);
    }
  }
  return out;
}

/** The repository itself, when it is one plugin (a top-level *.php with Plugin Name) or one theme (style.css with Theme Name). */
async function addSelf(ctx: Ctx, dir: string, entries: Dirent[]): Promise<void> {
  const self = await selfInfo(ctx, dir, entries);
  if (self.plugin || self.theme) {
    const own = addSelfInfo(ctx, self);
    ctx.rootSelf.push(...own);
    ctx.rootOwn.push(...own);
  } else {
    ctx.rootSelf.push(...(await addCollection(ctx, dir, entries)));
  }
}

/**
 * A repository that is a collection (WordPress/community-themes, Automattic/themes: cloned into wp-content/themes;
 * a folder of plugins cloned into wp-content/plugins): each top-level folder with a headed `style.css`, or a headed
 * `<folder>/<folder>.php`, is a theme or plugin under development, slugged as `.` is. Only those two files are read
 * per folder, so a monorepo's `src/` costs nothing; `trunk/`-style folders get their slug from the headers.
 */
async function addCollection(ctx: Ctx, dir: string, entries: Dirent[]): Promise<DetectedComponent[]> {
  const added: DetectedComponent[] = [];
  const candidates = entries.filter((e) => !e.name.startsWith('.') && !SKIP_DIRS.has(e.name) && !TEST_DIRS.has(e.name) && !(e.name in ROLE_DIRS) && e.isDirectory());
  await Promise.all(
    candidates.map(async (e) => {
      const sub = path.join(dir, e.name);
      const out: SelfInfo = {};
      const style = path.join(sub, 'style.css');
      const th = await ctx.fs.withHead(style, (buf) => (buf ? parseFileHeaderLocations(buf, THEME_HEADER_NAMES, 'Theme Name') : null));
      if (th && !phpEmpty(th['Theme Name']?.value)) out.theme = selfEntry('theme', e.name, style, th);
      const main = path.join(sub, e.name + '.php');
      const ph = await ctx.fs.withHead(main, (buf) => (buf ? parseFileHeaderLocations(buf, PLUGIN_HEADER_NAMES, 'Plugin Name') : null));
      if (ph && !phpEmpty(ph['Plugin Name']?.value)) out.plugin = selfEntry('plugin', e.name, main, ph);
      added.push(...addSelfInfo(ctx, out));
    }),
  );
  return added;
}

function addSelfInfo(ctx: Ctx, self: SelfInfo): DetectedComponent[] {
  const added: DetectedComponent[] = [];
  if (self.plugin && listable(ctx, self.plugin.slug, self.plugin.file, undefined, 'Plugin')) {
    const h = self.plugin.headers;
    const c: DetectedComponent = {
      kind: 'plugin',
      slug: self.plugin.slug,
      name: h['Plugin Name'].value,
      version: h['Version']?.value ?? null,
      locations: [loc(ctx, self.plugin.file, h['Plugin Name'], 'plugin-header')],
    };
    ctx.components.push(uriFlags(c, h, 'Plugin URI'));
    added.push(c);
  }
  if (self.theme && listable(ctx, self.theme.slug, self.theme.file, undefined, 'Theme')) {
    const h = self.theme.headers;
    const c: DetectedComponent = {
      kind: 'theme',
      slug: self.theme.slug,
      name: h['Theme Name'].value,
      version: h['Version']?.value ?? null,
      locations: [loc(ctx, self.theme.file, h['Theme Name'], 'theme-header')],
    };
    uriFlags(c, h, 'Theme URI');
    const tpl = h['Template'];
    if (tpl) {
      const parent = lastPathPart(tpl.value);
      const tplLoc = loc(ctx, self.theme.file, tpl, 'theme-parent');
      if (parent !== c.slug && listable(ctx, parent, self.theme.file, tplLoc, l10n.t('Parent theme'))) {
        c.parent = parent;
        ctx.parents.push({ child: c, parent, location: tplLoc });
      }
    }
    ctx.components.push(c);
    added.push(c);
  }
  return added;
}

// ---- content roots and the walk ----------------------------------------------------------------

async function scanRoleDir(ctx: Ctx, dir: string, role: Role): Promise<void> {
  const real = await ctx.fs.realpath(dir);
  if (!real) return;
  if (ctx.roleDirs.has(real)) {
    if (ctx.alreadyScanned) ctx.alreadyScanned.count++;
    return;
  }
  ctx.roleDirs.add(real);
  if (role === 'plugins') await scanPluginsDir(ctx, dir, insideRealRoot(ctx, real));
  else if (role === 'mu-plugins') await scanMuPluginsDir(ctx, dir);
  else await scanThemesDir(ctx, dir);
}

/** wp-content (or Bedrock's web/app, or a VIP repository root): plugins, mu-plugins, client-mu-plugins and themes. */
async function scanContentRoot(ctx: Ctx, dir: string, entries: Dirent[]): Promise<void> {
  const names = new Set(entries.map((e) => e.name));
  await Promise.all(
    Object.entries(ROLE_DIRS)
      .filter(([name]) => names.has(name))
      .map(([name, role]) => scanRoleDir(ctx, path.join(dir, name), role)),
  );
}

/** How many of plugins/, themes/, mu-plugins/ (or client-mu-plugins/) a folder holds. */
function roleDirCount(entries: Dirent[]): number {
  const names = new Set(entries.filter((e) => e.isDirectory() || e.isSymbolicLink()).map((e) => e.name));
  return (names.has('plugins') ? 1 : 0) + (names.has('themes') ? 1 : 0) + (names.has('mu-plugins') || names.has('client-mu-plugins') ? 1 : 0);
}

/**
 * A WordPress content root: `wp-content`, Bedrock's `web/app`, or a folder holding at least two of
 * plugins/, themes/, mu-plugins/ (a repository whose root is wp-content, as WordPress VIP's are). A lone
 * `plugins/` folder (a monorepo's packages) is walked like any other folder. 'named' roots are content roots
 * by their name; 'shape' roots only by what they hold, so they must prove it (see tentativeContentRoot).
 */
function contentRootKind(dir: string, entries: Dirent[]): 'named' | 'shape' | null {
  const name = path.basename(dir);
  if (name === 'wp-content' || (name === 'app' && path.basename(path.dirname(dir)) === 'web')) return 'named';
  return roleDirCount(entries) >= 2 ? 'shape' : null;
}

/** Test fixtures are not the site: WordPress never loads a content root under tests/ or fixtures/. */
const TEST_DIRS = new Set(['tests', 'test', '__tests__', 'fixtures', '__fixtures__', 'testdata']);

function underTests(ctx: Ctx, dir: string): boolean {
  return path.relative(ctx.root, dir).split(path.sep).some((part) => TEST_DIRS.has(part));
}

/** A WordPress core copy (wp-admin and wp-includes side by side): its own folders hold no site content. */
function coreDirsOf(entries: Dirent[]): ReadonlySet<string> {
  const dirs = new Set(entries.filter((e) => e.isDirectory()).map((e) => e.name));
  return dirs.has('wp-admin') && dirs.has('wp-includes') ? new Set(['wp-admin', 'wp-includes']) : new Set();
}

/**
 * A folder that holds plugins/ and themes/ is a content root only when they hold a plugin or a theme: TinyMCE's
 * `js/tinymce/{plugins,themes}` or an API's `translations/{plugins,themes}` do not, and reading them as WordPress
 * folders would report their sub-folders as broken themes. Scanned into a view of the context with its own
 * findings, kept when it found a component.
 */
async function tentativeContentRoot(ctx: Ctx, dir: string, entries: Dirent[]): Promise<boolean> {
  const trial: Ctx = { ...ctx, components: [], problems: [], parents: [], unloadedMu: [], alreadyScanned: { count: 0 } };
  await scanContentRoot(trial, dir, entries);
  ctx.parents.push(...trial.parents);
  ctx.components.push(...trial.components);
  // A role folder scanned elsewhere (the same real folder reached through a symlink) proves it as well.
  const proven = trial.components.length > 0 || trial.alreadyScanned!.count > 0;
  if (proven) ctx.unloadedMu.push(...trial.unloadedMu);
  // Not a content root: its "broken theme" problems and notes are noise, but a file that could not be read is still said.
  ctx.problems.push(...(proven ? trial.problems : trial.problems.filter((p) => p.severity !== 'info' && !ctx.brokenThemes.has(p))));
  return proven;
}

async function readConfig(ctx: Ctx, file: string): Promise<string | null> {
  checkAbort(ctx);
  const r = await ctx.fs.readText(file, MAX_CONFIG_BYTES);
  if (r.text === null) {
    problem(ctx, file, l10n.t('{0} {1}. WP Bench did not read what it declares.', path.basename(file), r.why));
    return null;
  }
  return r.text.replace(/^\uFEFF/, '');
}

/** Adds one file's findings; a parser that throws loses that file only, with a problem. */
function collect(ctx: Ctx, file: string, parse: () => { components: DetectedComponent[]; problems: ScanProblem[] }): void {
  try {
    const r = parse();
    for (const c of r.components) ctx.components.push(c);
    for (const p of r.problems) ctx.problems.push(p);
  } catch (err) {
    problem(ctx, file, l10n.t('{0} could not be read: {1}; the rest of the scan goes on.', path.basename(file), (err as Error).message));
  }
}

/** composer.json and composer.lock of one folder, together: the lock gives types and versions, composer.json the install paths. */
async function readComposerPair(ctx: Ctx, dir: string, names: Set<string>): Promise<void> {
  const jsonFile = path.join(dir, 'composer.json');
  const lockFile = path.join(dir, 'composer.lock');
  const [json, lock] = await Promise.all([
    names.has('composer.json') ? readConfig(ctx, jsonFile) : null,
    names.has('composer.lock') ? readConfig(ctx, lockFile) : null,
  ]);
  if (json === null && lock === null) return;
  let installerPaths: InstallerPath[] = [];
  let coreDir: string | null = null;
  collect(ctx, json !== null ? jsonFile : lockFile, () => {
    const r = analyzeComposer(json !== null ? { text: json, file: rel(ctx, jsonFile) } : null, lock !== null ? { text: lock, file: rel(ctx, lockFile) } : null);
    installerPaths = r.installerPaths;
    coreDir = r.coreDir;
    return r;
  });
  for (const ip of installerPaths) {
    if (ip.dir === null || (ip.role !== 'plugins' && ip.role !== 'mu-plugins' && ip.role !== 'themes')) continue;
    const target = path.resolve(dir, ip.dir);
    if (!insideRoot(ctx, target) || path.isAbsolute(ip.dir)) {
      problem(ctx, jsonFile, l10n.t('extra.installer-paths "{0}" points outside the repository; that folder was not scanned.', ip.pattern), ip);
      continue;
    }
    ctx.noWalk.add(target);
    ctx.installerTargets.push({ dir: target, role: ip.role });
  }
  // Core installed by Composer: its wp-content (bundled akismet, hello.php, default themes) is not the site's.
  if (coreDir !== null) ctx.noWalk.add(path.resolve(dir, coreDir));
}

async function readWpEnv(ctx: Ctx, dir: string, name: string): Promise<void> {
  const file = path.join(dir, name);
  const text = await readConfig(ctx, file);
  if (text === null) return;
  // `.` is the plugin or theme in this folder; its slug comes from its headers when it has them.
  const self = /"\.\/?"/.test(text) ? await selfInfo(ctx, dir) : {};
  const folderSlug = selfSlug('plugin', path.basename(dir), {});
  let local: ReturnType<typeof parseWpEnv>['local'] = [];
  let mounts: ReturnType<typeof parseWpEnv>['mounts'] = [];
  collect(ctx, file, () => {
    const r = parseWpEnv(text, rel(ctx, file), { plugin: self.plugin?.slug ?? folderSlug, theme: self.theme?.slug ?? folderSlug });
    local = r.local;
    mounts = r.mounts;
    if (dir === ctx.root) {
      ctx.rootInstalls.push(...r.selfInstalls);
      ctx.rootEntries.push(...r.selfEntries);
    }
    return r;
  });
  // `"wp-content/mu-plugins": "./e2e/mu-plugins"`: that folder is scanned as WordPress's own (after the walk).
  for (const m of mounts) {
    const abs = path.resolve(dir, m.path);
    if (!insideRoot(ctx, abs)) continue;
    ctx.installerTargets.push({ dir: abs, role: m.role });
    if (abs === ctx.root) ctx.rootMounted = true;
  }
  await Promise.all(local.map((l) => readLocalSource(ctx, dir, l.component, l.path)));
}

/**
 * A wp-env source that is a folder or file of this repository (`./plugins/auto-sizes`, a mapped `test-plugin.php`):
 * its header gives the name and version, and an Update URI elsewhere marks it as not the wordpress.org item, as for
 * an installed plugin. A path that is not there yet (Composer or a build makes it; wporg-main-2022's
 * `./source/wp-content/plugins/*`) keeps what the entry says.
 */
async function readLocalSource(ctx: Ctx, dir: string, c: DetectedComponent, relPath: string): Promise<void> {
  const abs = path.resolve(dir, relPath);
  if (!insideRoot(ctx, abs)) return;
  let found: { file: string; headers: Record<string, HeaderMatch> } | undefined;
  if (await ctx.fs.isDirectory(abs)) {
    const info = await selfInfo(ctx, abs);
    found = c.kind === 'plugin' ? info.plugin : info.theme;
  } else if (c.kind === 'plugin' && abs.endsWith('.php') && (await ctx.fs.exists(abs))) {
    found = (await readPluginHeaders(ctx, abs)) ?? undefined;
  }
  if (!found) return;
  const nameHeader = c.kind === 'plugin' ? 'Plugin Name' : 'Theme Name';
  c.name = found.headers[nameHeader]?.value || c.name;
  c.version = found.headers['Version']?.value || c.version;
  uriFlags(c, found.headers, c.kind === 'plugin' ? 'Plugin URI' : 'Theme URI');
}

async function readBlueprint(ctx: Ctx, file: string): Promise<void> {
  const text = await readConfig(ctx, file);
  if (text !== null) collect(ctx, file, () => parseBlueprint(text, rel(ctx, file)));
}

const isDeclarationFile = (name: string) => name === 'composer.json' || name === 'composer.lock' || WP_ENV_FILES.has(name) || isBlueprintFile(name);

/** Declarations of one folder, read before its sub-folders are walked (they may exclude some of them). */
async function readDeclarations(ctx: Ctx, dir: string, entries: Dirent[]): Promise<void> {
  const names = new Set<string>();
  for (const e of entries) {
    if (e.isDirectory()) continue;
    if (e.isSymbolicLink() && isDeclarationFile(e.name)) {
      const real = await ctx.fs.realpath(path.join(dir, e.name));
      if (real && !insideRealRoot(ctx, real)) {
        outsideLink(ctx, path.join(dir, e.name), false);
        continue;
      }
    }
    names.add(e.name);
  }
  const jobs: Promise<void>[] = [];
  if (names.has('composer.json') || names.has('composer.lock')) jobs.push(readComposerPair(ctx, dir, names));
  for (const n of names) {
    if (WP_ENV_FILES.has(n)) jobs.push(readWpEnv(ctx, dir, n));
    else if (isBlueprintFile(n)) jobs.push(readBlueprint(ctx, path.join(dir, n)));
  }
  await Promise.all(jobs);
}

async function walk(ctx: Ctx, dir: string, real: string, entries: Dirent[] | null, skip: ReadonlySet<string> = new Set()): Promise<void> {
  if (!entries) return;
  await readDeclarations(ctx, dir, entries);
  const core = coreDirsOf(entries);
  await Promise.all(
    entries.map(async (e) => {
      if (skip.has(e.name) || SKIP_DIRS.has(e.name) || core.has(e.name)) return;
      const abs = path.join(dir, e.name);
      if (ctx.noWalk.has(abs)) return;
      let childReal: string | null = path.join(real, e.name);
      if (e.isSymbolicLink()) {
        if (!(await isDirEntry(ctx, dir, e))) return;
        childReal = await ctx.fs.realpath(abs); // followed once: the real path is remembered below
        if (childReal && !insideRealRoot(ctx, childReal)) {
          outsideLink(ctx, abs, true);
          return;
        }
      } else if (!e.isDirectory()) {
        return;
      }
      if (!childReal || ctx.walked.has(childReal)) return;
      ctx.walked.add(childReal);
      const sub = await readDir(ctx, abs);
      if (!sub) return;
      const kind = underTests(ctx, abs) ? null : contentRootKind(abs, sub);
      if (kind === 'named') await scanContentRoot(ctx, abs, sub);
      else if (!(kind === 'shape' && (await tentativeContentRoot(ctx, abs, sub)))) await walk(ctx, abs, childReal, sub);
    }),
  );
}

/**
 * Locations in files found on disk (a child theme's Template line included, and VIP loader calls), as opposed to
 * declaration files: a file of these reached through a link to outside the workspace is private to someone else.
 */
const HEADER_SOURCES: ReadonlySet<ComponentLocation['source']> = new Set(['plugin-header', 'theme-header', 'mu-plugin', 'theme-parent', 'vip-load-plugin']);

/**
 * A plugin or theme folder inside plugins/ or themes/ may be a link, and WordPress reads it: so is it read here, and
 * so is a VIP loader reached through a link. One whose headers (or loader calls) all lie outside the workspace is
 * flagged: not looked up without the user's say, its name may be private. Said by outsideNotes, after the merge.
 */
async function markOutside(ctx: Ctx): Promise<void> {
  await eachLimit(ctx.components, ctx.fs.parallel, async (c) => {
    const files = c.locations.filter((l) => HEADER_SOURCES.has(l.source)).map((l) => path.join(ctx.root, ...l.file.split('/')));
    if (files.length === 0 || files.some((f) => ctx.readInside.has(f))) return;
    const reals = await Promise.all(files.map((f) => ctx.fs.realpath(f)));
    if (reals.every((r) => r !== null && !insideRealRoot(ctx, r))) c.outsideWorkspace = true;
  });
}

/**
 * One note per component that is still flagged once every source is merged: a plugin that Composer (or a file inside
 * the workspace) declares as well is looked up, and is not said to be otherwise.
 */
function outsideNotes(ctx: Ctx, merged: DetectedComponent[]): void {
  for (const c of merged) {
    if (c.outsideWorkspace !== true) continue;
    const at = c.locations.find((l) => HEADER_SOURCES.has(l.source) && l.source !== 'vip-load-plugin') ?? c.locations.find((l) => HEADER_SOURCES.has(l.source));
    if (!at) continue;
    const file = path.join(ctx.root, ...at.file.split('/'));
    const message =
      at.source === 'vip-load-plugin'
        ? l10n.t('Plugin "{0}" is declared by wpcom_vip_load_plugin() in a file outside the workspace (reached through a symbolic link): listed, not looked up unless you ask.', c.slug)
        : c.kind === 'plugin'
          ? l10n.t('Plugin "{0}" is read through a symbolic link to a folder outside the workspace: listed, not looked up unless you ask.', c.slug)
          : l10n.t('Theme "{0}" is read through a symbolic link to a folder outside the workspace: listed, not looked up unless you ask.', c.slug);
    problem(ctx, file, message, at.source === 'vip-load-plugin' ? at : undefined, { severity: 'info' });
  }
}

function newCtx(absRoot: string, options: ScanOptions): Ctx {
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

/** The slugs `.` stands for in a .wp-env.json of `dir` (as a plugin, as a theme): see selfSlug. */
export async function selfSlugsOf(dir: string): Promise<{ plugin: string; theme: string }> {
  const ctx = newCtx(path.resolve(dir), { io: 'async', concurrency: 8 });
  const self = await selfInfo(ctx, ctx.root);
  const folderSlug = selfSlug('plugin', path.basename(ctx.root), {});
  return { plugin: self.plugin?.slug ?? folderSlug, theme: self.theme?.slug ?? folderSlug };
}

/**
 * Finds plugins and themes under `root`: every content root (wp-content, Bedrock web/app, a folder with two
 * of plugins/themes/mu-plugins), composer.json / composer.lock, .wp-env.json and blueprint files outside
 * vendor and node_modules, the folders named by composer `extra.installer-paths`, and the root itself when
 * it is a plugin or a theme. A Composer-installed WordPress core's own wp-content is left out.
 */
export async function scanWorkspace(root: string, options: ScanOptions = {}): Promise<ScanResult> {
  const absRoot = path.resolve(root);
  const ctx = newCtx(absRoot, options);
  checkAbort(ctx);
  const realRoot = (await ctx.fs.realpath(absRoot)) ?? absRoot;
  ctx.realRoot = realRoot;
  ctx.walked.add(realRoot);

  const rootEntries = await ctx.fs.readdir(absRoot); // not counted against maxFiles
  if (!rootEntries) {
    problem(ctx, absRoot, l10n.t('The folder could not be read.'));
  } else if (path.basename(absRoot) === 'wp-content' || roleDirCount(rootEntries) >= 2) {
    // The root is a content root (a wp-content folder, a VIP repository): its role folders, and the rest walked.
    await Promise.all([scanContentRoot(ctx, absRoot, rootEntries), walk(ctx, absRoot, realRoot, rootEntries, new Set(Object.keys(ROLE_DIRS)))]);
  } else {
    await Promise.all([addSelf(ctx, absRoot, rootEntries), walk(ctx, absRoot, realRoot, rootEntries)]);
  }
  // extra.installer-paths targets (relative to each composer.json).
  await Promise.all(ctx.installerTargets.map((t) => scanRoleDir(ctx, t.dir, t.role)));
  checkAbort(ctx);
  // A root that wp-env mounts as mu-plugins is that folder, not one plugin named after the checkout.
  if (ctx.rootMounted) ctx.components = ctx.components.filter((c) => !ctx.rootSelf.includes(c));
  // The root's own .wp-env.json says under which folder name WordPress sees it: that is its slug, stronger than a
  // Text Domain (WordPress/performance: the monorepo header's Text Domain is performance-lab, a real plugin beside it).
  // Not when a wordpress.org URI names the item (that is the item looked up), nor for a child theme installed
  // under its parent's name; the `"."` entries of the same file follow.
  for (const c of ctx.rootOwn) {
    const names = [...new Set(ctx.rootInstalls.filter((i) => i.kind === c.kind).map((i) => i.slug))];
    if (names.length !== 1 || c.wordpressOrgUri === true || names[0] === c.parent) continue;
    for (const e of ctx.rootEntries) if (e.kind === c.kind && e.slug === c.slug) e.slug = names[0];
    c.slug = names[0];
  }
  settleUnloadedMu(ctx);
  addParents(ctx);
  await markOutside(ctx);
  const merged = mergeComponents(ctx.components);
  outsideNotes(ctx, merged);

  return {
    root: absRoot,
    components: decideLookups(merged),
    problems: normalizeProblems([...ctx.problems, ...ctx.limit.problems]),
    stats: ctx.stats,
  };
}

export type { ComponentKind };
