// Figures 1 and 1b of `npm run bench`: detection against WordPress core (get_plugins(), get_mu_plugins(),
// wp_get_themes() in php-cli), in-process and as whole processes, on the generated site and on a tree whose main
// files are not named after their folder.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DetectedComponent, ScanResult } from '../src/core/model';
import { scanWorkspace } from '../src/core/scan';
import { generateSite, removeSite, type GeneratedSite } from './lib/fixtures';
import { median, round, timed } from './lib/util';
import { check, CONFIG, details, log, mib, ms, ROOT, row, settle } from './common';

const WP_LIST = path.join(ROOT, 'test', 'wp-compare', 'wp-list.php');
const WP_CORE = process.env.WP_CORE_DIR || '/usr/share/wordpress';
const PHP = process.env.PHP_BIN || 'php';
/** Whole-process runs of `wp-bench scan` and of php, taken in turns (one of each, five times), so load hits both alike. */
const PROCESS_RUNS = 5;

// ---- 1. detection vs WordPress core ------------------------------------------------------------

interface WpRun {
  wallMs: number;
  listingMs: number;
  timingsMs: Record<string, number>;
  out: {
    wpVersion: string;
    plugins: { slug: string }[];
    muPlugins: { slug: string }[];
    themes: { slug: string; error: string | null }[];
  };
}

function wordpressAvailable(): string | null {
  const php = spawnSync(PHP, ['-r', 'echo PHP_VERSION;'], { encoding: 'utf8', timeout: 20_000 });
  if (php.error || php.status !== 0) return null;
  if (!fs.existsSync(path.join(WP_CORE, 'wp-admin', 'includes', 'plugin.php'))) return null;
  return php.stdout.trim();
}

function runWordPress(contentDir: string): WpRun {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(PHP, [WP_LIST, contentDir], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, timeout: 300_000, env: { ...process.env, WP_CORE_DIR: WP_CORE } });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.error) throw new Error(`cannot run ${PHP}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`wp-list.php failed (${r.status}): ${r.stderr.slice(0, 500)}`);
  const out = JSON.parse(r.stdout) as WpRun['out'] & { timingsMs: Record<string, number> };
  const listingMs = Object.values(out.timingsMs).reduce((a, b) => a + b, 0);
  return { wallMs, listingMs, timingsMs: out.timingsMs, out };
}

/**
 * NODE_EXTRA_CA_CERTS, when the shell running the bench sets it (this workplace does, for its HTTPS proxy). Node 20
 * parses the bundle it names (and its own root certificates) at every start, before a line of the program runs:
 * 35 ms here for a 220 KB bundle, on any Node program. Node 24 loads it only when a TLS connection needs it, and
 * `wp-bench scan` makes none. The whole-process figures are judged on a start without it (what a Node start costs
 * without a proxy's certificates) and, in the same turns, also measured as this shell runs them.
 */
const EXTRA_CA = process.env.NODE_EXTRA_CA_CERTS || null;

/** The environment of a measured `wp-bench scan`: as given, or (`clean`) without NODE_EXTRA_CA_CERTS. */
function cliEnv(clean: boolean): NodeJS.ProcessEnv {
  const env = { ...process.env };
  if (clean) delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

function runCli(dir: string, clean = true): { wallMs: number; components: number; peakRssKb: number } {
  const rssFile = path.join(os.tmpdir(), `wpb-rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['-r', path.join(__dirname, 'lib', 'rss-preload.cjs'), path.join(ROOT, 'dist', 'cli.js'), 'scan', dir, '--json'], {
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
    timeout: 300_000,
    env: { ...cliEnv(clean), WPBENCH_RSS_FILE: rssFile },
  });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`cli scan failed (${r.status}): ${r.stderr.slice(0, 500)}`);
  const peakRssKb = Number(fs.readFileSync(rssFile, 'utf8'));
  fs.rmSync(rssFile, { force: true });
  return { wallMs, components: (JSON.parse(r.stdout) as { components: unknown[] }).components.length, peakRssKb };
}

