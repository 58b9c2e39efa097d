// What PATH is: a plugin folder, a plugin's main PHP file, a single-file plugin or a theme folder. Decided from the
// headers WordPress itself reads (src/core/scan), before anything is installed or started.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { HEADER_BYTES, PLUGIN_HEADER_NAMES, THEME_HEADER_NAMES, parseFileHeaders } from '../scan/headers';
import { pluginFileSlug } from '../scan/text';
import { isInside, readHead, throwIfAborted } from './tree';

export interface MeasuredComponent {
  kind: 'plugin' | 'theme';
  slug: string;
  name: string;
  version: string | null;
  /** Absolute folder or file that is copied into the throwaway site. */
  source: string;
  /** A single-file plugin (copied as plugins/FILE) rather than a folder. */
  singleFile: boolean;
  /** plugin: main file inside the copied folder (or the file itself); theme: style.css */
  mainFile: string;
  /** theme: parent theme folder name (Template header), when a child theme */
  template: string | null;
  /** what may make the measurement differ from the installed component (shown with the result) */
  warnings?: string[];
}

export class ComponentNotFoundError extends Error {}

/**
 * The first HEADER_BYTES of a regular file; null for anything else (a FIFO's open() would block for good, a device
 * never ends) and, with `within` (a real folder path), for a link out of that folder: the copy leaves those out.
 */
async function head(file: string, within?: string, signal?: AbortSignal): Promise<Buffer | null> {
  throwIfAborted(signal);
  if (within !== undefined) {
    const real = await fs.realpath(file).catch(() => undefined);
    if (!real || !isInside(within, real)) return null;
  }
  return readHead(file, HEADER_BYTES);
}

async function pluginHeader(file: string, within?: string, signal?: AbortSignal): Promise<Record<string, string> | null> {
  const bytes = await head(file, within, signal);
  if (!bytes) return null;
  const h = parseFileHeaders(bytes, PLUGIN_HEADER_NAMES);
  return h['Plugin Name'] ? h : null;
}

function slugOf(name: string): string {
  return name.replace(/\.php$/i, '').toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'component';
}

/** A source checkout that needs a build step WordPress does not run: composer.json without vendor/. */
async function buildWarnings(c: MeasuredComponent): Promise<MeasuredComponent> {
  if (c.singleFile) return c;
  const has = (f: string) => fs.stat(path.join(c.source, f)).then(() => true, () => false);
  if ((await has('composer.json')) && !(await has('vendor'))) {
    c.warnings = ['composer.json but no vendor/ folder: a source checkout without `composer install` may load less than the installed component'];
  }
  return c;
}

/**
 * Finds the component at p, or throws ComponentNotFoundError saying what was looked for. Reads only the first bytes
 * of regular files (never opens a FIFO or a device); rejects with the signal's reason when it aborts.
 */
export async function detectComponent(p: string, signal?: AbortSignal): Promise<MeasuredComponent> {
  const c = await findComponent(p, signal);
  throwIfAborted(signal);
  return buildWarnings(c);
}

async function findComponent(p: string, signal?: AbortSignal): Promise<MeasuredComponent> {
  throwIfAborted(signal);
  const abs = path.resolve(p);
  const st = await fs.stat(abs).catch(() => null);
  if (!st) throw new ComponentNotFoundError(`${abs} does not exist (looked for a plugin folder, a plugin's PHP file or a theme folder)`);
  if (st.isFile()) {
    if (!/\.php$/i.test(abs)) throw new ComponentNotFoundError(`${abs} is not a PHP file (looked for a "Plugin Name:" header in a .php file)`);
    const h = await pluginHeader(abs, undefined, signal);
    if (!h) throw new ComponentNotFoundError(`${abs} has no "Plugin Name:" header in its first 8 KiB`);
    const dir = path.dirname(abs);
    // A main file inside its own folder (the folder holds nothing else that is a plugin's main file): copy the folder.
    const siblings = (await fs.readdir(dir)).filter((f) => /\.php$/i.test(f));
    const realDir = await fs.realpath(dir);
    const others = [];
    for (const f of siblings) if (f !== path.basename(abs) && (await pluginHeader(path.join(dir, f), realDir, signal))) others.push(f);
    const folder = path.basename(dir);
    const ownFolder = others.length === 0 && folder !== 'plugins' && folder !== 'mu-plugins' && (siblings.length > 1 || slugOf(folder) === slugOf(path.basename(abs)));
    return {
      kind: 'plugin',
      // A single file's slug as WordPress.org names it (hello.php is hello-dolly).
      slug: slugOf(ownFolder ? path.basename(dir) : pluginFileSlug(path.basename(abs))),
      name: h['Plugin Name'],
      version: h.Version || null,
      source: ownFolder ? dir : abs,
      singleFile: !ownFolder,
      mainFile: path.basename(abs),
      template: null,
    };
  }
  if (!st.isDirectory()) throw new ComponentNotFoundError(`${abs} is neither a file nor a folder`);
  const entries = await fs.readdir(abs);
  // Only what the copy takes: regular files, or links that stay inside the folder.
  const real = await fs.realpath(abs);
  // WordPress reads plugin headers from the PHP files at the top of a plugin's folder, in name order.
  for (const f of entries.filter((e) => /\.php$/i.test(e)).sort()) {
    const h = await pluginHeader(path.join(abs, f), real, signal);
    if (h) {
      return { kind: 'plugin', slug: slugOf(path.basename(abs)), name: h['Plugin Name'], version: h.Version || null, source: abs, singleFile: false, mainFile: f, template: null };
    }
  }
  if (entries.includes('style.css')) {
    const bytes = await head(path.join(abs, 'style.css'), real, signal);
    const h = bytes ? parseFileHeaders(bytes, THEME_HEADER_NAMES) : null;
    if (h && h['Theme Name']) {
      return { kind: 'theme', slug: slugOf(path.basename(abs)), name: h['Theme Name'], version: h.Version || null, source: abs, singleFile: false, mainFile: 'style.css', template: h.Template || null };
    }
  }
  throw new ComponentNotFoundError(
    `no plugin or theme in ${abs}: looked for a "Plugin Name:" header in its top-level .php files and a "Theme Name:" header in style.css`,
  );
}
