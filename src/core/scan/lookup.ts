// What is looked up, and the slug of "the plugin or theme in this folder". Pure: no I/O.
import { l10n } from '../l10n';
import { isWordPressOrgSlug, type ComponentKind, type DetectedComponent, type LookupDecision, type LocationSource } from '../model';

/** Sources that declare an item to install (as opposed to headers of files found on disk). */
const DECLARING: ReadonlySet<LocationSource> = new Set(['composer.json', 'composer.lock', 'wp-env', 'blueprint', 'theme-parent', 'vip-load-plugin']);

/**
 * A folder or file name WordPress lists and we can show: anything but control characters, path separators,
 * `.`/`..` and very long names. A name that is not a wordpress.org slug is listed and never looked up.
 */
export function isListableName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= 200 &&
    name !== '.' &&
    name !== '..' &&
    // eslint-disable-next-line no-control-regex
    !/[\u0000-\u001f\u007f-\u009f/\\\u202a-\u202e\u2066-\u2069]/.test(name)
  );
}

const WPORG_URI = {
  plugin: /^(?:https?:\/\/)?(?:(?:www\.)?wordpress\.org\/plugins|w\.org\/plugin)\/([^/?#\s]+)\/?(?:[?#].*)?$/i,
  theme: /^(?:https?:\/\/)?(?:(?:www\.)?wordpress\.org\/themes|w\.org\/theme)\/([^/?#\s]+)\/?(?:[?#].*)?$/i,
};

/** The slug a wordpress.org address names (`https://wordpress.org/plugins/akismet/` → `akismet`), or null. */
export function wordPressOrgUriSlug(uri: string | undefined, kind: ComponentKind): string | null {
  if (!uri) return null;
  const m = WPORG_URI[kind].exec(uri.trim());
  return m && isWordPressOrgSlug(m[1].toLowerCase()) ? m[1].toLowerCase() : null;
}

/**
 * Looked up, or why not. The rules (README "What is looked up"):
 * - a name that cannot be a wordpress.org slug never is;
 * - one named only by headers read through a symbolic link out of the workspace is not (its name may be private);
 * - a must-use plugin only when something says it is the wordpress.org item (a wordpress.org Plugin URI /
 *   Update URI, or a Composer, .wp-env.json or blueprint declaration);
 * - a component only headers (or a .wp-env.json path) declare, whose Update URI points away from wordpress.org, is not;
 * - everything else is.
 */
export function lookupDecision(c: Pick<DetectedComponent, 'slug' | 'possibleFork' | 'locations' | 'wordpressOrgUri' | 'mustUse' | 'outsideWorkspace'>): LookupDecision {
  if (!isWordPressOrgSlug(c.slug)) return 'not-a-wordpress-org-slug';
  // Named only by headers read through a link out of the workspace (merging keeps the flag only when every
  // declaration is such a header): the workspace does not name it, so it is not sent unasked.
  if (c.outsideWorkspace === true) return 'outside-workspace';
  if (c.mustUse === true) return c.wordpressOrgUri === true ? 'yes' : 'not-from-wordpress-org';
  // A .wp-env.json entry names a folder or a download, not a wordpress.org item: a local folder whose Update URI
  // points away from wordpress.org is not that item, whatever the folder is called.
  const declared = c.locations.some((l) => DECLARING.has(l.source) && l.source !== 'wp-env');
  if (declared) return 'yes';
  if (c.possibleFork === true) return 'update-uri';
  return 'yes';
}

/** Header values that tell which wordpress.org item a folder is. */
export interface SelfHeaders {
  uri?: string;
  updateUri?: string;
  textDomain?: string;
}

/**
 * The wordpress.org slug of the plugin or theme a folder holds (a repository that is one plugin, or the `.`
 * of a .wp-env.json), from the strongest evidence: a wordpress.org Plugin/Theme URI or Update URI naming
 * it, else its Text Domain when that is a valid slug, else the lower-cased folder name when valid, else
 * the folder name as it is (listed, never looked up).
 */
export function selfSlug(kind: ComponentKind, folderName: string, h: SelfHeaders): string {
  const fromUri = wordPressOrgUriSlug(h.updateUri, kind) ?? wordPressOrgUriSlug(h.uri, kind);
  if (fromUri) return fromUri;
  const td = h.textDomain?.trim();
  if (td && isWordPressOrgSlug(td)) return td;
  const lower = folderName.toLowerCase();
  if (isWordPressOrgSlug(lower)) return lower;
  return folderName;
}

/** Sets `lookup` on merged components (the caller may later mark some `ignored`). */
export function decideLookups(components: DetectedComponent[]): DetectedComponent[] {
  for (const c of components) c.lookup = lookupDecision(c);
  return components;
}

/** Plain words for a decision, for reports and the CLI (English). */
export const LOOKUP_NOTE: Record<Exclude<LookupDecision, 'yes'>, string> = {
  'not-a-wordpress-org-slug': 'not a wordpress.org slug', // l10n-ignore: the CLI's words; VS Code uses lookupNote()
  'not-from-wordpress-org': 'not from wordpress.org', // l10n-ignore
  'update-uri': 'not from wordpress.org (Update URI)', // l10n-ignore
  'outside-workspace': 'outside the workspace (symbolic link)', // l10n-ignore
  ignored: 'ignored',
};

/** The same words in the user's language, for the tree and inline annotations. */
export function lookupNote(decision: Exclude<LookupDecision, 'yes'>): string {
  switch (decision) {
    case 'not-a-wordpress-org-slug':
      return l10n.t('not a wordpress.org slug');
    case 'not-from-wordpress-org':
      return l10n.t('not from wordpress.org');
    case 'update-uri':
      return l10n.t('not from wordpress.org (Update URI)');
    case 'outside-workspace':
      return l10n.t('outside the workspace (symbolic link)');
    default:
      return l10n.t('ignored');
  }
}

/** Why a component is not looked up, in a sentence (hover). */
export function lookupExplanation(c: Pick<DetectedComponent, 'kind' | 'slug' | 'lookup'>): string | undefined {
  switch (c.lookup) {
    case 'not-a-wordpress-org-slug':
      return c.kind === 'plugin'
        ? l10n.t('Not looked up: "{0}" is not a wordpress.org slug (lower-case letters, digits and hyphens), so this plugin cannot be a wordpress.org item. It counts as unknown in the site total.', c.slug)
        : l10n.t('Not looked up: "{0}" is not a wordpress.org slug (lower-case letters, digits and hyphens), so this theme cannot be a wordpress.org item. It counts as unknown in the site total.', c.slug);
    case 'not-from-wordpress-org':
      return l10n.t("Not looked up: a must-use plugin is usually the site's own code, and nothing says this one is the wordpress.org item (no wordpress.org Plugin URI or Update URI, no Composer, .wp-env.json or blueprint entry).");
    case 'update-uri':
      return l10n.t('Not looked up: its Update URI says this copy does not come from wordpress.org. Use "WP Bench: Look Up Plugin…" to see the wordpress.org item.');
    case 'outside-workspace':
      return l10n.t('Not looked up: it was found through a symbolic link to a folder outside the workspace, and its name is not sent without your say. Use "WP Bench: Look Up Plugin…" to look it up.');
    default:
      return undefined;
  }
}
