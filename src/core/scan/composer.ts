// composer.json / composer.lock parsing (pure text, usable on unsaved editor buffers).
// A package is a WordPress plugin or theme by its `type` (any vendor); its slug is the folder it installs
// into, by composer/installers' rules (extra.installer-paths, extra.installer-name: installers.ts).
import { l10n } from '../l10n';
import { findNodeAtLocation, type Node } from 'jsonc-parser';
import type { ComponentKind, DetectedComponent, LocationSource, ScanProblem } from '../model';
import { isListableName } from './lookup';
import { LineIndex, parseJsonTree, problemAt, trimTrailing } from './text';
import { COMPOSER_NAME, installPath, installsOutside, leavesRepository, PREFIX_TYPE, readInstallerPaths, type InstallerPath, type WordPressType } from './installers';

export type { InstallerPath, InstallerRole } from './installers';

const WP_TYPES: ReadonlySet<string> = new Set(['wordpress-plugin', 'wordpress-theme', 'wordpress-muplugin']);
const TYPE_KIND: Record<WordPressType, ComponentKind> = { 'wordpress-plugin': 'plugin', 'wordpress-theme': 'theme', 'wordpress-muplugin': 'plugin' };
/** Packages of WordPress core itself: they install into extra.wordpress-install-dir, not the site's content. */
const CORE_PACKAGES: ReadonlySet<string> = new Set([
  'johnpbloch/wordpress',
  'johnpbloch/wordpress-core',
  'roots/wordpress',
  'roots/wordpress-full',
  'roots/wordpress-no-content',
  'roots/wordpress-core-installer',
  'wordpress/wordpress',
]);

export interface ComposerParseResult {
  components: DetectedComponent[];
  problems: ScanProblem[];
  installerPaths: InstallerPath[];
  /**
   * Where WordPress core is installed (extra.wordpress-install-dir, default `wordpress`), relative to the
   * composer.json folder, when this project installs core with Composer; its wp-content is not the site's.
   */
  coreDir: string | null;
}

