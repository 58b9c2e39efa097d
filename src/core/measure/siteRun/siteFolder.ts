// `wp-bench measure PATH` without --site, where PATH holds no plugin or theme of its own but is a site's folder (a
// wp-content site, a Bedrock site, a folder the scan finds components installed in): the error says so and suggests
// --site (issue 45). Reads what the scan reads (src/core/scan), only once detection has failed.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { INSTALLED_SOURCES } from '../../scan/merge';
import { scanWorkspace } from '../../scan/workspace';
import { ComponentLoadingError, ComponentNotFoundError, detectComponent } from '../component/component';
import { measuredText } from '../component/measuredText';
import { MeasureError } from '../options/runOptions';

/** How many of the components found are named in the hint. */
const NAMED = 4;

/**
 * What to add to "no plugin or theme in DIR" when DIR is a site's folder: "; it is a site's folder … measure it with
 * --site …". Undefined when DIR is a component after all, fails for another reason (a missing parent theme), is not a
 * folder, or holds no installed component.
 */
export async function siteFolderHint(dir: string, signal?: AbortSignal): Promise<string | undefined> {
  const abs = path.resolve(dir);
  if (!(await fs.stat(abs).then((s) => s.isDirectory(), () => false))) return undefined;
  const notAComponent = await detectComponent(abs, signal).then(
    () => false,
    (e: unknown) => e instanceof ComponentNotFoundError && !(e instanceof ComponentLoadingError),
  );
  if (!notAComponent) return undefined;
  const scan = await scanWorkspace(abs, { signal }).catch(() => undefined);
  const found = (scan?.components ?? []).filter((d) => d.locations.some((l) => INSTALLED_SOURCES.has(l.source)));
  if (!found.length) return undefined;
  // Folder and file names come from the tree: printed on one line, escaped.
  const names = found.slice(0, NAMED).map((d) => measuredText(d.slug)).join(', ') + (found.length > NAMED ? `, and ${found.length - NAMED} more` : '');
  const first = measuredText(found[0].locations.find((l) => INSTALLED_SOURCES.has(l.source))!.file);
  return `; it is a site's folder (the scan finds ${found.length === 1 ? 'one component' : `${found.length} components`} installed in it: ${names}): measure the whole site with --site (wp-bench measure ${measuredText(dir)} --site), or one component by its own path (${first})`;
}

/** Rethrows `err`; a MeasureError of exit 2 (PATH is not a component) with the hint added when PATH is a site's folder. */
export async function rethrowWithSiteHint(err: unknown, dir: string, signal?: AbortSignal): Promise<never> {
  if (!(err instanceof MeasureError) || err.exitCode !== 2 || signal?.aborted) throw err;
  const hint = await siteFolderHint(dir, signal).catch(() => undefined);
  throw hint ? new MeasureError(`${err.message}${hint}`, 2) : err;
}
