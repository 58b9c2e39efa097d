// `wp-bench measure PATH`: the local benchmark engine (src/core/measure) from the command line. Runs the component's
// PHP, so it only ever runs on this explicit command.
import * as path from 'node:path';
import { parseDbOption } from '../core/measure/database/database';
import { measureSite } from '../core/measure/siteRun/siteRun';
import { rethrowWithSiteHint } from '../core/measure/siteRun/siteFolder';
import { parseShard, SITE_CONFIRM_ROUNDS, SITE_MIN_ROUNDS, SITE_ROUNDS, SITE_WARMUP } from '../core/measure/siteRun/sitePlan';
import { siteTable } from '../core/report/siteText';
import { siteHtml, siteMarkdown } from '../core/report/siteFormats';
import { ComponentNotFoundError, detectComponent } from '../core/measure/component/component';
import { DEFAULT_DISK_LIMIT_MIB, DEFAULT_ROUNDS, DEFAULT_TIMEOUT_S, DEFAULT_WARMUP, MeasureError, measure, measureCompare, type MeasureOptions } from '../core/measure/run/engine';
import { DEFAULT_MAX_REGRESSION_PERCENT, MIN_PAIRS, browserInconclusiveCount, browserUndecided, compareWithBrowser, confirmWhenUndecided, type PairedTtfb, type RegressionPolicy } from '../core/measure/compare/browser';

/** `--baseline-ref`: no budget exceeded, but a TTFB difference the run's noise could not decide (memory and queries judged). */
export const EXIT_INCONCLUSIVE = 3;
import { GitError, repoPrefix, snapshotAtRef } from '../core/report/git';
import { regressionHtml, regressionJson, regressionMarkdown, regressionSarif, regressionTable, type RegressionSubject } from '../core/report/regressionFormats';
import { loadTeamConfig } from '../core/config/teamConfig';
import { ciSafeJson, countNoun } from '../core/present/format';
import { CONTEXTS, type LocalRecord } from '../core/measure/record/method';
import type { RuntimeName } from '../core/measure/machine/runtime';
import { profileLines } from './profile';
import { measureTable } from '../core/report/measureText';
import { PROFILE_ROUNDS } from '../core/measure/run/profiling';
import { toCollapsed, toSpeedscope } from '../core/measure/profile/attribute';
import { parseOptions, UsageError, type CliIo } from './scan';
import { findingsHtml, findingsLines, findingsMarkdown, findingsSarif } from '../core/report/findingsFormats';
import { applyEdits, componentFindings } from '../core/measure/findings/fix';
import { measuredLine, measuredText } from '../core/measure/component/measuredText';
import { BROWSER_ROUNDS } from '../core/measure/browser/pass';
import { browserHtml, browserMarkdown } from '../core/report/browserHtml';

/** The CLI's io (its `signal` aborts the run; the CLI wires Ctrl-C there, and nothing is left behind), with the cache. */
export interface MeasureIo extends CliIo {
  cacheDir: string;
}

