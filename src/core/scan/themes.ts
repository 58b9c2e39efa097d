// Themes folders: search_theme_directories() and WP_Theme's header rules (block themes, child themes' parents).
// Plain Node; no vscode.
import { l10n } from '../l10n';
import * as path from 'path';
import type { DetectedComponent } from '../model';
import { brokenLink, isDirEntry, readDir } from './bounds';
import { listable, loc, problem, uriFlags, type Ctx, type Dirent } from './context';
import { readOwnComposer } from './declarations';
import { THEME_HEADER_NAMES, parseFileHeaderLocations } from './headers';
import { lastPathPart } from './text';

/**
 * search_theme_directories(): a folder with style.css is a theme; otherwise each sub-folder with a
 * style.css is one (group/theme). `.`-names and CVS are skipped at the top level. (Core checks the
 * group's name, not the sub-folder's, so `group/.x/style.css` is listed by WordPress: we list it
 * too.) A folder with no style.css at all is listed by WordPress only as a broken theme ("Stylesheet
 * is missing"): we say so with a problem. A style.css without `Theme Name` is NOT an error in WP_Theme:
 * WordPress lists it under its folder name, so we report it with name null.
 */
export async function scanThemesDir(ctx: Ctx, dir: string): Promise<void> {
  const entries = await readDir(ctx, dir);
  if (!entries) return;
  await Promise.all(
    entries.map(async (e) => {
      if (e.name.startsWith('.') || e.name === 'CVS') return;
      if (!(await isDirEntry(ctx, dir, e))) {
        await brokenLink(ctx, dir, e);
        return;
      }
      const abs = path.join(dir, e.name);
      const inner = await readDir(ctx, abs);
      if (!inner) return;
      if (inner.some((x) => x.name === 'style.css')) {
        await addTheme(ctx, abs, e.name, inner);
        return;
      }
      let found = 0;
      await Promise.all(
        inner.map(async (s) => {
          if (s.isFile() || (!s.isDirectory() && !s.isSymbolicLink())) return;
          const subAbs = path.join(abs, s.name);
          const subEntries = await readDir(ctx, subAbs);
          if (subEntries && subEntries.some((x) => x.name === 'style.css')) {
            found++;
            await addTheme(ctx, subAbs, `${e.name}/${s.name}`, subEntries);
          }
        }),
      );
      if (found === 0 && !ctx.limit.truncated) {
        // A warning: it leaves a theme of the site uncounted (an uninitialised submodule, most often).
        problem(ctx, abs, l10n.t('Theme folder "{0}" has no style.css: WordPress lists it as a broken theme ("Stylesheet is missing"); not counted.', e.name));
        ctx.brokenThemes.add(ctx.problems[ctx.problems.length - 1]);
      }
    }),
  );
}

export async function addTheme(ctx: Ctx, abs: string, stylesheet: string, entries: Dirent[]): Promise<void> {
  const styleFile = path.join(abs, 'style.css');
  const styleEntry = entries.find((x) => x.name === 'style.css');
  const headers = (await ctx.fs.withHead(
    styleFile,
    (buf, why) => {
      if (buf) return parseFileHeaderLocations(buf, THEME_HEADER_NAMES);
      problem(ctx, styleFile, `style.css ${why ?? l10n.t('could not be read')}.`);
      return null;
    },
    styleEntry?.isFile(),
  )) ?? {};
  const slug = lastPathPart(stylesheet);
  const nameLoc = headers['Theme Name'];
  const location = loc(ctx, styleFile, nameLoc, 'theme-header');
  if (!listable(ctx, slug, styleFile, location, l10n.t('Theme folder'))) return;
  const names = new Set(entries.map((x) => x.name));
  // A theme's own composer.json can hold the site's plugin list (packages installed out of the theme's folder).
  if (names.has('composer.json') || names.has('composer.lock')) await readOwnComposer(ctx, abs, names);
  let blockTheme = false;
  for (const d of ['templates', 'block-templates']) {
    if (!blockTheme && names.has(d)) blockTheme = await ctx.fs.exists(path.join(abs, d, 'index.html'));
  }
  const c: DetectedComponent = {
    kind: 'theme',
    slug,
    name: nameLoc ? nameLoc.value : null,
    version: headers['Version']?.value ?? null,
    locations: [location],
  };
  if (blockTheme) c.blockTheme = true;
  uriFlags(c, headers, 'Theme URI');
  const tpl = headers['Template'];
  // A theme naming itself as Template is "theme_child_invalid" in WP_Theme: no parent.
  if (tpl && tpl.value !== stylesheet) {
    const parent = lastPathPart(tpl.value);
    const tplLoc = loc(ctx, styleFile, tpl, 'theme-parent');
    if (listable(ctx, parent, styleFile, tplLoc, l10n.t('Parent theme')) && parent !== slug) {
      c.parent = parent;
      ctx.parents.push({ child: c, parent, location: tplLoc });
    }
  }
  ctx.components.push(c);
}

/**
 * Parents named by child themes. A parent installed or declared in the repository is that component (the
 * child's Template line is one more place to hover it); one that is neither (only the child is tracked, a
 * premium parent uploaded by hand) is still part of the site: a component with the source `theme-parent`.
 */
export function addParents(ctx: Ctx): void {
  for (const { child, parent, location } of ctx.parents) {
    ctx.components.push({ kind: 'theme', slug: parent, name: null, version: null, locations: [location], parentOf: [child.slug] });
  }
}
