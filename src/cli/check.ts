// `wp-bench check`: every plugin and theme judged against the grade and budgets (flags > .wp-bench.json >
// defaults), with --diff against a git ref and --measure-local for what the API has no benchmark for (with --site:
// the site's whole stack measured once, the budgets judged on it as it runs).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { exitCodeFor, truncateForMessage } from '../core/api/errors';
import { DiskCache } from '../core/cache/diskCache';
import { ciSafeJson, countNoun } from '../core/present/format';
import { checkOutputPath, writeOutputFile } from '../core/outputFile';
import { LookupService } from '../core/lookup/lookupService';
import { CONTEXT_NAMES, type ContextName, type ScanResult } from '../core/model';
import { DEFAULT_MAX_REQUESTS, lookupErrors, lookupForCheck, offlineTransport } from '../core/report/check';
import { diffJudgements, type ComponentDiff } from '../core/report/diff';
import { REPORT_FORMATS, toJson, toMarkdown, toSarif, toTable, type ReportFormat } from '../core/report/formats';
import { toHtml } from '../core/report/html';
import { GitError, repoPrefix, snapshotAtRef } from '../core/report/git';
import { QuotaGuard } from '../core/lookup/quotaGuard';
import { judge, localKey, type ComponentVerdict, type JudgeConfig, type ReportLocation } from '../core/report/judge';
import { MeasureError, measure } from '../core/measure/run/engine';
import type { LocalRecord } from '../core/measure/record/method';
import type { SiteRecord } from '../core/measure/siteRun/siteRecord';
import { measureSite, SITE_TIMEOUT_S } from '../core/measure/siteRun/siteRun';
import { scanWorkspace } from '../core/scan';
import { EXIT, problemLine, UsageError, type CliIo } from './scan';
import { measureSearchFrom } from './measure';
import { BUDGET_METRICS, GRADE_LETTERS, loadTeamConfig, type Budget, type BudgetMetric, type GradeLetter } from '../core/config/teamConfig';
import { numberFlag, VERSION, type Parsed } from './flags';
import { cacheDir, lazyUndici, makeClient, warnUnwritableCache } from './lookup';

const BUDGET_FLAGS: Record<BudgetMetric, string> = { ttfbMs: '--budget-ttfb-ms', memoryMb: '--budget-memory-mb', queries: '--budget-queries' };

/** Exit code of the worst lookup error: key (4) before quota (5) before network (6). */
function errorExitCode(codes: number[]): number | undefined {
  for (const c of [EXIT.key, EXIT.quota, EXIT.failure, EXIT.usage]) if (codes.includes(c)) return c;
  return codes[0];
}

