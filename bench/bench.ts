// `npm run bench [-- --quick]`: what WP Bench's users wait for, measured against targets.
//   npx tsx bench/bench.ts [--quick]      (npm run bench builds dist/ first)
// Writes bench/results.json and prints a table (figure, value, target, PASS/FAIL) with the machine's facts.
// Full mode exits 1 when a target fails; --quick (CI: keeps the script working) exits 0 on target failures.
// Both exit 1 when a figure could not be measured because of an error. Fixtures are generated (seeded) in
// a temp dir removed at the end; the emulator listens on 127.0.0.1 only.
// The figures live beside it: detection.ts (1, 1b), lookups.ts (2, 3), activation.ts (4), heap.ts (5), scale.ts (6),
// measure.ts (7), regression.ts (8), profile.ts (9), site.ts (10), findings.ts (11), instructions.ts (12), siteNoop.ts (13), siteInstructions.ts (14), browser.ts (15), lighthouse.ts (16: with WPB_LIGHTHOUSE only), browserRegression.ts (17); common.ts holds the mode, the rows and details, and the formatting they share.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ScanResult } from '../src/core/model';
import { generateSite, removeSite } from './lib/fixtures';
import { figureMeasure } from './measure';
import { figureRegression } from './regression';
import { figureProfile } from './profile';
import { figureSite } from './site';
import { figureFindings } from './findings';
import { figureInstructions } from './instructions';
import { figureSiteNoop } from './siteNoop';
import { figureSiteInstructions } from './siteInstructions';
import { figureBrowser } from './browser';
import { figureLighthouse } from './lighthouse';
import { figureBrowserRegression } from './browserRegression';
import { round } from './lib/util';
import { CONFIG, details, log, mib, QUICK, ROOT, row, rows, settle } from './common';
import { figureDetection, figureDetectionOther } from './detection';
import { figureHover, figureLookups } from './lookups';
import { figureActivation } from './activation';
import { figureMemory } from './heap';
import { figureScale } from './scale';

/** `--only 1,3`: just those figures (e.g. `npm run bench -- --only 1` for detection alone). */
const ONLY = (() => {
  const i = process.argv.indexOf('--only');
  return i >= 0 && process.argv[i + 1] ? new Set(process.argv[i + 1].split(',')) : null;
})();

// ---- main --------------------------------------------------------------------------------------

function machine(): Record<string, unknown> {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    availableParallelism: os.availableParallelism(),
    memoryGiB: round(os.totalmem() / 1024 ** 3, 1),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
}

function printTable(): void {
  const head = ['#', 'Figure', 'Value', 'Target', 'Result'];
  const body = rows.map((r) => [r.id, r.figure, r.value, r.target, r.status]);
  const widths = head.map((h, i) => Math.min(i === 1 ? 70 : i === 2 ? 90 : 40, Math.max(h.length, ...body.map((b) => b[i].length))));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join(' | ');
  console.log(fmt(head));
  console.log(widths.map((w, i) => (i === widths.length - 1 ? '-'.repeat(6) : '-'.repeat(w))).join('-|-'));
  for (const b of body) console.log(fmt(b));
}

