// Where a version comes from, in words: what the CLI's scan table and the hover say when the places that install a
// component disagree on its version (DetectedComponent.versions). No vscode.
import { l10n } from './l10n';
import type { LocationSource, VersionSource } from './model';

/** Which install or copy a version belongs to. */
export function versionPlace(source: LocationSource): string {
  switch (source) {
    case 'composer.lock':
      return l10n.t('installed by Composer (composer.lock)');
    case 'composer.json':
      return l10n.t('required in composer.json');
    case 'wp-env':
      return l10n.t('installed by wp-env (.wp-env.json)');
    case 'blueprint':
      return l10n.t('installed by Playground (blueprint)');
    case 'plugin-header':
    case 'theme-header':
    case 'mu-plugin':
      return l10n.t('the copy in this repository (its header)');
    default:
      return l10n.t('declared here');
  }
}

/** "Versions differ: 9.4.2 installed by wp-env (.wp-env.json:3), shown; 8.0 …", or undefined when they agree. */
export function versionsNote(versions: VersionSource[] | undefined): string | undefined {
  if (!versions || versions.length < 2) return undefined;
  const parts = versions.map((v, i) => {
    const where = `${v.version} ${versionPlace(v.source)}, ${v.file}:${v.line}`;
    return i === 0 ? l10n.t('{0} (shown)', where) : where;
  });
  return l10n.t('Versions differ: {0}.', parts.join('; '));
}
