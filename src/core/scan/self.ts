// The plugin or theme in a folder: a repository that is one plugin or one theme, and what `.` of a .wp-env.json
// stands for. Plain Node; no vscode.
import { l10n } from '../l10n';
import * as path from 'path';
import type { ComponentKind, DetectedComponent } from '../model';
import { readDir } from './bounds';
import { headers, listable, loc, newCtx, phpEmpty, uriFlags, type Ctx, type Dirent, type SelfInfo } from './context';
import { THEME_HEADER_NAMES, type HeaderMatch } from './headers';
import { selfSlug } from './lookup';
import { headedPhpFiles, mainFile } from './plugins';
import { lastPathPart } from './text';

/** The plugin or theme a folder's header makes, slugged by its strongest evidence (see selfSlug). */
export function selfEntry(kind: ComponentKind, folder: string, file: string, h: Record<string, HeaderMatch>): NonNullable<SelfInfo['plugin']> {
  const uri = h[kind === 'plugin' ? 'Plugin URI' : 'Theme URI']?.value;
  return { slug: selfSlug(kind, folder, { uri, updateUri: h['Update URI']?.value, textDomain: h['Text Domain']?.value }), file, headers: h };
}

export function selfInfo(ctx: Ctx, dir: string, entries?: Dirent[]): Promise<SelfInfo> {
  let p = ctx.selfCache.get(dir);
  if (!p) {
    p = readSelf(ctx, dir, entries);
    ctx.selfCache.set(dir, p);
  }
  return p;
}

export async function readSelf(ctx: Ctx, dir: string, given?: Dirent[]): Promise<SelfInfo> {
  const entries = given ?? (await readDir(ctx, dir)) ?? [];
  const folder = path.basename(dir);
  const out: SelfInfo = {};
  const headed = await headedPhpFiles(ctx, dir, entries, folder);
  if (headed.length) {
    const main = mainFile(headed, folder + '.php');
    const h = main.headers;
    out.plugin = selfEntry('plugin', folder, main.file, h);
  }
  const style = entries.find((x) => x.name === 'style.css');
  if (style) {
    const file = path.join(dir, 'style.css');
    const h = await headers(ctx, file, THEME_HEADER_NAMES, 'Theme Name', style.isFile());
    if (h && !phpEmpty(h['Theme Name']?.value)) {
      out.theme = selfEntry('theme', folder, file, h);
    }
  }
  return out;
}

/**
 * The repository itself, when it is one plugin (a top-level *.php with Plugin Name) or one theme (style.css with Theme
 * Name): false when it is neither (see collection.ts).
 */
export async function addSelf(ctx: Ctx, dir: string, entries: Dirent[]): Promise<boolean> {
  const self = await selfInfo(ctx, dir, entries);
  if (!self.plugin && !self.theme) return false;
  const own = addSelfInfo(ctx, self);
  ctx.rootSelf.push(...own);
  ctx.rootOwn.push(...own);
  return true;
}

/** The root's own plugin or theme from its header file. */
function headerComponent(ctx: Ctx, kind: 'plugin' | 'theme', info: NonNullable<SelfInfo['plugin']>): DetectedComponent {
  const h = info.headers;
  const nameHeader = kind === 'plugin' ? 'Plugin Name' : 'Theme Name';
  const c: DetectedComponent = {
    kind,
    slug: info.slug,
    name: h[nameHeader].value,
    version: h['Version']?.value ?? null,
    locations: [loc(ctx, info.file, h[nameHeader], kind === 'plugin' ? 'plugin-header' : 'theme-header')],
  };
  return uriFlags(c, h, kind === 'plugin' ? 'Plugin URI' : 'Theme URI');
}

export function addSelfInfo(ctx: Ctx, self: SelfInfo): DetectedComponent[] {
  const added: DetectedComponent[] = [];
  if (self.plugin && listable(ctx, self.plugin.slug, self.plugin.file, undefined, 'Plugin')) added.push(headerComponent(ctx, 'plugin', self.plugin));
  if (self.theme && listable(ctx, self.theme.slug, self.theme.file, undefined, 'Theme')) {
    const c = headerComponent(ctx, 'theme', self.theme);
    const tpl = self.theme.headers['Template'];
    if (tpl) {
      const parent = lastPathPart(tpl.value);
      const tplLoc = loc(ctx, self.theme.file, tpl, 'theme-parent');
      if (parent !== c.slug && listable(ctx, parent, self.theme.file, tplLoc, l10n.t('Parent theme'))) {
        c.parent = parent;
        ctx.parents.push({ child: c, parent, location: tplLoc });
      }
    }
    added.push(c);
  }
  ctx.components.push(...added);
  return added;
}

/** The slugs `.` stands for in a .wp-env.json of `dir` (as a plugin, as a theme): see selfSlug. */
export async function selfSlugsOf(dir: string): Promise<{ plugin: string; theme: string }> {
  const ctx = newCtx(path.resolve(dir), { io: 'async', concurrency: 8 });
  const self = await selfInfo(ctx, ctx.root);
  const folderSlug = selfSlug('plugin', path.basename(ctx.root), {});
  return { plugin: self.plugin?.slug ?? folderSlug, theme: self.theme?.slug ?? folderSlug };
}