export const MEASURE_USAGE = `Usage: wp-bench measure PATH [options]
  PATH is a plugin folder, a plugin's main PHP file, a single-file plugin or a theme folder.
  Measures it on a throwaway WordPress site (runs its PHP on 127.0.0.1 only; removed afterwards).

  --runtime php|playground   native php (default when usable; precise TTFB) or WordPress Playground (npm)
  --wordpress DIR            WordPress core to use (default: web/wp, wp, wordpress… in the current folder,
                             then /usr/share/wordpress)
  --php BIN                  PHP binary for the php runtime (default: php on PATH)
  --sqlite-integration DIR   WordPress's SQLite Database Integration plugin (folder or .zip); default: the copy
                             inside @wp-playground/cli when installed
  --rounds N                 measured rounds per context (default ${DEFAULT_ROUNDS}), after 2 warm-up rounds; --site: the most
                             a configuration gets (default ${SITE_ROUNDS}, a member reading outside noise up to ${SITE_CONFIRM_ROUNDS}; at
                             least ${SITE_MIN_ROUNDS}, fewer once its TTFB settles)
  --warmup N                 warm-up rounds before the measured ones (default 2; --site: ${SITE_WARMUP})
  --timeout-s S              time limit of the whole run (default ${DEFAULT_TIMEOUT_S}), every wait included
  --disk-limit-mib N         what the measured code may write into the run's folders (uploads, caches, its
                             temporary folder, the database; default ${DEFAULT_DISK_LIMIT_MIB}): past it the run ends, exit 7
  --json                     one benchmark record in the API's shape, with source "local" and a "local" object
  --no-cache                 measure again even when the same files were measured before
  --baseline-ref REF         regression check: also measure PATH as it is at git REF (extracted into a temporary
                             folder), interleaved with the working tree on one throwaway site; exit 1 when a
                             budget of .wp-bench.json ("measure") is exceeded
  --fail-on-regression PCT   largest allowed increase in percent of the baseline's added cost (default: the
                             team config's measure.maxRegressionPercent, else ${DEFAULT_MAX_REGRESSION_PERCENT}); increases of at most
                             5 ms, 256 KB or 0 queries, or within the run's own spread, never fail
  --format FORMAT            with --baseline-ref: table (default), json, markdown, sarif or html; with --site:
                             table (default), json (as --json), markdown or html (a self-contained page); with
                             --profile: speedscope (a file speedscope.app opens) or collapsed (folded stacks for
                             flame graph tools) of the measured side in one context; with --browser alone: html (a
                             waterfall of the homepage's requests, a filmstrip of both sides) or markdown
  --profile                  also profile the component (native php with the Excimer extension; exit 8 without):
                             after the timed rounds, ${PROFILE_ROUNDS} more requests per context sampled every 1 ms; the table
                             and --json name the component's own functions with their time and queries per request
  --findings                 also say what the component does that costs every request, each at the line of its
                             own code: autoloaded options the front end never reads, repeated queries, HTTP
                             requests on page loads, render-blocking, large and every-admin-screen scripts and
                             styles (a findings pass after the timed rounds; the figures stay those of the
                             timed requests); --format table, json, markdown, sarif (each finding at its line)
                             or html
  --fix                      with --findings: apply the fixes that are mechanical (an autoloaded option's
                             autoload argument turned off at its line), only those lines, and say each change;
                             then measure --baseline-ref HEAD says what the fix saved
  --instructions             also count each side's requests in CPU instructions (native php on Linux with
                             Valgrind: sudo apt install valgrind libfaketime): exact on a busy machine, so
                             --baseline-ref judges on them instead of time (a change adding over 0.25 % of the
                             request fails); with --site, every configuration (a member's count in the site:
                             the stack against the stack without it); with --profile, the profile's functions
                             by instructions too (needs gcc and php-dev); without Valgrind, said, and measured
                             without
  --browser                  also load the homepage of each side in headless Chromium (native php; Debian/Ubuntu:
                             sudo apt install chromium): after the server rounds, ${BROWSER_ROUNDS} loads per side alternating, each
                             in a fresh context through Lighthouse's throttling; what the component adds in bytes,
                             requests, render-blocking requests, FCP, LCP, TBT and CLS, and its own scripts, styles
                             and images. The page reaches the throwaway site only. Without Chromium, said, and
                             measured without. --site: the clean site, the stack, the stack without each member
  --device desktop|mobile    with --browser: Lighthouse's desktop (default: 10,240 kb/s, 40 ms RTT, 1350×940) or
                             mobile (Slow 4G: 1,638.4 kb/s, 150 ms RTT, 4× CPU slowdown, 412×823)
  --browser-rounds N         with --browser: loads per side (default ${BROWSER_ROUNDS}), after one warm-up load
  --context CONTEXT          with --format speedscope|collapsed: activation, homepage (default) or admin
  --db auto|sqlite|URL       the database (native runtime): auto (default) starts a throwaway MariaDB or MySQL
                             server from this machine's binaries (mariadbd/mysqld; Debian: mariadb-server) on a
                             Unix socket in the run's folder, and falls back to SQLite when there is none; sqlite
                             uses WordPress's SQLite integration; mysql://USER:PASS@HOST:PORT/ uses your server
                             (wp-env's, Docker's): a database and a user of WP Bench's own (wpbench_<random>, privileges
                             on that database only; WordPress never gets your account), dropped at the end. The URL
                             may come from the WPBENCH_DB_URL environment variable instead (not visible in ps)
  --site                     PATH is a site's root (as scan reads it): its whole stack (every installed plugin and
                             must-use plugin, the site's theme) against clean WordPress, each component alone and
                             each in the site (the stack without it); the sum of the parts beside the stack;
                             --format table|json|markdown|html
  --shard K/N                with --site: measure the clean site, the stack and every N-th component alone and in
                             the site, from the K-th (a CI matrix job each); wp-bench merge puts the N records
                             together
  --theme SLUG               with --site: the theme to measure with when the site holds several (--site's time
                             limit: 1800 s unless --timeout-s says otherwise)
  --sandbox auto|bubblewrap|none
                             the native runtime's sandbox (default auto: bubblewrap where it works, else none,
                             said in the output and the record); bubblewrap: refuse to run without it (exit 8)

Exit codes: 0 measured (with --baseline-ref: no budget exceeded), 1 a budget exceeded (--baseline-ref), 2 usage or nothing to measure at PATH,
3 inconclusive (--baseline-ref: no budget exceeded, but a TTFB or browser difference too close to the threshold for the noise,
even after a confirmation pass; memory and queries were judged), 6 time limit or interrupted, 7 the component
(or WordPress) breaks WordPress entirely, 8 no runtime can run, or --profile has no profiler (says what to install), 130 Ctrl-C (SIGINT); SIGTERM and
SIGHUP exit 6.`;

