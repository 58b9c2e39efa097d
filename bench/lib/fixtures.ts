// Generated WordPress sites for the benchmark: seeded, so every run writes the same bytes.
//   <dir>/composer.json                 wpackagist entries (one per line)
//   <dir>/wp-content/plugins/<slug>/    10 top-level PHP files + readme.txt + includes/ + vendor/
//   <dir>/wp-content/themes/...         style.css themes, a few child themes, a group folder
//   <dir>/wp-content/mu-plugins/        top-level PHP files
// Bodies are realistic PHP/CSS of a few KB; a few files are over 8 KiB (WordPress reads only the first
// 8 KiB) and a few carry a `Plugin Name:` header after 8 KiB, which neither WordPress nor we may see.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { knownSlugs } from '../../src/emulator/server';
import { int, pick, prng } from './util';

export interface SiteOptions {
  plugins: number;
  themes: number;
  muPlugins: number;
  composerEntries: number;
  /** PHP files in each plugin's includes/ and vendor/ trees (≈100 each in the full site). */
  includesFiles: number;
  vendorFiles: number;
  seed?: number;
  /**
   * Write only plugin folders [pluginsFrom, plugins) (default 0: the whole site). With pluginsFrom > 0 nothing
   * else is written: a site grows in place, and folder i is the same whatever the total.
   */
  pluginsFrom?: number;
  /**
   * 'other': every plugin's main file is named otherwise than the folder (as `contact-form-7/wp-contact-form-7.php`,
   * `wordpress-seo/wp-seo.php`): no `<folder>/<folder>.php` shortcut, every folder is listed and its top-level
   * files read. Default 'folder': mostly `<folder>/<folder>.php`, as generated before.
   */
  mainFile?: 'folder' | 'other';
}

export interface GeneratedSite {
  dir: string;
  contentDir: string;
  composerFile: string;
  /** Slugs of the plugin folders (in the order written). */
  pluginSlugs: string[];
  /** Slugs named in composer.json (wpackagist-plugin/<slug>). */
  composerSlugs: string[];
  themeSlugs: string[];
  /** Files WordPress would open for headers: top-level *.php of plugins/ and of each plugin folder, style.css, mu-plugins. */
  candidateFiles: number;
  filesWritten: number;
  /** Of filesWritten: hard links to pooled copies (includes/ and vendor/ files). */
  hardLinks: number;
  bytesWritten: number;
  /** Plugin folders deliberately without a header in the first 8 KiB (listed by nobody). */
  headerlessFolders: number;
}

const WORDS = [
  'cache', 'seo', 'forms', 'gallery', 'social', 'backup', 'security', 'shop', 'events', 'slider', 'analytics', 'redirect',
  'newsletter', 'booking', 'members', 'search', 'media', 'editor', 'blocks', 'translate', 'schema', 'sitemap', 'login', 'export',
];
const VERBS = ['get', 'set', 'render', 'register', 'enqueue', 'sanitize', 'validate', 'load', 'maybe_update', 'filter', 'handle', 'build'];
const NOUNS = ['settings', 'options', 'assets', 'scripts', 'styles', 'meta', 'fields', 'rows', 'items', 'query', 'request', 'response', 'notice', 'menu', 'widget', 'block'];

const title = (s: string) => s.replace(/(^|[-_])([a-z0-9])/g, (_, sep: string, c: string) => (sep ? ' ' : '') + c.toUpperCase());
const studly = (s: string) => title(s).replace(/ /g, '_');

function phpMethod(rnd: () => number, prefix: string): string {
  const v = pick(rnd, VERBS);
  const n = pick(rnd, NOUNS);
  const hook = `${prefix}_${v}_${n}`;
  const keys = Array.from({ length: int(rnd, 2, 6) }, () => `'${pick(rnd, NOUNS)}_${int(rnd, 1, 99)}' => ${rnd() < 0.5 ? int(rnd, 0, 500) : `'${pick(rnd, WORDS)}'`}`);
  return `
	/**
	 * ${title(v)} the ${n} for the current request.
	 *
	 * @param array $args Optional. Arguments passed by the caller.
	 * @return array|\\WP_Error
	 */
	public function ${v}_${n}( $args = array() ) {
		$defaults = array(
			${keys.join(',\n\t\t\t')},
		);
		$args     = wp_parse_args( $args, $defaults );
		if ( ! current_user_can( 'manage_options' ) && ! empty( $args['${pick(rnd, NOUNS)}'] ) ) {
			return new \\WP_Error( '${hook}_forbidden', __( 'You are not allowed to do that.', '${prefix.replace(/_/g, '-')}' ) );
		}
		foreach ( $args as $key => $value ) {
			if ( is_string( $value ) ) {
				$args[ $key ] = sanitize_text_field( $value );
			}
		}
		$cached = wp_cache_get( '${hook}', '${prefix}' );
		if ( false !== $cached ) {
			return $cached;
		}
		$result = apply_filters( '${hook}', $args, $this );
		wp_cache_set( '${hook}', $result, '${prefix}', ${int(rnd, 1, 24) * 60} );
		return $result;
	}
`;
}

