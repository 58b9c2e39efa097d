// Figure 10 of `npm run bench`: `measure SITE --site`. A generated site of 5 components (two plugins bundling one
// library, one on its own, a must-use plugin, a theme) measured cold, and one of 30 (28 small plugins, a must-use
// plugin, a theme), with default rounds: the times against the targets, the stack's memory and queries
// against their true values, and the 15 ms of work of the plugin on its own read back in the site. Full mode only.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../src/cli';
import type { SiteRecord } from '../src/core/measure/siteRun/siteRecord';

type Status = 'PASS' | 'FAIL' | 'info' | 'not measured' | 'ERROR';
type RowFn = (id: string, figure: string, value: string, target: string, status: Status) => void;

const ROOT = path.resolve(__dirname, '..');

async function put(dir: string, rel: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
  await fs.writeFile(path.join(dir, rel), text);
}

/** Work of known length on every request: a busy loop (not a sleep) of `ms` milliseconds on init. */
const BUSY = (ms: number) => `add_action('init', function () { $e = hrtime(true) + ${ms * 1_000_000}; while (hrtime(true) < $e) {} });\n`;

/**
 * n plugins of 64 KiB and 1 query each (plugin i), a must-use plugin (1 query), a theme (2 queries on the front end).
 * With `shared`, the first two bundle one 3 MiB library and the third does 15 ms of work on every request.
 */
async function writeSite(dir: string, plugins: number, shared: boolean): Promise<void> {
  for (let i = 0; i < plugins; i++) {
    const slug = `bench-plugin-${String(i).padStart(2, '0')}`;
    const lib = shared && i < 2 ? "if (!class_exists('Wpb_Bench_Lib')) { class Wpb_Bench_Lib {} $GLOBALS['wpb_bench_lib'] = str_repeat('l', 3 * 1024 * 1024); }\n" : shared && i === 2 ? BUSY(15) : '';
    await put(dir, `wp-content/plugins/${slug}/${slug}.php`, `<?php\n/**\n * Plugin Name: Bench plugin ${i}\n * Version: 1.0\n */\n${lib}$GLOBALS['wpb_${i}'] = str_repeat('x', 64 * 1024);\nadd_action('init', function () { global $wpdb; $wpdb->get_var('SELECT ${i}'); });\n`);
  }
  await put(dir, 'wp-content/mu-plugins/bench-mu.php', "<?php\n/**\n * Plugin Name: Bench must-use\n */\nadd_action('init', function () { global $wpdb; $wpdb->get_var('SELECT 99'); });\n");
  await put(dir, 'wp-content/themes/bench-theme/style.css', '/*\nTheme Name: Bench theme\nVersion: 1.0\n*/\n');
  await put(dir, 'wp-content/themes/bench-theme/index.php', "<?php\nglobal $wpdb; $wpdb->get_var('SELECT 1'); $wpdb->get_var('SELECT 2');\nwp_head(); echo '<p>bench</p>'; wp_footer();\n");
}

