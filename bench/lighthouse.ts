// Figure 16 of `npm run bench`: Lighthouse beside `measure --browser` on the calibration plugins (figure 15's: a head
// script's 300 ms of work, the same in the footer, 250 ms after load, a 200 px banner after load, a hero image, no
// front end). Runs only when WPB_LIGHTHOUSE names Lighthouse's CLI, installed OUTSIDE the project (mkdir -p
// /tmp/lh && cd /tmp/lh && npm i lighthouse@12; WPB_LIGHTHOUSE=/tmp/lh/node_modules/.bin/lighthouse): WP Bench never
// depends on it. A plain site of its own (the same WordPress core, WP Bench's baseline theme, a throwaway MariaDB,
// php -S), each side behind a gate of WP Bench (gate.ts: gzip as a real server, the side chosen by a header), and
// Lighthouse's Chromium sent through that gate: `--throttling-method=devtools` with the desktop profile's network
// given explicitly (Lighthouse's desktop preset throttles no network under devtools: its requestLatencyMs and
// downloadThroughputKbps are 0), so both apply the same throttling; the medians of 3 runs a side, clean and with each
// plugin, alternating. Prints the side-by-side table (info rows: two tools, not a pass/fail). Full mode only.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, promises as fs } from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { measureCli, ROOT, type Status } from './common';
import { afterLoadWork, footerWork, headWork, heroImage, lateBanner, noFrontEnd, writeCalibration, type Calibration } from '../test/measure/browserPlugins';
import { findChromium } from '../src/core/measure/browser/chromium';
import { startGate, type Gate } from '../src/core/measure/browser/gate';
import { DESKTOP, type BrowserDelta } from '../src/core/measure/browser/types';
import { findDbServer, startThrowawayDb, type RunningDb } from '../src/core/measure/database/database';
import { coreCandidates, isCore } from '../src/core/measure/machine/environment';
import { BASELINE_THEME_INDEX, BASELINE_THEME_STYLE } from '../src/core/measure/php/phpFiles';

type RowFn = (id: string, figure: string, value: string, target: string, status: Status) => void;
const ID = '16';
const RUNS = 3;
const FIGS = ['fcp', 'lcp', 'tbt', 'cls', 'kb', 'requests'] as const;
type Figs = Record<(typeof FIGS)[number], number>;

const CALIBRATIONS = (): Calibration[] => [headWork(300), footerWork(300), afterLoadWork(250), lateBanner(200), heroImage(), noFrontEnd()];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The one active plugin is the slug in the side's header (none without it): every side on one site. */
const SIDE_MU_PLUGIN = `<?php
add_filter('option_active_plugins', function () {
  $s = isset($_SERVER['HTTP_X_WPBENCH_SIDE']) ? $_SERVER['HTTP_X_WPBENCH_SIDE'] : '';
  return preg_match('/^calib-[a-z]+$/', $s) ? array("$s/$s.php") : array();
});
`;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });

const get = (port: number, headers: Record<string, string>) =>
  new Promise<number>((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/', headers }, (r) => {
      r.resume();
      r.on('end', () => resolve(r.statusCode ?? 0));
    });
    req.on('error', reject);
  });

