// component/: what PATH is (this file), the one walk over its files that copies, hashes and reads it (tree.ts), and
// text that comes from it made safe to print (measuredText.ts). May import php/ and the scanner's header and PHP
// readers (src/core/scan); nothing above it.
//
// What PATH is: a plugin folder or its main PHP file, whatever that file is called (the folder is measured), a
// single-file plugin (a PHP file directly in plugins/), a must-use plugin (a file of a mu-plugins folder, or a
// sub-folder of one with the file that loads it) or a theme folder (a child theme with its parent). Decided from the
// headers WordPress itself reads (src/core/scan), before anything is installed or started.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { HEADER_BYTES, PLUGIN_HEADER_NAMES, THEME_HEADER_NAMES, parseFileHeaders } from '../../scan/headers';
import { loadedSubFolders, phpTokens } from '../../scan/php';
import { pluginFileSlug } from '../../scan/text';
import { isWordPressOrgSlug } from '../../model';
import { MAX_LOADER_BYTES } from '../../scan/muplugins';
import { OWN_MU_PLUGINS } from '../php/phpFiles';
import { SKIP_NAMES, isInside, readHead, throwIfAborted } from './tree';

export interface MeasuredComponent {
  kind: 'plugin' | 'theme';
  slug: string;
  name: string;
  version: string | null;
  /** Absolute folder or file that is copied into the throwaway site. */
  source: string;
  /** A single-file plugin (copied as plugins/FILE) rather than a folder. */
  singleFile: boolean;
  /** plugin: main file inside the copied folder (or the file itself); theme: style.css */
  mainFile: string;
  /** theme: parent theme folder name (Template header), when a child theme */
  template: string | null;
  /** a child theme's parent theme, found beside it (WordPress runs a child theme on its parent); null otherwise */
  parent: ParentTheme | null;
  /**
   * A must-use plugin (a .php file of a mu-plugins folder, header or not): WordPress loads it on every request from
   * wp-content/mu-plugins, never through activate_plugin(). `source` is that file (singleFile), `muFolders` the
   * sub-folders of the mu-plugins folder it loads, copied beside it.
   */
  mustUse?: boolean;
  muFolders?: string[];
  /** a must-use plugin given as a sub-folder of mu-plugins (measured with its loader): that folder's name */
  muScope?: string | null;
  /** what may make the measurement differ from the installed component (shown with the result) */
  warnings?: string[];
  /** a plugin's `Requires Plugins:` header (WordPress 6.5+): the wordpress.org slugs of the plugins it needs */
  requires?: string[];
}

/** A child theme's parent: the folder its Template header names, beside the child. */
export interface ParentTheme {
  /** the folder name (the Template header), as WordPress names the theme */
  slug: string;
  name: string;
  version: string | null;
  /** the absolute folder copied into the site beside the child */
  source: string;
}

export class ComponentNotFoundError extends Error {}
/** A component is there, but not what WordPress needs to load it (exit 2, before anything is installed). */
export class ComponentLoadingError extends ComponentNotFoundError {}
/** A child theme whose parent theme is not beside it. */
export class ParentThemeMissingError extends ComponentLoadingError {}

export interface DetectOptions {
  /**
   * The working tree's component, when detecting its `--baseline-ref` copy (a snapshot of only the component's own
   * folder, or of the mu-plugins folder): a child theme's parent is looked up beside the working tree's child (the
   * parent is not what the comparison is about), and a must-use plugin's file is read as one (the snapshot's folder
   * is not named mu-plugins) with the same scope.
   */
  like?: MeasuredComponent;
}

/** The folder WordPress loads must-use plugins from (WPMU_PLUGIN_DIR's default name). */
const MU_PLUGINS = 'mu-plugins';
/** Loader code is read up to this size (what it loads is found in its string literals). */

/**
 * The first HEADER_BYTES of a regular file; null for anything else (a FIFO's open() would block for good, a device
 * never ends) and, with `within` (a real folder path), for a link out of that folder: the copy leaves those out.
 */
async function head(file: string, within?: string, signal?: AbortSignal): Promise<Buffer | null> {
  throwIfAborted(signal);
  if (within !== undefined) {
    const real = await fs.realpath(file).catch(() => undefined);
    if (!real || !isInside(within, real)) return null;
  }
  return readHead(file, HEADER_BYTES);
}

