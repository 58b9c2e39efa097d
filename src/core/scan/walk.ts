// The walk: every folder under the root once (by real path), skipping bundled libraries and a core copy's own
// folders; each folder's declaration files read before its sub-folders; content roots handed to contentroots.ts.
// Plain Node; no vscode.
import * as path from 'path';
import { insideRealRoot, isDirEntry, outsideLink, readDir } from './bounds';
import { contentRootKind, scanContentRoot, tentativeContentRoot, underTests } from './contentroots';
import { type Ctx, type Dirent } from './context';
import { readDeclarations } from './declarations';

/** Folders never searched for content roots or declarations: bundled libraries carry their own headers. */
export const SKIP_DIRS = new Set(['.git', '.svn', '.hg', 'node_modules', 'vendor', 'bower_components', 'CVS']);

/** A WordPress core copy (wp-admin and wp-includes side by side): its own folders hold no site content. */
export function coreDirsOf(entries: Dirent[]): ReadonlySet<string> {
  const dirs = new Set(entries.filter((e) => e.isDirectory()).map((e) => e.name));
  return dirs.has('wp-admin') && dirs.has('wp-includes') ? new Set(['wp-admin', 'wp-includes']) : new Set();
}

export async function walk(ctx: Ctx, dir: string, real: string, entries: Dirent[] | null, skip: ReadonlySet<string> = new Set()): Promise<void> {
  if (!entries) return;
  await readDeclarations(ctx, dir, entries);
  const core = coreDirsOf(entries);
  await Promise.all(
    entries.map(async (e) => {
      if (skip.has(e.name) || SKIP_DIRS.has(e.name) || core.has(e.name)) return;
      const abs = path.join(dir, e.name);
      if (ctx.noWalk.has(abs)) return;
      let childReal: string | null = path.join(real, e.name);
      if (e.isSymbolicLink()) {
        if (!(await isDirEntry(ctx, dir, e))) return;
        childReal = await ctx.fs.realpath(abs); // followed once: the real path is remembered below
        if (childReal && !insideRealRoot(ctx, childReal)) {
          outsideLink(ctx, abs, true);
          return;
        }
      } else if (!e.isDirectory()) {
        return;
      }
      if (!childReal || ctx.walked.has(childReal)) return;
      ctx.walked.add(childReal);
      const sub = await readDir(ctx, abs);
      if (!sub) return;
      const kind = underTests(ctx, abs) ? null : contentRootKind(abs, sub);
      if (kind === 'named') await scanContentRoot(ctx, abs, sub);
      else if (!(kind === 'shape' && (await tentativeContentRoot(ctx, abs, sub)))) await walk(ctx, abs, childReal, sub);
    }),
  );
}
