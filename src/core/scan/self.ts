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

export function addSelfInfo(ctx: Ctx, self: SelfInfo): DetectedComponent[] {
  const added: DetectedComponent[] = [];
  if (self.plugin && listable(ctx, self.plugin.slug, self.plugin.file, undefined, 'Plugin')) {
    const h = self.plugin.headers;
    const c: DetectedComponent = {
      kind: 'plugin',
      slug: self.plugin.slug,
      name: h['Plugin Name'].value,
      version: h['Version']?.value ?? null,
      locations: [loc(ctx, self.plugin.file, h['Plugin Name'], 'plugin-header')],
    };
    ctx.components.push(uriFlags(c, h, 'Plugin URI'));
    added.push(c);
  }
  if (self.theme && listable(ctx, self.theme.slug, self.theme.file, undefined, 'Theme')) {
    const h = self.theme.headers;
    const c: DetectedComponent = {
      kind: 'theme',
      slug: self.theme.slug,
      name: h['Theme Name'].value,
      version: h['Version']?.value ?? null,
      locations: [loc(ctx, self.theme.file, h['Theme Name'], 'theme-header')],
    };
    uriFlags(c, h, 'Theme URI');
    const tpl = h['Template'];
    if (tpl) {
      const parent = lastPathPart(tpl.value);
      const tplLoc = loc(ctx, self.theme.file, tpl, 'theme-parent');
      if (parent !== c.slug && listable(ctx, parent, self.theme.file, tplLoc, l10n.t('Parent theme'))) {
        c.parent = parent;
        ctx.parents.push({ child: c, parent, location: tplLoc });
      }
    }
    ctx.components.push(c);
    added.push(c);
  }
  return added;
}

/** The slugs `.` stands for in a .wp-env.json of `dir` (as a plugin, as a theme): see selfSlug. */
export async function selfSlugsOf(dir: string): Promise<{ plugin: string; theme: string }> {
  const ctx = newCtx(path.resolve(dir), { io: 'async', concurrency: 8 });
  const self = await selfInfo(ctx, ctx.root);
  const folderSlug = selfSlug('plugin', path.basename(ctx.root), {});
  return { plugin: self.plugin?.slug ?? folderSlug, theme: self.theme?.slug ?? folderSlug };
}
