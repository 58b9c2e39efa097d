// mu-plugins folders (and VIP's client-mu-plugins): get_mu_plugins(), the sub-folders a loader requires (Bedrock's
// autoloader, a require naming the folder), and wpcom_vip_load_plugin() calls. Plain Node; no vscode.
import { l10n } from '../l10n';
import * as path from 'path';
import type { ComponentLocation, DetectedComponent } from '../model';
import { brokenLink, isDirEntry, readDir } from './bounds';
import { checkAbort, listable, loc, phpEmpty, problem, rel, uriFlags, type Ctx, type HeadedFile } from './context';
import { PLUGIN_HEADER_NAMES, parseFileHeaderLocations } from './headers';
import { loadedSubFolders, phpTokens, vipLoadPluginCalls, vipPluginFolder, type PhpToken } from './php';
import { addPlugin, headedPhpFiles, mainFile } from './plugins';
import { LineIndex, pluginFileSlug } from './text';

/**
 * get_mu_plugins(): every top-level entry ending in `.php` (WordPress does not skip `.`-names here),
 * header or not (no header: the file name is the name); `index.php` of at most 30 bytes is skipped.
 * Sub-folders: WordPress core never loads them; a loader does. A sub-folder with a headed plugin file (read as
 * get_plugins() reads a plugin folder) is a must-use plugin of the site when a top-level file of the folder
 * loads it (see loadedSubFolders: Bedrock's autoloader, a require naming the folder); otherwise an `info`
 * problem says it is not loaded. A sub-folder without a headed file (a library) is neither.
 * In VIP's client-mu-plugins, `wpcom_vip_load_plugin()` calls of the top-level files declare plugins.
 */
export async function scanMuPluginsDir(ctx: Ctx, dir: string): Promise<void> {
  const entries = await readDir(ctx, dir);
  if (!entries) return;
  const subFolders: { name: string; headed: HeadedFile[] }[] = [];
  const loaded: string[] = [];
  await Promise.all(
    entries.map(async (e) => {
      if (!e.name.endsWith('.php')) {
        if (e.name.startsWith('.')) return;
        if (!(await isDirEntry(ctx, dir, e))) {
          await brokenLink(ctx, dir, e);
          return;
        }
        const sub = await readDir(ctx, path.join(dir, e.name));
        const headed = sub ? await headedPhpFiles(ctx, path.join(dir, e.name), sub, e.name) : [];
        if (headed.length) subFolders.push({ name: e.name, headed });
        return;
      }
      const abs = path.join(dir, e.name);
      const r = await ctx.fs.withHead(
        abs,
        (buf, why) => {
          if (buf) return { size: buf.length, h: parseFileHeaderLocations(buf, PLUGIN_HEADER_NAMES) };
          problem(ctx, abs, l10n.t('Must-use plugin {0} {1}.', e.name, why ?? l10n.t('could not be read')));
          return null;
        },
        e.isFile(),
      );
      if (!r) return;
      if (e.name === 'index.php' && r.size <= 30) return; // "Silence is golden."
      loaded.push(abs);
      const headers = r.h;
      const nameLoc = phpEmpty(headers['Plugin Name']?.value) ? undefined : headers['Plugin Name'];
      const slug = pluginFileSlug(e.name);
      const location = loc(ctx, abs, nameLoc, 'mu-plugin');
      if (!listable(ctx, slug, abs, location, l10n.t('Must-use plugin file "{0}"', e.name))) return;
      const c: DetectedComponent = {
        kind: 'plugin',
        slug,
        name: nameLoc ? nameLoc.value : e.name,
        version: headers['Version']?.value ?? null,
        locations: [location],
        mustUse: true,
      };
      ctx.components.push(uriFlags(c, headers, 'Plugin URI'));
    }),
  );
  const vip = path.basename(dir) === 'client-mu-plugins';
  if (subFolders.length === 0 && !vip) return;
  const loads = { all: false, folders: new Set<string>() };
  await Promise.all(
    loaded.map(async (file) => {
      const read = await loaderTokens(ctx, file);
      if (!read) return;
      const l = loadedSubFolders(read.tokens);
      loads.all ||= l.all || path.basename(file) === 'bedrock-autoloader.php';
      for (const f of l.folders) loads.folders.add(f);
      if (vip) addVipLoadCalls(ctx, file, read.tokens, read.index);
    }),
  );
  for (const s of subFolders) {
    if (loads.all || loads.folders.has(s.name)) addPlugin(ctx, s.name, s.headed, s.name + '.php', true);
    else ctx.unloadedMu.push({ dir, name: s.name, headed: s.headed });
  }
}

