// A repository that is a collection of themes or plugins (each top-level folder one under development). Plain Node;
// no vscode.
import * as path from 'path';
import type { DetectedComponent } from '../model';
import { ROLE_DIRS, TEST_DIRS } from './contentroots';
import { phpEmpty, type Ctx, type Dirent, type SelfInfo } from './context';
import { PLUGIN_HEADER_NAMES, THEME_HEADER_NAMES, parseFileHeaderLocations } from './headers';
import { addSelfInfo, selfEntry } from './self';
import { SKIP_DIRS } from './walk';

/**
 * A repository that is a collection (WordPress/community-themes, Automattic/themes: cloned into wp-content/themes;
 * a folder of plugins cloned into wp-content/plugins): each top-level folder with a headed `style.css`, or a headed
 * `<folder>/<folder>.php`, is a theme or plugin under development, slugged as `.` is. Only those two files are read
 * per folder, so a monorepo's `src/` costs nothing; `trunk/`-style folders get their slug from the headers.
 */
export async function addCollection(ctx: Ctx, dir: string, entries: Dirent[]): Promise<DetectedComponent[]> {
  const added: DetectedComponent[] = [];
  const candidates = entries.filter((e) => !e.name.startsWith('.') && !SKIP_DIRS.has(e.name) && !TEST_DIRS.has(e.name) && !(e.name in ROLE_DIRS) && e.isDirectory());
  await Promise.all(
    candidates.map(async (e) => {
      const sub = path.join(dir, e.name);
      const out: SelfInfo = {};
      const style = path.join(sub, 'style.css');
      const th = await ctx.fs.withHead(style, (buf) => (buf ? parseFileHeaderLocations(buf, THEME_HEADER_NAMES, 'Theme Name') : null));
      if (th && !phpEmpty(th['Theme Name']?.value)) out.theme = selfEntry('theme', e.name, style, th);
      const main = path.join(sub, e.name + '.php');
      const ph = await ctx.fs.withHead(main, (buf) => (buf ? parseFileHeaderLocations(buf, PLUGIN_HEADER_NAMES, 'Plugin Name') : null));
      if (ph && !phpEmpty(ph['Plugin Name']?.value)) out.plugin = selfEntry('plugin', e.name, main, ph);
      added.push(...addSelfInfo(ctx, out));
    }),
  );
  return added;
}
