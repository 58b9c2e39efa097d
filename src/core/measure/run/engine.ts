// run/: one component's run, `wp-bench measure PATH` (and `--baseline-ref`): the run itself (this file) over
// openSite.ts (the site up and taken down: folder, database, server, install, clean-up), the activation
// (activation.ts), the rounds (rounds.ts), `--profile` (profiling.ts) and the disk cap (diskCap.ts). May import every
// folder of measure/ below it; only siteRun/ above it imports it.
//
// The measurement run: detect the component, pick a runtime, build the throwaway site, install, activate (measured
// apart), warm up, then N rounds alternating baseline and measured in each context. Everything it starts is
// stopped and everything it writes is removed in `finally`, whether the run succeeds, fails, times out or is
// aborted (Ctrl-C).
import * as path from 'node:path';
import { ComponentNotFoundError, detectComponent, loadingLine, type DetectOptions, type MeasuredComponent } from '../component/component';
import { CONTEXTS, buildRecord, type ContextSamples, type LocalRecord, type MeasureContext, type NullReason } from '../record/method';
import { PLAYGROUND_NOTE, PLAYGROUND_SITE, PLAYGROUND_WORK } from '../runtime/playgroundRuntime';
import { ACTIVATE_PATH, buildSite } from '../site/site';
import { MeasureCache, componentHash, resultKey } from '../record/cache';
import { TreeLimitError, skippedLine } from '../component/tree';
import type { PairedTtfb } from '../compare/regression';
import { DEFAULT_ROUNDS, DEFAULT_TIMEOUT_S, DEFAULT_WARMUP, MeasureError, abortError, type MeasureOptions } from '../options/runOptions';
import { findEnvironment, linksAreSafe } from '../runtime/runtimeChoice';
import { activate } from './activation';
import { newRoundsState, pairedOf, runRounds } from './rounds';
import { PROFILE_ROUNDS, checkProfiler, installProfiler, profileRounds, type Profiler } from './profiling';
import { track, withOpenSite } from './openSite';
import { FINDINGS_NEED_PHP, WRITES_HEADER, findingsPass, installFindings } from './findingsPass';
import type { DatabaseInfo } from '../database/database';
import { checkSidesUnchanged, measuredText, ownTables, sideStates, type LiveSite } from '../site/siteClient';
import { ownNeedsNotice, withNeeds } from '../record/needs';
import { findCounter, INSTRUCTION_ROUNDS, instructionsPass, withInstructions } from './instructions';
import { profileByInstructions } from './instructionsProfiling';
import { varyingContexts, withVarying } from '../record/instructionsVarying';
import { varyingNotice } from '../../present/instructions';
import { BROWSER_ROUNDS, browserPass } from '../browser/pass';
import { withBrowser } from '../browser/figures';
import type { PairedBrowser } from '../browser/paired';

// The steps of a run, each in its own module: the options and errors (runOptions), which WordPress, PHP and sandbox
// (runtimeChoice), requests to the running site (siteClient), the activation (activation), the rounds (rounds).
export { DEFAULT_DISK_LIMIT_MIB, DEFAULT_ROUNDS, DEFAULT_TIMEOUT_S, DEFAULT_WARMUP, MeasureError, type MeasureOptions } from '../options/runOptions';

async function detect(p: string, what = '', signal?: AbortSignal, opts?: DetectOptions): Promise<MeasuredComponent> {
  try {
    return await detectComponent(p, signal, opts);
  } catch (err) {
    if (err instanceof ComponentNotFoundError) throw new MeasureError(`${what}${err.message}`, 2);
    throw err;
  }
}

/**
 * Runs `body` under the run's deadline, started before anything reads the component (detection, hashing, copying:
 * a hostile tree must not outlast --timeout-s or Ctrl-C): the time limit or the caller's abort, whichever comes
 * first. `body` gets the options with that deadline as their signal (run() then links its own to it). An abort, or
 * a walk past its caps (TreeLimitError), ends as a MeasureError.
 */
export async function underDeadline<T>(o: MeasureOptions, body: (o: MeasureOptions, signal: AbortSignal) => Promise<T>): Promise<T> {
  const ac = new AbortController();
  const timeoutS = o.timeoutS ?? DEFAULT_TIMEOUT_S;
  const timer = setTimeout(() => ac.abort(new MeasureError(`the time limit of ${timeoutS} s was reached (--timeout-s)`, 6)), timeoutS * 1000);
  const onOuterAbort = () => ac.abort(o.signal?.reason instanceof MeasureError ? o.signal.reason : new MeasureError('interrupted', 6));
  if (o.signal?.aborted) onOuterAbort();
  o.signal?.addEventListener('abort', onOuterAbort);
  try {
    return await body({ ...o, signal: ac.signal }, ac.signal);
  } catch (err) {
    if (ac.signal.aborted) throw abortError(ac.signal);
    if (err instanceof TreeLimitError) throw new MeasureError(err.message, 2);
    throw err;
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onOuterAbort);
  }
}

