// composer.json / composer.lock parsing (pure text, usable on unsaved editor buffers).
import { findNodeAtLocation, type Node } from 'jsonc-parser';
import { isValidSlug, type ComponentKind, type DetectedComponent, type LocationSource, type ScanProblem } from '../model';
import { LineIndex, parseJsonTree, problemAt } from './text';

/** Package-name prefixes of WPackagist and WP Packages. */
const PREFIX_KIND: Record<string, ComponentKind> = {
  'wpackagist-plugin': 'plugin',
  'wpackagist-theme': 'theme',
  'wp-plugin': 'plugin',
  'wp-theme': 'theme',
};

export type InstallerRole = 'plugins' | 'mu-plugins' | 'themes' | 'dropins';

/** One `extra.installer-paths` entry. */
export interface InstallerPath {
  /** The key as written, e.g. `web/app/plugins/{$name}/`. */
  pattern: string;
  /**
   * Folder that holds the `{$name}` folders, relative to the composer.json folder, forward slashes,
   * no trailing slash (e.g. `web/app/plugins`); null when `{$name}` is not a whole path part.
   */
  dir: string | null;
  /** What goes there, from `type:…` values, package prefixes or the folder name; null if unknown. */
  role: InstallerRole | null;
  /** The values as written (package names, `type:…`, `vendor:…`). */
  values: string[];
  line: number;
  column: number;
}

export interface ComposerParseResult {
  components: DetectedComponent[];
  problems: ScanProblem[];
  installerPaths: InstallerPath[];
}

function parseJson(text: string, file: string, index: LineIndex, problems: ScanProblem[]): Node | undefined {
  return parseJsonTree(text, file, index, problems, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
}

/**
 * Turns a package name into a component, or a problem. Composer compares package names
 * case-insensitively, so the name is lower-cased before the slug is checked.
 */
function packageComponent(
  nameNode: Node,
  file: string,
  index: LineIndex,
  source: LocationSource,
  version: string | null,
  problems: ScanProblem[],
): DetectedComponent | null {
  if (nameNode.type !== 'string' || typeof nameNode.value !== 'string') return null;
  const name = nameNode.value.toLowerCase();
  const slash = name.indexOf('/');
  if (slash < 0) return null;
  const kind = PREFIX_KIND[name.slice(0, slash)];
  if (!kind) return null;
  const slug = name.slice(slash + 1);
  const start = nameNode.offset + 1;
  if (!isValidSlug(slug)) {
    problems.push(problemAt(file, index, start, `Invalid ${kind} slug in package name "${nameNode.value}"`, slug));
    return null;
  }
  const { line, column } = index.position(start);
  return {
    kind,
    slug,
    name: null,
    version,
    locations: [{ file, line, column, length: Math.max(0, nameNode.length - 2), source }],
  };
}

function installerRole(values: string[], dir: string | null): InstallerRole | null {
  for (const v of values) {
    const t = v.toLowerCase();
    if (t === 'type:wordpress-plugin') return 'plugins';
    if (t === 'type:wordpress-muplugin') return 'mu-plugins';
    if (t === 'type:wordpress-theme') return 'themes';
    if (t === 'type:wordpress-dropin') return 'dropins';
  }
  for (const v of values) {
    const t = v.toLowerCase().replace(/^vendor:/, '');
    const prefix = t.split('/')[0];
    if (prefix === 'wpackagist-plugin' || prefix === 'wp-plugin') return 'plugins';
    if (prefix === 'wpackagist-theme' || prefix === 'wp-theme') return 'themes';
  }
  const last = (dir ?? '').split('/').pop()?.toLowerCase() ?? '';
  if (last === 'mu-plugins') return 'mu-plugins';
  if (last === 'plugins') return 'plugins';
  if (last === 'themes') return 'themes';
  return null;
}

function installerDir(pattern: string): string | null {
  const parts = pattern.replace(/\\/g, '/').split('/').filter((p) => p !== '' && p !== '.');
  const i = parts.indexOf('{$name}');
  if (i < 0) return null;
  return parts.slice(0, i).join('/');
}

function readInstallerPaths(root: Node, index: LineIndex): InstallerPath[] {
  const node = findNodeAtLocation(root, ['extra', 'installer-paths']);
  const out: InstallerPath[] = [];
  if (!node || node.type !== 'object' || !node.children) return out;
  for (const prop of node.children) {
    const [keyNode, valueNode] = prop.children ?? [];
    if (!keyNode || typeof keyNode.value !== 'string') continue;
    const values: string[] = [];
    if (valueNode?.type === 'array') {
      for (const v of valueNode.children ?? []) if (typeof v.value === 'string') values.push(v.value);
    }
    const dir = installerDir(keyNode.value);
    const { line, column } = index.position(keyNode.offset + 1);
    out.push({ pattern: keyNode.value, dir, role: installerRole(values, dir), values, line, column });
  }
  return out;
}

/** composer.json: `require` and `require-dev` packages of WPackagist / WP Packages, plus installer-paths. */
export function parseComposerJson(text: string, file: string): ComposerParseResult {
  const problems: ScanProblem[] = [];
  const components: DetectedComponent[] = [];
  const index = new LineIndex(text);
  const root = parseJson(text, file, index, problems);
  if (!root || root.type !== 'object') return { components, problems, installerPaths: [] };
  for (const section of ['require', 'require-dev']) {
    const node = findNodeAtLocation(root, [section]);
    if (!node || node.type !== 'object') continue;
    for (const prop of node.children ?? []) {
      // A property without a value is half-typed (editor buffer): wait until it is complete.
      if (!prop.children || prop.children.length < 2) continue;
      const c = packageComponent(prop.children[0], file, index, 'composer.json', null, problems);
      if (c) components.push(c);
    }
  }
  return { components, problems, installerPaths: readInstallerPaths(root, index) };
}

/** composer.lock: `packages` and `packages-dev`, with the locked version. */
export function parseComposerLock(text: string, file: string): { components: DetectedComponent[]; problems: ScanProblem[] } {
  const problems: ScanProblem[] = [];
  const components: DetectedComponent[] = [];
  const index = new LineIndex(text);
  const root = parseJson(text, file, index, problems);
  if (!root || root.type !== 'object') return { components, problems };
  for (const section of ['packages', 'packages-dev']) {
    const node = findNodeAtLocation(root, [section]);
    if (!node || node.type !== 'array') continue;
    for (const pkg of node.children ?? []) {
      if (pkg.type !== 'object') continue;
      const nameNode = findNodeAtLocation(pkg, ['name']);
      if (!nameNode) continue;
      const versionNode = findNodeAtLocation(pkg, ['version']);
      const version = versionNode && typeof versionNode.value === 'string' && versionNode.value !== '' ? versionNode.value : null;
      const c = packageComponent(nameNode, file, index, 'composer.lock', version, problems);
      if (c) components.push(c);
    }
  }
  return { components, problems };
}
