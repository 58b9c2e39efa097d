// composer/installers' rules for WordPress packages: the folder a package installs into (extra.installer-paths,
// extra.installer-name, the WordPressInstaller defaults), and whether that folder leaves the repository or the
// composer file's own folder.
import * as path from 'path';
import { findNodeAtLocation, type Node } from 'jsonc-parser';
import type { LineIndex } from './text';

/** Package-name prefixes of WPackagist and WP Packages, and the type they stand for. */
export const PREFIX_TYPE: Record<string, WordPressType> = {
  'wpackagist-plugin': 'wordpress-plugin',
  'wpackagist-theme': 'wordpress-theme',
  'wp-plugin': 'wordpress-plugin',
  'wp-theme': 'wordpress-theme',
};

export type WordPressType = 'wordpress-plugin' | 'wordpress-theme' | 'wordpress-muplugin';
/** composer/installers' WordPressInstaller locations. */
const DEFAULT_PATH: Record<WordPressType, string> = {
  'wordpress-plugin': 'wp-content/plugins/{$name}/',
  'wordpress-theme': 'wp-content/themes/{$name}/',
  'wordpress-muplugin': 'wp-content/mu-plugins/{$name}/',
};

/**
 * Composer's own package-name rule (lower-cased), written without its nested optional quantifier
 * (`(?:[_.-]?[a-z0-9]+)*` backtracks exponentially on `…/aaaaaaaaaaaaaaaa!`): same names, linear time.
 */
export const COMPOSER_NAME = /^[a-z0-9]+(?:[_.-][a-z0-9]+)*\/[a-z0-9]+(?:(?:[_.]|-{1,2})[a-z0-9]+)*$/;

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
    const type = PREFIX_TYPE[t.split('/')[0]];
    if (type === 'wordpress-plugin') return 'plugins';
    if (type === 'wordpress-theme') return 'themes';
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

export function readInstallerPaths(root: Node, index: LineIndex): InstallerPath[] {
  const node = findNodeAtLocation(root, ['extra', 'installer-paths']);
  const out: InstallerPath[] = [];
  if (!node || node.type !== 'object' || !node.children) return out;
  for (const prop of node.children) {
    const [keyNode, valueNode] = prop.children ?? [];
    if (!keyNode || typeof keyNode.value !== 'string') continue;
    const values: string[] = [];
    if (valueNode?.type === 'array') {
      for (const v of valueNode.children ?? []) if (typeof v.value === 'string') values.push(v.value);
    } else if (valueNode?.type === 'string' && typeof valueNode.value === 'string') {
      values.push(valueNode.value); // (array) $names in composer/installers
    }
    const dir = installerDir(keyNode.value);
    const { line, column } = index.position(keyNode.offset + 1);
    out.push({ pattern: keyNode.value, dir, role: installerRole(values, dir), values, line, column });
  }
  return out;
}

/** composer/installers: the install path of a package (first matching installer-path, else the default). */
export function installPath(name: string, type: WordPressType, installerName: string | null, paths: InstallerPath[]): string {
  const slash = name.indexOf('/');
  const vendor = name.slice(0, slash);
  let template = DEFAULT_PATH[type];
  for (const p of paths) {
    const values = p.values.map((v) => v.toLowerCase());
    if (values.includes(name) || values.includes(`type:${type}`) || values.includes(`vendor:${vendor}`)) {
      template = p.pattern;
      break;
    }
  }
  return template
    .split('{$name}').join(installerName ?? name.slice(slash + 1))
    .split('{$vendor}').join(vendor)
    .split('{$type}').join(type.slice('wordpress-'.length));
}

/**
 * The install folder leaves the repository: absolute, or a `..` that climbs above the repository root from the
 * composer.json's folder. `../../plugins/{$name}` in `wp-content/themes/starter/composer.json` stays inside
 * (`wp-content/plugins/x`), as the scan of installer-paths targets already resolves it.
 */
export function leavesRepository(file: string, target: string): boolean {
  if (/^(?:[a-z]:)?\//i.test(target)) return true;
  const from = path.posix.dirname(file.replace(/\\/g, '/'));
  // A file named by an absolute path (outside every workspace folder): no root to measure against, so any `..`.
  if (path.posix.isAbsolute(from) || /^[a-z]:/i.test(from)) return target.split('/').includes('..');
  const resolved = path.posix.normalize(path.posix.join(from, target));
  return resolved === '..' || resolved.startsWith('../');
}

/** The package's install folder is outside the folder of the composer file (`file`, as locations show it). */
export function installsOutside(file: string, name: string, type: WordPressType, installerName: string | null, paths: InstallerPath[]): boolean {
  if (!COMPOSER_NAME.test(name)) return true; // componentAt() reports it
  const target = installPath(name, type, installerName, paths).replace(/\\/g, '/');
  if (/^(?:[a-z]:)?\//i.test(target)) return true;
  // Resolved from the composer file's folder: `../starter/plugins/x` in `themes/starter` comes back inside.
  const own = path.posix.dirname(file.replace(/\\/g, '/'));
  const resolved = path.posix.normalize(path.posix.join(own, target));
  if (own === '.') return resolved === '..' || resolved.startsWith('../');
  return resolved !== own && !resolved.startsWith(`${own}/`);
}
