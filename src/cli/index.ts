// Command-line front end over src/core: `wp-bench scan|lookup|me|check`.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BenchClient } from '../core/api/client';
import { ApiError, errors, exitCodeFor, truncateForMessage } from '../core/api/errors';
import type { TransportFactory } from '../core/api/transport';
import { DiskCache } from '../core/cache/diskCache';
import { ciSafeJson, countNoun, formatAge, formatContext, formatCount, formatQuota, isoTime } from '../core/present/format';
import type { Logger } from '../core/logger';
import { nullLogger } from '../core/logger';
import { checkOutputPath, OutputFileError, writeOutputFile } from '../core/outputFile';
import { LookupService, type LookupOutcome } from '../core/lookup/lookupService';
import { CONTEXT_NAMES, isValidSlug, type AccountInfo, type ComponentKind, type ContextName, type ScanResult } from '../core/model';
import { DEFAULT_MAX_REQUESTS, lookupErrors, lookupForCheck, offlineTransport } from '../core/report/check';
import { diffJudgements, type ComponentDiff } from '../core/report/diff';
import { textTable } from '../core/report/plain';
import { REPORT_FORMATS, toJson, toMarkdown, toSarif, toTable, type ReportFormat } from '../core/report/formats';
import { toHtml } from '../core/report/html';
import { GitError, repoPrefix, snapshotAtRef } from '../core/report/git';
import { QuotaGuard } from '../core/session/quotaGuard';
import { judge, localKey, type ComponentVerdict, type JudgeConfig, type ReportLocation } from '../core/report/judge';
import { MeasureError, measure } from '../core/measure/engine';
import type { LocalRecord } from '../core/measure/method';
import { scanWorkspace } from '../core/scan';
import { EXIT, parseOptions, problemLine, runAsProcess, safeIo, scanCommand, UsageError, type CliIo } from './scan';
import { interruptSignal, measureSearchFrom, runMeasureCli } from './measure';
import { BUDGET_METRICS, GRADE_LETTERS, loadTeamConfig, type Budget, type BudgetMetric, type GradeLetter } from '../core/config/teamConfig';

export { EXIT, scanToJson, type CliIo } from './scan';

const VERSION = '0.1.0';

/**
 * undici is loaded with the first request only (`scan` never needs it): dist/http.js beside the bundle, as the
 * extension does; from the sources (tests through tsx), the module itself.
 */
const lazyUndici: TransportFactory = (options) => {
  const bundled = path.join(__dirname, 'http.js');
  const modulePath = require('node:fs').existsSync(bundled) ? bundled : path.join(__dirname, '..', 'core', 'api', 'undiciTransport');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(modulePath) as typeof import('../core/api/undiciTransport')).createUndiciTransport(options);
};

const USAGE = `WP Bench ${VERSION} — what each WordPress plugin and theme costs your site.

Usage:
  wp-bench scan [dir] [--json]                  list plugins and themes (no network)
  wp-bench lookup plugin|theme <slug> [--json]  benchmark of one plugin or theme
  wp-bench me [--json]                          your tier, quota and usage
  wp-bench check [dir] [options]                judge every plugin and theme (for CI)
  wp-bench measure PATH [options]               measure a plugin or theme locally (runs its PHP;
                                                see wp-bench measure --help)

Options:
  --api-url URL   API address before /v1 (or WPBENCH_API_URL)
  --request-timeout-s N   time limit of one request, body included (1 to 3600, default 15)
  --no-cache      ask the API even when a cached answer is fresh
  --verbose       log requests to stderr (never the key)
  --help, --version

Check options (flags override .wp-bench.json, which overrides the defaults):
  --fail-on GRADE         fail when a component is graded worse than A-F, or "none" (default C)
  --context NAME          activation, homepage (default) or admin: shown, and judged by --budget-*
  --budget-ttfb-ms N      budget of the site total's added TTFB in that context
  --budget-memory-mb N    budget of the site total's added memory (MB)
  --budget-queries N      budget of the site total's added database queries
  --format FORMAT         table (default), json, markdown, sarif or html (a self-contained page for clients)
  --output FILE           write the report to FILE instead of stdout
  --max-requests N        send at most N lookups (default 200); the rest is reported as not looked up
  --timeout-s N           time limit of the whole run (default 120): no request starts after it, and sending
                          stops after 3 timeouts in a row; the report of what is known is printed, exit 6
  --offline               the cache only: no request at all, no key needed (the cache is kept per API
                          address: give --api-url or WPBENCH_API_URL)
  --diff REF              also show what this tree adds or removes compared with git REF
  --measure-local         measure locally (runs their PHP on a throwaway site, see wp-bench measure) the
                          plugins and themes in this folder the API has no benchmark for, so the site total
                          and budgets cover them; marked "measured locally" in every report; bounded by --timeout-s

The API key is read from WPBENCH_API_KEY only (never from the command line).
Cache: WPBENCH_CACHE_DIR, else $XDG_CACHE_HOME/wp-bench, else ~/.cache/wp-bench.
Exit codes: 0 ok, 2 usage, 3 not in dataset, 4 key invalid or revoked, 5 quota exhausted,
6 network, server or unreadable response; check: 1 when the judgement fails (3 is not used).`;