/**
 * mu-plugins sub-folders that no top-level file loads. One that a Composer `wordpress-muplugin` package installs is
 * listed with its header (Composer put it there for the site), with a note that it runs only through a loader; any
 * other is a note, not listed.
 */
export function settleUnloadedMu(ctx: Ctx): void {
  const composer = new Set(
    ctx.components.filter((c) => c.kind === 'plugin' && c.locations.some((l) => l.source === 'composer.json' || l.source === 'composer.lock')).map((c) => c.slug),
  );
  for (const s of ctx.unloadedMu) {
    const main = mainFile(s.headed, s.name + '.php');
    const nameLoc = main.headers['Plugin Name'];
    if (composer.has(s.name)) {
      addPlugin(ctx, s.name, s.headed, s.name + '.php', true);
      problem(
        ctx,
        main.file,
        l10n.t('Must-use plugin "{0}" is installed by Composer into the sub-folder {1}/ of {2}/: listed, but WordPress loads only the top-level files, so it runs only when a loader requires it (Bedrock\'s autoloader, a top-level file that requires it), and none there does.', nameLoc.value, s.name, path.basename(s.dir)),
        nameLoc,
        { severity: 'info' },
      );
      continue;
    }
    problem(
      ctx,
      main.file,
      l10n.t('Must-use plugin "{0}" is in the sub-folder {1}/ of {2}/: not loaded unless a loader requires it (WordPress loads only the top-level files, and no file there requires this folder or is Bedrock\'s autoloader); not listed.', nameLoc.value, s.name, path.basename(s.dir)),
      nameLoc,
      { severity: 'info' },
    );
  }
}

/** Loader code is read whole up to this size; a larger top-level mu-plugin is not searched (with a problem). */
export const MAX_LOADER_BYTES = 512 * 1024;

export async function loaderTokens(ctx: Ctx, file: string): Promise<{ tokens: PhpToken[]; index: LineIndex } | null> {
  checkAbort(ctx);
  const r = await ctx.fs.readText(file, MAX_LOADER_BYTES);
  if (r.text !== null) return { tokens: phpTokens(r.text), index: new LineIndex(r.text) };
  problem(ctx, file, l10n.t('{0} {1}; what it loads (sub-folders, wpcom_vip_load_plugin() calls) is not known.', path.basename(file), r.why), undefined, { severity: 'info' });
  return null;
}

/** VIP's `wpcom_vip_load_plugin( 'liveblog' )`: a plugin of the plugins folder, declared at the call. */
export function addVipLoadCalls(ctx: Ctx, file: string, tokens: PhpToken[], index: LineIndex): void {
  for (const call of vipLoadPluginCalls(tokens)) {
    const at = index.position(call.offset);
    const slug = call.plugin === null ? '' : vipPluginFolder(call.plugin);
    if (call.plugin === null || slug === '') {
      problem(ctx, file, l10n.t('wpcom_vip_load_plugin() without a plain string as its first argument: WP Bench cannot tell which plugin it loads.'), at, { severity: 'info' });
      continue;
    }
    const location: ComponentLocation = { file: rel(ctx, file), line: at.line, column: at.column + 1, length: Math.max(0, call.length - 2), source: 'vip-load-plugin' };
    if (!listable(ctx, slug, file, location, l10n.t('Plugin loaded by wpcom_vip_load_plugin()'))) continue;
    ctx.components.push({ kind: 'plugin', slug, name: null, version: null, locations: [location] });
  }
}