/** The headers read from a plugin's main file: the scan's, and the parents an add-on needs (WordPress 6.5+). */
const MEASURED_PLUGIN_HEADERS = [...PLUGIN_HEADER_NAMES, 'Requires Plugins'];

async function pluginHeader(file: string, within?: string, signal?: AbortSignal): Promise<Record<string, string> | null> {
  const bytes = await head(file, within, signal);
  if (!bytes) return null;
  const h = parseFileHeaders(bytes, MEASURED_PLUGIN_HEADERS);
  return h['Plugin Name'] ? h : null;
}

/**
 * The `Requires Plugins:` header as WordPress 6.5+ reads it (WP_Plugin_Dependencies::sanitize_dependency_slugs()):
 * comma-separated wordpress.org slugs, anything else dropped, each once, sorted.
 */
export function requiredPlugins(header: string): string[] {
  return [...new Set(header.split(',').map((s) => s.trim()).filter(isWordPressOrgSlug))].sort();
}

function requiresOf(h: Record<string, string>): Pick<MeasuredComponent, 'requires'> {
  const r = requiredPlugins(h['Requires Plugins'] ?? '');
  return r.length ? { requires: r } : {};
}

/**
 * A plugin's PHP file given as PATH is a single-file plugin when it is directly in a folder named plugins (get_plugins()
 * lists it so), or alone in a folder outside one (nothing else there to load; as before); in any other folder it is
 * that folder's main file: WordPress loads the folder (plugins/<folder>/<any name>.php), whatever the file is called.
 */
async function singleFilePlugin(file: string): Promise<boolean> {
  const dir = path.dirname(file);
  if (path.basename(dir) === 'plugins') return true;
  if (path.basename(path.dirname(dir)) === 'plugins') return false;
  if (slugOf(path.basename(dir)) === slugOf(path.basename(file))) return false;
  const others = (await fs.readdir(dir)).filter((e) => e !== path.basename(file) && !e.startsWith('.') && !SKIP_NAMES.has(e));
  return others.length === 0;
}

function slugOf(name: string): string {
  return name.replace(/\.php$/i, '').toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'component';
}

/** A source checkout that needs a build step WordPress does not run: composer.json without vendor/. */
/** Not packages a plugin loads from vendor/ at run time: the platform, Composer's own APIs and its installers plugin. */
const NOT_RUNTIME = /^(php|php-64bit|hhvm|ext-.*|lib-.*|composer-plugin-api|composer-runtime-api|composer\/installers|roots\/wordpress-core-installer)$/i;

/**
 * What composer.json puts into vendor/ for run time: the packages of `require` (not `require-dev`: tests and tools),
 * and the project's own autoloader when it has an `autoload` section. A file that cannot be read as JSON counts as
 * needing vendor/ (null: the warning stays, saying so).
 */
export async function runtimePackages(file: string): Promise<string[] | null> {
  try {
    const st = await fs.stat(file);
    if (!st.isFile() || st.size > 1024 * 1024) return null;
    const j = JSON.parse(await fs.readFile(file, 'utf8')) as { require?: unknown; autoload?: unknown };
    const req = j && typeof j === 'object' && j.require && typeof j.require === 'object' ? Object.keys(j.require as object) : [];
    const out = req.filter((n) => !NOT_RUNTIME.test(n));
    // Its own autoloader (Query Monitor's classmap): the code loads vendor/autoload.php even with no package to install.
    const auto = j && typeof j === 'object' && j.autoload && typeof j.autoload === 'object' ? Object.keys(j.autoload as object) : [];
    if (auto.length) out.push(`its own autoloader (${auto.join(', ')})`);
    return out;
  } catch {
    return null;
  }
}

async function buildWarnings(c: MeasuredComponent): Promise<MeasuredComponent> {
  const roots = c.mustUse ? (c.muFolders ?? []).map((f) => path.join(path.dirname(c.source), f)) : c.singleFile ? [] : [c.source];
  for (const root of roots) {
    const has = (f: string) => fs.stat(path.join(root, f)).then(() => true, () => false);
    if ((await has('composer.json')) && !(await has('vendor'))) {
      const needs = await runtimePackages(path.join(root, 'composer.json'));
      if (needs?.length === 0) continue;
      const what = needs ? `composer.json requires ${needs.slice(0, 3).join(', ')}${needs.length > 3 ? ` and ${needs.length - 3} more` : ''}` : 'composer.json (not readable as JSON)';
      c.warnings = [`${what} but there is no vendor/ folder: a source checkout without \`composer install\` may load less than the installed component`];
      break;
    }
  }
  return c;
}