interface Parsed {
  positional: string[];
  flags: Map<string, string | true>;
}

const CHECK_VALUE_FLAGS = ['--timeout-s', '--fail-on', '--context', '--budget-ttfb-ms', '--budget-memory-mb', '--budget-queries', '--format', '--output', '--max-requests', '--diff'];
const CHECK_BOOL_FLAGS = ['--offline', '--measure-local'];
const VALUE_FLAGS = new Set(['--api-url', '--request-timeout-s', ...CHECK_VALUE_FLAGS]);
const BOOL_FLAGS = new Set(['--json', '--no-cache', '--verbose', '--help', '--version', '-h', ...CHECK_BOOL_FLAGS]);

function parseArgs(argv: string[]): Parsed {
  return parseOptions(argv, VALUE_FLAGS, BOOL_FLAGS, (name) =>
    name === '--api-key' || name === '--key' ? 'the API key is never taken from the command line: set WPBENCH_API_KEY' : undefined,
  );
}

export function cacheDir(env: NodeJS.ProcessEnv): string {
  if (env.WPBENCH_CACHE_DIR) return env.WPBENCH_CACHE_DIR;
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  return path.join(base, 'wp-bench');
}

function stderrLogger(io: CliIo): Logger {
  return {
    debug: () => undefined,
    info: (m) => io.err(`wp-bench: ${m}`),
    warn: (m) => io.err(`wp-bench: ${m}`),
    error: (m) => io.err(`wp-bench: ${m}`),
  };
}

function makeClient(parsed: Parsed, io: CliIo, transport: TransportFactory = lazyUndici): BenchClient {
  const apiUrl = (parsed.flags.get('--api-url') as string | undefined) ?? io.env.WPBENCH_API_URL;
  const key = io.env.WPBENCH_API_KEY;
  const timeoutS = numberFlag(parsed, '--request-timeout-s', false, REQUEST_TIMEOUT_RANGE);
  return new BenchClient({
    apiUrl: apiUrl ?? '',
    getKey: () => key,
    transport,
    timeoutMs: timeoutS === undefined ? undefined : timeoutS * 1000,
    logger: parsed.flags.has('--verbose') ? stderrLogger(io) : nullLogger,
  });
}

async function runScan(parsed: Parsed, io: CliIo): Promise<number> {
  if (parsed.positional.length > 2) throw new UsageError('scan takes at most one folder');
  return scanCommand(path.resolve(io.cwd, parsed.positional[1] ?? '.'), parsed.flags.has('--json'), io);
}

