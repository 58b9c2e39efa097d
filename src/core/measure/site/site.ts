// site/: the throwaway site and talking to it: the site's folder, core, wp-config.php and component copy (this file),
// the SQLite integration unpacked (zip.ts) and patched (sqlitePatches.ts), the folders of killed runs swept (orphans.ts), one timed request (http.ts)
// and the probe's record of it (siteClient.ts). May import php/, machine/, component/, options/ and database/
// (orphans.ts: a killed run's database); not runtime/ or the run.
//
// The throwaway site: a temporary folder with a copy of WordPress core, our own wp-config.php, the SQLite drop-in,
// the probe, and the component COPIED in (never touched in place). Removed by removeSite() whatever happened.
import { crypto } from '../../lazyNode';
import { makeOwnedTempRoot } from './orphans';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { MeasuredComponent } from '../component/component';
import type { SqliteSource } from '../machine/environment';
import {
  HTTP_GUARD_MU_PLUGIN,
  BASELINE_THEME_INDEX,
  BASELINE_THEME_STYLE,
  MU_BASELINE_DIR,
  MU_REF_DIR,
  OWN_MU_PLUGINS,
  SIDE_MU_PLUGIN,
  SIDE_MU_PLUGIN_COMPARE,
  MU_NONE_DIR,
  phpString,
  probePhp,
  wpConfigPhp,
} from '../php/phpFiles';
import { ACTIVATE_ENDPOINT, BOOT_ENDPOINT, installEndpoint } from '../php/endpointsPhp';
import { patchSqliteForOldCore, patchSqliteNoPluginBoot } from './sqlitePatches';
import { SITE_ACTIVATE_ENDPOINT, SITE_MU_PLUGIN } from '../php/sitePhp';
import { SKIP_NAMES, throwIfAborted, walkTree, type SkippedEntry, type WalkOptions } from '../component/tree';
import { extractZip } from './zip';
import type { SandboxMount } from '../machine/sandbox';

export const BOOT_PATH = '/wpbench-boot.php';
export const ACTIVATE_PATH = '/wpbench-activate.php';
/** `measure --site`: activates one plugin of the stack (?plugin=basename). */
export const SITE_ACTIVATE_PATH = '/wpbench-site-activate.php';
export const INSTALL_PATH = '/wpbench-install.php';
export const BASELINE_THEME = 'wpbench-baseline';
/** Bundled default themes, newest first: the first one the core copy ships is the baseline. */
const DEFAULT_THEMES = ['twentytwentyfive', 'twentytwentyfour', 'twentytwentythree', 'twentytwentytwo', 'twentytwentyone', 'twentytwenty'];
/** Not copied with a component: version control and build tooling are no part of what WordPress loads. */
const SKIP = SKIP_NAMES;

export interface Site {
  /** Temporary folder holding everything; removeSite() deletes it. */
  root: string;
  siteDir: string;
  workDir: string;
  probeDir: string;
  key: string;
  baseTheme: string;
  /** plugin basename or theme folder, as WordPress names it */
  target: string;
  /** the second copy's basename or folder (`--baseline-ref`), when there is one */
  refTarget?: string;
  /** the database server's socket folder (absent: SQLite), the one part of the database's folder PHP sees */
  dbSocketDir?: string;
  /** each side or configuration has tables of its own (a database server; SQLite shares one file) */
  ownTables?: boolean;
  /** `measure --site`: each member's basename or folder (and a child theme's parent) */
  members?: Map<MeasuredComponent, { target: string; template?: string }>;
  /**
   * --site: each must-use member's folders under wp-content, holding it alone and holding all the others (one entry
   * per loader file: the members a loader loads are measured with it)
   */
  muFolders?: Map<MeasuredComponent, { only: string; without: string }>;
}

/** Folder (or file) name suffix of the second copy: never a name the working tree's copy can have. */
export const REF_SUFFIX = '--wpbench-ref';
/** The working tree's copy's beside it, as long: the paths it keeps cost the same at both (an identical copy: ±0 KB). */
export const TREE_SUFFIX = '--wpbench-new';

