// Content roots: wp-content, Bedrock's web/app, a folder holding two of plugins/, themes/, mu-plugins/ (proven by
// what they hold), never under tests/; and the role folders they hold, each scanned once by real path. Plain Node;
// no vscode.
import * as path from 'path';
import { insideRealRoot } from './bounds';
import { type Ctx, type Dirent, type Role } from './context';
import { scanMuPluginsDir } from './muplugins';
import { scanPluginsDir } from './plugins';
import { scanThemesDir } from './themes';

/** Folders WordPress loads plugins and themes from, inside a content root (VIP loads client-mu-plugins like mu-plugins). */
export const ROLE_DIRS = { plugins: 'plugins', 'mu-plugins': 'mu-plugins', 'client-mu-plugins': 'mu-plugins', themes: 'themes' } as const;

export async function scanRoleDir(ctx: Ctx, dir: string, role: Role): Promise<void> {
  const real = await ctx.fs.realpath(dir);
  if (!real) return;
  if (ctx.roleDirs.has(real)) {
    if (ctx.alreadyScanned) ctx.alreadyScanned.count++;
    return;
  }
  ctx.roleDirs.add(real);
  if (role === 'plugins') await scanPluginsDir(ctx, dir, insideRealRoot(ctx, real));
  else if (role === 'mu-plugins') await scanMuPluginsDir(ctx, dir);
  else await scanThemesDir(ctx, dir);
}

/** wp-content (or Bedrock's web/app, or a VIP repository root): plugins, mu-plugins, client-mu-plugins and themes. */
export async function scanContentRoot(ctx: Ctx, dir: string, entries: Dirent[]): Promise<void> {
  const names = new Set(entries.map((e) => e.name));
  await Promise.all(
    Object.entries(ROLE_DIRS)
      .filter(([name]) => names.has(name))
      .map(([name, role]) => scanRoleDir(ctx, path.join(dir, name), role)),
  );
}

/** How many of plugins/, themes/, mu-plugins/ (or client-mu-plugins/) a folder holds. */
export function roleDirCount(entries: Dirent[]): number {
  const names = new Set(entries.filter((e) => e.isDirectory() || e.isSymbolicLink()).map((e) => e.name));
  return (names.has('plugins') ? 1 : 0) + (names.has('themes') ? 1 : 0) + (names.has('mu-plugins') || names.has('client-mu-plugins') ? 1 : 0);
}

/**
 * A WordPress content root: `wp-content`, Bedrock's `web/app`, or a folder holding at least two of
 * plugins/, themes/, mu-plugins/ (a repository whose root is wp-content, as WordPress VIP's are). A lone
 * `plugins/` folder (a monorepo's packages) is walked like any other folder. 'named' roots are content roots
 * by their name; 'shape' roots only by what they hold, so they must prove it (see tentativeContentRoot).
 */
export function contentRootKind(dir: string, entries: Dirent[]): 'named' | 'shape' | null {
  const name = path.basename(dir);
  if (name === 'wp-content' || (name === 'app' && path.basename(path.dirname(dir)) === 'web')) return 'named';
  return roleDirCount(entries) >= 2 ? 'shape' : null;
}

/** Test fixtures are not the site: WordPress never loads a content root under tests/ or fixtures/. */
export const TEST_DIRS = new Set(['tests', 'test', '__tests__', 'fixtures', '__fixtures__', 'testdata']);

export function underTests(ctx: Ctx, dir: string): boolean {
  return path.relative(ctx.root, dir).split(path.sep).some((part) => TEST_DIRS.has(part));
}

/**
 * A folder that holds plugins/ and themes/ is a content root only when they hold a plugin or a theme: TinyMCE's
 * `js/tinymce/{plugins,themes}` or an API's `translations/{plugins,themes}` do not, and reading them as WordPress
 * folders would report their sub-folders as broken themes. Scanned into a view of the context with its own
 * findings, kept when it found a component.
 */
export async function tentativeContentRoot(ctx: Ctx, dir: string, entries: Dirent[]): Promise<boolean> {
  const trial: Ctx = { ...ctx, components: [], problems: [], parents: [], unloadedMu: [], alreadyScanned: { count: 0 } };
  await scanContentRoot(trial, dir, entries);
  ctx.parents.push(...trial.parents);
  ctx.components.push(...trial.components);
  // A role folder scanned elsewhere (the same real folder reached through a symlink) proves it as well.
  const proven = trial.components.length > 0 || trial.alreadyScanned!.count > 0;
  if (proven) ctx.unloadedMu.push(...trial.unloadedMu);
  // Not a content root: its "broken theme" problems and notes are noise, but a file that could not be read is still said.
  ctx.problems.push(...(proven ? trial.problems : trial.problems.filter((p) => p.severity !== 'info' && !ctx.brokenThemes.has(p))));
  return proven;
}