/** kind:slug of what WordPress lists (as test/wp-compare/compare.mjs maps it). */
function wordpressSlugs(wp: WpRun['out']): Set<string> {
  const s = new Set<string>();
  for (const p of wp.plugins) s.add(`plugin:${p.slug}`);
  for (const p of wp.muPlugins) s.add(`plugin:${p.slug}`);
  for (const t of wp.themes) if (t.error !== 'theme_no_stylesheet' && t.error !== 'theme_not_found') s.add(`theme:${t.slug}`);
  return s;
}

/** kind:slug of what we found on disk under wp-content (header-detected only: plugin-header, mu-plugin, theme-header). */
function ourSlugs(components: DetectedComponent[], contentRel: string): Set<string> {
  const under = (file: string, dir: string) => file.startsWith(`${contentRel}/${dir}/`);
  const onDisk = (c: DetectedComponent) =>
    c.locations.some((l) =>
      c.kind === 'plugin'
        ? (l.source === 'mu-plugin' && under(l.file, 'mu-plugins')) || (l.source === 'plugin-header' && under(l.file, 'plugins'))
        : l.source === 'theme-header' && path.posix.basename(path.posix.dirname(l.file)) === c.slug && under(l.file, 'themes'),
    );
  return new Set(components.filter(onDisk).map((c) => `${c.kind}:${c.slug}`));
}

/**
 * The longest stretch without an event-loop turn while `fn` runs (the extension host runs the scan on its own thread:
 * nothing else there runs during such a stretch). Counted in CPU time of this process during the stretch (at most its
 * wall time): on a shared machine a stretch is also long when the process waited for a core, which is not the scan.
 */
async function longestBlockMs<T>(fn: () => Promise<T>): Promise<{ value: T; worstMs: number; worstWallMs: number }> {
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let worstMs = 0;
  let worstWallMs = 0;
  let on = true;
  const tick = () => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    const wall = now - last;
    worstWallMs = Math.max(worstWallMs, wall);
    worstMs = Math.max(worstMs, Math.min(wall, (cpu.user + cpu.system) / 1000));
    last = now;
    lastCpu = process.cpuUsage();
    if (on) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    const value = await fn();
    tick();
    return { value, worstMs, worstWallMs };
  } finally {
    on = false;
  }
}

/**
 * `wp-bench scan` and WordPress core (when available) run in turns, PROCESS_RUNS times each; when the shell sets
 * NODE_EXTRA_CA_CERTS, a third run in each turn is `wp-bench scan` as the shell would start it (`given`).
 */
function interleaved(site: GeneratedSite, withWordPress: boolean): { cli: ReturnType<typeof runCli>[]; wp: WpRun[]; given: ReturnType<typeof runCli>[] } {
  const cli: ReturnType<typeof runCli>[] = [];
  const wp: WpRun[] = [];
  const given: ReturnType<typeof runCli>[] = [];
  for (let i = 0; i < PROCESS_RUNS; i++) {
    cli.push(runCli(site.dir));
    if (withWordPress) wp.push(runWordPress(site.contentDir));
    if (EXTRA_CA) given.push(runCli(site.dir, false));
  }
  return { cli, wp, given };
}

/** The same ratio for the runs started as this shell would start them, when that differs (NODE_EXTRA_CA_CERTS set). */
function givenNote(given: ReturnType<typeof runCli>[], wpWall: number): string {
  if (!EXTRA_CA || given.length === 0) return '';
  const g = median(given.map((r) => r.wallMs));
  return `; as this shell starts Node (NODE_EXTRA_CA_CERTS set, parsed by Node 20 at start-up): ${ms(g)}, ratio ${round(g / wpWall, 2)}`;
}