/** How PHP sees the folders (the native runtime: the same paths; Playground: its mount points). */
export interface PhpPaths {
  site: string;
  work: string;
}

export interface CopyOptions extends Pick<WalkOptions, 'signal' | 'followOutside' | 'maxEntries' | 'maxBytes' | 'label'> {
  /** names never copied (default: .git, .svn, .hg, node_modules) */
  skipNames?: ReadonlySet<string>;
  /**
   * Hard links instead of copies where the file system allows (else a copy): five times faster on a large plugin. Only
   * for trees nothing writes to afterwards, in a run whose sandbox mounts them read-only (a write through a link would
   * change the user's own file).
   */
  link?: boolean;
}

/**
 * WordPress core's copy: its own links are followed only into the system's folders (Debian's package links into
 * /usr/share/javascript, /usr/share/php and /etc/ssl/certs, which the sandbox shows anyway), never elsewhere: a link to
 * the home folder or the workspace is left out, said.
 */
const CORE_COPY: CopyOptions = { skipNames: new Set(), followOutside: ['/usr/', '/etc/ssl/'], label: 'WordPress core' };

/** WordPress core's own folders at its root: nothing else of the root is copied. */
export const CORE_DIRS = ['wp-admin', 'wp-includes'] as const;
/** WordPress core's own files at its root (every version since 5.0; those a version lacks are simply absent). */
export const CORE_ROOT_FILES = [
  'index.php',
  'license.txt',
  'readme.html',
  'wp-activate.php',
  'wp-blog-header.php',
  'wp-comments-post.php',
  'wp-config-sample.php',
  'wp-cron.php',
  'wp-links-opml.php',
  'wp-load.php',
  'wp-login.php',
  'wp-mail.php',
  'wp-settings.php',
  'wp-signup.php',
  'wp-trackback.php',
  'xmlrpc.php',
] as const;

/**
 * Where the measured PHP may write, as WordPress sites write: wp-content's uploads, cache and upgrade folders. The rest
 * of wp-content, WordPress core, every component's code and WP Bench's own files are read-only to it.
 */
export const WRITABLE_CONTENT = ['uploads', 'cache', 'upgrade'] as const;
/** The run's own folders PHP writes: its temporary folder, SQLite's file, the probes, the profiles, the relay's socket. */
const WRITABLE_WORK = ['tmp', 'db', 'probes', 'profiles', 'findings', 'sock'] as const;

/**
 * Copies a folder tree through the one walk of src/core/measure/tree.ts (links inside it followed, never a loop; a
 * link out of it only with `followOutside`; FIFOs, devices and sockets never opened), then many files at once:
 * about three times faster than fs.cp on WordPress core. Returns what was left out and why.
 */
export async function copyTree(src: string, dst: string, opts: CopyOptions = {}): Promise<SkippedEntry[]> {
  const tree = await walkTree(src, { ...opts, skipNames: opts.skipNames ?? SKIP });
  await fs.mkdir(dst, { recursive: true });
  for (const d of tree.dirs) await fs.mkdir(path.join(dst, ...d.split('/')), { recursive: true });
  const files = tree.files;
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      throwIfAborted(opts.signal);
      const f = files[next++];
      const to = path.join(dst, ...f.rel.split('/'));
      // A large file is checked for holes: a sparse file is copied sparse (it does not grow to its apparent size).
      if (opts.link && (await fs.link(f.abs, to).then(() => true, () => false))) continue;
      if (f.size >= SPARSE_CHECK_BYTES && (await isSparse(f.abs))) await copySparse(f.abs, to);
      else await fs.copyFile(f.abs, to);
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  return tree.skipped;
}

const SPARSE_CHECK_BYTES = 1024 * 1024;

async function isSparse(file: string): Promise<boolean> {
  const st = await fs.stat(file).catch(() => undefined);
  return !!st && st.blocks !== undefined && st.blocks * 512 < st.size;
}