/** PHP source of roughly `bytes` bytes: a file doc block, a guard and a class with methods. */
function phpBody(rnd: () => number, bytes: number, opening = true): string {
  const prefix = `${pick(rnd, WORDS)}_${pick(rnd, WORDS)}`;
  let s = opening ? `<?php\n/**\n * ${title(pick(rnd, NOUNS))} handling.\n *\n * @package ${studly(prefix)}\n */\n\n` : '\n';
  s += `namespace ${studly(prefix)};\n\nif ( ! defined( 'ABSPATH' ) ) {\n\texit;\n}\n\nclass ${studly(pick(rnd, NOUNS))}_${studly(pick(rnd, VERBS))} {\n`;
  s += `\n\tconst VERSION = '${int(rnd, 1, 9)}.${int(rnd, 0, 20)}.${int(rnd, 0, 9)}';\n`;
  let guard = 0;
  while (s.length < bytes - 4 && guard++ < 400) s += phpMethod(rnd, prefix);
  return s + '}\n';
}

function pluginHeader(name: string, slug: string, version: string, rnd: () => number): string {
  return `<?php
/**
 * Plugin Name:       ${name}
 * Plugin URI:        https://wordpress.org/plugins/${slug}/
 * Description:       ${title(pick(rnd, WORDS))} and ${pick(rnd, WORDS)} tools for your site.
 * Version:           ${version}
 * Requires at least: 6.${int(rnd, 0, 7)}
 * Requires PHP:      7.${int(rnd, 2, 4)}
 * Author:            ${title(pick(rnd, WORDS))} Team
 * Author URI:        https://example.com/
 * License:           GPL-2.0-or-later
 * License URI:       https://www.gnu.org/licenses/gpl-2.0.html
 * Text Domain:       ${slug}
 * Domain Path:       /languages
 */
`;
}

/** Pools of pre-rendered bodies: generation is bound by syscalls, not by string building. */
interface Pools {
  small: Buffer[]; // 1–6 KB
  large: Buffer[]; // 9–16 KB (read capped at 8 KiB)
  stray: Buffer[]; // a `Plugin Name:` header in the first 8 KiB (bundled library / legacy loader)
  late: Buffer[]; // a `Plugin Name:` header after 8 KiB: WordPress never sees it
  css: Buffer[];
}

function makePools(seed: number): Pools {
  const rnd = prng(seed ^ 0x5eed);
  const small = Array.from({ length: 160 }, () => Buffer.from(phpBody(rnd, int(rnd, 1000, 6000))));
  const large = Array.from({ length: 24 }, () => Buffer.from(phpBody(rnd, int(rnd, 9000, 16000))));
  const stray = Array.from({ length: 12 }, (_, i) =>
    Buffer.from(`<?php\n/**\n * Plugin Name: Bundled ${title(pick(rnd, WORDS))} Library ${i}\n * Version: 0.${i}.0\n */\n` + phpBody(rnd, int(rnd, 1000, 4000), false)),
  );
  const late = Array.from({ length: 8 }, (_, i) =>
    Buffer.from(phpBody(rnd, int(rnd, 8400, 9500)) + `/*\n * Plugin Name: Late Header ${i}\n * Version: 9.9.${i}\n */\n`),
  );
  const css = Array.from({ length: 24 }, () => {
    let s = '';
    let guard = 0;
    const target = int(rnd, 1000, 5000);
    while (s.length < target && guard++ < 400) {
      s += `\n.${pick(rnd, WORDS)}-${pick(rnd, NOUNS)} {\n\tmargin: 0 ${int(rnd, 0, 40)}px;\n\tcolor: #${int(rnd, 0, 0xffffff).toString(16).padStart(6, '0')};\n\tfont-size: ${int(rnd, 10, 32)}px;\n}\n`;
    }
    return Buffer.from(s);
  });
  return { small, large, stray, late, css };
}

