// Integration: `measure SITE --site --browser` with real PHP, MariaDB and Chromium on a small site BUILT by the test:
// a plugin with a large head script (incompressible padding: its gzipped size is what a visitor is sent), a plugin
// with no front end (calib-none of browserPlugins.ts), and a theme with a stylesheet of its own (padded too). The heavy plugin's
// bytes in the site are its script's (gzipped, as sent, within a few KB of headers), the plugin with no front end is
// within noise on every figure and has no file on the homepage, the stack's bytes hold the heavy plugin's; every
// format says it; the server figures are there as without --browser. No time is asserted.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { runCli } from '../../src/cli';
import { browserWithinNoise, BROWSER_NOISE } from '../../src/core/measure/browser/figures';
import type { BrowserInfo } from '../../src/core/measure/browser/types';
import type { SiteRecord } from '../../src/core/measure/siteRun/siteRecord';
import { siteHtml, siteMarkdown } from '../../src/core/report/siteFormats';
import { siteTable } from '../../src/core/report/siteText';
import { noFrontEnd, writeCalibration } from './browserPlugins';

const ROOT = path.resolve(__dirname, '..', '..');

/** `kb` KiB of random letters in a comment: a bundle's minified code, as far as gzip is concerned. */
function padding(kb: number): string {
  let out = '';
  let block = crypto.createHash('sha256').update('site-browser').digest();
  while (out.length < kb * 1024) {
    block = crypto.createHash('sha256').update(block).digest();
    out += block.toString('base64').replace(/[^A-Za-z0-9]/g, '');
  }
  return `/*${out.slice(0, kb * 1024)}*/\n`;
}

const HEAVY_JS = `(function(){var t=performance.now();while(performance.now()-t<30){}})();\n${padding(160)}`;
/** What the gate sends of it: gzip at level 6 (the document's headers add a few hundred bytes). */
const HEAVY_SENT_KB = zlib.gzipSync(HEAVY_JS, { level: 6 }).length / 1024;

async function put(dir: string, rel: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
  await fs.writeFile(path.join(dir, rel), text);
}