/** The progress line saying how WordPress loads what is measured (a child theme on its parent, a must-use plugin). */
export function loadingLine(c: MeasuredComponent): string | undefined {
  if (c.kind === 'theme' && c.parent) {
    return `measuring child theme ${c.name} with its parent ${c.parent.name}${c.parent.version ? ` ${c.parent.version}` : ''} (from ${c.parent.source})`;
  }
  if (c.mustUse) {
    const folders = c.muFolders?.length ? ` with ${c.muFolders.map((f) => `${f}/`).join(', ')}` : '';
    const files = c.name === c.mainFile && !folders ? '' : ` (${c.mainFile}${folders})`;
    return `measuring must-use plugin ${c.name}${files} as WordPress loads it: from wp-content/mu-plugins on every request, no activation`;
  }
  return undefined;
}

/**
 * Finds the component at p, or throws ComponentNotFoundError saying what was looked for. Reads only the first bytes
 * of regular files (never opens a FIFO or a device); rejects with the signal's reason when it aborts.
 */
export async function detectComponent(p: string, signal?: AbortSignal, opts: DetectOptions = {}): Promise<MeasuredComponent> {
  const c = await findComponent(p, signal, opts);
  throwIfAborted(signal);
  return buildWarnings(c);
}

async function findComponent(p: string, signal: AbortSignal | undefined, opts: DetectOptions): Promise<MeasuredComponent> {
  throwIfAborted(signal);
  const abs = path.resolve(p);
  const st = await fs.stat(abs).catch(() => null);
  if (!st) throw new ComponentNotFoundError(`${abs} does not exist (looked for a plugin folder, a plugin's PHP file or a theme folder)`);
  if (st.isFile()) {
    if (!/\.php$/i.test(abs)) throw new ComponentNotFoundError(`${abs} is not a PHP file (looked for a "Plugin Name:" header in a .php file)`);
    const dir = path.dirname(abs);
    // Must-use plugins: a file of a mu-plugins folder (header or not); a file of a sub-folder stands for the folder.
    if (opts.like?.mustUse) return mustUseFromLoader(dir, abs, opts.like.muScope ?? null, signal);
    if (path.basename(dir) === MU_PLUGINS) return mustUseFromLoader(dir, abs, null, signal);
    if (path.basename(path.dirname(dir)) === MU_PLUGINS) return mustUseFromFolder(path.dirname(dir), path.basename(dir), signal);
    const h = await pluginHeader(abs, undefined, signal);
    if (!h) throw new ComponentNotFoundError(`${abs} has no "Plugin Name:" header in its first 8 KiB`);
    // As get_plugins() finds it: a PHP file directly in plugins/ is a single-file plugin; one in a folder is that
    // folder's main file, whatever it is called (facetwp/index.php), and WordPress loads the whole folder.
    const single = opts.like?.kind === 'plugin' && !opts.like.mustUse ? opts.like.singleFile : await singleFilePlugin(abs);
    const folder = path.basename(dir);
    return {
      kind: 'plugin',
      // A single file's slug as WordPress.org names it (hello.php is hello-dolly).
      slug: slugOf(single ? pluginFileSlug(path.basename(abs)) : folder),
      name: h['Plugin Name'],
      version: h.Version || null,
      source: single ? abs : dir,
      singleFile: single,
      mainFile: path.basename(abs),
      template: null,
      parent: null,
      ...requiresOf(h),
    };
  }
  if (!st.isDirectory()) throw new ComponentNotFoundError(`${abs} is neither a file nor a folder`);
  // A sub-folder of mu-plugins: WordPress never loads it by itself; its loader does.
  if (path.basename(path.dirname(abs)) === MU_PLUGINS) return mustUseFromFolder(path.dirname(abs), path.basename(abs), signal);
  const entries = await fs.readdir(abs);
  // Only what the copy takes: regular files, or links that stay inside the folder.
  const real = await fs.realpath(abs);
  // WordPress reads plugin headers from the PHP files at the top of a plugin's folder, in name order; the main file is
  // <folder>.php when it has one (as the scan names the plugin), or the working tree's for a --baseline-ref snapshot.
  const preferred = opts.like?.kind === 'plugin' && !opts.like.singleFile ? opts.like.mainFile : `${path.basename(abs)}.php`;
  const phpFiles = entries.filter((e) => /\.php$/i.test(e)).sort();
  for (const f of [...phpFiles.filter((e) => e === preferred), ...phpFiles.filter((e) => e !== preferred)]) {
    const h = await pluginHeader(path.join(abs, f), real, signal);
    if (h) {
      return { kind: 'plugin', slug: slugOf(path.basename(abs)), name: h['Plugin Name'], version: h.Version || null, source: abs, singleFile: false, mainFile: f, template: null, parent: null, ...requiresOf(h) };
    }
  }
  if (entries.includes('style.css')) {
    const bytes = await head(path.join(abs, 'style.css'), real, signal);
    const h = bytes ? parseFileHeaders(bytes, THEME_HEADER_NAMES) : null;
    if (h && h['Theme Name']) {
      const template = h.Template || null;
      const slug = slugOf(path.basename(abs));
      // A child theme (Template names another folder): WordPress runs it on its parent, so the parent is measured
      // with it. A --baseline-ref snapshot holds only the child: its parent is the working tree's.
      const child = template !== null && template !== slug && template !== path.basename(abs);
      const beside = opts.like?.kind === 'theme' ? path.dirname(opts.like.source) : path.dirname(abs);
      const parent = child ? await parentTheme(h['Theme Name'], template, beside, signal) : null;
      return { kind: 'theme', slug, name: h['Theme Name'], version: h.Version || null, source: abs, singleFile: false, mainFile: 'style.css', template, parent };
    }
  }
  throw new ComponentNotFoundError(
    `no plugin or theme in ${abs}: looked for a "Plugin Name:" header in its top-level .php files and a "Theme Name:" header in style.css`,
  );
}