class Writer {
  files = 0;
  bytes = 0;
  links = 0;
  private readonly dirs = new Set<string>();
  private readonly pooled = new Map<Buffer, string>();
  private linksWork = true;
  constructor(private readonly poolDir: string) {}
  private mkdir(file: string): void {
    const d = path.dirname(file);
    if (!this.dirs.has(d)) {
      fs.mkdirSync(d, { recursive: true });
      this.dirs.add(d);
    }
  }
  write(file: string, data: Buffer | string): void {
    this.mkdir(file);
    fs.writeFileSync(file, data);
    this.files++;
    this.bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
  }
  /**
   * A file nobody opens during a scan (includes/, vendor/): a hard link to one pooled copy of `data`, so
   * 400,000 such files cost directory entries, not 1.5 GB of writes (and minutes of removal). Falls back to
   * a plain write where hard links are not available.
   */
  link(file: string, data: Buffer): void {
    if (!this.linksWork) return this.write(file, data);
    let src = this.pooled.get(data);
    if (!src) {
      // Named by content: a site grown in several calls links to the same pooled files.
      src = path.join(this.poolDir, `${createHash('sha1').update(data).digest('hex').slice(0, 20)}.php`);
      fs.mkdirSync(this.poolDir, { recursive: true });
      if (!fs.existsSync(src)) fs.writeFileSync(src, data);
      this.pooled.set(data, src);
    }
    this.mkdir(file);
    try {
      fs.linkSync(src, file);
      this.files++;
      this.links++;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw err;
      this.linksWork = false;
      this.write(file, data);
    }
  }
}

const LIB_DIRS = ['admin', 'classes', 'rest', 'integrations', 'blocks'];
const VENDOR_PKGS = ['composer', 'guzzlehttp/guzzle/src', 'psr/log/src', 'symfony/polyfill-php80', 'league/container/src'];

/** Where the pooled copies behind the hard links of a site live: a sibling folder, outside the scanned tree. */
export function poolDirFor(siteDir: string): string {
  return `${siteDir}.pool`;
}

/** Removes a site and its pool. */
export function removeSite(siteDir: string): void {
  fs.rmSync(siteDir, { recursive: true, force: true });
  fs.rmSync(poolDirFor(siteDir), { recursive: true, force: true });
}

