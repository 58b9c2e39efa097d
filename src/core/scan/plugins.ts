// Plugins folders: get_plugins(), with the `<folder>/<folder>.php` fast path. Plain Node; no vscode.
import { l10n } from '../l10n';
import * as path from 'path';
import type { DetectedComponent } from '../model';
import { brokenLink, isDirEntry, readDir, readDirNow } from './bounds';
import { checkAbort, childPath, eachLimit, headers, listable, loc, phpEmpty, problem, uriFlags, type Ctx, type Dirent, type HeadedFile } from './context';
import type { HeadUse, SyncScanFs } from './fsaccess';
import { PLUGIN_HEADER_NAMES, parseFileHeaderLocations } from './headers';
import { isListableName } from './lookup';
import { pluginFileSlug } from './text';

export async function readPluginHeaders(ctx: Ctx, file: string, regular?: boolean): Promise<HeadedFile | null> {
  const h = await headers(ctx, file, PLUGIN_HEADER_NAMES, 'Plugin Name', regular);
  if (!h || phpEmpty(h['Plugin Name']?.value)) return null;
  return { file, headers: h };
}

/**
 * One folder's *.php files not starting with `.`, as get_plugins() reads them. Fast path (`mainFirst`): a headed
 * `<folder>/<folder>.php` settles slug, name and version, so it is read first and alone; WordPress would list the
 * folder's other headed files as more plugins of the same slug, which only adds locations.
 */
function folderRead(ctx: Ctx, dir: string, entries: Dirent[], folderName: string, inside: boolean) {
  const mainName = folderName + '.php';
  const paths: string[] = [];
  const regular: boolean[] = [];
  let main = -1;
  for (const s of entries) {
    const name = s.name;
    if (name.charCodeAt(0) === 0x2e || !name.endsWith('.php')) continue;
    if (name === mainName) main = paths.length;
    paths.push(childPath(dir, name));
    regular.push(s.isFile());
  }
  const mainFirst = main >= 0 && !ctx.allPluginFiles;
  if (mainFirst && main > 0) {
    [paths[0], paths[main]] = [paths[main], paths[0]];
    [regular[0], regular[main]] = [regular[main], regular[0]];
  }
  checkAbort(ctx);
  const headed: (HeadedFile | undefined)[] = new Array(paths.length);
  // The same reads and checks as readPluginHeaders(); true for a headed file (withHeads' firstDecides).
  const use: HeadUse = (i, buf, length, why) => {
    if (!buf) return void problem(ctx, paths[i], l10n.t('{0} {1}; WordPress would not list it either.', path.basename(paths[i]), why ?? l10n.t('could not be read')));
    const h = parseFileHeaderLocations(buf, PLUGIN_HEADER_NAMES, 'Plugin Name', length);
    if (phpEmpty(h['Plugin Name']?.value)) return false;
    headed[i] = { file: paths[i], headers: h };
    if (inside && regular[i]) ctx.readInside.add(paths[i]);
    return true;
  };
  return { paths, regular, mainFirst, use, headed: () => headed.filter((h): h is HeadedFile => h !== undefined) };
}

/** The headed *.php files directly in `dir` (get_plugins() for one folder), `<folder>.php` alone when it is headed. */
export async function headedPhpFiles(ctx: Ctx, dir: string, entries: Dirent[], folderName: string, inside = false): Promise<HeadedFile[]> {
  const r = folderRead(ctx, dir, entries, folderName, inside);
  await ctx.fs.withHeads(r.paths, r.regular, r.use, r.mainFirst);
  return r.headed();
}

/** headedPhpFiles() in sliced mode, without a promise (see SyncScanFs): the caller pauses between folders. */
function headedPhpFilesNow(ctx: Ctx, io: SyncScanFs, dir: string, entries: Dirent[], folderName: string, inside: boolean): HeadedFile[] {
  const r = folderRead(ctx, dir, entries, folderName, inside);
  io.headsNow(r.paths, r.regular, r.use, r.mainFirst);
  return r.headed();
}

/** A folder with more entries than this is read with pauses (headedPhpFiles), so that no folder blocks the event loop. */
const NOW_MAX_ENTRIES = 256;

/** How many more probe misses than hits a plugins folder tolerates before it lists every folder instead. */
const PROBE_SLACK = 16;

/**
 * get_plugins(): top-level *.php and *.php directly inside each sub-folder, never deeper;
 * names starting with `.` skipped; symlinked folders followed; a file counts only with a non-empty
 * Plugin Name. Several headed files in one folder are one slug (the folder name, as it is).
 */