const VALUE_FLAGS = new Set(['--shard', '--disk-limit-mib', '--theme', '--context', '--runtime', '--wordpress', '--php', '--rounds', '--timeout-s', '--db', '--sqlite-integration', '--baseline-ref', '--fail-on-regression', '--format', '--warmup', '--sandbox', '--device', '--browser-rounds']);
const BOOL_FLAGS = new Set(['--json', '--no-cache', '--profile', '--findings', '--fix', '--site', '--instructions', '--browser', '--help', '-h']);

function parse(argv: string[]): { positional: string[]; flags: Map<string, string | true> } {
  return parseOptions(argv, VALUE_FLAGS, BOOL_FLAGS);
}

function intFlag(flags: Map<string, string | true>, name: string, min: number, max: number): number | undefined {
  const v = flags.get(name);
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new UsageError(`${name} needs a whole number from ${min} to ${max}`);
  return Number(v);
}

// The table moved to src/core/report/measureText.ts; exported here too for the CLI's callers.
export { MEMORY_NOISE_KB, TTFB_NOISE_MS, measureTable, withinNoise } from '../core/report/measureText';

export async function runMeasureCli(argv: string[], io: MeasureIo, searchFrom: string[] = []): Promise<number> {
  let parsed;
  try {
    parsed = parse(argv);
    if (parsed.flags.has('--help') || parsed.flags.has('-h')) {
      io.out(MEASURE_USAGE);
      return 0;
    }
    const db = parsed.flags.get('--db') as string | undefined;
    // Checked (and refused, without repeating the password) before anything starts; WPBENCH_DB_URL when --db is absent.
    parseDbOption(db ?? (io.env.WPBENCH_DB_URL || undefined));
    if (parsed.positional.length !== 1) throw new UsageError('measure takes exactly one PATH');
    const runtime = parsed.flags.get('--runtime');
    if (runtime !== undefined && runtime !== 'php' && runtime !== 'playground') throw new UsageError('--runtime is php or playground');
    const sandbox = parsed.flags.get('--sandbox');
    if (sandbox !== undefined && sandbox !== 'auto' && sandbox !== 'bubblewrap' && sandbox !== 'none') throw new UsageError('--sandbox is auto, bubblewrap or none');
    const json = parsed.flags.has('--json');
    const baselineRef = parsed.flags.get('--baseline-ref') as string | undefined;
    const formatFlag = parsed.flags.get('--format') as string | undefined;
    const profile = parsed.flags.has('--profile');
    const profileFormat = formatFlag === 'speedscope' || formatFlag === 'collapsed' ? formatFlag : undefined;
    if (formatFlag !== undefined && !['table', 'json', 'markdown', 'sarif', 'html', 'speedscope', 'collapsed'].includes(formatFlag)) throw new UsageError('--format must be one of table, json, markdown, sarif, html, speedscope, collapsed');
    const site = parsed.flags.has('--site');
    const browser = parsed.flags.has('--browser');
    const device = parsed.flags.get('--device');
    if (device !== undefined && device !== 'desktop' && device !== 'mobile') throw new UsageError('--device is desktop or mobile');
    if (!browser && (device !== undefined || parsed.flags.has('--browser-rounds'))) throw new UsageError('--device and --browser-rounds go with --browser');
    if (site && formatFlag !== undefined && !['table', 'json', 'markdown', 'html'].includes(formatFlag)) throw new UsageError('with --site, --format is table, json, markdown or html');
    if (profileFormat && !profile) throw new UsageError(`--format ${profileFormat} needs --profile`);
    if (profileFormat && baselineRef !== undefined) throw new UsageError(`--format ${profileFormat} profiles one copy: run it without --baseline-ref`);
    const findings = parsed.flags.has('--findings');
    const fix = parsed.flags.has('--fix');
    if (fix && !findings) throw new UsageError('--fix goes with --findings');
    if (findings && site) throw new UsageError('--findings measures one component: run it without --site');
    if (findings && baselineRef !== undefined) throw new UsageError('--findings looks at the working tree alone: run it without --baseline-ref (then --baseline-ref HEAD says what a fix saved)');
    if (findings && profileFormat) throw new UsageError(`--format ${profileFormat} writes a profile alone: run --findings without it`);
    if (findings && formatFlag !== undefined && !['table', 'json', 'markdown', 'sarif', 'html'].includes(formatFlag)) throw new UsageError('with --findings, --format is table, json, markdown, sarif or html');
    // --browser alone: its report as a page (html: waterfall and filmstrip) or Markdown (browserHtml.ts).
    const browserFormat = browser && !findings && !site && baselineRef === undefined && (formatFlag === 'html' || formatFlag === 'markdown') ? formatFlag : undefined;
    if (!findings && !profileFormat && !site && !browserFormat && (formatFlag !== undefined || parsed.flags.has('--fail-on-regression')) && baselineRef === undefined) throw new UsageError(browser ? '--format with --browser alone is html or markdown; --format and --fail-on-regression otherwise need --baseline-ref' : '--format and --fail-on-regression need --baseline-ref');
    const contextFlag = parsed.flags.get('--context');
    if (contextFlag !== undefined && !profileFormat) throw new UsageError('--context goes with --format speedscope or collapsed');
    if (contextFlag !== undefined && !(CONTEXTS as readonly unknown[]).includes(contextFlag)) throw new UsageError('--context is activation, homepage or admin');
    const profileContext = (contextFlag ?? 'homepage') as (typeof CONTEXTS)[number];
    if (json && formatFlag !== undefined && formatFlag !== 'json') throw new UsageError('--json and --format exclude each other');
    const failPct = parsed.flags.get('--fail-on-regression');
    if (failPct !== undefined && (typeof failPct !== 'string' || !/^\d+(\.\d+)?$/.test(failPct) || Number(failPct) > 10000)) throw new UsageError('--fail-on-regression needs a percentage from 0 to 10000');
    let lastRound = '';
    let profiles: Parameters<NonNullable<MeasureOptions['onProfiles']>>[0] = {};
    const options: MeasureOptions = {
      path: parsed.positional[0],
      runtime: runtime as RuntimeName | undefined,
      wordpress: parsed.flags.get('--wordpress') as string | undefined,
      php: parsed.flags.get('--php') as string | undefined,
      sqliteIntegration: parsed.flags.get('--sqlite-integration') as string | undefined,
      db,
      rounds: intFlag(parsed.flags, '--rounds', 1, 200),
      warmup: intFlag(parsed.flags, '--warmup', 0, 20),
      timeoutS: intFlag(parsed.flags, '--timeout-s', 1, 86_400),
      diskLimitMiB: intFlag(parsed.flags, '--disk-limit-mib', 64, 1_048_576),
      env: io.env,
      cwd: io.cwd,
      searchFrom,
      signal: io.signal,
      cacheDir: io.cacheDir,
      noCache: parsed.flags.has('--no-cache'),
      sandbox: sandbox as MeasureOptions['sandbox'],
      profile,
      findings,
      instructions: parsed.flags.has('--instructions'),
      browser,
      ...(device ? { device: device as 'desktop' | 'mobile' } : {}),
      browserRounds: intFlag(parsed.flags, '--browser-rounds', 1, 50),
      onProfiles: (raw) => (profiles = raw),
      progress: (line) => {
        // One line per round, not per request.
        const round = /^(round \d+\/\d+|warm-up \d+\/\d+)/.exec(line)?.[1];
        if (round) {
          if (round === lastRound) return;
          lastRound = round;
          io.err(`wp-bench: measuring: ${round}`);
          return;
        }
        io.err(`wp-bench: ${line}`);
      },
    };
    if (site) {
      if (baselineRef !== undefined || profile || parsed.flags.has('--fail-on-regression')) throw new UsageError('--site measures the whole stack: without --baseline-ref, --profile or --fail-on-regression');
      const shardFlag = parsed.flags.get('--shard');
      const shard = shardFlag === undefined ? undefined : typeof shardFlag === 'string' ? parseShard(shardFlag) : undefined;
      if (shardFlag !== undefined && !shard) throw new UsageError('--shard takes K/N (1 ≤ K ≤ N ≤ 64), e.g. --shard 2/4');
      const record = await measureSite({ ...options, theme: parsed.flags.get('--theme') as string | undefined, ...(shard ? { shard } : {}) });
      const format = json ? 'json' : (formatFlag ?? 'table');
      const subject = path.basename(path.resolve(io.cwd, options.path));
      io.out(format === 'json' ? JSON.stringify(record) : format === 'markdown' ? siteMarkdown(record, { subject }) : format === 'html' ? siteHtml(record, { subject }) : siteTable(record));
      return 0;
    }
    if (parsed.flags.has('--theme')) throw new UsageError('--theme goes with --site');
    if (parsed.flags.has('--shard')) throw new UsageError('--shard goes with --site');
    if (baselineRef !== undefined) {
      const small = tooSmallToJudge(options.rounds ?? DEFAULT_ROUNDS, options.warmup ?? DEFAULT_WARMUP, browser ? (options.browserRounds ?? BROWSER_ROUNDS) : undefined);
      if (small) throw new UsageError(`--baseline-ref: ${small}`);
      return await runRegression(options, baselineRef, json ? 'json' : (formatFlag ?? 'table'), failPct === undefined ? undefined : Number(failPct), io);
    }
    const record = await measure(options).catch((e: unknown) => rethrowWithSiteHint(e, path.resolve(io.cwd, options.path), io.signal));
    if (profileFormat) {
      const raw = profiles[profileContext];
      if (!raw?.length) throw new MeasureError(`--profile: ${profileContext} could not be measured, so it has no profile`, 7);
      io.out(profileFormat === 'speedscope' ? JSON.stringify(toSpeedscope(raw, { name: `${record.name} — ${profileContext}` })) : toCollapsed(raw).replace(/\n$/, ''));
      return 0;
    }
    if (findings) return await findingsOut(record, json ? 'json' : (formatFlag ?? 'table'), fix, io, options.path);
    if (browserFormat) return (io.out(browserFormat === 'html' ? browserHtml(record) : browserMarkdown(record)), 0);
    io.out(json ? JSON.stringify(record) : [measureTable(record), ...profileLines(record)].join('\n'));
    return 0;
  } catch (err) {
    // With --json, stdout carries a JSON error object too (a CI step parsing stdout never reads nothing).
    const jsonOut = argv.includes('--json') || argv.some((a, i) => (a === '--format' && argv[i + 1] === 'json') || a === '--format=json');
    const jsonError = (message: string, code: number) => {
      if (jsonOut) io.out(JSON.stringify({ error: { message, exit_code: code } }));
      return code;
    };
    if (err instanceof UsageError) {
      io.err(`wp-bench: ${err.message}. Run "wp-bench measure --help" for usage.`);
      return jsonError(err.message, 2);
    }
    if (err instanceof MeasureError) {
      io.err(`wp-bench: ${err.message}`);
      // Ctrl-C is 130, as shells report SIGINT; SIGTERM and SIGHUP are "interrupted" (6), as --help says.
      return jsonError(err.message, io.signal?.aborted && (io.signal.reason as { byCtrlC?: boolean } | undefined)?.byCtrlC ? 130 : err.exitCode);
    }
    io.err(`wp-bench: measuring failed: ${String((err as Error)?.message ?? err).slice(0, 400)}`);
    return jsonError(`measuring failed: ${String((err as Error)?.message ?? err).slice(0, 400)}`, 6);
  }
}