function parseJson(text: string, file: string, index: LineIndex, problems: ScanProblem[]): Node | undefined {
  return parseJsonTree(text, file, index, problems, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
}

function coreInstallDir(root: Node, required: Iterable<string>, lockTypes: Iterable<string>): string | null {
  const dirNode = findNodeAtLocation(root, ['extra', 'wordpress-install-dir']);
  let dir: string | null = null;
  if (dirNode?.type === 'string' && typeof dirNode.value === 'string') dir = dirNode.value;
  else if (dirNode?.type === 'object') {
    // { "vendor/package": "dir" } (wordpress-core-installer ≥ 2): the first string value.
    const v = dirNode.children?.map((p) => p.children?.[1]).find((n) => n?.type === 'string');
    if (v && typeof v.value === 'string') dir = v.value;
  }
  const hasCore = dir !== null || [...required].some((n) => CORE_PACKAGES.has(n)) || [...lockTypes].some((t) => t === 'wordpress-core');
  if (!hasCore) return null;
  const clean = trimTrailing((dir ?? 'wordpress').replace(/\\/g, '/').replace(/^\.\//, ''), '/');
  return clean === '' || clean === '.' || clean.startsWith('/') || clean.split('/').includes('..') ? null : clean;
}

/** A composer.json read for what matters here. */
interface JsonSide {
  file: string;
  index: LineIndex;
  /** require / require-dev entries: lower-cased name → key node; `dev` when in require-dev only. */
  requires: { name: string; node: Node; dev?: boolean }[];
  installerPaths: InstallerPath[];
  root: Node;
}

/** A composer.lock package. */
interface LockPackage {
  name: string;
  type: string;
  version: string | null;
  installerName: string | null;
  /** The dist URL is a wordpress.org download. */
  fromWordPressOrg: boolean;
  node: Node;
  /** In `packages-dev`. */
  dev?: boolean;
}

interface LockSide {
  file: string;
  index: LineIndex;
  packages: LockPackage[];
}

function readJsonSide(text: string, file: string, problems: ScanProblem[]): JsonSide | null {
  const index = new LineIndex(text);
  const root = parseJson(text, file, index, problems);
  if (!root || root.type !== 'object') return null;
  const requires: JsonSide['requires'] = [];
  for (const section of ['require', 'require-dev']) {
    const node = findNodeAtLocation(root, [section]);
    if (!node || node.type !== 'object') continue;
    for (const prop of node.children ?? []) {
      // A property without a value is half-typed (editor buffer): wait until it is complete.
      if (!prop.children || prop.children.length < 2) continue;
      const k = prop.children[0];
      if (k.type === 'string' && typeof k.value === 'string') requires.push({ name: k.value.toLowerCase(), node: k, dev: section === 'require-dev' });
    }
  }
  const required = new Set(requires.filter((r) => !r.dev).map((r) => r.name));
  for (const r of requires) if (r.dev && required.has(r.name)) r.dev = false;
  return { file, index, requires, installerPaths: readInstallerPaths(root, index), root };
}

function readLockSide(text: string, file: string, problems: ScanProblem[]): LockSide | null {
  const index = new LineIndex(text);
  const root = parseJson(text, file, index, problems);
  if (!root || root.type !== 'object') return null;
  const packages: LockPackage[] = [];
  for (const section of ['packages', 'packages-dev']) {
    const node = findNodeAtLocation(root, [section]);
    if (!node || node.type !== 'array') continue;
    for (const pkg of node.children ?? []) {
      if (pkg.type !== 'object') continue;
      const nameNode = findNodeAtLocation(pkg, ['name']);
      if (!nameNode || nameNode.type !== 'string' || typeof nameNode.value !== 'string') continue;
      const str = (path: string[]) => {
        const n = findNodeAtLocation(pkg, path);
        return n?.type === 'string' && typeof n.value === 'string' && n.value !== '' ? n.value : null;
      };
      packages.push({
        name: nameNode.value.toLowerCase(),
        type: (str(['type']) ?? '').toLowerCase(),
        version: str(['version']),
        installerName: str(['extra', 'installer-name']),
        fromWordPressOrg: /^https?:\/\/downloads\.wordpress\.org\//i.test(str(['dist', 'url']) ?? ''),
        node: nameNode,
        dev: section === 'packages-dev',
      });
    }
  }
  return { file, index, packages };
}

/** A lock entry's WordPress type; an entry without `type` (hand-written locks) falls back on the name prefix. */
function lockedType(p: LockPackage): WordPressType | null {
  if (WP_TYPES.has(p.type)) return p.type as WordPressType;
  return p.type === '' ? (PREFIX_TYPE[p.name.slice(0, p.name.indexOf('/'))] ?? null) : null;
}

/** Type of a composer.json entry when the lock has none: the WPackagist / WP Packages prefix, or a role given by name in installer-paths. */
function typeWithoutLock(name: string, paths: InstallerPath[]): WordPressType | null {
  const prefixed = PREFIX_TYPE[name.slice(0, name.indexOf('/'))];
  if (prefixed) return prefixed;
  for (const p of paths) {
    if (!p.values.some((v) => v.toLowerCase() === name)) continue;
    if (p.role === 'plugins') return 'wordpress-plugin';
    if (p.role === 'themes') return 'wordpress-theme';
    if (p.role === 'mu-plugins') return 'wordpress-muplugin';
    return null;
  }
  return null;
}

function componentAt(
  node: Node,
  file: string,
  index: LineIndex,
  source: LocationSource,
  name: string,
  type: WordPressType,
  version: string | null,
  installerName: string | null,
  paths: InstallerPath[],
  problems: ScanProblem[],
  fromWordPressOrg = false,
): DetectedComponent | null {
  const kind = TYPE_KIND[type];
  const start = node.offset + 1;
  if (!COMPOSER_NAME.test(name)) {
    problems.push(problemAt(file, index, start, l10n.t('"{0}" is not a valid Composer package name (vendor/name); not looked up', name), name.slice(name.indexOf('/') + 1)));
    return null;
  }
  const target = installPath(name, type, installerName, paths).replace(/\\/g, '/');
  const parts = target.split('/').filter((p) => p !== '' && p !== '.');
  const slug = parts[parts.length - 1] ?? '';
  if (leavesRepository(file, target)) {
    problems.push(problemAt(file, index, start, l10n.t('Package "{0}" would install outside the repository ("{1}"); not looked up. Use a path inside the project in extra.installer-paths.', name, target), slug));
    return null;
  }
  if (!isListableName(slug)) {
    problems.push(problemAt(file, index, start, l10n.t('Invalid {0} slug in package name "{1}": "{2}"', kind, name, slug), slug));
    return null;
  }
  const { line, column } = index.position(start);
  const c: DetectedComponent = { kind, slug, name: null, version, locations: [{ file, line, column, length: Math.max(0, node.length - 2), source }] };
  // A must-use package is the site's own code unless it comes from wordpress.org (WPackagist, WP Packages, a w.org zip).
  if (type === 'wordpress-muplugin' && !fromWordPressOrg && !PREFIX_TYPE[name.slice(0, name.indexOf('/'))]) c.mustUse = true;
  return c;
}

/**
 * A require-dev package that composer/installers puts under `vendor/` (a WooCommerce extension's tests install
 * WooCommerce there): test tooling. Listed from its Composer entry (marked `testOnly`), never from its copy under
 * `vendor/`, and its version never stands for the site's; said with an `info` problem at the entry.
 */
function testTooling(
  dev: boolean,
  name: string,
  type: WordPressType,
  version: string | null,
  installerName: string | null,
  paths: InstallerPath[],
  side: { file: string; index: LineIndex },
  node: Node,
  problems: ScanProblem[],
): boolean {
  if (!dev || !COMPOSER_NAME.test(name)) return false;
  const target = installPath(name, type, installerName, paths).replace(/\\/g, '/');
  const folders = target.split('/').filter((p) => p !== '' && p !== '.');
  if (!folders.slice(0, -1).includes('vendor')) return false;
  const what = version === null ? name : `${name} ${version}`;
  const p = problemAt(side.file, side.index, node.offset + 1, l10n.t('{0} is a require-dev package installed into {1}: test tooling. Listed from this entry, never from its copy under vendor/; its version is not the site\'s.', what, folders.join('/')));
  problems.push({ ...p, severity: 'info' });
  return true;
}

/**
 * Both files of one Composer project (either may be missing). Components come from `emit`'s files only:
 * the other file still gives package types (lock) or installer-paths and core location (composer.json).
 */
/**
 * `ownFolder`: the composer.json of an installed theme (a component's own dependencies). Only packages that
 * install outside that folder are the site's (`"../../plugins/{$name}"` in a starter theme puts the site's plugins
 * in `wp-content/plugins`); one that lands inside it (`wp-content/themes/t/wp-content/plugins/x`, `vendor/`) is
 * never loaded by WordPress, and is left out without a word.
 */
export function analyzeComposer(
  json: { text: string; file: string } | null,
  lock: { text: string; file: string } | null,
  emit: { json: boolean; lock: boolean } = { json: true, lock: true },
  opts: { ownFolder?: boolean } = {},
): ComposerParseResult {
  const problems: ScanProblem[] = [];
  const components: DetectedComponent[] = [];
  // Problems only for the files whose components are asked for (the other file reports its own).
  const jsonSide = json ? readJsonSide(json.text, json.file, emit.json ? problems : []) : null;
  const lockSide = lock ? readLockSide(lock.text, lock.file, emit.lock ? problems : []) : null;
  const paths = jsonSide?.installerPaths ?? [];
  const locked = new Map<string, LockPackage>();
  for (const p of lockSide?.packages ?? []) locked.set(p.name, p);

  if (jsonSide && emit.json) {
    for (const r of jsonSide.requires) {
      const lp = locked.get(r.name);
      const type = lp ? lockedType(lp) : typeWithoutLock(r.name, paths);
      if (type && opts.ownFolder && !installsOutside(jsonSide.file, r.name, type, lp?.installerName ?? null, paths)) continue;
      if (!type) continue;
      const test = testTooling(r.dev === true, r.name, type, lp?.version ?? null, lp?.installerName ?? null, paths, jsonSide, r.node, problems);
      const c = componentAt(r.node, jsonSide.file, jsonSide.index, 'composer.json', r.name, type, null, lp?.installerName ?? null, paths, problems, lp?.fromWordPressOrg);
      if (c) components.push(test ? { ...c, testOnly: true } : c);
    }
  }
  if (lockSide && emit.lock) {
    for (const p of lockSide.packages) {
      const type = lockedType(p);
      if (type && opts.ownFolder && !installsOutside(lockSide.file, p.name, type, p.installerName, paths)) continue;
      if (!type) continue;
      const test = testTooling(p.dev === true, p.name, type, p.version, p.installerName, paths, lockSide, p.node, problems);
      const c = componentAt(p.node, lockSide.file, lockSide.index, 'composer.lock', p.name, type, p.version, p.installerName, paths, problems, p.fromWordPressOrg);
      if (c) components.push(test ? { ...c, testOnly: true } : c);
    }
  }
  const coreDir = jsonSide ? coreInstallDir(jsonSide.root, jsonSide.requires.map((r) => r.name), [...locked.values()].map((p) => p.type)) : null;
  return { components, problems, installerPaths: paths, coreDir };
}

/** composer.json: WordPress packages in `require` and `require-dev` (types from `lockText` when given), installer-paths. */
export function parseComposerJson(text: string, file: string, lockText?: string | null, opts: { ownFolder?: boolean } = {}): ComposerParseResult {
  return analyzeComposer({ text, file }, lockText ? { text: lockText, file: 'composer.lock' } : null, { json: true, lock: false }, opts);
}

/** composer.lock: `packages` and `packages-dev` of a WordPress type, with the locked version (folders from `jsonText`'s installer-paths). */
export function parseComposerLock(text: string, file: string, jsonText?: string | null, opts: { ownFolder?: boolean } = {}): { components: DetectedComponent[]; problems: ScanProblem[] } {
  const r = analyzeComposer(jsonText ? { text: jsonText, file: 'composer.json' } : null, { text, file }, { json: false, lock: true }, opts);
  return { components: r.components, problems: r.problems };
}
