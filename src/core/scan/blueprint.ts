// WordPress Playground blueprints (`blueprint.json`, `*.blueprint.json`): the wordpress.org plugins and themes
// a Playground site installs. Pure text.
import { l10n } from '../l10n';
import type { Node } from 'jsonc-parser';
import { isWordPressOrgSlug, type ComponentKind, type DetectedComponent, type ScanProblem } from '../model';
import { jsonChild, LineIndex, parseJsonTree, problemAt } from './text';

export function isBlueprintFile(name: string): boolean {
  return name === 'blueprint.json' || name.endsWith('.blueprint.json');
}

const child = jsonChild;

const RESOURCE_KIND: Record<string, ComponentKind> = {
  'wordpress.org/plugins': 'plugin',
  wordpressorgplugin: 'plugin',
  'wordpress.org/themes': 'theme',
  wordpressorgtheme: 'theme',
};

/** `blueprint.json`: the `plugins` shorthand and installPlugin / installTheme steps naming wordpress.org items. */
export function parseBlueprint(text: string, file: string): { components: DetectedComponent[]; problems: ScanProblem[] } {
  const problems: ScanProblem[] = [];
  const components: DetectedComponent[] = [];
  const index = new LineIndex(text);
  const root = parseJsonTree(text, file, index, problems, { disallowComments: false, allowTrailingComma: true });
  if (!root || root.type !== 'object') return { components, problems };

  const add = (kind: ComponentKind, node: Node) => {
    const slug = typeof node.value === 'string' ? node.value.trim() : '';
    if (!isWordPressOrgSlug(slug)) {
      problems.push(problemAt(file, index, node.offset + 1, l10n.t('Blueprint {0} "{1}" is not a wordpress.org slug; not looked up', kind, String(node.value)), slug));
      return;
    }
    const { line, column } = index.position(node.offset + 1);
    components.push({ kind, slug, name: null, version: null, locations: [{ file, line, column, length: Math.max(0, node.length - 2), source: 'blueprint' }] });
  };
  /** A resource reference: wordpress.org items become components; anything else is said, not counted. */
  const resource = (ref: Node | undefined, kind: ComponentKind, at: Node) => {
    if (ref?.type === 'string') return add(kind, ref); // `plugins` shorthand: a slug (or a URL, refused with a note)
    const res = child(ref, 'resource');
    const type = typeof res?.value === 'string' ? res.value.toLowerCase() : '';
    const slugNode = child(ref, 'slug');
    if (RESOURCE_KIND[type] === kind && slugNode?.type === 'string') return add(kind, slugNode);
    problems.push({
      ...problemAt(file, index, (res ?? at).offset, l10n.t('Blueprint installs a {0} from {1} that is not a wordpress.org item; WP Bench cannot look it up', kind, type ? `a "${type}" resource` : 'a resource')),
      severity: 'info',
    });
  };

  /**
   * A writeFile / writeFiles step into a plugins, mu-plugins or themes folder: code the blueprint brings, said once per
   * item (at the first write). A write into an item the blueprint installs from wordpress.org is part of that item.
   */
  const writes = new Map<string, { node: Node; folder: string; item: string | undefined }>();
  const written = (target: Node | undefined, at: Node) => {
    const m = typeof target?.value === 'string' ? /(?:^|\/)wp-content\/(plugins|mu-plugins|themes)(?:\/+([^/]+))?\/*$|(?:^|\/)wp-content\/(plugins|mu-plugins|themes)\/([^/]+)\//.exec(target.value) : null;
    if (!m) return;
    const folder = m[1] ?? m[3];
    const item = m[2] ?? m[4];
    const key = `${folder}/${item ?? ''}`;
    if (!writes.has(key)) writes.set(key, { node: target ?? at, folder, item });
  };
  const sayWrites = () => {
    for (const { node, folder, item } of writes.values()) {
      const slug = item?.replace(/\.php$/, '');
      if (slug && components.some((c) => c.slug === slug && c.kind === (folder === 'themes' ? 'theme' : 'plugin'))) continue;
      const name = (item ?? '').slice(0, 80);
      const message = !item
        ? folder === 'themes'
          ? l10n.t('Blueprint writes themes from its own files: not wordpress.org items; WP Bench cannot look them up')
          : l10n.t('Blueprint writes plugins from its own files: not wordpress.org items; WP Bench cannot look them up')
        : folder === 'themes'
          ? l10n.t('Blueprint writes a theme ("{0}") from its own files: not a wordpress.org item; WP Bench cannot look it up', name)
          : folder === 'mu-plugins'
            ? l10n.t('Blueprint writes a must-use plugin ("{0}") from its own files: not a wordpress.org item; WP Bench cannot look it up', name)
            : l10n.t('Blueprint writes a plugin ("{0}") from its own files: not a wordpress.org item; WP Bench cannot look it up', name);
      problems.push({ ...problemAt(file, index, node.offset, message), severity: 'info' });
    }
  };

  const shorthand = child(root, 'plugins');
  if (shorthand?.type === 'array') for (const item of shorthand.children ?? []) resource(item, 'plugin', item);
  const steps = child(root, 'steps');
  if (steps?.type === 'array') {
    for (const step of steps.children ?? []) {
      const name = child(step, 'step')?.value;
      if (name === 'installPlugin') resource(child(step, 'pluginData') ?? child(step, 'pluginZipFile'), 'plugin', step);
      else if (name === 'installTheme') resource(child(step, 'themeData') ?? child(step, 'themeZipFile'), 'theme', step);
      else if (name === 'writeFile' || name === 'writeFiles') written(child(step, name === 'writeFile' ? 'path' : 'writeToPath'), step);
    }
  }
  sayWrites();
  return { components, problems };
}