/**
 * `measure PATH --baseline-ref REF`: PATH as it is at REF is extracted (git archive, children without the API key)
 * into a temporary folder, both copies are measured in one interleaved run, the differences judged.
 */
async function runRegression(options: MeasureOptions, ref: string, format: string, failPct: number | undefined, io: MeasureIo): Promise<number> {
  let component;
  try {
    // Reads only the first bytes of regular files (a FIFO is never opened); Ctrl-C stops it.
    component = await detectComponent(path.resolve(io.cwd, options.path), io.signal);
  } catch (err) {
    if (io.signal?.aborted) throw io.signal.reason instanceof MeasureError ? io.signal.reason : new MeasureError('interrupted', 6);
    if (err instanceof ComponentNotFoundError) return rethrowWithSiteHint(new MeasureError(err.message, 2), path.resolve(io.cwd, options.path), io.signal);
    throw err;
  }
  // The folder that is copied (or the single file's folder) is the one extracted at REF.
  const abs = component.source;
  const isDir = !component.singleFile;
  const dir = isDir ? abs : path.dirname(abs);
  let snapshot;
  try {
    snapshot = await snapshotAtRef(dir, ref);
  } catch (err) {
    if (err instanceof GitError) throw new UsageError(`--baseline-ref: ${err.message}`);
    throw err;
  }
  try {
    const refPath = isDir ? snapshot.root : path.join(snapshot.root, path.basename(abs));
    // The team config: the current folder's, else the repository root's.
    let team = await loadTeamConfig(io.cwd);
    if (!team.config.file) {
      const prefix = await repoPrefix(dir);
      if (prefix !== undefined) {
        const top = prefix === '' ? dir : path.resolve(dir, ...prefix.split('/').map(() => '..'));
        if (top !== io.cwd) team = await loadTeamConfig(top);
      }
    }
    for (const p of team.problems) io.err(`wp-bench: ${p.file}:${p.line}:${p.column}: ${p.message}`);
    const policy: RegressionPolicy = {
      maxRegressionPercent: failPct ?? team.config.measure?.maxRegressionPercent ?? DEFAULT_MAX_REGRESSION_PERCENT,
      ceilings: team.config.measure?.ceilings ?? {},
      // With --instructions: the instructions rows' threshold (percent of REF's request; default 0.5, compare/instructions.ts).
      ...(team.config.measure?.instructions !== undefined ? { instructionsPercent: team.config.measure.instructions } : {}),
      ...(team.config.measure?.browser ? { browser: team.config.measure.browser } : {}), // --browser: budgets (compare/browser.ts)
    };
    // TTFB the wall clock cannot decide at the threshold gets one confirmation pass first; only then is CPU time asked.
    const { current, baseline, paired, pairedCpu, pairedBrowser } = await measureCompare({ ...options, confirm: confirmWhenUndecided(policy), confirmBrowser: browserUndecided(policy) }, refPath, `${abs} at ${ref}`);
    const report = compareWithBrowser(current, baseline, policy, paired, pairedCpu, pairedBrowser);
    const prefix = (await repoPrefix(dir)) ?? '';
    const mainName = component.mainFile;
    const subject: RegressionSubject = { ref, commit: snapshot.commit, current, baseline, report, mainFile: [prefix, mainName].filter(Boolean).join('/') };
    const text =
      format === 'json'
        ? ciSafeJson(regressionJson(subject))
        : format === 'markdown'
          ? regressionMarkdown(subject)
          : format === 'sarif'
            ? ciSafeJson(regressionSarif(subject))
            : format === 'html'
              ? regressionHtml(subject)
              : regressionTable(subject);
    io.out(text);
    return report.exceeded.length ? 1 : report.inconclusive.length || browserInconclusiveCount(report) ? EXIT_INCONCLUSIVE : 0;
  } finally {
    await snapshot.dispose();
  }
}