export async function figureSite(row: RowFn, details: Record<string, unknown>, quick: boolean, log: (s: string) => void): Promise<void> {
  const id = '10';
  if (quick) {
    row(id, 'measure --site: 5 and 30 components', 'not measured (full mode only: about 6 minutes)', '-', 'not measured');
    return;
  }
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-bench-site-'));
  const env = { ...process.env, WPBENCH_CACHE_DIR: path.join(tmp, 'cache') };
  const run = async (dir: string) => {
    const out: string[] = [];
    const err: string[] = [];
    const t0 = Date.now();
    const code = await runCli(['measure', dir, '--site', '--json', '--runtime', 'php'], { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd: ROOT });
    if (code === 8) return { skipped: (err.join('\n').split('\n').pop() ?? '').slice(0, 200) };
    if (code !== 0) throw new Error(`measure --site exited ${code}: ${err.join('\n').slice(-400)}`);
    return { rec: JSON.parse(out.join('\n')) as SiteRecord, s: (Date.now() - t0) / 1000 };
  };
  try {
    await writeSite(path.join(tmp, 'five'), 3, true);
    log('site: 5 components, cold');
    const five = await run(path.join(tmp, 'five'));
    if ('skipped' in five) {
      row(id, 'measure --site', `not measured (${five.skipped})`, '-', 'not measured');
      return;
    }
    details.site5 = five.rec;
    const shared = five.rec.components.filter((c) => c.slug === 'bench-plugin-00' || c.slug === 'bench-plugin-01');
    const inSite = shared.map((c) => c.in_site?.contexts.admin?.memory_delta_kb ?? NaN);
    const alone = shared.map((c) => c.alone?.contexts.admin?.memory_delta_kb ?? NaN);
    row(id, 'measure --site: 5 components (two bundling one 3 MiB library), cold, default rounds', `${five.s.toFixed(1)} s`, '≤ 90 s', five.s <= 90 ? 'PASS' : 'FAIL');
    row(id, 'measure --site: the two bundling the library, in the site / alone (admin memory)', `${inSite.join(', ')} KB / ${alone.join(', ')} KB`, '≈ 0 ±256 KB / 3,136 KB ±5 % + 256 KB', inSite.every((x) => Math.abs(x) <= 256) && alone.every((x) => Math.abs(x - 3136) <= 3136 * 0.05 + 256) ? 'PASS' : 'FAIL');
    // The work of the plugin on its own, read back where it runs (the Measure Site Locally suite's plugin does the same).
    const busy = five.rec.components.find((c) => c.slug === 'bench-plugin-02');
    const busyMs = busy?.in_site?.contexts.homepage?.ttfb_delta_ms ?? NaN;
    row(id, 'measure --site: 15 ms of work on every request, in the site (homepage TTFB)', `${busyMs} ms; alone ${busy?.alone?.contexts.homepage?.ttfb_delta_ms ?? '–'} ms`, '15 ms ±25 % + 3 ms', Math.abs(busyMs - 15) <= 15 * 0.25 + 3 ? 'PASS' : 'FAIL');
    const q = five.rec.site.contexts.admin?.queries_delta;
    row(id, 'measure --site: the stack\'s queries (admin), 3 plugins and a must-use plugin', String(q), '4, exact', q === 4 ? 'PASS' : 'FAIL');

    await writeSite(path.join(tmp, 'thirty'), 28, false);
    log('site: 30 components');
    const thirty = await run(path.join(tmp, 'thirty'));
    if ('skipped' in thirty) return;
    details.site30 = { local: thirty.rec.local, site: thirty.rec.site, sum_of_alone: thirty.rec.sum_of_alone };
    const mem = thirty.rec.site.contexts.admin?.memory_delta_kb ?? NaN;
    row(id, 'measure --site: 30 components (28 plugins, a must-use plugin, a theme), default rounds', `${thirty.s.toFixed(1)} s (${thirty.rec.local.configurations} configurations, ${roundsTaken(thirty.rec)})`, '≤ 180 s', thirty.s <= 180 ? 'PASS' : 'FAIL');
    row(id, 'measure --site: the 30-component stack\'s memory and queries (admin)', `${mem} KB, ${thirty.rec.site.contexts.admin?.queries_delta} queries`, '28 × 64 KB ±5 % + 256 KB, 29 queries', Math.abs(mem - 28 * 64) <= 28 * 64 * 0.05 + 256 && thirty.rec.site.contexts.admin?.queries_delta === 29 ? 'PASS' : 'FAIL');
    await realSites(row, details, run, log);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

const roundsTaken = (r: SiteRecord) => (r.local.rounds_taken ? `rounds ${r.local.rounds_taken.min}–${r.local.rounds_taken.max}, median ${r.local.rounds_taken.median}` : `${r.local.rounds} rounds`);

/**
 * Real sites (public repositories, checked out by whoever runs the bench; never part of this repository):
 * WPBENCH_BENCH_SITES="PATH[,PATH…]". Each is timed against the targets by the members it measures: about 10,
 * ≤ 30 s; about 30, ≤ 180 s; more, reported only (--shard spreads those).
 */
async function realSites(row: RowFn, details: Record<string, unknown>, run: (dir: string) => Promise<{ rec: SiteRecord; s: number } | { skipped: string }>, log: (s: string) => void): Promise<void> {
  const id = '10';
  const list = (process.env.WPBENCH_BENCH_SITES ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  if (!list.length) {
    row(id, 'measure --site on real sites', 'not measured (WPBENCH_BENCH_SITES="PATH,…" names checked-out real sites)', '10 plugins ≤ 30 s, 30 ≤ 180 s', 'not measured');
    return;
  }
  const real: Record<string, unknown> = {};
  for (const dir of list) {
    log(`site: ${dir}`);
    const got = await run(dir);
    if ('skipped' in got) {
      row(id, `measure --site ${path.basename(dir)}`, `not measured (${got.skipped})`, '-', 'not measured');
      continue;
    }
    const plugins = got.rec.components.filter((c) => c.kind === 'plugin').length;
    const measured = got.rec.components.filter((c) => !c.left_out && !c.not_installed).length;
    // By the members measured (a real site's copy often holds a plugin or two that cannot run: left out, said).
    const target = measured <= 12 ? 30 : measured <= 32 ? 180 : undefined;
    real[dir] = { seconds: got.s, local: got.rec.local, members: got.rec.components.length, measured };
    row(id, `measure --site ${path.basename(dir)} (real: ${plugins} plugins, ${measured} members measured)`, `${got.s.toFixed(1)} s (${got.rec.local.configurations} configurations, ${roundsTaken(got.rec)})`, target ? `≤ ${target} s` : '-', target === undefined ? 'info' : got.s <= target ? 'PASS' : 'FAIL');
  }
  details.realSites = real;
}
