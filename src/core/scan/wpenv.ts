// .wp-env.json parsing (pure text). Slug rules follow @wordpress/env's source strings.
import { l10n } from '../l10n';
import { parseTree, ParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { type ComponentKind, type DetectedComponent, type ScanProblem } from '../model';
import { isListableName } from './lookup';
import { jsonChild, LineIndex, lastPathPart, parseJsonTree, pluginFileSlug, problemAt } from './text';

/**
 * Slug (and version, when the source names one) of a wp-env source string, or null when it is not one we
 * understand.
 * - `.` → `selfSlug` (the plugin or theme in the folder holding .wp-env.json; see lookup.ts selfSlug)
 * - other local paths (`./x`, `../x`, `~/x`, absolute) → last path part (a `*.php` single-file plugin loses `.php`)
 * - `https://downloads.wordpress.org/(plugin|theme)/<slug>[.ver].zip` → `<slug>`, version `ver`
 * - GitHub archives `https://github.com/OWNER/REPO/archive/REF.zip` (and codeload) → REPO, not REF
 * - other `….zip` URL → file name without `.zip` and a trailing `.1.2.3` (the version)
 * - `git+ssh://…/repo.git#ref` (and other `.git` URLs) → repo
 * - GitHub `owner/repo[/subdir][#ref]` → subdir, else repo
 */
/** `.` (or `./`): the folder holding the .wp-env.json. */
export function isSelfSource(source: unknown): boolean {
  return typeof source === 'string' && (source.trim() === '.' || source.trim() === './');
}

const SCP_ADDRESS = /^[^/\s]+@[^:\s@]+:/;

/** Where a trailing `.1.2.3` starts (`(?:\.\d+)+$` as a backward loop: the regex is quadratic on `.1.1.1…x`); the length when none. */
function trailingVersionStart(file: string): number {
  let at = file.length;
  for (;;) {
    let i = at;
    while (i > 0 && file.charCodeAt(i - 1) >= 0x30 && file.charCodeAt(i - 1) <= 0x39) i--;
    if (i === at || i === 0 || file[i - 1] !== '.') return at;
    at = i - 1;
  }
}

export function wpEnvSource(source: string, selfSlug?: string): { slug: string; version: string | null } | null {
  const s = source.trim();
  if (s === '') return null;
  const plain = (slug: string | null) => (slug ? { slug, version: null } : null);
  if (isSelfSource(s)) return plain(selfSlug ?? null);
  if (/^(\.|~[\\/]|\/|[A-Za-z]:[\\/])/.test(s) || s === '~') {
    const last = lastPathPart(s);
    if (last === '' || last === '.' || last === '..' || last === '~') return null;
    return plain(last.endsWith('.php') ? pluginFileSlug(last) : last);
  }
  const query = s.search(/[?#]/);
  const noQuery = query < 0 ? s : s.slice(0, query);
  const wporg = /^https?:\/\/downloads\.wordpress\.org\/(?:plugin|theme)\/([^/]+)\.zip$/i.exec(noQuery);
  if (wporg) {
    const dot = wporg[1].indexOf('.');
    return dot < 0 ? plain(wporg[1]) : { slug: wporg[1].slice(0, dot), version: wporg[1].slice(dot + 1) || null };
  }
  const archive =
    /^https?:\/\/github\.com\/[^/]+\/([^/]+)\/(?:archive|releases\/download)\//i.exec(noQuery) ??
    /^https?:\/\/codeload\.github\.com\/[^/]+\/([^/]+)\//i.exec(noQuery);
  if (archive) return plain(archive[1].replace(/\.git$/i, ''));
  if (/^https?:\/\//i.test(s) && /\.zip$/i.test(noQuery)) {
    const file = lastPathPart(noQuery).replace(/\.zip$/i, '');
    const at = trailingVersionStart(file);
    return at < file.length ? { slug: file.slice(0, at), version: file.slice(at + 1) } : plain(file);
  }
  // `user@host:path`; the host holds no `@`, so the user part backtracks to each `@` once (linear time).
  if (/^(?:git\+)?(?:ssh|https?|git):\/\//i.test(s) || SCP_ADDRESS.test(s)) {
    const repo = lastPathPart(noQuery.replace(SCP_ADDRESS, ''));
    return plain(repo.replace(/\.git$/i, '') || null);
  }
  const gh = /^([^/\s#]+)\/([^/\s#]+)((?:\/[^\s#]+)?)(?:#.*)?$/.exec(s);
  if (gh) {
    const sub = lastPathPart(gh[3]);
    return plain(sub !== '' ? sub : gh[2].replace(/\.git$/i, ''));
  }
  return null;
}

/**
 * @wordpress/env reads .wp-env.json with JSON.parse: a comment or a trailing comma makes `wp-env start` fail, though
 * WP Bench (lenient, as editors are) can still read the file. Said as a problem at the first one, never silently.
 */
function strictJsonProblem(text: string, file: string, index: LineIndex, problems: ScanProblem[]): void {
  const errors: ParseError[] = [];
  parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (!errors.length) return;
  const e = errors[0];
  const what = e.error === ParseErrorCode.InvalidCommentToken ? l10n.t('a comment') : l10n.t('a trailing comma');
  problems.push(problemAt(file, index, e.offset, l10n.t('{0}: @wordpress/env reads strict JSON and refuses this file (wp-env start fails); WP Bench read it anyway', what)));
}

/** A local source other than `.` (`./x`, `../x`): a path relative to the folder holding .wp-env.json. */
function localRelativePath(source: string): string | null {
  const s = source.trim();
  return !isSelfSource(s) && /^\.\.?[\\/]/.test(s) ? s : null;
}

/** The slug alone (see wpEnvSource). */
export function wpEnvSourceSlug(source: string, selfSlug?: string): string | null {
  return wpEnvSource(source, selfSlug)?.slug ?? null;
}

function stringAt(
  node: Node,
  file: string,
  index: LineIndex,
  kind: ComponentKind,
  source: { slug: string; version: string | null } | null,
  problems: ScanProblem[],
): DetectedComponent | null {
  const start = node.offset + 1;
  const slug = source?.slug ?? null;
  if (slug === null || !isListableName(slug)) {
    problems.push(
      problemAt(file, index, start, l10n.t('Cannot use {0} source "{1}" from .wp-env.json', kind, String(node.value)), slug ?? String(node.value)),
    );
    return null;
  }
  const { line, column } = index.position(start);
  return { kind, slug, name: null, version: source?.version ?? null, locations: [{ file, line, column, length: Math.max(0, node.length - 2), source: 'wp-env' }] };
}

const child = jsonChild;

/**
 * Slug and kind of a mapping key such as `wp-content/plugins/x` or `wp-content/themes/y`; a mapping into a
 * theme group (`wp-content/themes/GROUP/THEME`) is THEME.
 */
function mappingTarget(key: string): { kind: ComponentKind; slug: string; version: string | null; mustUse?: boolean } | null {
  const parts = key.replace(/\\/g, '/').split('/').filter((p) => p !== '' && p !== '.');
  for (let i = 0; i + 1 < parts.length; i++) {
    const dir = parts[i];
    if (dir === 'plugins') return { kind: 'plugin', slug: pluginFileSlug(parts[i + 1]), version: null };
    if (dir === 'mu-plugins') return { kind: 'plugin', slug: pluginFileSlug(parts[i + 1]), version: null, mustUse: true };
    if (dir === 'themes') return { kind: 'theme', slug: parts[Math.min(i + 2, parts.length - 1)], version: null };
  }
  return null;
}

/** A mapping key that is a whole WordPress folder (`wp-content/mu-plugins`, `/wp-content/plugins`, `wp-content/themes`). */
function mountedRole(key: string): 'plugins' | 'mu-plugins' | 'themes' | null {
  const parts = key.replace(/\\/g, '/').split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length !== 2 || parts[0] !== 'wp-content') return null;
  return parts[1] === 'plugins' || parts[1] === 'mu-plugins' || parts[1] === 'themes' ? parts[1] : null;
}

/**
 * `.wp-env.json` (and `.wp-env.override.json`): plugins, themes, env.<name> overrides and mappings.
 * `self` gives the slug of `.` per kind (the plugin or theme in the folder holding the file; see selfSlug).
 */
export function parseWpEnv(
  text: string,
  file: string,
  self?: Partial<Record<ComponentKind, string>>,
): {
  components: DetectedComponent[];
  problems: ScanProblem[];
  /** `listedAs`: the file name a mapping gives it in mu-plugins (what get_mu_plugins() lists a header-less file as). */
  local: { component: DetectedComponent; path: string; listedAs?: string }[];
  /** Local folders mapped as a whole plugins, mu-plugins or themes folder: what they hold is the site's. */
  mounts: { role: 'plugins' | 'mu-plugins' | 'themes'; path: string }[];
  /** `"wp-content/plugins/NAME": "."`: the folder holding the file is installed as NAME (its slug in WordPress). */
  selfInstalls: { kind: ComponentKind; slug: string }[];
  /** The `"."` entries of `plugins` / `themes` (slugged as the folder's plugin or theme is). */
  selfEntries: DetectedComponent[];
} {
  const problems: ScanProblem[] = [];
  const components: DetectedComponent[] = [];
  /** Components whose source is a folder or file of this repository: their headers give name and version. */
  const local: { component: DetectedComponent; path: string; listedAs?: string }[] = [];
  const mounts: { role: 'plugins' | 'mu-plugins' | 'themes'; path: string }[] = [];
  const selfInstalls: { kind: ComponentKind; slug: string }[] = [];
  const selfEntries: DetectedComponent[] = [];
  const noteLocal = (c: DetectedComponent, value: unknown, listedAs?: string) => {
    const p = typeof value === 'string' ? localRelativePath(value) : null;
    if (p !== null) local.push({ component: c, path: p, ...(listedAs ? { listedAs } : {}) });
  };
  const index = new LineIndex(text);
  const root = parseJsonTree(text, file, index, problems, { disallowComments: false, allowTrailingComma: true });
  const result = { components, problems, local, mounts, selfInstalls, selfEntries };
  if (root && !problems.length) strictJsonProblem(text, file, index, problems);
  // What @wordpress/env refuses ("must be an array of strings", …) is said at the entry, never skipped silently.
  const refuse = (node: Node, what: string) =>
    problems.push(problemAt(file, index, node.offset, l10n.t('{0}; @wordpress/env refuses this file, and WP Bench did not read that entry.', what)));
  if (!root) return result;
  if (root.type !== 'object') {
    refuse(root, l10n.t('The file is not a JSON object'));
    return result;
  }

  const scopes: Node[] = [root];
  const env = child(root, 'env');
  if (env && env.type !== 'object') refuse(env, l10n.t('"{0}" must be an object', 'env'));
  if (env?.type === 'object') {
    for (const prop of env.children ?? []) {
      const v = prop.children?.[1];
      if (v?.type === 'object') scopes.push(v);
      else if (v) refuse(v, l10n.t('"{0}" must be an object', `env.${String(prop.children?.[0]?.value)}`));
    }
  }
  for (const scope of scopes) {
    for (const [key, kind] of [['plugins', 'plugin'], ['themes', 'theme']] as const) {
      const arr = child(scope, key);
      if (arr && arr.type !== 'array') refuse(arr, l10n.t('"{0}" must be an array of strings', key));
      if (arr?.type !== 'array') continue;
      for (const item of arr.children ?? []) {
        if (item.type !== 'string' || typeof item.value !== 'string') {
          refuse(item, l10n.t('"{0}" must be an array of strings', key));
          continue;
        }
        const c = stringAt(item, file, index, kind, wpEnvSource(item.value, self?.[kind]), problems);
        if (!c) continue;
        components.push(c);
        noteLocal(c, item.value);
        if (isSelfSource(item.value)) selfEntries.push(c);
      }
    }
    const mappings = child(scope, 'mappings');
    if (mappings && mappings.type !== 'object') refuse(mappings, l10n.t('"{0}" must be an object', 'mappings'));
    if (mappings?.type === 'object') {
      for (const prop of mappings.children ?? []) {
        const k = prop.children?.[0];
        if (!k || typeof k.value !== 'string') continue;
        const v = prop.children?.[1];
        if (v && v.type !== 'string') {
          refuse(v, l10n.t('"{0}" must be an object of strings', 'mappings'));
          continue;
        }
        const role = mountedRole(k.value);
        const mounted = prop.children?.[1]?.value;
        if (role && typeof mounted === 'string') {
          const p = isSelfSource(mounted) ? '.' : localRelativePath(mounted);
          if (p !== null) mounts.push({ role, path: p });
          continue;
        }
        const target = mappingTarget(k.value);
        if (!target) continue;
        const value = prop.children?.[1]?.value;
        // A zip URL names the version it installs (`…/theme/twentytwentyfour.1.0.zip`), as in the plugins and themes lists.
        if (typeof value === 'string' && /^https?:\/\//i.test(value.trim())) target.version = wpEnvSource(value)?.version ?? null;
        const c = stringAt(k, file, index, target.kind, target, problems);
        if (!c) continue;
        // A local file mapped into mu-plugins is the site's own code; a wordpress.org download is the w.org item.
        if (target.mustUse && !(typeof value === 'string' && /^https?:\/\/downloads\.wordpress\.org\//i.test(value))) c.mustUse = true;
        components.push(c);
        noteLocal(c, value, target.mustUse ? k.value.replace(/\\/g, '/').split('/').filter(Boolean).pop() : undefined);
        if (isSelfSource(value) && !target.mustUse) selfInstalls.push({ kind: c.kind, slug: c.slug });
      }
    }
  }
  return { components, problems, local, mounts, selfInstalls, selfEntries };
}
