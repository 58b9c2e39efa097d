// scanWorkspace(): finds WordPress plugins and themes under a folder the way WordPress does, plus what composer.json /
// composer.lock, .wp-env.json and Playground blueprints declare. The orchestrator: each rule lives with its source —
// walk.ts and bounds.ts (the walk, links, real paths, maxFiles), contentroots.ts, plugins.ts, muplugins.ts,
// themes.ts, self.ts (the repository itself), collection.ts, declarations.ts (with composer.ts, wpenv.ts,
// blueprint.ts). Plain Node; no vscode.
import { l10n } from '../l10n';
import * as path from 'path';
import type { ComponentKind, ScanResult } from '../model';
import { markOutside, outsideNotes } from './bounds';
import { addCollection } from './collection';
import { ROLE_DIRS, roleDirCount, scanContentRoot, scanRoleDir } from './contentroots';
import { checkAbort, newCtx, problem, type Ctx, type Dirent, type ScanOptions } from './context';
import { decideLookups } from './lookup';
import { mergeComponents, normalizeProblems } from './merge';
import { settleUnloadedMu } from './muplugins';
import { addSelf } from './self';
import { addParents } from './themes';
import { walk } from './walk';

export { DEFAULT_MAX_FILES, isForeignUpdateUri, type ScanOptions } from './context';
export { selfSlugsOf } from './self';

/** The root as a plugin or theme under development, or else as a collection of them (see self.ts, collection.ts). */
async function addRoot(ctx: Ctx, dir: string, entries: Dirent[]): Promise<void> {
  if (!(await addSelf(ctx, dir, entries))) ctx.rootSelf.push(...(await addCollection(ctx, dir, entries)));
}

/**
 * Finds plugins and themes under `root`: every content root (wp-content, Bedrock web/app, a folder with two
 * of plugins/themes/mu-plugins), composer.json / composer.lock, .wp-env.json and blueprint files outside
 * vendor and node_modules, the folders named by composer `extra.installer-paths`, and the root itself when
 * it is a plugin or a theme. A Composer-installed WordPress core's own wp-content is left out.
 */
export async function scanWorkspace(root: string, options: ScanOptions = {}): Promise<ScanResult> {
  const absRoot = path.resolve(root);
  const ctx = newCtx(absRoot, options);
  checkAbort(ctx);
  const realRoot = (await ctx.fs.realpath(absRoot)) ?? absRoot;
  ctx.realRoot = realRoot;
  ctx.walked.add(realRoot);

  const rootEntries = await ctx.fs.readdir(absRoot); // not counted against maxFiles
  if (!rootEntries) {
    problem(ctx, absRoot, l10n.t('The folder could not be read.'));
  } else if (path.basename(absRoot) === 'wp-content' || roleDirCount(rootEntries) >= 2) {
    // The root is a content root (a wp-content folder, a VIP repository): its role folders, and the rest walked.
    await Promise.all([scanContentRoot(ctx, absRoot, rootEntries), walk(ctx, absRoot, realRoot, rootEntries, new Set(Object.keys(ROLE_DIRS)))]);
  } else {
    await Promise.all([addRoot(ctx, absRoot, rootEntries), walk(ctx, absRoot, realRoot, rootEntries)]);
  }
  // extra.installer-paths targets (relative to each composer.json).
  await Promise.all(ctx.installerTargets.map((t) => scanRoleDir(ctx, t.dir, t.role)));
  checkAbort(ctx);
  // A root that wp-env mounts as mu-plugins is that folder, not one plugin named after the checkout.
  if (ctx.rootMounted) ctx.components = ctx.components.filter((c) => !ctx.rootSelf.includes(c));
  // The root's own .wp-env.json says under which folder name WordPress sees it: that is its slug, stronger than a
  // Text Domain (WordPress/performance: the monorepo header's Text Domain is performance-lab, a real plugin beside it).
  // Not when a wordpress.org URI names the item (that is the item looked up), nor for a child theme installed
  // under its parent's name; the `"."` entries of the same file follow.
  for (const c of ctx.rootOwn) {
    const names = [...new Set(ctx.rootInstalls.filter((i) => i.kind === c.kind).map((i) => i.slug))];
    if (names.length !== 1 || c.wordpressOrgUri === true || names[0] === c.parent) continue;
    for (const e of ctx.rootEntries) if (e.kind === c.kind && e.slug === c.slug) e.slug = names[0];
    c.slug = names[0];
  }
  settleUnloadedMu(ctx);
  addParents(ctx);
  await markOutside(ctx);
  const merged = mergeComponents(ctx.components);
  outsideNotes(ctx, merged);

  return {
    root: absRoot,
    components: decideLookups(merged),
    problems: normalizeProblems([...ctx.problems, ...ctx.limit.problems]),
    stats: ctx.stats,
    ...(ctx.ownComposerFiles.length ? { ownComposerFiles: ctx.ownComposerFiles.sort() } : {}),
  };
}

export type { ComponentKind };