async function runLookup(parsed: Parsed, io: CliIo): Promise<number> {
  const [, kindArg, slug, extra] = parsed.positional;
  if ((kindArg !== 'plugin' && kindArg !== 'theme') || !slug || extra !== undefined) {
    throw new UsageError('usage: wp-bench lookup plugin|theme <slug>');
  }
  const kind = kindArg as ComponentKind;
  // A hostile slug is refused before anything is read or sent.
  if (!isValidSlug(slug)) throw errors.invalidSlug(slug);
  const client = makeClient(parsed, io);
  try {
    const cache = new DiskCache({ dir: cacheDir(io.env) });
    const service = new LookupService(cache, () => client);
    // The extension's rules, persisted in the cache folder: after a 429 nothing is sent until the reset, a key the
    // API refused is not sent again. One lookup asked for by name is retried even if it failed minutes ago.
    const [outcome] = (
      await lookupForCheck(service, [{ kind, slug, name: null, version: null, locations: [] }], {
        network: true,
        maxRequests: 1,
        force: parsed.flags.has('--no-cache'),
        guard: { state: new QuotaGuard(QuotaGuard.fileFor(cacheDir(io.env), client.apiId)), key: io.env.WPBENCH_API_KEY, retryFailed: true },
      })
    ).outcomes.values();
    warnUnwritableCache(cache, io);
    if (!outcome.result) throw outcome.error ?? errors.network('no answer');
    printLookup(outcome, io, parsed.flags.has('--json'));
    if (outcome.error) {
      io.err(`wp-bench: ${outcome.error.message} The answer shown is cached and stale.`);
      return exitCodeFor(outcome.error);
    }
    return outcome.result.state === 'not-in-dataset' ? EXIT.notInDataset : EXIT.ok;
  } finally {
    await client.dispose();
  }
}

/** One line, not silence: answers that cannot be kept are asked again (and counted) on every run. */
function warnUnwritableCache(cache: DiskCache, io: CliIo): void {
  if (cache.writeError) {
    io.err(`wp-bench: the cache folder cannot be written (${cache.writeError}): answers are not kept, so every run asks again and counts against the quota. Set WPBENCH_CACHE_DIR to a writable folder.`);
  }
}

function printLookup(outcome: LookupOutcome, io: CliIo, json: boolean): void {
  const result = outcome.result!;
  const fetchedAt = isoTime(outcome.fetchedAt);
  if (json) {
    const record = result.state === 'not-in-dataset' ? null : result.record;
    io.out(ciSafeJson(JSON.stringify({ kind: outcome.kind, slug: outcome.slug, state: result.state, stale: outcome.stale, fetchedAt, record })));
    return;
  }
  const staleNote = outcome.stale && outcome.fetchedAt ? ` (STALE: cached ${formatAge(Date.now() - outcome.fetchedAt)})` : '';
  if (result.state === 'not-in-dataset') {
    io.out(`${outcome.kind} "${outcome.slug}" is not in the benchmark dataset.${staleNote}`);
    return;
  }
  const r = result.record;
  if (result.state === 'not-benchmarked') {
    io.out(`${r.name} (${r.kind} ${r.slug}) is known but not benchmarked yet.${staleNote}`);
    return;
  }
  io.out(`${r.name} (${r.kind} ${r.slug}) — grade ${r.grade} (${r.score})${staleNote}`);
  const rows = [['CONTEXT', 'TTFB', 'MEMORY', 'QUERIES']];
  for (const c of CONTEXT_NAMES) {
    const f = formatContext(r.contexts[c]);
    rows.push([c, f.ttfb, f.memory, f.queries]);
  }
  io.out(textTable(rows));
  const facts = [
    r.activeInstalls !== null ? `${formatCount(r.activeInstalls)}+ active installs` : null,
    r.rating !== null ? `rating ${r.rating}` : null,
    r.benchmarkedAt ? `measured ${r.benchmarkedAt}` : null,
  ].filter(Boolean);
  if (facts.length) io.out(facts.join(' · '));
  if (r.profileUrl) io.out(r.profileUrl);
}

function printAccount(account: AccountInfo, io: CliIo, json: boolean): void {
  if (json) {
    io.out(ciSafeJson(JSON.stringify({ tier: account.tier, limit: account.limit, used: account.used, remaining: account.remaining, resetAt: isoTime(account.resetAt) })));
    return;
  }
  io.out(textTable([
    ['Tier', account.tier ?? 'unknown'],
    ['Used', formatQuota(account.used, account.limit)],
    ['Remaining', account.remaining === null ? 'unknown' : formatCount(account.remaining)],
    ['Resets', isoTime(account.resetAt)?.slice(0, 10) ?? 'unknown'],
  ]));
}

