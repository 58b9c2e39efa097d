// Declaration files found by the walk: composer.json / composer.lock (with extra.installer-paths and a Composer-
// installed core), .wp-env.json (local sources, mounted folders, `.`) and Playground blueprints. The parsers are
// composer.ts, wpenv.ts and blueprint.ts; this reads the files and wires what they say into the scan. Plain Node; no
// vscode.
import { l10n } from '../l10n';
import * as path from 'path';
import type { DetectedComponent, ScanProblem } from '../model';
import { isBlueprintFile, parseBlueprint } from './blueprint';
import { insideRealRoot, insideRoot, outsideLink } from './bounds';
import { analyzeComposer, type InstallerPath } from './composer';
import { checkAbort, problem, rel, uriFlags, type Ctx, type Dirent } from './context';
import type { HeaderMatch } from './headers';
import { selfSlug } from './lookup';
import { readPluginHeaders } from './plugins';
import { selfInfo } from './self';
import { parseWpEnv } from './wpenv';

export const WP_ENV_FILES = new Set(['.wp-env.json', '.wp-env.override.json']);
export const MAX_CONFIG_BYTES = 8 * 1024 * 1024;

export async function readConfig(ctx: Ctx, file: string): Promise<string | null> {
  checkAbort(ctx);
  const r = await ctx.fs.readText(file, MAX_CONFIG_BYTES);
  if (r.text === null) {
    problem(ctx, file, l10n.t('{0} {1}. WP Bench did not read what it declares.', path.basename(file), r.why));
    return null;
  }
  return r.text.replace(/^\uFEFF/, '');
}

/** Adds one file's findings; a parser that throws loses that file only, with a problem. */
export function collect(ctx: Ctx, file: string, parse: () => { components: DetectedComponent[]; problems: ScanProblem[] }): void {
  try {
    const r = parse();
    for (const c of r.components) ctx.components.push(c);
    for (const p of r.problems) ctx.problems.push(p);
  } catch (err) {
    problem(ctx, file, l10n.t('{0} could not be read: {1}; the rest of the scan goes on.', path.basename(file), (err as Error).message));
  }
}

/** composer.json and composer.lock of one folder, together: the lock gives types and versions, composer.json the install paths. */
export async function readComposerPair(ctx: Ctx, dir: string, names: Set<string>): Promise<void> {
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
    // Packages installed under vendor/ (a plugin's test dependencies) are listed from their Composer entries:
    // WordPress never loads a plugin from there, and its copy is never read as a declaration.
    if (ip.dir.replace(/\\/g, '/').split('/').includes('vendor')) {
      if (insideRoot(ctx, target)) ctx.noWalk.add(target);
      continue;
    }
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

/**
 * The composer.json / composer.lock of an installed theme: the site's only where a package installs outside the
 * theme's folder (a starter theme whose `"../../plugins/{$name}"` holds the site's plugin list). Its installer-paths
 * add no folder to scan and its core is not the site's: the content root it sits in is scanned already.
 */
export async function readOwnComposer(ctx: Ctx, dir: string, names: Set<string>): Promise<void> {
  const jsonFile = path.join(dir, 'composer.json');
  const lockFile = path.join(dir, 'composer.lock');
  // Never read through a link out of the workspace (the theme folder itself, or the file): a theme outside is
  // reported as such already; a composer file linked out of a theme inside is said here.
  const inside = async (file: string): Promise<boolean> => {
    const real = await ctx.fs.realpath(file);
    if (real && insideRealRoot(ctx, real)) return true;
    const realDir = await ctx.fs.realpath(dir);
    if (realDir && insideRealRoot(ctx, realDir)) outsideLink(ctx, file, false);
    return false;
  };
  const read = async (name: string, file: string) => (names.has(name) && (await inside(file)) ? readConfig(ctx, file) : null);
  const [json, lock] = await Promise.all([read('composer.json', jsonFile), read('composer.lock', lockFile)]);
  if (json === null && lock === null) return;
  if (json !== null) ctx.ownComposerFiles.push(rel(ctx, jsonFile));
  if (lock !== null) ctx.ownComposerFiles.push(rel(ctx, lockFile));
  collect(ctx, json !== null ? jsonFile : lockFile, () =>
    analyzeComposer(json !== null ? { text: json, file: rel(ctx, jsonFile) } : null, lock !== null ? { text: lock, file: rel(ctx, lockFile) } : null, undefined, { ownFolder: true }),
  );
}

export async function readWpEnv(ctx: Ctx, dir: string, name: string): Promise<void> {
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
  await Promise.all(local.map((l) => readLocalSource(ctx, dir, l.component, l.path, l.listedAs)));
}

/**
 * A wp-env source that is a folder or file of this repository (`./plugins/auto-sizes`, a mapped `test-plugin.php`):
 * its header gives the name and version, and an Update URI elsewhere marks it as not the wordpress.org item, as for
 * an installed plugin. A path that is not there yet (Composer or a build makes it; wporg-main-2022's
 * `./source/wp-content/plugins/*`) keeps what the entry says.
 */
export async function readLocalSource(ctx: Ctx, dir: string, c: DetectedComponent, relPath: string, listedAs?: string): Promise<void> {
  const abs = path.resolve(dir, relPath);
  if (!insideRoot(ctx, abs)) return;
  let found: { file: string; headers: Record<string, HeaderMatch> } | undefined;
  if (await ctx.fs.isDirectory(abs)) {
    const info = await selfInfo(ctx, abs);
    found = c.kind === 'plugin' ? info.plugin : info.theme;
  } else if (c.kind === 'plugin' && abs.endsWith('.php') && (await ctx.fs.exists(abs))) {
    found = (await readPluginHeaders(ctx, abs)) ?? undefined;
    // get_mu_plugins(): a must-use file without a header is listed under its file name.
    if (!found && c.mustUse && c.name === null) c.name = listedAs ?? path.basename(abs);
  }
  if (!found) return;
  const nameHeader = c.kind === 'plugin' ? 'Plugin Name' : 'Theme Name';
  c.name = found.headers[nameHeader]?.value || c.name;
  c.version = found.headers['Version']?.value || c.version;
  uriFlags(c, found.headers, c.kind === 'plugin' ? 'Plugin URI' : 'Theme URI');
}

export async function readBlueprint(ctx: Ctx, file: string): Promise<void> {
  const text = await readConfig(ctx, file);
  if (text !== null) collect(ctx, file, () => parseBlueprint(text, rel(ctx, file)));
}

export const isDeclarationFile = (name: string) => name === 'composer.json' || name === 'composer.lock' || WP_ENV_FILES.has(name) || isBlueprintFile(name);

/** Declarations of one folder, read before its sub-folders are walked (they may exclude some of them). */
export async function readDeclarations(ctx: Ctx, dir: string, entries: Dirent[]): Promise<void> {
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