/** Measures one component; throws MeasureError (with its exit code) when it cannot. */
export async function measure(o: MeasureOptions): Promise<LocalRecord> {
  return underDeadline(o, async (od, signal) => {
    const component = await detect(path.resolve(o.cwd, o.path), '', signal);
    return (await run(od, component)).current;
  });
}

export interface ComparedRecords {
  /** the working tree's copy */
  current: LocalRecord;
  /** the other copy (`--baseline-ref`), measured in the same run against the same clean site */
  baseline: LocalRecord;
  /** per context, the paired TTFB differences (working tree − REF, ms), one per measured round */
  paired: PairedTtfb;
  /** the same for the server's CPU time of each request (native runtime) */
  pairedCpu: PairedTtfb;
  /** `--browser`: per browser figure, the paired differences working tree − REF of the loads of each round */
  pairedBrowser?: PairedBrowser;
}

/**
 * Measures two copies of one component INTERLEAVED on one throwaway site: each round requests the clean site, the
 * working tree's copy and the other copy (`refPath`, e.g. a git ref checked out into a temporary folder), in a
 * rotating order. Both records have the shape `measure` returns, against the same baseline samples; the
 * result cache is not used (a comparison is always measured).
 */
export async function measureCompare(o: MeasureOptions, refPath: string, refLabel = 'the baseline'): Promise<ComparedRecords> {
  return underDeadline(o, async (od, signal) => {
    const component = await detect(path.resolve(o.cwd, o.path), '', signal);
    const ref = await detect(path.resolve(o.cwd, refPath), `${refLabel}: `, signal, { like: component });
    if (ref.kind !== component.kind) throw new MeasureError(`${refLabel} holds a ${ref.kind}, the working tree a ${component.kind}: nothing to compare`, 2);
    if (ref.kind === 'plugin' && ref.singleFile !== component.singleFile) throw new MeasureError(`${refLabel} is ${ref.singleFile ? 'a single-file plugin' : 'a plugin folder'}, the working tree not: nothing to compare`, 2);
    const out = await run({ ...od, noCache: true }, component, { ...ref, slug: component.slug });
    return { current: out.current, baseline: out.ref!, paired: out.paired ?? {}, pairedCpu: out.pairedCpu ?? {}, ...(out.pairedBrowser ? { pairedBrowser: out.pairedBrowser } : {}) };
  });
}

/** The clean side's switch to the baseline theme (a theme's run with tables per side); a failure is said, not fatal. */
async function switchBaseline(live: LiveSite): Promise<void> {
  const res = await live.get(`${ACTIVATE_PATH}?key=${live.site.key}`, { 'X-WPBench-Side': 'baseline' }).catch((e) => {
    throw live.serverDied(e);
  });
  let error: string | null = null;
  try {
    error = (JSON.parse(res.body) as { error: string | null }).error;
  } catch {
    error = `status ${res.status}`;
  }
  if (res.status !== 200 || error) throw new MeasureError(`the clean site could not switch to its baseline theme (${measuredText(String(error ?? res.status))})`, 7);
}