/** A plain WordPress in `dir` on a throwaway MariaDB, served by php -S: its origin and how to take it down. */
async function plainSite(dir: string, env: NodeJS.ProcessEnv): Promise<{ origin: string; port: number; stop: () => Promise<void> }> {
  const core = coreCandidates(ROOT).find(isCore);
  if (!core) throw new Error('no WordPress core found (as measure looks for one)');
  const bins = await findDbServer(env);
  if (typeof bins === 'string') throw new Error(bins);
  const site = path.join(dir, 'site');
  await fs.cp(core, site, { recursive: true, filter: (src) => !/(^|\/)(wp-config\.php|\.htaccess)$/.test(path.relative(core, src)) });
  const db: RunningDb = await startThrowawayDb(bins, { dbDir: path.join(dir, 'db'), templateDir: path.join(dir, 'db-template'), env, password: 'lighthouse-bench' });
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  let php: ReturnType<typeof spawn> | undefined;
  const stop = async () => {
    if (php && php.exitCode === null) {
      const gone = new Promise((r) => php!.once('exit', r));
      php.kill('SIGTERM');
      await gone;
    }
    await db.stop();
  };
  try {
    const q = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
    await fs.writeFile(
      path.join(site, 'wp-config.php'),
      `<?php\ndefine('DB_NAME', ${q(db.name)}); define('DB_USER', ${q(db.user)}); define('DB_PASSWORD', ${q(db.password)}); define('DB_HOST', ${q(db.host)});\ndefine('DB_CHARSET', 'utf8mb4'); define('DB_COLLATE', ''); $table_prefix = 'wp_';\ndefine('DISABLE_WP_CRON', true); define('AUTOMATIC_UPDATER_DISABLED', true); define('WP_HTTP_BLOCK_EXTERNAL', true);\nif (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');\nrequire_once ABSPATH . 'wp-settings.php';\n`,
    );
    const content = path.join(site, 'wp-content');
    await fs.mkdir(path.join(content, 'themes', 'wpbench-baseline'), { recursive: true });
    await fs.writeFile(path.join(content, 'themes', 'wpbench-baseline', 'style.css'), BASELINE_THEME_STYLE);
    await fs.writeFile(path.join(content, 'themes', 'wpbench-baseline', 'index.php'), BASELINE_THEME_INDEX);
    await fs.mkdir(path.join(content, 'mu-plugins'), { recursive: true });
    await fs.writeFile(path.join(content, 'mu-plugins', 'side.php'), SIDE_MU_PLUGIN);
    for (const c of CALIBRATIONS()) await writeCalibration(path.join(content, 'plugins'), c);
    const install = path.join(dir, 'install.php');
    await fs.writeFile(
      install,
      `<?php\ndefine('WP_INSTALLING', true); $_SERVER['HTTP_HOST'] = '127.0.0.1:${port}';\nrequire ${q(path.join(site, 'wp-load.php'))};\nrequire_once ABSPATH . 'wp-admin/includes/upgrade.php';\nwp_install('WP Bench', 'admin', 'admin@example.org', false, '', 'lighthouse-bench');\nupdate_option('siteurl', ${q(origin)}); update_option('home', ${q(origin)}); switch_theme('wpbench-baseline');\necho "installed";\n`,
    );
    const phpBin = env.PHP_BIN ?? 'php';
    const inst = spawnSync(phpBin, [install], { encoding: 'utf8', timeout: 120_000 });
    if (!/installed/.test(inst.stdout)) throw new Error(`WordPress did not install: ${(inst.stdout + inst.stderr).slice(-300)}`);
    // As measure serves it: opcache on, one php -S.
    php = spawn(phpBin, ['-d', 'opcache.enable=1', '-d', 'opcache.file_update_protection=0', '-S', `127.0.0.1:${port}`, '-t', site], { stdio: 'ignore' });
    for (let i = 0; ; i++) {
      if ((await get(port, {}).catch(() => 0)) === 200) break;
      if (i >= 100 || php.exitCode !== null) throw new Error('php -S did not answer');
      await new Promise((r) => setTimeout(r, 100));
    }
    return { origin, port, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** One Lighthouse run of the homepage through `gate`: its figures. */
async function lighthouse(cli: string, chromium: string, origin: string, gate: Gate, out: string): Promise<Figs> {
  const chromeFlags = ['--headless=new', ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), `--proxy-server=http://127.0.0.1:${gate.port}`, '--proxy-bypass-list=<-loopback>'];
  const args = [
    `${origin}/`,
    '--preset=desktop',
    '--throttling-method=devtools',
    `--throttling.requestLatencyMs=${DESKTOP.rtt_ms}`,
    `--throttling.downloadThroughputKbps=${DESKTOP.throughput_kbps}`,
    `--throttling.uploadThroughputKbps=${DESKTOP.throughput_kbps}`,
    `--throttling.cpuSlowdownMultiplier=${DESKTOP.cpu_slowdown}`,
    '--only-categories=performance',
    '--output=json',
    `--output-path=${out}`,
    '--quiet',
    `--chrome-flags=${chromeFlags.join(' ')}`,
  ];
  // Asynchronous: the gate answering the browser is in this process.
  const r = await new Promise<{ code: number | null; err: string }>((resolve, reject) => {
    // Its own process group: a run cut at the time limit takes its Chromium with it.
    const p = spawn(cli, args, { env: { ...process.env, CHROME_PATH: chromium }, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    let err = '';
    p.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    const timer = setTimeout(() => process.kill(-p.pid!, 'SIGKILL'), 180_000);
    p.on('error', reject);
    p.on('exit', (code) => (clearTimeout(timer), resolve({ code, err })));
  });
  if (r.code !== 0) throw new Error(`lighthouse exited ${r.code}: ${r.err.slice(-300)}`);
  type Audit = { numericValue?: number; details?: { items?: { url?: string }[] } };
  const j = JSON.parse(readFileSync(out, 'utf8')) as { audits: Record<string, Audit>; runtimeError?: { code: string } };
  if (j.runtimeError) throw new Error(`lighthouse: ${j.runtimeError.code}`);
  const n = (k: string) => j.audits[k]?.numericValue ?? NaN;
  // As WP Bench counts them: the site's requests without the favicon Chromium asks for by itself.
  const reqs = (j.audits['network-requests']?.details?.items ?? []).filter((i) => !/\/favicon\.ico$/.test(i.url ?? ''));
  return { fcp: n('first-contentful-paint'), lcp: n('largest-contentful-paint'), tbt: n('total-blocking-time'), cls: n('cumulative-layout-shift'), kb: n('total-byte-weight') / 1024, requests: reqs.length };
}

export async function figureLighthouse(row: RowFn, details: Record<string, unknown>, quick: boolean, log: (s: string) => void): Promise<void> {
  const cli = process.env.WPB_LIGHTHOUSE;
  const how = 'set WPB_LIGHTHOUSE to Lighthouse\'s CLI, installed outside the project (mkdir -p /tmp/lh && cd /tmp/lh && npm i lighthouse@12; WPB_LIGHTHOUSE=/tmp/lh/node_modules/.bin/lighthouse)';
  if (quick || !cli) {
    row(ID, 'browser beside Lighthouse (devtools throttling, desktop)', quick ? 'not measured (full mode only)' : `not measured: ${how}`, '-', 'not measured');
    if (!quick) log(`figure ${ID}: ${how}`);
    return;
  }
  if (!existsSync(cli)) throw new Error(`WPB_LIGHTHOUSE=${cli}: no such file`);
  const chromium = findChromium(process.env);
  if (!chromium) throw new Error('Chromium was not found (WPBENCH_CHROMIUM names it)');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-bench-lighthouse-'));
  const env = { ...process.env, WPBENCH_CACHE_DIR: path.join(dir, 'cache') };
  const out: Record<string, unknown> = {};
  details.lighthouse = out;
  const gates: Gate[] = [];
  let site: Awaited<ReturnType<typeof plainSite>> | undefined;
  try {
    const cals = CALIBRATIONS();
    // WP Bench's own figures: figure 15's when it ran in this bench (the same plugins), else measured here.
    const ours: Record<string, BrowserDelta> = {};
    const fig15 = (details.browser ?? {}) as Record<string, BrowserDelta | undefined>;
    const measure = measureCli(env);
    for (const c of cals) {
      if (fig15[c.slug]?.spread) {
        ours[c.slug] = fig15[c.slug]!;
        continue;
      }
      const r = await measure([await writeCalibration(path.join(dir, 'ours'), c), '--json', '--no-cache', '--browser']);
      const d = r.code === 0 ? (JSON.parse(r.out) as { contexts: { homepage: { browser?: BrowserDelta } } }).contexts.homepage.browser : undefined;
      if (!d) throw new Error(`${c.slug}: measure --browser exited ${r.code}: ${r.err.slice(-300)}`);
      ours[c.slug] = d;
    }
    site = await plainSite(dir, env);
    const sides = ['clean', ...cals.map((c) => c.slug)];
    const gateOf: Record<string, Gate> = {};
    for (const s of sides) {
      gateOf[s] = await startGate({ origin: site.origin, port: site.port, headers: s === 'clean' ? {} : { 'X-WPBench-Side': s } });
      gates.push(gateOf[s]);
    }
    const runs: Record<string, Figs[]> = Object.fromEntries(sides.map((s) => [s, []]));
    for (let r = 0; r < RUNS; r++) {
      // Each side first in turn (rotated each round), each warmed by two requests before its run.
      for (const s of sides.map((_, i) => sides[(i + r) % sides.length])) {
        for (let w = 0; w < 2; w++) await get(gateOf[s].port!, {});
        const f = await lighthouse(cli, chromium, site.origin, gateOf[s], path.join(dir, `lh-${s}-${r}.json`));
        log(`lighthouse: ${s} run ${r + 1}/${RUNS}: ${JSON.stringify(f)}`);
        runs[s].push(f);
      }
    }
    const med = (s: string) => Object.fromEntries(FIGS.map((k) => [k, median(runs[s].map((f) => f[k]))])) as Figs;
    const clean = med('clean');
    out.clean = clean;
    const r1 = (x: number) => Math.round(x * 10) / 10;
    const table: string[] = ['PLUGIN        FIGURE    LIGHTHOUSE (Δ median of 3)   WP BENCH --browser (Δ, spread)'];
    for (const c of cals) {
      const m = med(c.slug);
      const d = ours[c.slug];
      const lh = { fcp: m.fcp - clean.fcp, lcp: m.lcp - clean.lcp, tbt: m.tbt - clean.tbt, cls: m.cls - clean.cls, kb: m.kb - clean.kb, requests: m.requests - clean.requests };
      out[c.slug] = { lighthouse: lh, lighthouse_runs: runs[c.slug], wp_bench: { ...d, assets: undefined } };
      const pairs: [string, number, number, number | undefined][] = [
        ['FCP ms', lh.fcp, d.fcp_ms, d.spread.fcp_ms],
        ['LCP ms', lh.lcp, d.lcp_ms, d.spread.lcp_ms],
        ['TBT ms', lh.tbt, d.tbt_ms, d.spread.tbt_ms],
        ['CLS', lh.cls, d.cls, d.spread.cls],
        ['KB', lh.kb, d.bytes_kb, d.spread.bytes_kb],
        ['requests', lh.requests, d.requests, undefined],
      ];
      for (const [k, a, b, s] of pairs) table.push(`${c.slug.padEnd(13)} ${k.padEnd(9)} ${String(k === 'CLS' ? a.toFixed(3) : r1(a)).padStart(10)}                   ${String(b).padStart(8)}${s === undefined ? '' : ` ± ${s}`}`);
      const main = c.slug === 'calib-head' ? 'fcp' : c.slug === 'calib-banner' ? 'cls' : c.slug === 'calib-hero' ? 'lcp' : c.slug === 'calib-none' ? 'fcp' : 'tbt';
      const ourMain = { fcp: d.fcp_ms, lcp: d.lcp_ms, tbt: d.tbt_ms, cls: d.cls }[main as 'fcp'];
      const fmt = (x: number) => (x < 0 ? '−' : '+') + (main === 'cls' ? Math.abs(x).toFixed(3) : `${Math.abs(Math.round(x))} ms`);
      row(ID, `browser beside Lighthouse: ${c.slug}, ${main.toUpperCase()}`, `Lighthouse ${fmt(lh[main as 'fcp'])}, WP Bench ${fmt(ourMain)} (spread ${d.spread[`${main}${main === 'cls' ? '' : '_ms'}` as 'fcp_ms']}); bytes ${r1(lh.kb)} / ${d.bytes_kb} KB`, 'side by side (devtools throttling, desktop)', 'info');
    }
    log(`figure ${ID}: Lighthouse (devtools throttling: ${DESKTOP.throughput_kbps} kb/s, ${DESKTOP.rtt_ms} ms latency, desktop) beside measure --browser:\n${table.join('\n')}`);
    out.table = table;
  } finally {
    for (const g of gates) await g.close();
    await site?.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
