// .wp-env.json parsing (pure text). Slug rules follow @wordpress/env's source strings.
import type { Node } from 'jsonc-parser';
import { isValidSlug, type ComponentKind, type DetectedComponent, type ScanProblem } from '../model';
import { LineIndex, lastPathPart, parseJsonTree, pluginFileSlug, problemAt } from './text';

/**
 * Slug of a wp-env source string, or null when it is not one we understand.
 * - local path (`.`, `~/`, absolute) → last path part (a `*.php` single-file plugin loses `.php`)
 * - `https://downloads.wordpress.org/(plugin|theme)/<slug>[.ver].zip` → `<slug>`
 * - other `….zip` URL → file name without `.zip` and a trailing `.1.2.3`
 * - `git+ssh://…/repo.git#ref` (and other `.git` URLs) → repo
 * - GitHub `owner/repo[/subdir][#ref]` → subdir, else repo
 */
export function wpEnvSourceSlug(source: string, baseDirName?: string): string | null {
  const s = source.trim();
  if (s === '') return null;
  // "." is the folder holding .wp-env.json: the usual way to develop a plugin or theme with wp-env.
  if ((s === '.' || s === './') && baseDirName) return baseDirName;
  if (/^(\.|~[\\/]|\/|[A-Za-z]:[\\/])/.test(s) || s === '~') {
    const last = lastPathPart(s);
    if (last === '' || last === '.' || last === '..' || last === '~') return null;
    return last.endsWith('.php') ? pluginFileSlug(last) : last;
  }
  const noQuery = s.replace(/[?#].*$/, '');
  const wporg = /^https?:\/\/downloads\.wordpress\.org\/(?:plugin|theme)\/([^/]+)\.zip$/i.exec(noQuery);
  if (wporg) return wporg[1].split('.')[0];
  if (/^https?:\/\//i.test(s) && /\.zip$/i.test(noQuery)) {
    const file = lastPathPart(noQuery).replace(/\.zip$/i, '');
    return file.replace(/(?:\.\d+)+$/, '');
  }
  if (/^(?:git\+)?(?:ssh|https?|git):\/\//i.test(s) || /^[^/\s]+@[^:\s]+:/.test(s)) {
    const repo = lastPathPart(noQuery.replace(/^[^/\s]+@[^:\s]+:/, ''));
    return repo.replace(/\.git$/i, '') || null;
  }
  const gh = /^([^/\s#]+)\/([^/\s#]+)((?:\/[^\s#]+)?)(?:#.*)?$/.exec(s);
  if (gh) {
    const sub = lastPathPart(gh[3]);
    return sub !== '' ? sub : gh[2].replace(/\.git$/i, '');
  }
  return null;
}

function stringAt(node: Node, file: string, index: LineIndex, kind: ComponentKind, slug: string | null, problems: ScanProblem[]): DetectedComponent | null {
  const start = node.offset + 1;
  if (slug === null || !isValidSlug(slug)) {
    problems.push(
      problemAt(file, index, start, `Cannot use ${kind} source "${String(node.value)}" from .wp-env.json`, slug ?? String(node.value)),
    );
    return null;
  }
  const { line, column } = index.position(start);
  return { kind, slug, name: null, version: null, locations: [{ file, line, column, length: Math.max(0, node.length - 2), source: 'wp-env' }] };
}

function child(obj: Node | undefined, key: string): Node | undefined {
  if (!obj || obj.type !== 'object') return undefined;
  for (const prop of obj.children ?? []) {
    const [k, v] = prop.children ?? [];
    if (k && k.value === key) return v;
  }
  return undefined;
}

/** Slug and kind of a mapping key such as `wp-content/plugins/x` or `wp-content/themes/y`. */
function mappingTarget(key: string): { kind: ComponentKind; slug: string } | null {
  const parts = key.replace(/\\/g, '/').split('/').filter((p) => p !== '' && p !== '.');
  for (let i = 0; i + 1 < parts.length; i++) {
    const dir = parts[i];
    if (dir === 'plugins' || dir === 'mu-plugins') return { kind: 'plugin', slug: pluginFileSlug(parts[i + 1]) };
    if (dir === 'themes') return { kind: 'theme', slug: parts[i + 1] };
  }
  return null;
}

/** `.wp-env.json` (and `.wp-env.override.json`): plugins, themes, env.<name> overrides and mappings. */
export function parseWpEnv(text: string, file: string, baseDirName?: string): { components: DetectedComponent[]; problems: ScanProblem[] } {
  const problems: ScanProblem[] = [];
  const components: DetectedComponent[] = [];
  const index = new LineIndex(text);
  const root = parseJsonTree(text, file, index, problems, { disallowComments: false, allowTrailingComma: true });
  if (!root || root.type !== 'object') return { components, problems };

  const scopes: Node[] = [root];
  const env = child(root, 'env');
  if (env?.type === 'object') {
    for (const prop of env.children ?? []) {
      const v = prop.children?.[1];
      if (v?.type === 'object') scopes.push(v);
    }
  }
  for (const scope of scopes) {
    for (const [key, kind] of [['plugins', 'plugin'], ['themes', 'theme']] as const) {
      const arr = child(scope, key);
      if (arr?.type !== 'array') continue;
      for (const item of arr.children ?? []) {
        if (item.type !== 'string' || typeof item.value !== 'string') continue;
        const c = stringAt(item, file, index, kind, wpEnvSourceSlug(item.value, baseDirName), problems);
        if (c) components.push(c);
      }
    }
    const mappings = child(scope, 'mappings');
    if (mappings?.type === 'object') {
      for (const prop of mappings.children ?? []) {
        const k = prop.children?.[0];
        if (!k || typeof k.value !== 'string') continue;
        const target = mappingTarget(k.value);
        if (!target) continue;
        const c = stringAt(k, file, index, target.kind, target.slug, problems);
        if (c) components.push(c);
      }
    }
  }
  return { components, problems };
}