export async function runCheck(parsed: Parsed, io: CliIo): Promise<number> {
  if (parsed.positional.length > 2) throw new UsageError('check takes at most one folder');
  const dir = path.resolve(io.cwd, parsed.positional[1] ?? '.');
  const stat = await fs.stat(dir).catch(() => undefined);
  if (!stat?.isDirectory()) throw new UsageError(`${truncateForMessage(dir, 200)} is not a folder`);

  const format = (parsed.flags.get('--format') ?? 'table') as ReportFormat;
  if (!(REPORT_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be one of ${REPORT_FORMATS.join(', ')}`);
  const diffRef = parsed.flags.get('--diff') as string | undefined;
  if (diffRef !== undefined && (format === 'sarif' || format === 'html')) throw new UsageError(`--diff cannot be combined with --format ${format} (run check twice)`);
  const offline = parsed.flags.has('--offline');
  const site = parsed.flags.has('--site');
  if (site && !parsed.flags.has('--measure-local')) throw new UsageError("--site goes with --measure-local: it measures the site's whole stack locally and judges the budgets on it");
  const instructions = parsed.flags.has('--instructions');
  if (instructions && !parsed.flags.has('--measure-local')) throw new UsageError('--instructions goes with --measure-local: it counts the CPU instructions of what is measured locally');
  if (offline && parsed.flags.has('--no-cache')) throw new UsageError('--offline and --no-cache exclude each other');
  const maxRequests = numberFlag(parsed, '--max-requests', true) ?? DEFAULT_MAX_REQUESTS;
  const output = parsed.flags.get('--output') as string | undefined;
  // A symlink or FIFO at --output is refused before anything is scanned or sent (and again when writing).
  if (output !== undefined) await checkOutputPath(path.resolve(io.cwd, output), io.cwd);
  const runStarted = Date.now();
  // A site run measures every configuration in every round: a 30-component site takes about 6 minutes here.
  const timeoutS = numberFlag(parsed, '--timeout-s') ?? (parsed.flags.has('--site') ? SITE_TIMEOUT_S : 120);

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
  // With --measure-local and no address at all (a plugin author without a subscription): nothing from the API, the
  // local measurements fill in.
  const noApi = offline && !((parsed.flags.get('--api-url') as string | undefined) ?? io.env.WPBENCH_API_URL);
  if (noApi && !parsed.flags.has('--measure-local')) {
    throw new UsageError('--offline reads the cache of one API address: give it with --api-url or WPBENCH_API_URL (nothing is sent to it), or add --measure-local to judge local measurements alone');
  }
  // No address, no client: nothing can be asked or read from an API's cache.
  const client = noApi ? undefined : makeClient(parsed, io, offline ? offlineTransport : lazyUndici);
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
    // No address: no quota state to keep (nothing is ever sent).
    const guard = client ? { state: new QuotaGuard(QuotaGuard.fileFor(cacheDir(io.env), client.apiId)), key } : undefined;
    const looked = await lookupForCheck(service, items, { network: !offline, noApi, maxRequests, force: parsed.flags.has('--no-cache'), guard, deadline: runStarted + timeoutS * 1000, onDeadline: () => void client?.dispose() });
    if (looked.overLimit.length) {
      const names = looked.overLimit.slice(0, 5).map((i) => `${i.kind} ${i.slug}`).join(', ');
      io.err(`wp-bench: ${countNoun(looked.overLimit.length, 'lookup')} skipped: --max-requests ${maxRequests} reached (${names}${looked.overLimit.length > 5 ? ', …' : ''}); they are reported as not looked up.`);
    }
    warnUnwritableCache(cache, io);
    const notCached = [...looked.skipped.values()].filter((r) => r === 'offline').length;
    if (noApi) io.err('wp-bench: no API address (--offline --measure-local): nothing from the benchmark API; what is measured locally is judged.');
    else if (notCached) io.err(`wp-bench: ${notCached} component${notCached === 1 ? ' is' : 's are'} not in the cache (--offline): reported as not looked up, not judged.`);
    let measureStopped = false;
    if (parsed.flags.has('--measure-local') && site) {
      // The whole stack once; the components are not measured one by one (those without a benchmark stay unknown).
      const res = await measureStack(dir, io, runStarted + timeoutS * 1000, timeoutS, instructions);
      if (res.record) config.site = res.record;
      measureStopped = res.stopped;
    } else if (parsed.flags.has('--measure-local')) {
      const pre = judge({ outcomes: looked.outcomes, config, skipped: looked.skipped, components: scan.components });
      const res = await measureLocal(pre.components, dir, io, runStarted + timeoutS * 1000, timeoutS, instructions);
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
    await client?.dispose();
  }
}

/**
 * `check --measure-local --site`: the checked folder's whole stack (as `measure SITE --site`), until the run's time
 * limit. When it cannot be measured, a line on stderr says why and the budgets are judged on the sum as without it.
 */
async function measureStack(dir: string, io: CliIo, deadline: number, timeoutS: number, instructions: boolean): Promise<{ record?: SiteRecord; stopped: boolean }> {
  const left = Math.floor((deadline - Date.now()) / 1000);
  if (left < 1) {
    io.err(`wp-bench: the site could not be measured locally: the run reached its time limit (--timeout-s ${timeoutS}).`);
    return { stopped: true };
  }
  io.err(`wp-bench: measuring the site's stack locally (every plugin, must-use plugin and the theme together, each alone and each left out; runs their PHP on a throwaway site on 127.0.0.1; at most ${left} s)`);
  try {
    const record = await measureSite({ path: dir, env: io.env, cwd: dir, timeoutS: left, cacheDir: cacheDir(io.env), searchFrom: measureSearchFrom(__dirname), signal: io.signal, instructions, progress: measureWarnings(io.err)('the site') });
    return { record, stopped: false };
  } catch (err) {
    io.err(`wp-bench: the site could not be measured locally: ${truncateForMessage(String((err as Error)?.message ?? err), 300)}`);
    return { stopped: true };
  }
}

/**
 * `check --measure-local`: the components without an API benchmark whose plugin file or theme folder is in the
 * checked folder are measured one after the other (answered from the measure cache when their files are
 * unchanged), until the run's time limit. A component that cannot be measured stays unknown, with a line on stderr.
 */
async function measureLocal(verdicts: ComponentVerdict[], dir: string, io: CliIo, deadline: number, timeoutS: number, instructions: boolean): Promise<{ records: Map<string, LocalRecord>; stopped: boolean }> {
  const warn = measureWarnings(io.err);
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
      // With its findings: each at its line under the component's root, which the reports put under the checked folder.
      // --instructions: counted too where the machine has Valgrind (else said once, and measured without).
      const r = await measure({ path: target, env: io.env, cwd: dir, timeoutS: left, cacheDir: cacheDir(io.env), searchFrom: measureSearchFrom(__dirname), signal: io.signal, findings: true, instructions, progress: warn(`${v.kind} ${v.slug}`) });
      const findingsRoot = path.relative(dir, v.kind === 'plugin' ? path.dirname(target) : target).split(path.sep).join('/');
      records.set(localKey(v.kind, v.slug), { ...r, slug: v.slug, findings_root: findingsRoot });
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

/**
 * What a local measurement says about its CPU instructions, on stderr under the component's name, each text once per
 * run: Valgrind missing (with the command to install it; the run goes on without instructions), a context whose
 * counted requests varied. Its other progress lines stay quiet, as before.
 */
export function measureWarnings(err: (line: string) => void): (who: string) => (line: string) => void {
  const said = new Set<string>();
  return (who) => (line) => {
    const text = /^warning: (.*)$/.exec(line)?.[1];
    if (!text || !/instructions/i.test(text) || said.has(text)) return;
    said.add(text);
    err(`wp-bench: ${who}: ${text}`);
  };
}