/**
 * The parent theme a child theme's Template header names, beside the child (where WordPress looks: the same themes
 * folder). Only a plain folder name is looked up (never a path such as ../../.ssh). A missing parent is its own error.
 */
async function parentTheme(childName: string, template: string, beside: string, signal?: AbortSignal): Promise<ParentTheme> {
  const needs = `the child theme "${childName}" needs its parent theme "${template}" (its Template: header)`;
  if (/[\\/\0]/.test(template) || template === '.' || template === '..') {
    throw new ParentThemeMissingError(`${needs}, which is not a folder name: WordPress looks for the parent theme's folder beside the child, in ${beside}`);
  }
  const dir = path.join(beside, template);
  const st = await fs.stat(dir).catch(() => null);
  if (!st?.isDirectory()) throw new ParentThemeMissingError(`${needs}, which is not beside it in ${beside}: put the parent theme's folder there (${dir})`);
  const real = await fs.realpath(dir);
  const bytes = await head(path.join(dir, 'style.css'), real, signal);
  const h = bytes ? parseFileHeaders(bytes, THEME_HEADER_NAMES) : null;
  if (!h?.['Theme Name']) throw new ParentThemeMissingError(`${needs}, but ${dir} has no style.css with a "Theme Name:" header: put the parent theme's folder there`);
  return { slug: template, name: h['Theme Name'], version: h.Version || null, source: dir };
}

/** Which sub-folders a must-use plugin file loads (src/core/scan/php.ts: require/include with strings naming them; a glob or Bedrock's autoloader: all). */
async function loaderLoads(file: string, signal?: AbortSignal): Promise<{ all: boolean; folders: Set<string> }> {
  throwIfAborted(signal);
  const bytes = await readHead(file, MAX_LOADER_BYTES);
  if (!bytes) return { all: false, folders: new Set() };
  const tokens = phpTokens(bytes.toString('utf8'));
  const loads = loadedSubFolders(tokens);
  // Only strings that are paths ('/acme/', "acme/acme.php"): a text domain 'acme' names no folder.
  const inPaths = new Set(tokens.filter((t) => t.kind === 'string' && t.value.includes('/')).flatMap((t) => t.value.split('/')));
  return { all: loads.all, folders: new Set([...loads.folders].filter((f) => inPaths.has(f))) };
}