export async function scanPluginsDir(ctx: Ctx, dir: string, inside = false): Promise<void> {
  const entries = await readDir(ctx, dir);
  if (!entries) return;
  // The probe pays where most folders hold `<folder>/<folder>.php` (akismet/akismet.php). Where most do not
  // (contact-form-7/wp-contact-form-7.php) a miss is a failed lstat before the listing: the probe stops once misses
  // outnumber hits by PROBE_SLACK. The results are the same: headedPhpFiles() applies the fast path to a listing.
  let hits = 0;
  let misses = 0;
  const probing = () => !ctx.allPluginFiles && misses - hits < PROBE_SLACK;
  const scanEntry = async (e: Dirent): Promise<void> => {
    if (e.name.startsWith('.')) return;
    const abs = childPath(dir, e.name);
    if (e.isDirectory() || (await isDirEntry(ctx, dir, e))) {
      // Fast path: a headed `<folder>/<folder>.php` settles slug, name and version without listing the folder
      // (its other headed files would only add locations of the same slug). Missing or not a plain file: list it.
      // Kept inline: one more async layer per folder costs ~5 MB of peak memory on 2,000 plugins (npm run bench).
      let mainRead = false;
      if (probing()) {
        const main = childPath(abs, e.name + '.php');
        let plain = false;
        const h = await ctx.fs.withHead(main, (buf, _why, p) => ((plain = p === true), buf ? parseFileHeaderLocations(buf, PLUGIN_HEADER_NAMES, 'Plugin Name') : null));
        if (h && !phpEmpty(h['Plugin Name']?.value)) {
          if (inside && plain && e.isDirectory()) ctx.readInside.add(main);
          hits++;
          addPlugin(ctx, e.name, [{ file: main, headers: h }], e.name + '.php');
          return;
        }
        misses++;
        mainRead = h !== null; // read, no header: not read again below
      }
      const sub = await readDir(ctx, abs);
      if (!sub) return;
      const headed = await headedPhpFiles(ctx, abs, mainRead ? sub.filter((x) => x.name !== e.name + '.php') : sub, e.name, inside && e.isDirectory());
      if (headed.length) addPlugin(ctx, e.name, headed, e.name + '.php');
    } else if (e.name.endsWith('.php')) {
      const h = await readPluginHeaders(ctx, abs, e.isFile());
      if (h && inside && e.isFile()) ctx.readInside.add(h.file);
      if (h) addPlugin(ctx, pluginFileSlug(e.name), [h], e.name);
    } else {
      await brokenLink(ctx, dir, e);
    }
  };
  const now = ctx.fs.sync;
  if (!now) return eachLimit(entries, ctx.fs.parallel, scanEntry);
  for (const e of entries) {
    // Sliced mode, a plain folder once the probe has stopped: listed and read without a promise (see SyncScanFs).
    if (!e.isDirectory() || probing() || e.name.startsWith('.')) {
      await scanEntry(e);
      continue;
    }
    if (now.due()) await now.pause();
    const abs = childPath(dir, e.name);
    const sub = readDirNow(ctx, now, abs);
    if (!sub) continue;
    const headed = sub.length <= NOW_MAX_ENTRIES ? headedPhpFilesNow(ctx, now, abs, sub, e.name, inside) : await headedPhpFiles(ctx, abs, sub, e.name, inside);
    if (headed.length) addPlugin(ctx, e.name, headed, e.name + '.php');
  }
}

export function mainFile(headed: HeadedFile[], preferred: string): HeadedFile {
  // The name and version come from `<folder>/<folder>.php` when it has a header, else the first by file name.
  if (headed.length === 1) return headed[0];
  headed.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return headed.find((h) => path.basename(h.file) === preferred) ?? headed[0];
}

export function addPlugin(ctx: Ctx, slug: string, headed: HeadedFile[], preferred: string, mustUse = false): void {
  const main = mainFile(headed, preferred);
  const nameLoc = main.headers['Plugin Name'];
  if (!isListableName(slug)) return void listable(ctx, slug, main.file, nameLoc, `Plugin "${nameLoc.value}"`);
  const c: DetectedComponent = {
    kind: 'plugin',
    slug,
    name: nameLoc.value,
    version: main.headers['Version']?.value ?? null,
    locations: headed.map((h) => loc(ctx, h.file, h.headers['Plugin Name'], mustUse ? 'mu-plugin' : 'plugin-header')),
  };
  if (mustUse) c.mustUse = true;
  ctx.components.push(uriFlags(c, main.headers, 'Plugin URI'));
}