/**
 * `--findings`: the record in the format asked for; with `--fix`, the mechanical fixes applied to the component's own
 * files (only lines still as they were read), each change said on stderr.
 */
export async function findingsOut(record: LocalRecord, format: string, fix: boolean, io: MeasureIo, at: string): Promise<number> {
  const component = await detectComponent(path.resolve(io.cwd, at), io.signal);
  const root = component.singleFile || component.mustUse ? path.dirname(component.source) : component.source;
  record = { ...record, findings: await componentFindings(record.findings, root, (line) => io.err(`wp-bench: ${line}`)) };
  if (fix) {
    const edits = (record.findings ?? []).flatMap((f) => f.fix.edits ?? []);
    if (!edits.length) io.err('wp-bench: --fix: no finding has a mechanical fix; nothing changed');
    for (const a of await applyEdits(root, edits)) {
      const where = `${measuredText(path.relative(io.cwd, path.join(root, ...a.edit.file.split('/'))) || a.edit.file)}:${a.edit.line}`;
      if (a.applied) io.err(`wp-bench: fixed ${where}: ${measuredLine(a.edit.old, 200)} → ${measuredLine(a.edit.new, 200)}`);
      else io.err(`wp-bench: not fixed ${where}: ${a.why}`);
    }
  }
  const prefix = (await repoPrefix(root)) ?? '';
  const text =
    format === 'json'
      ? JSON.stringify(record)
      : format === 'markdown'
        ? findingsMarkdown(record)
        : format === 'sarif'
          ? ciSafeJson(findingsSarif(record, prefix))
          : format === 'html'
            ? findingsHtml(record)
            : [measureTable(record), ...profileLines(record), ...findingsLines(record.findings, '', true)].join('\n');
  io.out(text);
  return 0;
}