/** The sub-folders of a mu-plugins folder that may be copied: folders inside it (a link out of it is not), no .-names, no .git or node_modules. */
async function muSubFolders(muDir: string): Promise<string[]> {
  const real = await fs.realpath(muDir);
  const out: string[] = [];
  for (const e of (await fs.readdir(muDir)).sort()) {
    if (e.startsWith('.') || SKIP_NAMES.has(e)) continue;
    const p = path.join(muDir, e);
    const st = await fs.stat(p).catch(() => null);
    if (!st?.isDirectory()) continue;
    const r = await fs.realpath(p).catch(() => undefined);
    if (r && r !== real && isInside(real, r)) out.push(e);
  }
  return out;
}

/** get_mu_plugins(): every top-level `*.php` entry of the folder that is a file. */
async function muFiles(muDir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of (await fs.readdir(muDir)).filter((f) => f.endsWith('.php')).sort()) {
    const st = await fs.stat(path.join(muDir, e)).catch(() => null);
    if (st?.isFile()) out.push(e);
  }
  return out;
}

/**
 * A must-use plugin file (header or not) and the sub-folders of its mu-plugins folder that its code names (string
 * literals such as '/acme/acme.php' in a require; all of them for a glob or Bedrock's autoloader, or only `scope`
 * when the folder was given). Named as get_mu_plugins() names it: the Plugin Name header, else the file name.
 */
async function mustUseFromLoader(muDir: string, file: string, scope: string | null, signal?: AbortSignal): Promise<MeasuredComponent> {
  const base = path.basename(file);
  if ((Object.values(OWN_MU_PLUGINS) as string[]).includes(base)) {
    throw new ComponentNotFoundError(`${file} has the name of one of WP Bench's own must-use plugins (${base}): rename it to measure it`);
  }
  const h = await pluginHeader(file, undefined, signal);
  const loads = await loaderLoads(file, signal);
  const siblings = await muSubFolders(muDir);
  let folders = siblings.filter((f) => loads.folders.has(f));
  if (loads.all && !scope) folders = siblings;
  if (scope && siblings.includes(scope) && !folders.includes(scope)) folders.push(scope);
  folders.sort();
  let name = h?.['Plugin Name'] || base;
  let version = h?.Version || null;
  if (scope) {
    // Named after the folder's own plugin header (as get_plugins() reads a plugin folder), else the loader's.
    const dir = path.join(muDir, scope);
    const real = await fs.realpath(dir).catch(() => undefined);
    const main = real ? await folderPluginHeader(dir, real, signal) : null;
    name = main?.['Plugin Name'] || h?.['Plugin Name'] || scope;
    version = main ? main.Version || null : version;
  }
  return {
    kind: 'plugin',
    slug: slugOf(scope ?? pluginFileSlug(base)),
    name,
    version,
    source: file,
    singleFile: true,
    mainFile: base,
    template: null,
    parent: null,
    mustUse: true,
    muFolders: folders,
    muScope: scope,
  };
}

async function folderPluginHeader(dir: string, real: string, signal?: AbortSignal): Promise<Record<string, string> | null> {
  for (const f of (await fs.readdir(dir)).filter((e) => /\.php$/i.test(e)).sort()) {
    const h = await pluginHeader(path.join(dir, f), real, signal);
    if (h) return h;
  }
  return null;
}

/**
 * A sub-folder of a mu-plugins folder given as PATH: WordPress never loads it by itself, a top-level file that names
 * it does (`require __DIR__ . '/acme/acme.php';`). Exactly one such loader: measured with it; none or several: an
 * error naming what to pass.
 */
async function mustUseFromFolder(muDir: string, folder: string, signal?: AbortSignal): Promise<MeasuredComponent> {
  const loaders: string[] = [];
  for (const f of await muFiles(muDir)) {
    const loads = await loaderLoads(path.join(muDir, f), signal);
    if (loads.folders.has(folder) || loads.all) loaders.push(f);
  }
  if (loaders.length === 0) {
    throw new ComponentLoadingError(
      `${path.join(muDir, folder)} is a sub-folder of ${muDir}, which WordPress never loads by itself, and no top-level .php file there loads it (such as require __DIR__ . '/${folder}/${folder}.php';): pass the file that loads it (its loader)`,
    );
  }
  if (loaders.length > 1) {
    throw new ComponentLoadingError(
      `${path.join(muDir, folder)} is loaded by ${loaders.length} top-level files of ${muDir} (${loaders.join(', ')}): pass the loader to measure, e.g. ${path.join(muDir, loaders[0])}`,
    );
  }
  return mustUseFromLoader(muDir, path.join(muDir, loaders[0]), folder, signal);
}
