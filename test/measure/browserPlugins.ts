// Calibration plugins of known front-end cost, written by the browser suite and the bench (`npm run bench`, figure
// browser): main-thread work of a known duration in a head script (before the first paint: moves FCP, not TBT), the
// same in the footer (after the first paint: TBT), work after the load event (TBT), a banner pushed in after load
// (CLS of a known size), a hero image of known bytes (LCP, bytes), and a hostile page script. Not a test file.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as crypto from 'node:crypto';
import { noisePng } from '../fixtures/lib/noisePng.mjs';

export { noisePng };

/** Busy main-thread work of `ms` (a loop on the clock: the same duration whatever the CPU or its throttling). */
const busy = (ms: number) => `(function(){var t=performance.now();while(performance.now()-t<${ms}){}})();`;

const header = (name: string) => `<?php\n/**\n * Plugin Name: Calibration: ${name}\n * Version: 1.0\n */\n`;

export interface Calibration {
  slug: string;
  files: Record<string, string | Buffer>;
}

/** A script in the head (render-blocking) doing `ms` of work when it runs. */
export function headWork(ms: number): Calibration {
  return {
    slug: 'calib-head',
    files: {
      'calib-head.php': `${header('head script')}add_action('wp_enqueue_scripts', function () { wp_enqueue_script('calib-head', plugins_url('head.js', __FILE__), array(), '1.0', false); });\n`,
      'head.js': busy(ms),
    },
  };
}

/**
 * Incompressible padding (a comment of random letters, as a bundle's minified code): `kb` KiB that take a while to
 * send, so the browser paints while a footer script downloads, as it does with a real one.
 */
function padding(kb: number, seed: string): string {
  let out = '';
  let block = crypto.createHash('sha256').update(seed).digest();
  while (out.length < kb * 1024) {
    block = crypto.createHash('sha256').update(block).digest();
    out += block.toString('base64').replace(/[^A-Za-z0-9]/g, '');
  }
  return `\n/*${out.slice(0, kb * 1024)}*/\n`;
}

/**
 * The same script in the footer, 96 KiB with its padding (about 72 KiB gzipped: 60 ms at 10,240 kb/s after the
 * round trip): the page paints while it downloads, and its work runs after the first paint.
 */
export function footerWork(ms: number): Calibration {
  return {
    slug: 'calib-footer',
    files: {
      'calib-footer.php': `${header('footer script')}add_action('wp_enqueue_scripts', function () { wp_enqueue_script('calib-footer', plugins_url('footer.js', __FILE__), array(), '1.0', true); });\n`,
      'footer.js': busy(ms) + padding(96, 'footer'),
    },
  };
}

/** Work after the load event (a widget starting up): TBT. */
export function afterLoadWork(ms: number): Calibration {
  return {
    slug: 'calib-late',
    files: {
      'calib-late.php': `${header('work after load')}add_action('wp_enqueue_scripts', function () { wp_enqueue_script('calib-late', plugins_url('late.js', __FILE__), array(), '1.0', true); });\n`,
      'late.js': `addEventListener('load', function () { setTimeout(function () { ${busy(ms)} }, 100); });`,
    },
  };
}

/**
 * A stage covering the viewport (fixed, 100 % wide and high) whose content a banner of `px` pixels pushes down after
 * load: every pixel of the viewport is in the shift's impact region, so its score is px / max(viewport width, height)
 * (desktop: 1350 wide → 200 px is 0.148).
 */
export function lateBanner(px: number): Calibration {
  return {
    slug: 'calib-banner',
    files: {
      'calib-banner.php': `${header('banner after load')}add_action('wp_footer', function () { echo '<div id="calib-stage" style="position:fixed;top:0;left:0;width:100%;height:100%;overflow:hidden;background:#fff"><div id="calib-content" style="height:3000px;background:#ddd;font:20px sans-serif">Calibration content</div></div>'; });\nadd_action('wp_enqueue_scripts', function () { wp_enqueue_script('calib-banner', plugins_url('banner.js', __FILE__), array(), '1.0', true); });\n`,
      'banner.js': `addEventListener('load', function () { setTimeout(function () { var b = document.createElement('div'); b.style.height = '${px}px'; b.style.background = '#c00'; var s = document.getElementById('calib-stage'); s.insertBefore(b, s.firstChild); }, 300); });`,
    },
  };
}


/** A hero image at the top of the page (the largest paint): its bytes are known. */
export function heroImage(width = 400, height = 250): Calibration {
  return {
    slug: 'calib-hero',
    files: {
      'calib-hero.php': `${header('hero image')}add_action('wp_body_open', function () { echo '<img src="' . esc_url(plugins_url('hero.png', __FILE__)) . '" width="1200" height="600" alt="" style="display:block">'; });\n`,
      'hero.png': noisePng(width, height),
    },
  };
}

/** Nothing on the front end: an option read in the admin only. */
export function noFrontEnd(): Calibration {
  return { slug: 'calib-none', files: { 'calib-none.php': `${header('no front end')}add_action('admin_init', function () { get_option('calib_none_setting'); });\n` } };
}

/**
 * A hostile page script: fetch, an image, a beacon and a WebSocket to `host:port` (and to this host's `otherPort`),
 * a `file:` frame, and a request forging the side's header. None may reach anything but the site.
 */
export function hostilePage(host: string, port: number, otherPort: number): Calibration {
  const out = `http://${host}:${port}`;
  const js = [
    `fetch('${out}/fetch').catch(function(){});`,
    `fetch('http://127.0.0.1:${otherPort}/other').catch(function(){});`,
    `try { navigator.sendBeacon('${out}/beacon', 'x'); } catch (e) {}`,
    `try { new WebSocket('ws://${host}:${port}/ws'); } catch (e) {}`,
    `var i = new Image(); i.src = '${out}/pixel.png';`,
    `var f = document.createElement('iframe'); f.src = 'file:///etc/passwd'; document.body.appendChild(f);`,
    `fetch('/', { headers: { 'X-WPBench-Side': 'baseline' } }).catch(function(){});`,
  ].join('\n');
  return {
    slug: 'calib-hostile',
    files: {
      'calib-hostile.php': `${header('hostile page')}add_action('wp_enqueue_scripts', function () { wp_enqueue_script('calib-hostile', plugins_url('hostile.js', __FILE__), array(), '1.0', true); });\nadd_action('wp_head', function () { echo '<link rel="preconnect" href="${out}"><link rel="dns-prefetch" href="//evil.example">'; });\n`,
      'hostile.js': js,
    },
  };
}

/** Writes a calibration plugin into `dir/<slug>/`; its folder. */
export async function writeCalibration(dir: string, c: Calibration): Promise<string> {
  const root = path.join(dir, c.slug);
  await fs.mkdir(root, { recursive: true });
  for (const [name, body] of Object.entries(c.files)) await fs.writeFile(path.join(root, name), body);
  return root;
}

/**
 * Several calibrations as one plugin (`slug`): each one's files, and one main file with each one's PHP after its
 * header, in the order given (the lines of each are where they were, shifted by the headers left out).
 */
export function combined(slug: string, ...parts: Calibration[]): Calibration {
  const files: Record<string, string | Buffer> = {};
  let php = header(parts.map((p) => p.slug).join(' + '));
  for (const p of parts) {
    for (const [name, body] of Object.entries(p.files)) {
      if (name === `${p.slug}.php`) php += String(body).replace(/^<\?php\n\/\*\*[\s\S]*?\*\/\n/, '');
      else files[name] = body;
    }
  }
  return { slug, files: { ...files, [`${slug}.php`]: php } };
}