async function run(o: MeasureOptions, component: MeasuredComponent, refComponent?: MeasuredComponent): Promise<{ current: LocalRecord; ref?: LocalRecord; paired?: PairedTtfb; pairedCpu?: PairedTtfb; pairedBrowser?: PairedBrowser }> {
  const started = Date.now();
  const progress = o.progress ?? (() => undefined);
  for (const w of component.warnings ?? []) progress(`warning: ${w}`);
  const loading = loadingLine(component);
  if (loading) progress(loading);
  const rounds = o.rounds ?? DEFAULT_ROUNDS;
  const warmup = o.warmup ?? DEFAULT_WARMUP;
  const env = await findEnvironment(o);
  // --profile where it cannot run is refused before anything is built (exit 8, with what to install).
  const profilerVersion = o.profile ? await checkProfiler(env.runtime, env.php?.bin, o.env) : undefined;
  // --browser reaches the site through its gates on the native runtime's server (browser/); refused before anything is built.
  if (o.browser && env.runtime !== 'php') throw new MeasureError('--browser needs the native php runtime: on WordPress Playground the browser figures are not measured yet (run it with --runtime php: PHP 7.4+, sudo apt install php-cli php-mysql mariadb-server)', 2);
  // o.signal is the deadline measure()/measureCompare() started before detection: it bounds the hashing too.
  if (o.signal?.aborted) throw abortError(o.signal);

  const cache = o.cacheDir ? new MeasureCache(o.cacheDir) : undefined;
  const hash = await componentHash(component, { signal: o.signal });
  // A child theme runs on its parent: the parent's files are part of what is measured.
  const parentHash = component.parent ? await componentHash({ kind: 'theme', source: component.parent.source, singleFile: false }, { signal: o.signal }) : undefined;
  // The database is part of what was measured: a result on SQLite never answers for one on MariaDB.
  const dbKey = env.database.kind === 'server' ? `${env.database.bins.engine} ${env.database.bins.version}` : env.database.kind === 'url' ? `--db ${env.database.url.host}:${env.database.url.port}` : undefined;
  // Keyed by what is measured and how, never by the folder's name: an identical copy elsewhere shares the entry.
  const cacheKey = resultKey({ component: hash, parent: parentHash, wordpress: env.wpVersion, php: env.phpVersion, runtime: env.runtime, rounds, warmup, core: env.core, database: dbKey, sandbox: env.sandbox.name, findings: o.findings, instructions: o.instructions, browser: o.browser ? `${o.device ?? 'desktop'} ${o.browserRounds ?? BROWSER_ROUNDS}` : undefined });
  if (cache && !o.noCache && !refComponent && !o.profile) {
    const hit = await cache.get(cacheKey, component.slug, (l) => progress(`warning: ${l}`));
    if (hit) {
      progress('answered from the cache (same files, WordPress, PHP and runtime)');
      // Said under this copy's names (the parent theme's folder may be named otherwise too).
      const parent = component.parent && hit.local.parent_theme ? { parent_theme: { slug: component.parent.slug, name: component.parent.name, version: component.parent.version } } : {};
      return { current: { ...hit, local: { ...hit.local, ...parent, cached: true } } };
    }
  }

  // One deadline and one abort for the whole run (the caller's Ctrl-C or the time limit): underDeadline's signal,
  // which withOpenSite's check() reads.
  let profiler: Profiler | undefined;
  let findingsDir: string | undefined;
  return withOpenSite(
    o,
    env,
    cache,
    async (root, dbConn) => {
      const site = await buildSite(root, {
        core: env.core,
        component,
        ref: refComponent,
        sqlite: env.sqlite,
        db: dbConn,
        phpPaths: env.runtime === 'playground' ? () => ({ site: PLAYGROUND_SITE, work: PLAYGROUND_WORK }) : undefined,
        signal: o.signal,
        onSkipped: (what, skipped) => progress(skippedLine(what, skipped)),
        link: linksAreSafe(env),
      });
      if (profilerVersion) profiler = await installProfiler(site, component, profilerVersion, refComponent);
      // The collector needs the paths PHP sees to be the site's own (native php); Playground measures without it.
      if (o.findings && env.runtime === 'php') findingsDir = await installFindings(site, component);
      else if (o.findings) progress(`warning: ${FINDINGS_NEED_PHP}`);
      return site;
    },
    async ({ site, running, srv, installed, cookie, db, check }) => {

    // The one-time activation, measured apart (each copy in its own request: two copies may declare the same
    // functions, so one request never loads both).
    // A must-use plugin has no activation (WordPress loads it on every request): activation_hook null.
    // The clean side (and the --baseline-ref copy) get tables of their own before anything is activated: what the
    // measured copy writes (its options, autoloaded or not, its transients) is its cost alone, never the clean site's.
    if (site.ownTables) {
      // Each its own database and user: the measured PHP's account has no privilege on the clean side's or REF's.
      const said = (t: string[]) => progress(`warning: not copied into the clean side's database (a view): ${t.join(', ')}`);
      await ownTables(running, 'side:baseline', { onSkipped: said });
      if (refComponent) await ownTables(running, 'side:ref', { onSkipped: said });
      // A theme's clean side switches to the baseline theme as the measured side switches to the theme: both have been
      // through switch_theme() (its theme mods, its one-time theme_switched work), so neither pays that alone.
      if (component.kind === 'theme') await switchBaseline(running);
    } else if (env.runtime === 'php') {
      progress('warning: on SQLite the clean side and the measured side share one database: what the component writes (its options, transients) the clean side reads too (a MariaDB/MySQL server gives each side its own tables)');
    }
    const activationHook = component.mustUse ? null : await activate(running, env.wpVersion, progress, 'measured', component, findingsDir ? WRITES_HEADER : {});
    const refHook = refComponent && !refComponent.mustUse ? await activate(running, env.wpVersion, progress, 'ref', refComponent) : null;

    // The clean side's state once everything is activated: no code of the component runs there, so a change during the
    // rounds is tampering (or a bug), and the run fails rather than report figures against it.
    const cleanBefore = await sideStates(running, ['side:baseline']);
    const rs = newRoundsState();
    const { samples, failed } = rs;
    const plan = { live: running, cookie, component, ref: refComponent, warmup, check, progress, ...(findingsDir ? { warmupHeaders: WRITES_HEADER } : {}) };
    await runRounds(plan, rs, 0, warmup + rounds);

    const info = {
      runtime: env.runtime,
      ...(env.runtime === 'playground' ? { runtime_note: PLAYGROUND_NOTE } : {}),
      wordpress_version: installed.wp_version,
      php_version: installed.php_version,
      rounds,
      warmup_rounds: warmup,
      baseline_theme: site.baseTheme,
      ...(component.parent ? { parent_theme: { slug: component.parent.slug, name: component.parent.name, version: component.parent.version } } : {}),
      database: db?.info ?? ({ engine: 'sqlite', version: /^\d+\.\d+(\.\d+)?/.exec(installed.db_server_info ?? '')?.[0] ?? 'unknown', server: 'file' } as DatabaseInfo),
      opcache: installed.opcache === true,
      sandbox: env.sandbox.name,
      network: srv.network === 'none' ? ('isolated' as const) : ('host' as const),
      ...(env.sandbox.name === 'none' ? { sandbox_note: `${env.sandbox.why ?? 'no sandbox'}: the component's PHP could do whatever your user can` } : {}),
      duration_s: Math.round((Date.now() - started) / 100) / 10,
    };
    const at = new Date();
    const recordOf = (c: MeasuredComponent, side: 'measured' | 'ref', hook: LocalRecord['local']['activation_hook']) =>
      buildRecord(
        c,
        Object.fromEntries(CONTEXTS.map((ctx) => [ctx, failed[side][ctx] ?? { baseline: samples[ctx].baseline, measured: samples[ctx][side] }])) as Record<MeasureContext, ContextSamples | NullReason>,
        { ...info, activation_hook: hook, ...(c.mustUse ? { must_use: true as const } : {}), ...(c.warnings?.length ? { warnings: c.warnings } : {}) },
        at,
      );
    let record = recordOf(component, 'measured', activationHook);
    let refRecord = refComponent ? recordOf(refComponent, 'ref', refHook) : undefined;
    // Paired differences (working tree − REF), request by request in the same round: TTFB, and the server's CPU time
    // where every request has it.
    const pairedTtfb = () => pairedOf(rs, (x) => x.ttfbMs);
    const pairedCpu = () => pairedOf(rs, (x) => x.cpuMs);
    // A comparison the noise cannot decide at the threshold gets one confirmation pass of as many rounds again.
    if (refComponent && refRecord && o.confirm?.(record, refRecord, pairedTtfb(), pairedCpu())) {
      progress(`TTFB too close to the threshold to decide: a confirmation pass of ${rounds} more rounds`);
      // The confirmation pass: the rounds after the measured ones, counted on from them.
      await runRounds(plan, rs, warmup + rounds, warmup + 2 * rounds);
      info.rounds = 2 * rounds;
      info.duration_s = Math.round((Date.now() - started) / 100) / 10;
      record = recordOf(component, 'measured', activationHook);
      refRecord = recordOf(refComponent, 'ref', refHook);
    }
    await checkSidesUnchanged(running, cleanBefore, () => "the clean site's database");
    // --browser: the homepage of each side in headless Chromium, after every timed request (browser/pass.ts).
    let pairedLoads: PairedBrowser | undefined;
    if (o.browser) {
      const of = (c: MeasuredComponent) => ({ kind: c.kind, slug: c.slug, mustUse: c.mustUse, parent: c.parent ?? undefined });
      const b = await browserPass({ live: running, sandbox: env.sandbox, php: env.php?.bin, env: o.env, device: o.device, rounds: o.browserRounds, component: of(component), ref: refComponent ? of(refComponent) : undefined, confirm: refComponent ? o.confirmBrowser : undefined, onChild: (pid) => (o.onResource?.({ pid }), track({ pid })), check, progress, onLoads: o.onBrowserLoads });
      if ('unavailable' in b) progress(`warning: ${b.unavailable}; measured without the browser figures`);
      record = withBrowser(record, b);
      // --baseline-ref: REF's copy was loaded as a third side, against the same clean loads.
      if (refRecord) refRecord = withBrowser(refRecord, 'unavailable' in b ? b : b.ref ?? { unavailable: "REF's copy was not loaded" });
      if (refRecord && !('unavailable' in b) && b.ref) pairedLoads = b.paired;
    }
    // --instructions: each side counted under callgrind, after every timed request (a server of its own per side).
    if (o.instructions) {
      const counter = env.runtime === 'php' && env.php ? findCounter(o.env) : { why: 'instructions are counted on the native php runtime only (not WordPress Playground)' };
      if ('why' in counter) progress(`warning: ${counter.why}; measured without instructions`);
      else {
        const counts = await instructionsPass({ live: running, site, php: env.php!, env: o.env, sandbox: env.sandbox, counter, cookie, sides: refComponent ? ['baseline', 'measured', 'ref'] : ['baseline', 'measured'], onChild: (pid) => o.onResource?.({ pid }), check, progress });
        const how = { counter: 'callgrind' as const, opcache: 'warm' as const, clock: counter.faketime ? ('set' as const) : ('running' as const), rounds: INSTRUCTION_ROUNDS };
        // A context whose counted requests varied (time-based or state-dependent work) is named and said.
        const varying = varyingContexts([counts.measured, counts.baseline]);
        record = withVarying(withInstructions(record, counts.measured, counts.baseline, how), varying);
        const varyingAtRef = varyingContexts([counts.ref, counts.baseline]);
        if (refRecord) refRecord = withVarying(withInstructions(refRecord, counts.ref, counts.baseline, how), varyingAtRef);
        const notice = varyingNotice(record) ?? (refRecord ? varyingNotice(refRecord) : null);
        if (notice) progress(`warning: ${notice}`);
      }
    }
    // Profiled requests come after every timed one: the figures stay those of unprofiled requests.
    if (profiler) {
      const n = o.profileRounds ?? PROFILE_ROUNDS;
      const measured = new Set(CONTEXTS.filter((ctx) => !failed.measured[ctx]));
      const { profile, raw } = await profileRounds(profiler, running, cookie, measured, n, check, progress);
      record = { ...record, profile };
      o.onProfiles?.(raw);
      // --profile --instructions: the same functions by CPU instructions (instructionsProfiling.ts); with
      // --baseline-ref both copies keep the time profiles their comparison reads.
      if (o.instructions && !refComponent) record = { ...record, profile: await profileByInstructions({ live: running, site, php: env.php!, env: o.env, sandbox: env.sandbox, cookie, component, measured, cacheDir: o.cacheDir, onChild: (pid) => o.onResource?.({ pid }), check, progress }, profile) };
      else if (o.instructions) progress('warning: --profile --instructions with --baseline-ref: both copies are profiled by time, which their comparison reads');
      if (refComponent && refRecord) {
        const atRef = new Set(CONTEXTS.filter((ctx) => !failed.ref[ctx]));
        refRecord = { ...refRecord, profile: (await profileRounds(profiler, running, cookie, atRef, n, check, progress, 'ref')).profile };
      }
    }
    // The findings pass comes after every timed and profiled request too.
    if (findingsDir) {
      const measured = new Set(CONTEXTS.filter((ctx) => !failed.measured[ctx]));
      record = { ...record, findings: await findingsPass(findingsDir, running, cookie, measured, component, check, progress, o.onFindingsRaw, new Set(Object.keys(record.local.database_errors ?? {}) as MeasureContext[]), record.contexts.homepage?.browser) };
    }
    // An add-on measured without the plugins it needs (its Requires Plugins header, else its own admin notice).
    record = withNeeds(record, component.requires, component.requires?.length ? undefined : ownNeedsNotice(rs.notices.measured ?? [], rs.notices.baseline ?? []));
    // The run's whole time, its extra passes (browser, instructions, profile, findings) included.
    const duration_s = Math.round((Date.now() - started) / 100) / 10;
    record = { ...record, local: { ...record.local, duration_s } };
    if (refRecord) refRecord = { ...refRecord, local: { ...refRecord.local, duration_s } };
    if (cache && !refComponent) await cache.set(cacheKey, record).catch(() => undefined);
    return { current: record, ref: refRecord, ...(refComponent ? { paired: pairedTtfb(), pairedCpu: pairedCpu(), ...(pairedLoads ? { pairedBrowser: pairedLoads } : {}) } : {}) };
    },
  );
}