describe('measure SITE --site --browser (native php, MariaDB, Chromium)', function () {
  // The server rounds of 5 configurations, then 26 loads in Chromium: about 2 minutes here, more with both cores busy.
  this.timeout(900_000);
  let dir: string;
  let rec: SiteRecord;
  let err = '';
  const member = (slug: string) => {
    const c = rec.components.find((x) => x.slug === slug);
    assert.ok(c?.in_site?.browser, `${slug}: no browser figures in the site (${err.split('\n').filter((l) => /browser|warning/i.test(l)).join(' | ')})`);
    return c.in_site.browser;
  };

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-site-browser-'));
    await put(dir, 'wp-content/plugins/heavy-head/heavy-head.php', "<?php\n/**\n * Plugin Name: Heavy head script\n * Version: 1.0\n */\nadd_action('wp_enqueue_scripts', function () { wp_enqueue_script('heavy-head', plugins_url('head.js', __FILE__), array(), '1.0', false); });\n");
    await put(dir, 'wp-content/plugins/heavy-head/head.js', HEAVY_JS);
    await writeCalibration(path.join(dir, 'wp-content', 'plugins'), noFrontEnd());
    await put(dir, 'wp-content/themes/cal-theme/style.css', `/*\nTheme Name: Calibration theme\nVersion: 1.0\n*/\nbody { font: 16px/1.5 sans-serif; margin: 0 auto; max-width: 40em; }\n${padding(24)}`);
    await put(dir, 'wp-content/themes/cal-theme/functions.php', "<?php\nadd_action('wp_enqueue_scripts', function () { wp_enqueue_style('cal-theme', get_stylesheet_uri(), array(), '1.0'); });\n");
    await put(dir, 'wp-content/themes/cal-theme/index.php', "<!doctype html><html><head><?php wp_head(); ?></head><body><h1>Calibration site</h1><p>A paragraph of text to paint.</p><?php wp_footer(); ?></body></html>\n");
    const out: string[] = [];
    const errs: string[] = [];
    const code = await runCli(['measure', dir, '--site', '--browser', '--json', '--runtime', 'php', '--rounds', '3'], { out: (t) => out.push(t), err: (t) => errs.push(t), env: { ...process.env, WPBENCH_CACHE_DIR: path.join(dir, '.cache') }, cwd: ROOT });
    err = errs.join('\n');
    assert.equal(code, 0, err.slice(-3000));
    rec = JSON.parse(out.join('\n'));
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  it('the heavy plugin in the site: its script\'s bytes as sent, one render-blocking request, its file named with its handle', () => {
    const heavy = member('heavy-head');
    assert.ok(Math.abs(heavy.bytes_kb - HEAVY_SENT_KB) < 3, `in the site ${heavy.bytes_kb} KB, its script gzipped ${HEAVY_SENT_KB.toFixed(1)} KB`);
    assert.equal(heavy.requests, 1);
    assert.equal(heavy.render_blocking, 1);
    assert.deepEqual(heavy.assets.map((a) => [a.url, a.type, a.handle, a.render_blocking]), [['/wp-content/plugins/heavy-head/head.js', 'script', 'heavy-head', true]]);
    assert.equal(browserWithinNoise(heavy, 'bytes_kb'), false);
  });

  it('the plugin with no front end: within noise on every figure, no request, no file on the homepage', () => {
    const none = member('calib-none');
    for (const k of Object.keys(BROWSER_NOISE) as (keyof typeof BROWSER_NOISE)[]) assert.equal(browserWithinNoise(none, k), true, `${k}: ${none[k]} ± ${none.spread[k]}`);
    assert.equal(none.requests, 0);
    assert.equal(none.render_blocking, 0);
    assert.deepEqual(none.assets, []);
  });

  it('the stack against the clean site: at least the heavy plugin\'s bytes, every member\'s files; the theme\'s stylesheet is its own', () => {
    const stack = rec.site.browser;
    assert.ok(stack, JSON.stringify(rec.local.browser));
    // The theme's stylesheet (24 KiB of padding, about 18 KiB sent) comes on top of the heavy plugin's script.
    assert.ok(stack.bytes_kb >= member('heavy-head').bytes_kb + 10, `stack ${stack.bytes_kb} KB, heavy ${member('heavy-head').bytes_kb} KB, theme ${member('cal-theme').bytes_kb} KB`);
    const urls = stack.assets.map((a) => a.url);
    assert.ok(urls.includes('/wp-content/plugins/heavy-head/head.js') && urls.includes('/wp-content/themes/cal-theme/style.css'), urls.join(', '));
    assert.deepEqual(member('cal-theme').assets.map((a) => [a.url, a.handle]), [['/wp-content/themes/cal-theme/style.css', 'cal-theme']]);
    assert.ok(rec.site.clean?.browser && rec.site.clean.browser.requests >= 1);
    const info = rec.local.browser as BrowserInfo;
    assert.equal(info.device, 'desktop');
    assert.equal(info.rounds, 5);
  });

  it('the server figures are there as without --browser; every format says the browser figures', () => {
    for (const slug of ['heavy-head', 'calib-none', 'cal-theme']) assert.ok(rec.components.find((c) => c.slug === slug)?.in_site?.contexts.homepage, slug);
    assert.match(err, /browser: load 5\/5/);
    assert.match(err, /loads of the homepage per configuration \(5: the clean site, the stack and the stack without each of 3 members\)/);
    const table = siteTable(rec);
    assert.match(table, /What the visitor pays on the homepage/);
    assert.match(table, /plugin calib-none: none of its files loads on the homepage/);
    assert.match(siteMarkdown(rec), /\| plugin Heavy head script `heavy-head` \| \\\+\d+\.\d KB/);
    assert.match(siteHtml(rec), /<table class="browser">/);
  });
});
