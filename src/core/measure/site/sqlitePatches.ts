// The copy of WordPress's SQLite integration in a throwaway site, patched where WP Bench needs it to differ (see
// site.ts for the site/ folder).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/**
 * The integration's db.php boots Query Monitor from `active_plugins` before WordPress loads any plugin (its QM
 * integration). That loads the measured copy on every request, the clean site's and REF's included, past the side
 * switch: Query Monitor against a copy of itself died with "Cannot declare class ComposerAutoloaderInit…". On MySQL,
 * without QM's own db.php drop-in, QM loads as an ordinary plugin: WP Bench's copy of the integration does too.
 */
export async function patchSqliteNoPluginBoot(sqliteDir: string): Promise<boolean> {
  const file = path.join(sqliteDir, 'wp-includes', 'sqlite', 'db.php');
  const text = await fs.readFile(file, 'utf8').catch(() => undefined);
  const line = /^\s*require_once __DIR__ \. '\/\.\.\/\.\.\/integrations\/query-monitor\/boot\.php';\s*$/m;
  if (!text || !line.test(text)) return false;
  await fs.writeFile(file, text.replace(line, '// (WP Bench: the Query Monitor integration is not booted early; QM loads as an ordinary plugin.)'));
  return true;
}

/**
 * The integration (2.x/3.x) reads wpdb's private $allow_unsafe_unquoted_parameters, which WordPress before 6.2 lacks
 * (Debian 12 ships 6.1): our copy reads it only where it exists. The line only keeps core's own unit tests in sync.
 */
export async function patchSqliteForOldCore(sqliteDir: string): Promise<boolean> {
  const file = path.join(sqliteDir, 'wp-includes', 'sqlite', 'class-wp-sqlite-db.php');
  const text = await fs.readFile(file, 'utf8').catch(() => undefined);
  const needle = "$wpdb_allow_unsafe_unquoted_parameters = $this->__get( 'allow_unsafe_unquoted_parameters' );";
  if (!text?.includes(needle)) return false;
  await fs.writeFile(
    file,
    text.replace(needle, "$wpdb_allow_unsafe_unquoted_parameters = property_exists( 'wpdb', 'allow_unsafe_unquoted_parameters' ) ? $this->__get( 'allow_unsafe_unquoted_parameters' ) : $this->allow_unsafe_unquoted_parameters;"),
  );
  return true;
}