async function main(): Promise<number> {
  const started = Date.now();
  for (const f of ['dist/cli.js', 'dist/extension.js']) {
    if (!fs.existsSync(path.join(ROOT, f))) throw new Error(`${f} is missing: run \`node esbuild.mjs\` (npm run bench does)`);
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-bench-'));
  const cleanup = () => fs.rmSync(tmp, { recursive: true, force: true });
  const onSignal = () => {
    cleanup();
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const facts = machine();
  log(`${QUICK ? 'quick' : 'full'} mode; ${facts.cpu as string}, ${facts.cores as number} cores, node ${process.version}; temp ${tmp}`);

  const attempt = async (id: string, name: string, fn: () => Promise<void> | void) => {
    if (ONLY && !ONLY.has(id)) return;
    const t0 = Date.now();
    try {
      await fn();
    } catch (err) {
      row(id, `${name}: error`, String((err as Error)?.message ?? err).split('\n')[0].slice(0, 200), '-', 'ERROR');
      details[`error${id}`] = String((err as Error)?.stack ?? err);
      log(`figure ${id} failed: ${(err as Error)?.stack ?? err}`);
    }
    log(`figure ${id} (${name}) took ${round((Date.now() - t0) / 1000, 1)} s`);
  };

  try {
    const t0 = Date.now();
    const site = generateSite(path.join(tmp, 'site'), CONFIG.site);
    settle();
    details.generationSeconds = round((Date.now() - t0) / 1000, 1);
    log(`generated ${site.filesWritten} files (${site.hardLinks} of them hard links; ${mib(site.bytesWritten)} written) in ${details.generationSeconds} s (sync included)`);

    let scan: ScanResult | undefined;
    await attempt('1', 'detection vs WordPress', async () => {
      scan = await figureDetection(site);
    });
    let lookups: Awaited<ReturnType<typeof figureLookups>> | undefined;
    await attempt('2', 'lookups', async () => {
      lookups = await figureLookups(tmp);
    });
    await attempt('3', 'hover', async () => {
      if (!scan || !lookups) throw new Error('needs figures 1 and 2');
      await figureHover(scan, site, lookups);
    });
    await lookups?.dispose();
    await attempt('5', 'memory', () => figureMemory(site, tmp));
    const tRm = Date.now();
    removeSite(site.dir);
    log(`removed the site in ${round((Date.now() - tRm) / 1000, 1)} s`);
    await attempt('1b', 'detection vs WordPress, main files not named after the folder', () => figureDetectionOther(tmp));
    await attempt('6', 'scale', () => figureScale(tmp));
    await attempt('4', 'activation', () => figureActivation(tmp));
    await attempt('7', 'measure', () => figureMeasure(row, details, QUICK, log));
    await attempt('8', 'regression check', () => figureRegression(row, details, QUICK, log));
    await attempt('9', 'profile', () => figureProfile(row, details, QUICK, log));
    await attempt('10', 'site', () => figureSite(row, details, QUICK, log));
    await attempt('11', 'findings', () => figureFindings(row, details, QUICK, log));
    await attempt('12', 'instructions', () => figureInstructions(row, details, QUICK, log));
    await attempt('13', 'site no-op members', () => figureSiteNoop(row, details, QUICK, log));
    await attempt('14', 'site instructions', () => figureSiteInstructions(row, details, QUICK, log));
    await attempt('15', 'browser', () => figureBrowser(row, details, QUICK, log));
    await attempt('16', 'browser beside Lighthouse', () => figureLighthouse(row, details, QUICK, log));
    await attempt('17', 'browser regression check', () => figureBrowserRegression(row, details, QUICK, log));
  } finally {
    cleanup();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  rows.sort((a, b) => a.id.localeCompare(b.id));
  const durationS = round((Date.now() - started) / 1000, 1);
  const failed = rows.filter((r) => r.status === 'FAIL');
  const errored = rows.filter((r) => r.status === 'ERROR');
  const results = { mode: QUICK ? 'quick' : 'full', date: new Date().toISOString(), durationSeconds: durationS, machine: facts, config: CONFIG, rows, details };
  fs.writeFileSync(path.join(__dirname, 'results.json'), JSON.stringify(results, null, 2) + '\n');

  console.log(`\nWP Bench performance (${QUICK ? '--quick' : 'full'}), ${new Date().toISOString().slice(0, 10)}`);
  console.log(`Machine: ${facts.cpu as string}, ${facts.cores as number} cores, ${facts.memoryGiB as number} GiB, Node ${process.version}, ${facts.platform as string}\n`);
  printTable();
  console.log(`\n${rows.filter((r) => r.status === 'PASS').length} PASS, ${failed.length} FAIL, ${errored.length} ERROR, ${rows.filter((r) => r.status === 'not measured').length} not measured; ${durationS} s; results in bench/results.json`);
  if (errored.length) return 1;
  if (failed.length && !QUICK) return 1;
  if (failed.length) console.log('(--quick: targets are not enforced)');
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
    // Nothing should be left running; if something is, do not hang CI.
    setTimeout(() => process.exit(code), 2000).unref();
  },
  (err) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exitCode = 1;
  },
);