async function runMe(parsed: Parsed, io: CliIo): Promise<number> {
  if (parsed.positional.length > 1) throw new UsageError('usage: wp-bench me');
  const client = makeClient(parsed, io);
  try {
    printAccount(await client.me(), io, parsed.flags.has('--json'));
    return EXIT.ok;
  } finally {
    await client.dispose();
  }
}

// --- check ---------------------------------------------------------------------------------------------------

/** One request's time limit, in seconds: a timer past ~24.8 days overflows in Node and fires at once. */
const REQUEST_TIMEOUT_RANGE = { min: 1, max: 3600 } as const;

/** A number flag, ≥ 0 (whole when `integer`), or within `range` when one is given: one message says what is accepted. */
function numberFlag(parsed: Parsed, name: string, integer = false, range?: { min: number; max: number }): number | undefined {
  const raw = parsed.flags.get(name);
  if (raw === undefined) return undefined;
  const n = typeof raw === 'string' && /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : NaN;
  const ok = Number.isFinite(n) && (!integer || Number.isInteger(n)) && (!range || (n >= range.min && n <= range.max));
  if (!ok) throw new UsageError(`${name} needs a${integer ? ' whole' : ''} number ${range ? `from ${range.min} to ${range.max}` : '≥ 0'}`);
  return n;
}

const BUDGET_FLAGS: Record<BudgetMetric, string> = { ttfbMs: '--budget-ttfb-ms', memoryMb: '--budget-memory-mb', queries: '--budget-queries' };

/** Exit code of the worst lookup error: key (4) before quota (5) before network (6). */
function errorExitCode(codes: number[]): number | undefined {
  for (const c of [EXIT.key, EXIT.quota, EXIT.failure, EXIT.usage]) if (codes.includes(c)) return c;
  return codes[0];
}