export async function figureDetection(site: GeneratedSite): Promise<ScanResult> {
  const id = '1';
  const coldBlock = await longestBlockMs(() => timed(() => scanWorkspace(site.dir)));
  const cold = coldBlock.value;
  const phpVersion = wordpressAvailable();
  const wpFirst = phpVersion ? runWordPress(site.contentDir) : null;
  const warm: number[] = [];
  let last = cold.value;
  for (let i = 0; i < 3; i++) {
    const r = await timed(() => scanWorkspace(site.dir));
    warm.push(r.ms);
    last = r.value;
  }
  const cliFirst = runCli(site.dir);
  const { cli: cliWarm, wp: wpWarm, given } = interleaved(site, phpVersion !== null);
  const oursMs = median(warm);
  const cliMs = median(cliWarm.map((r) => r.wallMs));
  const cliRssMb = Math.max(...[cliFirst, ...cliWarm].map((r) => r.peakRssKb)) / 1024;
  const stats = cold.value.stats;
  const pluginCount = cold.value.components.filter((c) => c.kind === 'plugin').length;

  details.detection = {
    site: { plugins: site.pluginSlugs.length, themes: site.themeSlugs.length, composerEntries: site.composerSlugs.length, filesWritten: site.filesWritten, hardLinks: site.hardLinks, bytesWritten: site.bytesWritten, candidateFiles: site.candidateFiles, headerlessFolders: site.headerlessFolders },
    ours: { coldMs: cold.ms, warmMs: warm, longestBlock: { cpuMs: coldBlock.worstMs, wallMs: coldBlock.worstWallMs }, components: cold.value.components.length, plugins: pluginCount, problems: cold.value.problems.length, stats },
    cli: { firstMs: cliFirst.wallMs, warmMs: cliWarm.map((r) => r.wallMs), components: cliFirst.components, peakRssMb: cliRssMb },
    wordpress: wpFirst
      ? { version: wpFirst.out.wpVersion, php: phpVersion, first: { wallMs: wpFirst.wallMs, timingsMs: wpFirst.timingsMs }, warm: wpWarm.map((w) => ({ wallMs: w.wallMs, timingsMs: w.timingsMs })) }
      : 'not available',
  };

  row(id, `Detection, in-process scanWorkspace() (${site.pluginSlugs.length} plugins, ${site.themeSlugs.length} themes)`, `${ms(oursMs)} warm (median of 3); ${ms(cold.ms)} first run`, 'report', 'info');
  row(id, 'Detection, CLI process `wp-bench scan --json` (wall)', `${ms(cliMs)} warm (median of ${PROCESS_RUNS}, in turns with php); ${ms(cliFirst.wallMs)} first run`, 'report', 'info');
  row(id, 'Peak memory of the `wp-bench scan` process (max RSS)', `${round(cliRssMb, 1)} MB`, '< 80 MB', check(cliRssMb < 80));
  row(id, 'Longest event-loop block during the first in-process scanWorkspace() (CPU time)', `${ms(coldBlock.worstMs)} (longest wall-clock gap ${ms(coldBlock.worstWallMs)})`, '≤ 50 ms', check(coldBlock.worstMs <= 50));
  if (wpFirst) {
    const wpMs = median(wpWarm.map((w) => w.listingMs));
    const wpWall = median(wpWarm.map((w) => w.wallMs));
    row(id, `WordPress ${wpFirst.out.wpVersion}: get_plugins() + get_mu_plugins() + wp_get_themes() (PHP ${phpVersion})`, `${ms(wpMs)} in-process; ${ms(wpWall)} whole php process (warm medians of ${PROCESS_RUNS}); first run ${ms(wpFirst.listingMs)} / ${ms(wpFirst.wallMs)}`, 'report', 'info');
    const ratio = oursMs / wpMs;
    row(id, 'Ratio ours / WordPress, in-process (warm)', `${round(ratio, 2)}`, '≤ 0.7', check(ratio <= 0.7));
    row(id, 'Ratio ours / WordPress, whole process (`wp-bench scan` vs php-cli)', `${round(cliMs / wpWall, 2)}${givenNote(given, wpWall)}`, '≤ 0.7', check(cliMs / wpWall <= 0.7));
    const wpSet = wordpressSlugs(wpFirst.out);
    const ourSet = ourSlugs(cold.value.components, path.relative(site.dir, site.contentDir).split(path.sep).join('/'));
    const missing = [...wpSet].filter((k) => !ourSet.has(k));
    const extra = [...ourSet].filter((k) => !wpSet.has(k));
    (details.detection as Record<string, unknown>).slugs = { wordpress: wpSet.size, ours: ourSet.size, missing: missing.slice(0, 20), extra: extra.slice(0, 20) };
    row(
      id,
      'Same plugin / mu-plugin / theme slugs as WordPress',
      missing.length + extra.length === 0 ? `identical (${wpSet.size} slugs)` : `${missing.length} missing, ${extra.length} extra of ${wpSet.size}`,
      'identical',
      check(missing.length + extra.length === 0),
    );
  } else {
    row(id, 'WordPress core comparison', 'not measured (php or WordPress core missing)', '≤ 0.7; identical slugs', 'not measured');
  }
  const budget = 8192 * site.candidateFiles;
  row(id, 'Bytes read by the scan', `${mib(stats.bytesRead)} (${stats.filesOpened} files opened of ${site.candidateFiles} candidates)`, `≤ 8 KiB × candidates = ${mib(budget)}`, check(stats.bytesRead <= budget));
  const perFile = stats.bytesRead / Math.max(1, stats.filesOpened);
  row(id, 'Bytes read per file opened', `${Math.round(perFile)} B`, '≤ 8192 B', check(perFile <= 8192));
  return last;
}

