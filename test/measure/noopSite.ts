// The calibration site of issue 45's "in this site" time (test/measure/site-noop.test.ts and bench figure 13): four
// plugins, two of which do nothing (one only a header, one hooking functions that return at once), one with real
// work (1 MiB kept, 2 queries, a busy loop), one small (64 KiB, 1 query). What a no-op member reads is counted here.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { SiteRecord } from '../../src/core/measure/siteRun/siteRecord';
import { inNoise } from '../../src/core/measure/siteRun/sitePlan';
import { CONTEXTS } from '../../src/core/measure/record/method';

/** The members that do nothing: each must read "within noise" in the site and alone, in every context. */
export const NOOP_SLUGS = ['noop-header', 'noop-hooks'] as const;

async function put(dir: string, rel: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
  await fs.writeFile(path.join(dir, rel), text);
}

export async function writeNoopSite(dir: string): Promise<void> {
  await put(dir, 'wp-content/plugins/noop-header/noop-header.php', '<?php\n/**\n * Plugin Name: No-op (a header only)\n * Version: 1.0\n */\n');
  await put(
    dir,
    'wp-content/plugins/noop-hooks/noop-hooks.php',
    "<?php\n/**\n * Plugin Name: No-op (hooks that return at once)\n * Version: 1.0\n */\nadd_action('init', '__return_null');\nadd_filter('the_content', function ($c) { return $c; });\n",
  );
  await put(
    dir,
    'wp-content/plugins/worker/worker.php',
    "<?php\n/**\n * Plugin Name: Worker (memory, queries, work)\n * Version: 1.0\n */\n$GLOBALS['wpb_worker'] = str_repeat('w', 1024 * 1024);\nadd_action('init', function () { global $wpdb; $wpdb->get_var('SELECT 40'); $wpdb->get_var('SELECT 41'); $e = hrtime(true) + 5000000; while (hrtime(true) < $e) {} });\n",
  );
  await put(dir, 'wp-content/plugins/small/small.php', "<?php\n/**\n * Plugin Name: Small\n * Version: 1.0\n */\n$GLOBALS['wpb_small'] = str_repeat('s', 64 * 1024);\nadd_action('init', function () { global $wpdb; $wpdb->get_var('SELECT 50'); });\n");
}

/** Each no-op member's figure (in the site and alone, every context) whose TTFB reads outside its noise, named. */
export function noopOutside(rec: SiteRecord): { figures: number; outside: string[] } {
  let figures = 0;
  const outside: string[] = [];
  for (const slug of NOOP_SLUGS) {
    const c = rec.components.find((x) => x.slug === slug);
    for (const [what, f] of [
      ['in the site', c?.in_site],
      ['alone', c?.alone],
    ] as const) {
      for (const ctx of CONTEXTS) {
        const fig = f?.contexts[ctx];
        figures++;
        if (!fig || !inNoise(fig).ttfb) outside.push(`${slug} ${what} ${ctx}: ${JSON.stringify(fig ?? null)}`);
      }
    }
  }
  return { figures, outside };
}