/** The signal the real process wires to Ctrl-C (SIGINT) and SIGTERM; `dispose` removes the handlers. */
export function interruptSignal(): { signal: AbortSignal; dispose: () => void } {
  const ac = new AbortController();
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const handlers = signals.map((s) => {
    const on = () => ac.abort(Object.assign(new MeasureError(`interrupted (${s}): the throwaway site was stopped and removed`, 6), { byCtrlC: s === 'SIGINT' }));
    process.on(s, on);
    return [s, on] as const;
  });
  return { signal: ac.signal, dispose: () => handlers.forEach(([s, on]) => process.off(s, on)) };
}

/**
 * Why a comparison with these settings cannot be judged, or undefined. One measured round has no spread to tell noise
 * from a change, and without warm-up the first requests' one-time work (caches, transients) lands in the figures:
 * both gave false regressions. At least MIN_PAIRS (5) rounds and 1 warm-up round.
 */
export function tooSmallToJudge(rounds: number, warmup: number, loads?: number): string | undefined {
  if (rounds < MIN_PAIRS) return `${countNoun(rounds, 'measured round')} cannot tell a change from noise (a 95 % bound needs ${MIN_PAIRS}); use --rounds ${MIN_PAIRS} or more (default ${DEFAULT_ROUNDS})`;
  if (warmup < 1) return `without a warm-up round the first requests' one-time work counts as cost; use --warmup 1 or more (default ${DEFAULT_WARMUP})`;
  if (loads !== undefined && loads < MIN_PAIRS) return `--browser: ${loads} loads a side cannot tell a change from noise (a 95 % bound needs ${MIN_PAIRS}); use --browser-rounds ${MIN_PAIRS} or more`;
  return undefined;
}

export const measureSearchFrom = (dirname: string) => [dirname, path.dirname(dirname)];