// ---- 1b. detection vs WordPress core: main files not named after their folder ---------------------

/**
 * The worst case for the scanner: no `<folder>/<folder>.php` (as `contact-form-7/wp-contact-form-7.php`), so every
 * plugin folder is listed and its 10 top-level files read, as WordPress does. Whole processes only, in turns.
 */
export async function figureDetectionOther(tmp: string): Promise<void> {
  const id = '1b';
  const t0 = Date.now();
  const site = generateSite(path.join(tmp, 'site-other'), CONFIG.otherSite);
  settle();
  log(`1b: generated ${site.filesWritten} files (${site.hardLinks} hard links) in ${round((Date.now() - t0) / 1000, 1)} s (sync included)`);
  try {
    const empty = path.join(tmp, 'empty');
    fs.mkdirSync(empty, { recursive: true });
    const emptyRuns = [0, 1, 2].map(() => runCli(empty));
    const emptyGiven = EXTRA_CA ? [0, 1, 2].map(() => runCli(empty, false)) : [];
    const phpVersion = wordpressAvailable();
    const cliFirst = runCli(site.dir);
    const wpFirst = phpVersion ? runWordPress(site.contentDir) : null;
    const { cli, wp, given } = interleaved(site, wpFirst !== null);
    const cliMs = median(cli.map((r) => r.wallMs));
    const rssMb = Math.max(...[cliFirst, ...cli].map((r) => r.peakRssKb)) / 1024;
    const emptyMs = median(emptyRuns.map((r) => r.wallMs));
    const emptyMb = Math.max(...emptyRuns.map((r) => r.peakRssKb)) / 1024;
    details.detectionOther = {
      site: { plugins: site.pluginSlugs.length, filesWritten: site.filesWritten, hardLinks: site.hardLinks, candidateFiles: site.candidateFiles },
      cli: { firstMs: cliFirst.wallMs, warmMs: cli.map((r) => r.wallMs), peakRssKb: [cliFirst, ...cli].map((r) => r.peakRssKb), components: cliFirst.components },
      emptyScan: { wallMs: emptyRuns.map((r) => r.wallMs), peakRssKb: emptyRuns.map((r) => r.peakRssKb), givenWallMs: emptyGiven.map((r) => r.wallMs) },
      givenEnvironment: EXTRA_CA ? { warmMs: given.map((r) => r.wallMs), nodeExtraCaCerts: true } : { nodeExtraCaCerts: false },
      wordpress: wpFirst ? { first: wpFirst.wallMs, warm: wp.map((w) => ({ wallMs: w.wallMs, timingsMs: w.timingsMs })) } : 'not available',
    };
    row(id, `Detection, CLI process \`wp-bench scan --json\` (wall), ${site.pluginSlugs.length} plugins, main file not named after the folder, ${site.filesWritten} files`, `${ms(cliMs)} (median of ${PROCESS_RUNS}, in turns with php); ${ms(cliFirst.wallMs)} first run; an empty folder: ${ms(emptyMs)}, ${round(emptyMb, 1)} MB${emptyGiven.length ? ` (${ms(median(emptyGiven.map((r) => r.wallMs)))} with NODE_EXTRA_CA_CERTS as set here)` : ''}`, 'report', 'info');
    row(id, 'Peak memory of the `wp-bench scan` process (max RSS), this tree', `${round(rssMb, 1)} MB`, '< 80 MB', check(rssMb < 80));
    if (!wpFirst) {
      row(id, 'WordPress core comparison, this tree', 'not measured (php or WordPress core missing)', '≤ 0.7; identical slugs', 'not measured');
      return;
    }
    const wpWall = median(wp.map((w) => w.wallMs));
    row(id, `WordPress ${wpFirst.out.wpVersion}, same tree: whole php process`, `${ms(wpWall)} (median of ${PROCESS_RUNS}); ${ms(median(wp.map((w) => w.listingMs)))} in-process`, 'report', 'info');
    const ratios = cli.map((r, i) => r.wallMs / wp[i].wallMs);
    row(id, 'Ratio ours / WordPress, whole process, this tree', `${round(cliMs / wpWall, 2)} (per pair: ${ratios.map((r) => round(r, 2)).join(', ')})${givenNote(given, wpWall)}`, '≤ 0.7', check(cliMs / wpWall <= 0.7));
    // The slugs, from one more in-process scan (the CLI's JSON carries them too, but this keeps one comparison).
    const { value: scan, worstMs, worstWallMs } = await longestBlockMs(() => scanWorkspace(site.dir));
    // The extension host scans with io: 'async' (SessionHost's default scanner): watched as well.
    const hosted = await longestBlockMs(() => timed(() => scanWorkspace(site.dir, { io: 'async' })));
    (details.detectionOther as Record<string, unknown>).longestBlock = { cpuMs: worstMs, wallMs: worstWallMs, asyncCpuMs: hosted.worstMs, asyncWallMs: hosted.worstWallMs, asyncScanMs: hosted.value.ms };
    row(id, 'Longest event-loop block during an in-process scanWorkspace() of this tree (CPU time)', `${ms(worstMs)} (longest wall-clock gap ${ms(worstWallMs)}); io: 'async', as in the extension host: ${ms(hosted.worstMs)} (gap ${ms(hosted.worstWallMs)}; scan ${ms(hosted.value.ms)})`, '≤ 50 ms', check(Math.max(worstMs, hosted.worstMs) <= 50));
    const wpSet = wordpressSlugs(wpFirst.out);
    const ourSet = ourSlugs(scan.components, path.relative(site.dir, site.contentDir).split(path.sep).join('/'));
    const missing = [...wpSet].filter((k) => !ourSet.has(k));
    const extra = [...ourSet].filter((k) => !wpSet.has(k));
    row(id, 'Same plugin slugs as WordPress, this tree', missing.length + extra.length === 0 ? `identical (${wpSet.size} slugs)` : `${missing.length} missing, ${extra.length} extra of ${wpSet.size}`, 'identical', check(missing.length + extra.length === 0));
  } finally {
    removeSite(site.dir);
  }
}
