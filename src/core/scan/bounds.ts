// The walk's bounds: what stays inside the opened folder (by text, and by real path once links are followed), links
// that lead out of it or nowhere, the maxFiles bound on directory entries, and the flags and notes for plugins and
// themes read through a link to outside the workspace. Plain Node; no vscode.
import { l10n } from '../l10n';
import * as path from 'path';
import type { ComponentLocation, DetectedComponent } from '../model';
import { absOf, checkAbort, eachLimit, problem, type Ctx, type Dirent } from './context';
import type { SyncScanFs } from './fsaccess';

/** Whether a path stays inside the opened folder (what leaves it is never read). */
export function insideRoot(ctx: Ctx, abs: string): boolean {
  return !path.relative(ctx.root, abs).startsWith('..');
}

/** Whether a real path (after following links) lies inside the root's real path. */
export function insideRealRoot(ctx: Ctx, real: string): boolean {
  const r = path.relative(ctx.realRoot, real);
  return r === '' || (r !== '..' && !r.startsWith(`..${path.sep}`) && !path.isAbsolute(r));
}

/** A link the scan does not follow, because it leads out of the workspace: said once, as a note. */
export function outsideLink(ctx: Ctx, abs: string, folder: boolean): void {
  const name = path.basename(abs);
  const message = folder
    ? l10n.t('{0} is a symbolic link to a folder outside the workspace; not walked.', name)
    : l10n.t('{0} is a symbolic link to a file outside the workspace; not read.', name);
  problem(ctx, abs, message, undefined, { severity: 'info' });
}

/** Counts directory entries against maxFiles; false once the bound is passed. */
export function admit(ctx: Ctx, n: number): boolean {
  if (ctx.limit.truncated) return false;
  ctx.limit.entries += n;
  if (ctx.limit.entries > ctx.maxFiles) {
    ctx.limit.truncated = true;
    ctx.limit.problems.push({
      file: '',
      line: 1,
      column: 1,
      message: l10n.t('Scan stopped after {0} directory entries (maxFiles); results are incomplete. Open a smaller folder, or exclude generated trees.', ctx.maxFiles),
    });
    return false;
  }
  return true;
}

export async function readDir(ctx: Ctx, dir: string): Promise<Dirent[] | null> {
  checkAbort(ctx);
  if (ctx.limit.truncated) return null;
  return ctx.fs.readdir(dir, (n) => admit(ctx, n));
}

/** readDir() in sliced mode, without a promise (see SyncScanFs). */
export function readDirNow(ctx: Ctx, io: SyncScanFs, dir: string): Dirent[] | null {
  checkAbort(ctx);
  if (ctx.limit.truncated) return null;
  return io.readdirNow(dir, (n) => admit(ctx, n));
}

/** Directory test that follows symlinks (PHP's is_dir()); stats only what readdir could not tell. */
export async function isDirEntry(ctx: Ctx, dir: string, e: Dirent): Promise<boolean> {
  if (e.isDirectory()) return true;
  if (!e.isSymbolicLink()) return false;
  return ctx.fs.isDirectory(path.join(dir, e.name));
}

/** A link whose target is not there: WordPress does not list it (is_dir() and is_file() say no); said, never skipped silently. */
export async function brokenLink(ctx: Ctx, dir: string, e: Dirent): Promise<boolean> {
  const abs = path.join(dir, e.name);
  if (!e.isSymbolicLink() || (await ctx.fs.exists(abs))) return false;
  problem(ctx, abs, l10n.t('{0} is a symbolic link to something that is not there; WordPress does not list it. Restore its target or remove the link.', e.name));
  return true;
}

/**
 * Locations in files found on disk (a child theme's Template line included, and VIP loader calls), as opposed to
 * declaration files: a file of these reached through a link to outside the workspace is private to someone else.
 */
export const HEADER_SOURCES: ReadonlySet<ComponentLocation['source']> = new Set(['plugin-header', 'theme-header', 'mu-plugin', 'theme-parent', 'vip-load-plugin']);

/**
 * A plugin or theme folder inside plugins/ or themes/ may be a link, and WordPress reads it: so is it read here, and
 * so is a VIP loader reached through a link. One whose headers (or loader calls) all lie outside the workspace is
 * flagged: not looked up without the user's say, its name may be private. Said by outsideNotes, after the merge.
 */
export async function markOutside(ctx: Ctx): Promise<void> {
  // First, without a promise: the header files of each component, unless one was read through no link (most).
  const todo: { c: DetectedComponent; files: string[] }[] = [];
  next: for (const c of ctx.components) {
    let files: string[] | undefined;
    for (const l of c.locations) {
      if (!HEADER_SOURCES.has(l.source)) continue;
      const f = absOf(ctx, l.file);
      if (ctx.readInside.has(f)) continue next;
      (files ??= []).push(f);
    }
    if (files) todo.push({ c, files });
  }
  await eachLimit(todo, ctx.fs.parallel, async ({ c, files }) => {
    const reals = await Promise.all(files.map((f) => ctx.fs.realpath(f)));
    if (reals.every((r) => r !== null && !insideRealRoot(ctx, r))) c.outsideWorkspace = true;
  });
}

/**
 * One note per component that is still flagged once every source is merged: a plugin that Composer (or a file inside
 * the workspace) declares as well is looked up, and is not said to be otherwise.
 */
export function outsideNotes(ctx: Ctx, merged: DetectedComponent[]): void {
  for (const c of merged) {
    if (c.outsideWorkspace !== true) continue;
    const at = c.locations.find((l) => HEADER_SOURCES.has(l.source) && l.source !== 'vip-load-plugin') ?? c.locations.find((l) => HEADER_SOURCES.has(l.source));
    if (!at) continue;
    const file = absOf(ctx, at.file);
    const message =
      at.source === 'vip-load-plugin'
        ? l10n.t('Plugin "{0}" is declared by wpcom_vip_load_plugin() in a file outside the workspace (reached through a symbolic link): listed, not looked up unless you ask.', c.slug)
        : c.kind === 'plugin'
          ? l10n.t('Plugin "{0}" is read through a symbolic link to a folder outside the workspace: listed, not looked up unless you ask.', c.slug)
          : l10n.t('Theme "{0}" is read through a symbolic link to a folder outside the workspace: listed, not looked up unless you ask.', c.slug);
    problem(ctx, file, message, at.source === 'vip-load-plugin' ? at : undefined, { severity: 'info' });
  }
}