/** Writes a site; returns what was written. Deterministic for a given seed and options. */
export function generateSite(dir: string, opts: SiteOptions): GeneratedSite {
  const seed = opts.seed ?? 20250601;
  const from = opts.pluginsFrom ?? 0;
  let rnd = prng(seed);
  const pools = makePools(seed);
  const w = new Writer(poolDirFor(dir));
  const content = path.join(dir, 'wp-content');
  const pluginsDir = path.join(content, 'plugins');
  let candidates = 0;
  let headerless = 0;

  // Known slugs (real first, then synthetic-plugin-NNNNN); hello-dolly is the top-level hello.php.
  const pluginSlugs = knownSlugs('plugin', opts.plugins + 1).filter((s) => s !== 'hello-dolly').slice(0, opts.plugins);
  const singleFile = ['site-snippets', 'maintenance-switch'];

  const body = (): Buffer => (rnd() < 0.06 ? pick(rnd, pools.large) : pick(rnd, pools.small));
  const topLevelOther = (): Buffer => {
    const r = rnd();
    if (r < 0.02) return pick(rnd, pools.stray);
    if (r < 0.03) return pick(rnd, pools.late);
    return body();
  };
  const libFile = (): Buffer => (rnd() < 0.05 ? pick(rnd, pools.stray) : pick(rnd, pools.small));
  const OTHER_NAMES = ['uninstall', 'functions', 'admin', 'settings', 'ajax', 'cron', 'shortcodes', 'widgets', 'rest-api', 'compat', 'hooks', 'helpers', 'template-tags', 'assets'];

  for (let i = from; i < pluginSlugs.length; i++) {
    rnd = prng((seed ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0); // per folder: the same bytes whatever the total
    const slug = pluginSlugs[i];
    const pdir = path.join(pluginsDir, slug);
    const version = `${int(rnd, 1, 9)}.${int(rnd, 0, 20)}.${int(rnd, 0, 9)}`;
    const headed = Buffer.concat([Buffer.from(pluginHeader(title(slug), slug, version, rnd)), body()]);
    const r = rnd();
    const noHeaders = r >= 0.98 && r < 0.99;
    const names = new Set<string>();
    if (opts.mainFile === 'other') {
      // Named otherwise than the folder: wp-<slug>.php, <slug_with_underscores>.php, plugin.php, init.php.
      const under = slug.replace(/-/g, '_');
      const main = pick(rnd, [`wp-${slug}.php`, `${under === slug ? `${slug}-main` : under}.php`, 'plugin.php', 'init.php']);
      w.write(path.join(pdir, main), headed);
      names.add(main);
    } else if (r < 0.88) {
      // The common case: <slug>/<slug>.php carries the header.
      w.write(path.join(pdir, `${slug}.php`), headed);
      names.add(`${slug}.php`);
    } else if (r < 0.95) {
      // Main file under another name: both scanners must read every top-level file.
      const main = pick(rnd, ['plugin.php', 'main.php', 'loader.php', 'init.php']);
      w.write(path.join(pdir, main), headed);
      names.add(main);
    } else if (r < 0.98) {
      // <slug>.php is a header-less bootstrap; the header is in plugin.php.
      w.write(path.join(pdir, `${slug}.php`), pick(rnd, pools.large));
      w.write(path.join(pdir, 'plugin.php'), headed);
      names.add(`${slug}.php`).add('plugin.php');
    } else if (r < 0.99) {
      // The only header is after 8 KiB: WordPress does not list this folder.
      w.write(path.join(pdir, `${slug}.php`), pick(rnd, pools.late));
      names.add(`${slug}.php`);
      headerless++;
    } else {
      // A second headed top-level file: WordPress lists two plugins of the same slug.
      w.write(path.join(pdir, `${slug}.php`), headed);
      w.write(path.join(pdir, `${slug}-legacy.php`), Buffer.concat([Buffer.from(pluginHeader(`${title(slug)} Legacy`, slug, version, rnd)), body()]));
      names.add(`${slug}.php`).add(`${slug}-legacy.php`);
    }
    for (let k = 0; names.size < 10 && k < 40; k++) {
      const name = `${pick(rnd, OTHER_NAMES)}${k >= OTHER_NAMES.length ? `-${k}` : ''}.php`;
      if (names.has(name)) continue;
      names.add(name);
      w.write(path.join(pdir, name), noHeaders ? pick(rnd, pools.small) : topLevelOther());
    }
    candidates += names.size;
    w.write(path.join(pdir, 'readme.txt'), `=== ${title(slug)} ===\nStable tag: ${version}\nTested up to: 6.8\n\n${title(pick(rnd, WORDS))} for WordPress.\n`);
    for (let k = 0; k < opts.includesFiles; k++) {
      w.link(path.join(pdir, 'includes', LIB_DIRS[k % LIB_DIRS.length], `class-${pick(rnd, NOUNS)}-${k}.php`), libFile());
    }
    for (let k = 0; k < opts.vendorFiles; k++) {
      const pkg = VENDOR_PKGS[k % VENDOR_PKGS.length];
      w.link(path.join(pdir, 'vendor', pkg, k === 0 ? 'autoload_real.php' : `${studly(pick(rnd, NOUNS))}${k}.php`), libFile());
    }
  }
  if (from > 0) {
    return { dir, contentDir: content, composerFile: path.join(dir, 'composer.json'), pluginSlugs, composerSlugs: [], themeSlugs: [], candidateFiles: candidates, filesWritten: w.files, hardLinks: w.links, bytesWritten: w.bytes, headerlessFolders: headerless };
  }
  rnd = prng(seed);
  if (opts.plugins > 0) {
    // Top-level files of plugins/: Hello Dolly, two single-file plugins, the "Silence is golden" index.
    w.write(path.join(pluginsDir, 'hello.php'), Buffer.concat([Buffer.from(pluginHeader('Hello Dolly', 'hello-dolly', '1.7.2', rnd)), pick(rnd, pools.small)]));
    for (const s of singleFile) w.write(path.join(pluginsDir, `${s}.php`), Buffer.concat([Buffer.from(pluginHeader(title(s), s, '2.0.0', rnd)), body()]));
    w.write(path.join(pluginsDir, 'index.php'), '<?php\n// Silence is golden.\n');
    candidates += 2 + singleFile.length;
  }

  // Themes: most at the top level, two in a group folder, ~6% child themes, one with a missing parent.
  const themeSlugs = opts.themes > 0 ? knownSlugs('theme', opts.themes) : [];
  const themesDir = path.join(content, 'themes');
  themeSlugs.forEach((slug, i) => {
    const grouped = i >= themeSlugs.length - 2 && themeSlugs.length > 4;
    const tdir = grouped ? path.join(themesDir, 'premium-pack', slug) : path.join(themesDir, slug);
    const child = i > 4 && rnd() < 0.06;
    const template = child ? (i % 17 === 0 ? 'not-installed-parent' : themeSlugs[i % 5]) : null;
    const style =
      `/*\nTheme Name: ${title(slug)}\nTheme URI: https://wordpress.org/themes/${slug}/\nAuthor: ${title(pick(rnd, WORDS))} Studio\n` +
      `Description: A ${pick(rnd, WORDS)} theme.\nVersion: ${int(rnd, 1, 5)}.${int(rnd, 0, 9)}\n` +
      (template ? `Template: ${template}\n` : '') +
      `Requires at least: 6.0\nLicense: GNU General Public License v2 or later\nText Domain: ${slug}\n*/\n`;
    w.write(path.join(tdir, 'style.css'), Buffer.concat([Buffer.from(style), pick(rnd, pools.css)]));
    candidates++;
    for (const f of ['functions.php', 'index.php', 'header.php', 'footer.php', 'single.php']) w.write(path.join(tdir, f), pick(rnd, pools.small));
    for (let k = 0; k < 5; k++) w.write(path.join(tdir, 'inc', `template-${pick(rnd, NOUNS)}-${k}.php`), pick(rnd, pools.small));
    if (rnd() < 0.3) w.write(path.join(tdir, 'templates', 'index.html'), '<!-- wp:template-part {"slug":"header"} /-->\n<!-- wp:post-content /-->\n');
  });

  // mu-plugins: headed and header-less files, plus a tiny index.php (skipped by both).
  const muDir = path.join(content, 'mu-plugins');
  for (let i = 0; i < opts.muPlugins; i++) {
    if (i === opts.muPlugins - 1) {
      w.write(path.join(muDir, 'index.php'), '<?php // Silence is golden.\n');
    } else if (i % 3 === 2) {
      w.write(path.join(muDir, `site-tweak-${i}.php`), pick(rnd, pools.small));
    } else {
      const s = `site-${pick(rnd, WORDS)}-${i}`;
      w.write(path.join(muDir, `${s}.php`), Buffer.concat([Buffer.from(pluginHeader(title(s), s, '1.0.0', rnd)), pick(rnd, pools.small)]));
    }
    candidates++;
  }

  // composer.json: wpackagist entries for the first plugin folders, one per line.
  const composerSlugs = pluginSlugs.slice(0, Math.min(opts.composerEntries, pluginSlugs.length));
  const require: Record<string, string> = { php: '>=8.1', 'composer/installers': '^2.2' };
  for (const s of composerSlugs) require[`wpackagist-plugin/${s}`] = `^${int(rnd, 1, 9)}.${int(rnd, 0, 20)}`;
  const composer = {
    name: 'acme/site',
    type: 'project',
    repositories: [{ type: 'composer', url: 'https://wpackagist.org', only: ['wpackagist-plugin/*', 'wpackagist-theme/*'] }],
    require,
    extra: {
      'installer-paths': {
        'wp-content/mu-plugins/{$name}/': ['type:wordpress-muplugin'],
        'wp-content/plugins/{$name}/': ['type:wordpress-plugin'],
        'wp-content/themes/{$name}/': ['type:wordpress-theme'],
      },
    },
  };
  const composerFile = path.join(dir, 'composer.json');
  w.write(composerFile, JSON.stringify(composer, null, 4) + '\n');

  return {
    dir,
    contentDir: content,
    composerFile,
    pluginSlugs,
    composerSlugs,
    themeSlugs,
    candidateFiles: candidates,
    filesWritten: w.files,
    hardLinks: w.links,
    bytesWritten: w.bytes,
    headerlessFolders: headerless,
  };
}