/** Copies a file without writing its runs of zeros: the copy holds what the original holds on disk. */
export async function copySparse(from: string, to: string): Promise<void> {
  const src = await fs.open(from, 'r');
  try {
    const dst = await fs.open(to, 'w');
    try {
      const { size } = await src.stat();
      const buf = Buffer.alloc(1024 * 1024);
      const zeros = Buffer.alloc(buf.length);
      for (let pos = 0; pos < size; ) {
        const { bytesRead } = await src.read(buf, 0, buf.length, pos);
        if (bytesRead === 0) break;
        const chunk = buf.subarray(0, bytesRead);
        // All zeros (one memcmp): left as a hole (the final truncate gives the file its length).
        if (!chunk.equals(zeros.subarray(0, bytesRead))) await dst.write(chunk, 0, bytesRead, pos);
        pos += bytesRead;
      }
      await dst.truncate(size);
    } finally {
      await dst.close();
    }
  } finally {
    await src.close();
  }
}

/** A run's temporary folder, its owner written in it (a later run removes it if this process is killed). */
export async function makeTempRoot(): Promise<string> {
  return makeOwnedTempRoot();
}

export async function buildSite(
  root: string,
  opts: {
    core: string;
    component: MeasuredComponent;
    /** WordPress's SQLite integration, installed as the db.php drop-in; absent: `db` */
    sqlite?: SqliteSource;
    /** MariaDB/MySQL: where WordPress connects */
    db?: { host: string; name: string; user: string; password: string };
    phpPaths?: (site: string, work: string) => PhpPaths;
    ref?: MeasuredComponent;
    /** stops the copies (the run's time limit, Ctrl-C) */
    signal?: AbortSignal;
    /** `measure --site`: every member of the stack is installed (`component` is the first), the configurations file */
    site?: { members: MeasuredComponent[]; configsFile: string };
    /** told what a copy of a component left out ('the component', 'the baseline copy', 'the parent theme') */
    onSkipped?: (what: string, skipped: SkippedEntry[]) => void;
    /**
     * Core and the components hard-linked where the file system allows (CopyOptions.link): only when the measured PHP
     * runs in bubblewrap, which mounts them read-only. Nothing WP Bench writes later goes into those trees.
     */
    link?: boolean;
  },
): Promise<Site> {
  const siteDir = path.join(root, 'site');
  const workDir = path.join(root, 'work');
  const probeDir = path.join(workDir, 'probes');
  for (const d of WRITABLE_WORK) await fs.mkdir(path.join(workDir, d), { recursive: true });
  // Bound writable into the sandbox as a file: it must exist first.
  await fs.writeFile(path.join(workDir, 'php-errors.log'), '');
  await fs.mkdir(siteDir);
  const view = opts.phpPaths ? opts.phpPaths(siteDir, workDir) : { site: siteDir, work: workDir };

  // Core: only WordPress core's own folders and root files. A root that is also a site (the workspace itself) holds
  // other things (.env, .git with a token, wp-config-local.php, a deploy key linked in): none of them is copied.
  const skippedCore: SkippedEntry[] = [];
  for (const d of CORE_DIRS) {
    const from = path.join(opts.core, d);
    const st = await fs.lstat(from).catch(() => undefined);
    if (st?.isDirectory()) skippedCore.push(...(await copyTree(from, path.join(siteDir, d), { ...CORE_COPY, signal: opts.signal, link: opts.link })).map((x) => ({ ...x, rel: `${d}/${x.rel}` })));
    else if (st) skippedCore.push({ rel: d, why: st.isSymbolicLink() ? 'a link (core folders are copied only as folders)' : 'not a folder' });
  }
  for (const f of CORE_ROOT_FILES) {
    const from = path.join(opts.core, f);
    const st = await fs.lstat(from).catch(() => undefined);
    if (st?.isFile()) await fs.copyFile(from, path.join(siteDir, f));
    else if (st) skippedCore.push({ rel: f, why: st.isSymbolicLink() ? 'a link (core files are copied only as files)' : 'not a regular file' });
  }
  if (skippedCore.length) opts.onSkipped?.('WordPress core', skippedCore);
  const content = path.join(siteDir, 'wp-content');
  for (const d of ['plugins', 'themes', 'mu-plugins', ...WRITABLE_CONTENT]) await fs.mkdir(path.join(content, d), { recursive: true });

  // SQLite integration (without a MariaDB/MySQL server), outside the plugins folder so WordPress never lists or activates it.
  if (!opts.db) {
    if (!opts.sqlite) throw new Error('buildSite: neither a database server nor the SQLite integration');
    const sqliteDir = path.join(workDir, 'sqlite');
    if (opts.sqlite.kind === 'zip') await extractZip(opts.sqlite.path, sqliteDir, opts.sqlite.prefix);
    else await copyTree(opts.sqlite.path, sqliteDir, { followOutside: true, label: 'the SQLite integration', signal: opts.signal });
    await patchSqliteForOldCore(sqliteDir);
    await patchSqliteNoPluginBoot(sqliteDir);
    const sqliteView = path.posix.join(view.work, 'sqlite');
    await fs.writeFile(
      path.join(content, 'db.php'),
      `<?php\n// SQLite drop-in written by WP Bench (WordPress's SQLite Database Integration).\nif (!defined('DATABASE_TYPE')) define('DATABASE_TYPE', 'sqlite');\nif (!defined('DB_ENGINE')) define('DB_ENGINE', 'sqlite');\nrequire_once ${phpString(sqliteView)} . '/wp-includes/sqlite/db.php';\n`,
    );
  }

  // Baseline theme: the newest bundled default theme the core copy ships, else our minimal one. Never one of the
  // measured theme's folder names (a child of twentytwentythree runs on the parent beside it, not on core's copy).
  let baseTheme = BASELINE_THEME;
  const coreThemes = path.join(opts.core, 'wp-content', 'themes');
  const taken = new Set([opts.component, opts.ref, ...(opts.site?.members ?? [])].flatMap((t) => (t?.kind === 'theme' ? [t.slug, ...(t.parent ? [t.parent.slug] : [])] : [])));
  const bundled = DEFAULT_THEMES.find((t) => !taken.has(t) && existsSync(path.join(coreThemes, t, 'style.css')));
  if (bundled) {
    baseTheme = bundled;
    await copyTree(path.join(coreThemes, bundled), path.join(content, 'themes', bundled), { ...CORE_COPY, signal: opts.signal });
  } else {
    await fs.mkdir(path.join(content, 'themes', BASELINE_THEME));
    await fs.writeFile(path.join(content, 'themes', BASELINE_THEME, 'style.css'), BASELINE_THEME_STYLE);
    await fs.writeFile(path.join(content, 'themes', BASELINE_THEME, 'index.php'), BASELINE_THEME_INDEX);
  }

  // The component, copied (and the --baseline-ref copy beside it, under another name).
  const install = async (c: MeasuredComponent, suffix: string): Promise<{ target: string; template?: string }> => {
    const what = suffix === REF_SUFFIX ? 'the baseline copy' : 'the component';
    const copy = async (from: string, to: string, label: string) => {
      const skipped = await copyTree(from, to, { signal: opts.signal, label, link: opts.link });
      if (skipped.length) opts.onSkipped?.(label, skipped);
    };
    if (c.kind === 'plugin' && c.mustUse) {
      // Where WordPress loads it (the --baseline-ref copy: a folder of its own, under the same names), with the
      // sub-folders it loads beside it, as in its repository: __DIR__ . '/acme/acme.php' finds the same files.
      const dir = suffix === REF_SUFFIX ? MU_REF_DIR : 'mu-plugins';
      await fs.mkdir(path.join(content, dir), { recursive: true });
      if (!(await fs.stat(c.source)).isFile()) throw new Error(`${c.source} is not a regular file`);
      await fs.copyFile(c.source, path.join(content, dir, c.mainFile));
      for (const f of c.muFolders ?? []) await copy(path.join(path.dirname(c.source), f), path.join(content, dir, f), what);
      return { target: `${dir}/${c.mainFile}` };
    }
    if (c.kind === 'plugin') {
      if (c.singleFile) {
        const file = path.basename(c.source).replace(/\.php$/i, '') + suffix + '.php';
        // Only a regular file is opened (a FIFO named plugin.php would block the copy for good).
        if (!(await fs.stat(c.source)).isFile()) throw new Error(`${c.source} is not a regular file`);
        await fs.copyFile(c.source, path.join(content, 'plugins', file));
        return { target: file };
      }
      await copy(c.source, path.join(content, 'plugins', c.slug + suffix), what);
      return { target: `${c.slug}${suffix}/${c.mainFile}` };
    }
    await copy(c.source, path.join(content, 'themes', c.slug + suffix), what);
    if (c.parent) {
      // A child theme runs on its parent, found by detection beside it (a plain folder name, never a path such as
      // ../../.ssh). The --baseline-ref copy's parent is the working tree's (a REF snapshot holds only the child):
      // one parent folder, copied once, serves both copies.
      if (c.parent.slug === c.slug + suffix) throw new Error(`the child theme ${c.slug} and its parent theme have the same folder name`);
      if (!existsSync(path.join(content, 'themes', c.parent.slug))) await copy(c.parent.source, path.join(content, 'themes', c.parent.slug), 'the parent theme');
      return { target: c.slug + suffix, template: c.parent.slug };
    }
    // No parent found (detection refuses that before anything is built): nothing else is copied; WordPress says the parent is missing.
    if (c.template && c.template !== c.slug && c.template !== path.basename(c.source)) return { target: c.slug + suffix, template: c.template };
    return { target: c.slug + suffix };
  };
  const c = opts.component;
  const main = await install(c, opts.ref ? TREE_SUFFIX : '');
  // The stack: every other member beside the first (a parent theme shared by two members is copied once).
  const memberTargets = new Map<MeasuredComponent, { target: string; template?: string }>([[c, main]]);
  for (const m of opts.site?.members ?? []) if (m !== c) memberTargets.set(m, await install(m, ''));
  const target = main.target;
  const ref = opts.ref ? await install({ ...opts.ref, slug: c.slug }, REF_SUFFIX) : undefined;

  const key = crypto().randomBytes(16).toString('hex');
  const probeFile = path.join(workDir, 'probe.php');
  await fs.writeFile(probeFile, probePhp(path.posix.join(view.work, 'probes')));
  await fs.writeFile(
    path.join(siteDir, 'wp-config.php'),
    wpConfigPhp({
      dbDir: path.posix.join(view.work, 'db') + '/',
      ...(opts.db ? { db: opts.db } : {}),
      probeFile: path.posix.join(view.work, 'probe.php'),
      kind: c.kind,
      target,
      template: main.template,
      refTarget: ref?.target,
      refTemplate: ref?.template,
      baseTheme,
      key,
      mustUse: c.mustUse === true && !opts.site,
      ownTables: !!opts.db,
      ...(opts.site ? { siteConfigs: opts.site.configsFile } : {}),
      salts: Array.from({ length: 8 }, () => crypto().randomBytes(24).toString('base64')),
    }),
  );
  // A single measurement keeps the simpler switch (baseline or not); a comparison chooses among three sides. A
  // must-use plugin's run has a mu-plugins folder per side: each holds WP Bench's own ('wx': never over a file of
  // the component's).
  // A site's must-use plugins each get a folder holding it alone and one holding all the others (links to the
  // copies in mu-plugins: the same files, so the same code and the same opcache entries).
  // Must-use members loaded by the same file (a loader and the sub-folder plugins it loads) are one unit: the loader's
  // own member (else the first) stands for it.
  const units = new Map<string, MeasuredComponent[]>();
  for (const m of opts.site?.members ?? []) if (m.kind === 'plugin' && m.mustUse) units.set(m.mainFile, [...(units.get(m.mainFile) ?? []), m]);
  const siteMus = [...units.values()].map((u) => u.find((m) => path.basename(m.source) === m.mainFile) ?? u[0]);
  const names = (m: MeasuredComponent) => [m.mainFile, ...new Set(units.get(m.mainFile)!.flatMap((u) => u.muFolders ?? []))];
  const muFolders = new Map(siteMus.map((m, i) => [m, { only: `wpbench-mu-only-${i}`, without: `wpbench-mu-without-${i}` }]));
  const muDirs = opts.site ? ['mu-plugins', MU_NONE_DIR, ...[...muFolders.values()].flatMap((f) => [f.only, f.without])] : ['mu-plugins', ...(c.mustUse ? [MU_BASELINE_DIR, ...(ref ? [MU_REF_DIR] : [])] : [])];
  for (const dir of muDirs) {
    await fs.mkdir(path.join(content, dir), { recursive: true });
    await fs.writeFile(path.join(content, dir, OWN_MU_PLUGINS.side), opts.site ? SITE_MU_PLUGIN : ref ? SIDE_MU_PLUGIN_COMPARE : SIDE_MU_PLUGIN, { flag: 'wx' });
    await fs.writeFile(path.join(content, dir, OWN_MU_PLUGINS.http), HTTP_GUARD_MU_PLUGIN, { flag: 'wx' });
  }
  for (const [m, f] of muFolders) {
    for (const name of names(m)) {
      const dirs = [f.only, ...[...muFolders].filter(([o]) => o !== m).map(([, g]) => g.without)];
      for (const dir of dirs) await fs.symlink(path.posix.join('..', 'mu-plugins', name), path.join(content, dir, name));
    }
  }
  await fs.writeFile(path.join(siteDir, BOOT_PATH.slice(1)), BOOT_ENDPOINT);
  await fs.writeFile(path.join(siteDir, ACTIVATE_PATH.slice(1)), ACTIVATE_ENDPOINT);
  await fs.writeFile(path.join(siteDir, INSTALL_PATH.slice(1)), installEndpoint(key));
  if (opts.site) await fs.writeFile(path.join(siteDir, SITE_ACTIVATE_PATH.slice(1)), SITE_ACTIVATE_ENDPOINT);
  const dbSocketDir = opts.db && /^localhost:\//.test(opts.db.host) ? path.dirname(opts.db.host.slice('localhost:'.length)) : undefined;
  return { root, siteDir, workDir, probeDir, key, baseTheme, target, ...(ref ? { refTarget: ref.target } : {}), ...(opts.site ? { members: memberTargets, muFolders } : {}), ...(dbSocketDir ? { dbSocketDir } : {}), ...(opts.db ? { ownTables: true } : {}) };
}

/**
 * What the measured PHP sees of the run's folder in the sandbox, in order (a later mount over an earlier one): the site
 * and the run's work folder read-only (WordPress core, every component's code, WP Bench's own must-use plugins,
 * `wp-config.php`, the probe and `--site`'s configurations file: nothing it writes changes what is measured), then
 * the places it may write (WRITABLE_CONTENT, WRITABLE_WORK, its error log), and the database's socket folder. The
 * database's own folder, the run's owner file and everything else of the machine stay out of its view.
 */
export function sandboxMounts(site: Site): SandboxMount[] {
  return [
    { path: site.siteDir, writable: false },
    { path: site.workDir, writable: false },
    ...WRITABLE_CONTENT.map((d) => ({ path: path.join(site.siteDir, 'wp-content', d), writable: true })),
    ...WRITABLE_WORK.map((d) => ({ path: path.join(site.workDir, d), writable: true })),
    { path: path.join(site.workDir, 'php-errors.log'), writable: true },
    ...(site.dbSocketDir ? [{ path: site.dbSocketDir, writable: false }] : []),
  ];
}

/** Removes the whole temporary folder; never throws. */
export async function removeSite(root: string): Promise<void> {
  await fs.rm(root, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
}