async function runCheck(parsed: Parsed, io: CliIo): Promise<number> {
  if (parsed.positional.length > 2) throw new UsageError('check takes at most one folder');
  const dir = path.resolve(io.cwd, parsed.positional[1] ?? '.');
  const stat = await fs.stat(dir).catch(() => undefined);
  if (!stat?.isDirectory()) throw new UsageError(`${truncateForMessage(dir, 200)} is not a folder`);

  const format = (parsed.flags.get('--format') ?? 'table') as ReportFormat;
  if (!(REPORT_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be one of ${REPORT_FORMATS.join(', ')}`);
  const diffRef = parsed.flags.get('--diff') as string | undefined;
  if (diffRef !== undefined && (format === 'sarif' || format === 'html')) throw new UsageError(`--diff cannot be combined with --format ${format} (run check twice)`);
  const offline = parsed.flags.has('--offline');
  if (offline && parsed.flags.has('--no-cache')) throw new UsageError('--offline and --no-cache exclude each other');
  const maxRequests = numberFlag(parsed, '--max-requests', true) ?? DEFAULT_MAX_REQUESTS;
  const output = parsed.flags.get('--output') as string | undefined;
  // A symlink or FIFO at --output is refused before anything is scanned or sent (and again when writing).
  if (output !== undefined) await checkOutputPath(path.resolve(io.cwd, output), io.cwd);
  const runStarted = Date.now();
  const timeoutS = numberFlag(parsed, '--timeout-s') ?? 120;

  // Team config: flags > .wp-bench.json > defaults. It never sets the API address or the key.
  const team = await loadTeamConfig(dir);
  for (const p of team.problems) io.err(`wp-bench: ${p.file}:${p.line}:${p.column}: ${p.message}`);
  const failOnFlag = parsed.flags.get('--fail-on') as string | undefined;
  let failOn: GradeLetter | null = team.config.minimumGrade ?? 'C';
  if (failOnFlag !== undefined) {
    const g = failOnFlag.trim().toUpperCase();
    if (g === 'NONE') failOn = null;
    else if ((GRADE_LETTERS as readonly string[]).includes(g)) failOn = g as GradeLetter;
    else throw new UsageError('--fail-on must be one of A, B, C, D, E, F or none');
  }
  const contextFlag = parsed.flags.get('--context') as string | undefined;
  if (contextFlag !== undefined && !(CONTEXT_NAMES as readonly string[]).includes(contextFlag)) throw new UsageError(`--context must be one of ${CONTEXT_NAMES.join(', ')}`);
  const context = (contextFlag as ContextName | undefined) ?? team.config.context ?? 'homepage';
  const budgets: Partial<Record<ContextName, Budget>> = {};
  const budgetLocations: Record<string, ReportLocation> = {};
  for (const [ctx, b] of Object.entries(team.config.budgets) as [ContextName, Budget][]) {
    budgets[ctx] = { ...b };
    for (const m of BUDGET_METRICS) {
      const pos = team.config.positions[`budgets.${ctx}.${m}`];
      if (b[m] !== undefined && pos) budgetLocations[`${ctx}.${m}`] = { file: team.config.file ?? '.wp-bench.json', line: pos.line, column: pos.column };
    }
  }
  for (const m of BUDGET_METRICS) {
    const v = numberFlag(parsed, BUDGET_FLAGS[m]);
    if (v === undefined) continue;
    budgets[context] = { ...budgets[context], [m]: v };
    delete budgetLocations[`${context}.${m}`];
  }
  const config: JudgeConfig = { failOn, context, budgets, ignore: team.config.ignore, contextWeights: team.config.contextWeights };
  const hasComposer = await fs.stat(path.join(dir, 'composer.json')).then((s) => s.isFile(), () => false);
  const budgetLocation: ReportLocation | undefined = hasComposer ? { file: 'composer.json', line: 1, column: 1 } : undefined;

  // The cache is keyed by API address, so --offline needs it too; the key only when a request is needed.
  const key = io.env.WPBENCH_API_KEY;
  if (offline && !((parsed.flags.get('--api-url') as string | undefined) ?? io.env.WPBENCH_API_URL)) {
    throw new UsageError('--offline reads the cache of one API address: give it with --api-url or WPBENCH_API_URL (nothing is sent to it)');
  }
  const client = makeClient(parsed, io, offline ? offlineTransport : lazyUndici);
  try {
    const scan = await scanWorkspace(dir);
    // The report carries the problems (every format); printed on stderr too only when the report goes to a file.
    if (output !== undefined) for (const p of scan.problems) io.err(problemLine(p, dir));
    let baseComponents: ScanResult['components'] | undefined;
    if (diffRef !== undefined) {
      let snapshot;
      try {
        snapshot = await snapshotAtRef(dir, diffRef);
      } catch (err) {
        if (err instanceof GitError) throw new UsageError(`--diff: ${err.message}`);
        throw err;
      }
      try {
        baseComponents = (await scanWorkspace(snapshot.root)).components;
      } finally {
        await snapshot.dispose();
      }
    }
    const ignored = new Set(config.ignore);
    const items = [...scan.components, ...(baseComponents ?? [])].filter((c) => !ignored.has(c.slug));
    const cache = new DiskCache({ dir: cacheDir(io.env) });
    const service = new LookupService(cache, () => client);
    const guard = { state: new QuotaGuard(QuotaGuard.fileFor(cacheDir(io.env), client.apiId)), key };
    const looked = await lookupForCheck(service, items, { network: !offline, maxRequests, force: parsed.flags.has('--no-cache'), guard, deadline: runStarted + timeoutS * 1000, onDeadline: () => void client.dispose() });
    if (looked.overLimit.length) {
      const names = looked.overLimit.slice(0, 5).map((i) => `${i.kind} ${i.slug}`).join(', ');
      io.err(`wp-bench: ${countNoun(looked.overLimit.length, 'lookup')} skipped: --max-requests ${maxRequests} reached (${names}${looked.overLimit.length > 5 ? ', …' : ''}); they are reported as not looked up.`);
    }
    warnUnwritableCache(cache, io);
    const notCached = [...looked.skipped.values()].filter((r) => r === 'offline').length;
    if (notCached) io.err(`wp-bench: ${notCached} component${notCached === 1 ? ' is' : 's are'} not in the cache (--offline): reported as not looked up, not judged.`);
    let measureStopped = false;
    if (parsed.flags.has('--measure-local')) {
      const pre = judge({ outcomes: looked.outcomes, config, skipped: looked.skipped, components: scan.components });
      const res = await measureLocal(pre.components, dir, io, runStarted + timeoutS * 1000, timeoutS);
      config.local = res.records;
      measureStopped = res.stopped;
    }
    const input = { outcomes: looked.outcomes, config, skipped: looked.skipped, budgetLocations, budgetLocation };
    const judgement = judge({ ...input, components: scan.components, problems: scan.problems });
    let diff: ComponentDiff | undefined;
    if (baseComponents) diff = diffJudgements(diffRef!, judge({ ...input, components: baseComponents }), judgement);

    let text: string;
    if (format === 'json') text = toJson(judgement, { diff });
    else if (format === 'markdown') text = toMarkdown(judgement, { diff });
    else if (format === 'html') text = toHtml(judgement, { subject: path.basename(dir) });
    else if (format === 'sarif') {
      const prefix = (await repoPrefix(dir)) ?? (path.relative(io.cwd, dir).startsWith('..') ? '' : path.relative(io.cwd, dir));
      text = toSarif(judgement, { uriPrefix: prefix.split(path.sep).join('/'), toolVersion: VERSION });
    } else text = toTable(judgement, { diff });
    if (format === 'json' || format === 'sarif') text = ciSafeJson(text);
    if (output !== undefined) {
      await writeOutputFile(path.resolve(io.cwd, output), `${text}\n`, io.cwd);
      io.out(`wp-bench: ${format} report written to ${output}: ${judgement.failed ? 'FAILED' : 'passed'}.`);
    } else {
      io.out(text);
    }

    const errs = lookupErrors(looked.outcomes.values());
    for (const { error, count } of errs) {
      const judged = [...looked.outcomes.values()].filter((o) => o.error?.kind === error.kind);
      const stale = judged.filter((o) => o.result).length;
      io.err(`wp-bench: ${error.message} ${countNoun(count, 'component')} affected: ${stale} judged from stale cache, ${count - stale} unknown.`);
    }
    if (looked.stoppedBy) {
      const left = [...looked.skipped.values()].filter((r) => r === 'time' || r === 'timeouts').length;
      io.err(
        looked.stoppedBy === 'time'
          ? `wp-bench: the run reached its time limit (--timeout-s ${timeoutS}); ${left} lookup${left === 1 ? ' was' : 's were'} not sent and ${left === 1 ? 'is' : 'are'} reported as not looked up.`
          : `wp-bench: sending stopped after 3 timeouts in a row (the server is too slow); ${left} lookup${left === 1 ? ' was' : 's were'} not sent and ${left === 1 ? 'is' : 'are'} reported as not looked up.`,
      );
    }
    const errorCode = errorExitCode([...errs.map((e) => exitCodeFor(e.error)), ...(looked.stoppedBy || measureStopped ? [EXIT.failure] : [])]);
    if (errorCode !== undefined) return errorCode;
    return judgement.failed ? EXIT.judged : EXIT.ok;
  } finally {
    await client.dispose();
  }
}

/**
 * `check --measure-local`: the components without an API benchmark whose plugin file or theme folder is in the
 * checked folder are measured one after the other (answered from the measure cache when their files are
 * unchanged), until the run's time limit. A component that cannot be measured stays unknown, with a line on stderr.
 */
async function measureLocal(verdicts: ComponentVerdict[], dir: string, io: CliIo, deadline: number, timeoutS: number): Promise<{ records: Map<string, LocalRecord>; stopped: boolean }> {
  const records = new Map<string, LocalRecord>();
  const root = await fs.realpath(dir);
  const todo: Array<{ v: ComponentVerdict; target: string }> = [];
  for (const v of verdicts) {
    if (v.state === 'benchmarked' || v.unknownReason === 'outside-workspace') continue;
    const loc = v.locations.find((l) => l.source === (v.kind === 'plugin' ? 'plugin-header' : 'theme-header'));
    if (!loc) continue;
    const file = path.resolve(dir, loc.file);
    const target = v.kind === 'plugin' ? file : path.dirname(file);
    const real = await fs.realpath(target).catch(() => undefined);
    // Only what lives in the checked folder: never a symbolic link out of it.
    if (!real || (real !== root && !real.startsWith(root + path.sep))) continue;
    todo.push({ v, target });
  }
  let stopped = false;
  for (const [i, { v, target }] of todo.entries()) {
    const left = Math.floor((deadline - Date.now()) / 1000);
    if (left < 1) {
      io.err(`wp-bench: the run reached its time limit (--timeout-s ${timeoutS}): ${todo.length - i} component${todo.length - i === 1 ? ' was' : 's were'} not measured locally.`);
      stopped = true;
      break;
    }
    io.err(`wp-bench: measuring ${v.kind} ${v.slug} locally (${i + 1}/${todo.length}; runs its PHP on a throwaway site on 127.0.0.1)`);
    try {
      const r = await measure({ path: target, env: io.env, cwd: dir, timeoutS: left, cacheDir: cacheDir(io.env), searchFrom: measureSearchFrom(__dirname), signal: io.signal });
      records.set(localKey(v.kind, v.slug), { ...r, slug: v.slug });
    } catch (err) {
      io.err(`wp-bench: ${v.kind} ${v.slug} could not be measured locally: ${truncateForMessage(String((err as Error)?.message ?? err), 300)}`);
      if (err instanceof MeasureError && err.exitCode === 6) {
        stopped = true;
        if (io.signal?.aborted || Date.now() >= deadline) break;
      }
      if (err instanceof MeasureError && err.exitCode === 8) break; // no runtime: the same for every component
    }
  }
  return { records, stopped };
}

export async function runCli(argv: string[], rawIo: CliIo): Promise<number> {
  // Every print path: API and file strings never reach the terminal or a CI log with escape sequences or as a
  // workflow command.
  const io = safeIo(rawIo);
  if (argv[0] === 'measure') {
    // Its own options; Ctrl-C stops and removes the throwaway site before exiting.
    const sig = asProcess ? interruptSignal() : undefined;
    try {
      return await runMeasureCli(argv.slice(1), { ...io, signal: rawIo.signal ?? sig?.signal, cacheDir: cacheDir(io.env) }, measureSearchFrom(__dirname));
    } finally {
      sig?.dispose();
    }
  }
  try {
    const parsed = parseArgs(argv);
    if (parsed.flags.has('--version')) {
      io.out(VERSION);
      return EXIT.ok;
    }
    const command = parsed.positional[0];
    if (parsed.flags.has('--help') || parsed.flags.has('-h') || command === 'help') {
      io.out(USAGE);
      return EXIT.ok;
    }
    if (command !== 'check') {
      for (const f of [...CHECK_VALUE_FLAGS, ...CHECK_BOOL_FLAGS]) if (parsed.flags.has(f)) throw new UsageError(`unknown option ${f}`);
    }
    switch (command) {
      case 'check':
        return await runCheck(parsed, io);
      case 'scan':
        return await runScan(parsed, io);
      case 'lookup':
        return await runLookup(parsed, io);
      case 'me':
        return await runMe(parsed, io);
      case undefined:
        io.err(USAGE);
        return EXIT.usage;
      default:
        throw new UsageError(`unknown command "${truncateForMessage(command, 40)}"`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`wp-bench: ${err.message}. Run "wp-bench --help" for usage.`);
      return EXIT.usage;
    }
    if (err instanceof ApiError) {
      io.err(`wp-bench: ${err.message}`);
      return exitCodeFor(err);
    }
    if (err instanceof OutputFileError) {
      io.err(`wp-bench: ${err.message}`);
      return err.reason === 'refused' ? EXIT.usage : EXIT.failure;
    }
    io.err(`wp-bench: unexpected failure: ${truncateForMessage(String((err as Error)?.message ?? err), 300)}`);
    return EXIT.failure;
  }
}

/** Whether this module runs as the `wp-bench` process (main()), not inside tests: Ctrl-C is then wired to `measure`. */
let asProcess = false;

/** The whole CLI as the process: dist/cli.js (src/wp-bench.ts) hands every command line but a plain scan here. */
export function main(argv: string[]): void {
  asProcess = true;
  runAsProcess(runCli, argv);
}

if (require.main === module) main(process.argv.slice(2));
