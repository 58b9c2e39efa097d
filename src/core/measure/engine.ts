// The measurement run: detect the component, pick a runtime, build the throwaway site, install, activate (measured
// apart), warm up, then N rounds alternating baseline and measured in each context. Everything it starts is
// stopped and everything it writes is removed in `finally`, whether the run succeeds, fails, times out or is
// aborted (Ctrl-C).
import { crypto } from '../lazyNode';
import { existsSync, promises as fs, rmSync } from 'node:fs';
import * as path from 'node:path';
import { ComponentNotFoundError, detectComponent, loadingLine, type DetectOptions, type MeasuredComponent } from './component';
import {
  coreCandidates,
  isCore,
  phpVersionOk,
  probePhp,
  sqliteCandidates,
  sqliteSourceUsable,
  wordpressVersion,
  type PhpInfo,
  type SqliteSource,
} from './environment';
import { siteRequest } from './http';
import { CONTEXTS, buildRecord, sideOrder, type ContextSamples, type LocalRecord, type MeasureContext, type NullReason, type Sample } from './method';
import { startPhpServer } from './phpRuntime';
import { findPlayground, startPlaygroundServer, PLAYGROUND_PHP, PLAYGROUND_NOTE, PLAYGROUND_SITE, PLAYGROUND_WORK, type PlaygroundInfo } from './playgroundRuntime';
import type { RuntimeName, RuntimeServer } from './runtime';
import { ACTIVATE_PATH, BOOT_PATH, INSTALL_PATH, buildSite, makeTempRoot, removeSite, type Site } from './site';
import { MeasureCache, componentHash } from './cache';
import { TreeLimitError, skippedLine } from './tree';
import type { PairedTtfb } from './regression';
import { chooseSandbox, killMarked, waitGone, type SandboxChoice, type SandboxProbe } from './sandbox';

export const DEFAULT_ROUNDS = 9;
export const DEFAULT_WARMUP = 2;
export const DEFAULT_TIMEOUT_S = 300;

/** Exit codes: 2 usage / nothing to measure, 6 time limit or interrupted, 7 WordPress broken, 8 no runtime. */
export class MeasureError extends Error {
  constructor(
    message: string,
    readonly exitCode: 2 | 6 | 7 | 8,
  ) {
    super(message);
  }
}

export interface MeasureOptions {
  path: string;
  runtime?: RuntimeName;
  wordpress?: string;
  php?: string;
  sqliteIntegration?: string;
  rounds?: number;
  warmup?: number;
  timeoutS?: number;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** where to look for node_modules/@wp-playground/cli (besides cwd): the CLI's own folder */
  searchFrom?: string[];
  signal?: AbortSignal;
  progress?: (line: string) => void;
  cacheDir?: string;
  noCache?: boolean;
  /** the native runtime's sandbox: auto (bubblewrap where it works; default), bubblewrap (required) or none */
  sandbox?: SandboxChoice;
  /**
   * A comparison (`measureCompare`): asked once after the measured rounds with the two records and the paired TTFB
   * differences; true runs a confirmation pass of as many rounds again on the same site (then the records are made
   * from all rounds).
   */
  confirm?: (current: LocalRecord, ref: LocalRecord, paired: PairedTtfb, pairedCpu: PairedTtfb) => boolean;
  /** test hook: told about each temp folder and server as they are made */
  onResource?: (r: { root?: string; pid?: number; port?: number }) => void;
}

/**
 * Last resort when the process ends without running `finally` (process.exit() from an EPIPE handler, an uncaught
 * exception): the servers still running are killed and the temporary folders removed, synchronously.
 */
const live = { pids: new Set<number>(), roots: new Set<string>(), markers: new Set<string>() };
let exitHookInstalled = false;
function track(r: { root?: string; pid?: number; marker?: string }): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const pid of live.pids) {
        try {
          process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
      for (const m of live.markers) killMarked(m);
      for (const root of live.roots) {
        try {
          rmSync(root, { recursive: true, force: true, maxRetries: 3 });
        } catch {
          /* a dying server may still write into it: nothing more can be done while exiting */
        }
      }
    });
  }
  if (r.pid) live.pids.add(r.pid);
  if (r.root) live.roots.add(r.root);
  if (r.marker) live.markers.add(r.marker);
}

const PATH_URL: Record<MeasureContext, string> = { activation: BOOT_PATH, homepage: '/', admin: '/wp-admin/' };

interface Environment {
  runtime: RuntimeName;
  php?: PhpInfo;
  playground?: PlaygroundInfo;
  phpVersion: string;
  core: string;
  wpVersion: string;
  sqlite: SqliteSource;
  /** the native runtime's sandbox (Playground is one of its own) */
  sandbox: SandboxProbe;
}

const INSTALL_HINT = [
  'install PHP 7.4 or newer with SQLite (Debian/Ubuntu/WSL: sudo apt install php-cli php-sqlite3; macOS: brew install php;',
  'or pass --php BIN), or `npm install @wp-playground/cli` for --runtime playground',
].join(' ');

async function findEnvironment(o: MeasureOptions): Promise<Environment> {
  const searchFrom = [o.cwd, ...(o.searchFrom ?? [])];
  // WordPress core.
  let core: string | undefined;
  if (o.wordpress) {
    core = path.resolve(o.cwd, o.wordpress);
    if (!isCore(core)) throw new MeasureError(`--wordpress ${core} is not a WordPress core folder (no wp-settings.php, wp-includes/version.php)`, 2);
  } else {
    core = coreCandidates(o.cwd).find(isCore);
  }
  if (!core) {
    throw new MeasureError(
      `no WordPress core found: looked in ${coreCandidates(o.cwd).join(', ')}. Pass --wordpress DIR (an unpacked wordpress.org download), or on Debian/Ubuntu/WSL: sudo apt install wordpress`,
      8,
    );
  }
  const wpVersion = (await wordpressVersion(core)) ?? 'unknown';
  const sqlite = sqliteCandidates(o.sqliteIntegration, searchFrom).find(sqliteSourceUsable);

  const tryPhp = async (): Promise<PhpInfo | string> => {
    const bin = o.php ?? 'php';
    const info = await probePhp(bin, { PATH: o.env.PATH });
    if (!info) return `${bin} cannot be run`;
    if (!phpVersionOk(info.version)) return `${bin} is PHP ${info.version}; 7.4 or newer is needed`;
    if (!info.sqlite) return `${bin} has no pdo_sqlite extension (Debian/Ubuntu: sudo apt install php-sqlite3)`;
    if (!sqlite) return `WordPress's SQLite integration was not found: pass --sqlite-integration DIR (the sqlite-database-integration plugin folder) or install @wp-playground/cli, which ships it`;
    return info;
  };
  const tryPlayground = (): PlaygroundInfo | string => findPlayground(searchFrom) ?? 'the npm package @wp-playground/cli is not installed (npm install @wp-playground/cli)';

  if (o.runtime === 'php' || o.runtime === undefined) {
    const php = await tryPhp();
    if (typeof php !== 'string') return { runtime: 'php', php, phpVersion: php.version, core, wpVersion, sqlite: sqlite!, sandbox: await nativeSandbox(o) };
    if (o.runtime === 'php') throw new MeasureError(`the php runtime cannot run: ${php}. To measure, ${INSTALL_HINT}`, 8);
    const pg = tryPlayground();
    if (typeof pg === 'string') throw new MeasureError(`no runtime can run: ${php}; ${pg}. To measure, ${INSTALL_HINT}`, 8);
    o.progress?.(`php runtime not usable (${php}); using WordPress Playground`);
    return { runtime: 'playground', playground: pg, phpVersion: PLAYGROUND_PHP, core, wpVersion, sqlite: sqlite ?? { kind: 'zip', path: pg.sqliteZip, prefix: 'plugin-sqlite-database-integration/' }, sandbox: PLAYGROUND_SANDBOX };
  }
  const pg = tryPlayground();
  if (typeof pg === 'string') throw new MeasureError(`the playground runtime cannot run: ${pg}`, 8);
  return { runtime: 'playground', playground: pg, phpVersion: PLAYGROUND_PHP, core, wpVersion, sqlite: sqlite ?? { kind: 'zip', path: pg.sqliteZip, prefix: 'plugin-sqlite-database-integration/' }, sandbox: PLAYGROUND_SANDBOX };
}

/** Playground's PHP is WebAssembly: it sees only the folders mounted into it and has no process to start. */
const PLAYGROUND_SANDBOX: SandboxProbe = { name: 'playground', why: 'WordPress Playground (PHP compiled to WebAssembly, only its mounted folders visible) is its own sandbox' };

async function nativeSandbox(o: MeasureOptions): Promise<SandboxProbe> {
  const s = await chooseSandbox(o.sandbox ?? 'auto', o.env);
  if (o.sandbox === 'bubblewrap' && s.name !== 'bubblewrap') throw new MeasureError(`--sandbox bubblewrap: ${s.why}`, 8);
  return s;
}

interface Probe {
  memory: number;
  queries: number | null;
  status: number;
  location: string | null;
  error: string | null;
  db_errors?: number;
  db_error?: string | null;
  cpu_ms?: number | null;
}

type Outcome = { ok: Sample } | { fail: NullReason };

function abortError(signal: AbortSignal): MeasureError {
  const r = signal.reason;
  return r instanceof MeasureError ? r : new MeasureError('interrupted', 6);
}

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
async function underDeadline<T>(o: MeasureOptions, body: (o: MeasureOptions, signal: AbortSignal) => Promise<T>): Promise<T> {
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
    return { current: out.current, baseline: out.ref!, paired: out.paired ?? {}, pairedCpu: out.pairedCpu ?? {} };
  });
}

async function run(o: MeasureOptions, component: MeasuredComponent, refComponent?: MeasuredComponent): Promise<{ current: LocalRecord; ref?: LocalRecord; paired?: PairedTtfb; pairedCpu?: PairedTtfb }> {
  const started = Date.now();
  const progress = o.progress ?? (() => undefined);
  for (const w of component.warnings ?? []) progress(`warning: ${w}`);
  const loading = loadingLine(component);
  if (loading) progress(loading);
  const rounds = o.rounds ?? DEFAULT_ROUNDS;
  const warmup = o.warmup ?? DEFAULT_WARMUP;
  const env = await findEnvironment(o);
  // o.signal is the deadline measure()/measureCompare() started before detection: it bounds the hashing too.
  if (o.signal?.aborted) throw abortError(o.signal);

  const cache = o.cacheDir ? new MeasureCache(o.cacheDir) : undefined;
  const hash = await componentHash(component, { signal: o.signal });
  // A child theme runs on its parent: the parent's files are part of what is measured.
  const parentHash = component.parent ? await componentHash({ kind: 'theme', source: component.parent.source, singleFile: false }, { signal: o.signal }) : undefined;
  const cacheKey = MeasureCache.key({ component: hash, ...(parentHash ? { parent: parentHash } : {}), wordpress: env.wpVersion, php: env.phpVersion, runtime: env.runtime, rounds, warmup, core: env.core });
  if (cache && !o.noCache && !refComponent) {
    const hit = await cache.get(cacheKey, component.slug, (l) => progress(`warning: ${l}`));
    if (hit) {
      progress('answered from the cache (same files, WordPress, PHP and runtime)');
      return { current: { ...hit, local: { ...hit.local, cached: true } } };
    }
  }

  // One deadline and one abort for the whole run (the caller's Ctrl-C or the time limit): underDeadline's signal.
  const signal = o.signal!;
  const check = () => {
    if (signal.aborted) throw abortError(signal);
  };

  // Every process of the run carries this marker; without a sandbox its leftovers are found by it and killed (in the
  // sandbox the kernel ends them all with its PID namespace; Playground starts none).
  const runId = crypto().randomBytes(12).toString('hex');
  const sweep = env.sandbox.name === 'none' && env.runtime === 'php';
  if (sweep) track({ marker: runId });
  let root: string | undefined;
  let server: RuntimeServer | undefined;
  let startP: Promise<RuntimeServer> | undefined;
  try {
    root = await makeTempRoot();
    track({ root });
    o.onResource?.({ root });
    check();
    progress(`building a throwaway site (WordPress ${env.wpVersion}, ${env.runtime === 'php' ? `PHP ${env.phpVersion}` : 'Playground'}) in ${root}`);
    const site = await buildSite(root, {
      core: env.core,
      component,
      ref: refComponent,
      sqlite: env.sqlite,
      phpPaths: env.runtime === 'playground' ? () => ({ site: PLAYGROUND_SITE, work: PLAYGROUND_WORK }) : undefined,
      signal,
      onSkipped: (what, skipped) => progress(skippedLine(what, skipped)),
    });
    check();
    // A fresh install through the SQLite translator takes seconds: the database of an earlier fresh install of the
    // same core, integration and baseline theme is copied instead (it holds no data of the user's).
    const template = cache ? cache.templateFile(MeasureCache.key({ core: env.core, wordpress: env.wpVersion, sqlite: env.sqlite.path, theme: site.baseTheme, runtime: env.runtime, format: 1 })) : undefined;
    const dbFile = path.join(site.workDir, 'db', 'site.sqlite');
    const templateBytes = template ? await cache!.readTemplate(template, (l) => progress(`warning: ${l}`)) : undefined;
    if (templateBytes) await fs.writeFile(dbFile, templateBytes);
    progress(env.runtime === 'php' ? 'starting php -S on 127.0.0.1' : 'starting WordPress Playground (its first requests are slow)');
    progress(sandboxLine(env.sandbox));
    startP =
      env.runtime === 'php'
        ? startPhpServer(env.php!, site, o.env, (c) => (track({ pid: c.pid }), o.onResource?.({ pid: c.pid })), env.sandbox, runId, (w) => progress(`warning: ${w}`))
        : startPlaygroundServer(env.playground!, site, o.env, (c) => (track({ pid: c.pid }), o.onResource?.({ pid: c.pid })), signal);
    server = await raceAbort(startP, signal);
    o.onResource?.({ port: server.port, pid: server.pid });
    progress(`site at ${server.baseUrl} (server pid ${server.pid ?? '?'})`);
    const srv = server;

    const reqTimeout = 120_000;
    const get = (p: string, headers: Record<string, string> = {}) => siteRequest(srv.baseUrl, p, { Host: `127.0.0.1:${srv.port}`, ...headers }, reqTimeout, signal, srv.socketPath);
    const serverDied = (err: unknown) => {
      if (signal.aborted) return abortError(signal);
      return new MeasureError(`the site stopped answering (${(err as Error).message}); server output: ${srv.log().trim().slice(-600) || '(none)'}`, 7);
    };

    progress('installing WordPress');
    const inst = await get(`${INSTALL_PATH}?key=${site.key}`).catch((e) => {
      throw serverDied(e);
    });
    let installed: { wp_version: string; php_version: string; installed_now: boolean; opcache?: boolean; cookies: Record<string, string> };
    try {
      installed = JSON.parse(inst.body);
    } catch {
      throw new MeasureError(`WordPress did not install (status ${inst.status}): ${await phpErrorText(site, inst.body, srv)}`, 7);
    }
    if (template && installed.installed_now && !existsSync(`${dbFile}-wal`)) await cache!.saveTemplate(dbFile, template).catch(() => undefined);
    const cookie = Object.entries(installed.cookies)
      .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
      .join('; ');

    // The one-time activation, measured apart (each copy in its own request: two copies may declare the same
    // functions, so one request never loads both).
    const activate = async (side: 'measured' | 'ref', c: MeasuredComponent): Promise<NonNullable<LocalRecord['local']['activation_hook']>> => {
      progress(`activating ${c.kind} ${c.slug}${side === 'ref' ? ' (baseline copy)' : ''}`);
      const actId = crypto().randomBytes(8).toString('hex');
      const act = await get(`${ACTIVATE_PATH}?key=${site.key}`, { 'X-WPBench-Req': actId, 'X-WPBench-Side': side }).catch((e) => {
        throw serverDied(e);
      });
      const actProbe = await readProbe(site, actId, signal);
      let hook: LocalRecord['local']['activation_hook'] = null;
      try {
        hook = JSON.parse(act.body);
        // Rounded as every figure of the record (ms to 0.1, whole KiB).
        if (hook && typeof hook.time_ms === 'number') hook.time_ms = Math.round(hook.time_ms * 10) / 10;
        if (hook && typeof hook.memory_kb === 'number') hook.memory_kb = Math.round(hook.memory_kb);
      } catch {
        /* reported below */
      }
      const which = side === 'ref' ? ` (${c.kind} at the baseline)` : '';
      if (act.status !== 200 || actProbe?.error || !hook) {
        throw new MeasureError(
          `the ${c.kind}${which} breaks WordPress: activating it failed (status ${act.status}): ${actProbe?.error ?? (await phpErrorText(site, act.body, srv))}`,
          7,
        );
      }
      if (hook.error) {
        throw new MeasureError(
          `WordPress ${env.wpVersion} refused to activate the ${c.kind}${which}: ${htmlText(hook.error).replace(/\.$/, "")}. To measure it, name a WordPress core and a PHP it supports: --wordpress DIR, --php BIN`,
          7,
        );
      }
      return hook;
    };
    // A must-use plugin has no activation (WordPress loads it on every request): activation_hook null.
    const activationHook = component.mustUse ? null : await activate('measured', component);
    const refHook = refComponent && !refComponent.mustUse ? await activate('ref', refComponent) : null;

    type Side = 'baseline' | 'measured' | 'ref';
    const one = async (ctx: MeasureContext, side: Side): Promise<Outcome> => {
      const id = crypto().randomBytes(8).toString('hex');
      const headers: Record<string, string> = { 'X-WPBench-Req': id, 'X-WPBench-Side': side };
      if (ctx === 'admin') headers.Cookie = cookie;
      const res = await get(PATH_URL[ctx], headers).catch((e) => {
        throw serverDied(e);
      });
      const probe = await readProbe(site, id, signal);
      if (probe?.error) return { fail: { reason: 'PHP fatal error', status: res.status, php_error: probe.error } };
      if (res.status >= 300 && res.status < 400) {
        return { fail: { reason: `redirect (${res.status}) to ${String(res.headers.location ?? probe?.location ?? '?').slice(0, 300)}`, status: res.status, location: String(res.headers.location ?? '') } };
      }
      if (res.status >= 400) return { fail: { reason: `HTTP ${res.status}`, status: res.status, php_error: await phpErrorText(site, res.body, srv) } };
      if (!probe || probe.queries === null) return { fail: { reason: 'the request left no measurement (WordPress did not load)', status: res.status } };
      return { ok: { ttfbMs: res.ttfbMs, memoryBytes: probe.memory, queries: probe.queries, dbErrors: probe.db_errors ?? 0, dbError: probe.db_error ?? null, cpuMs: typeof probe.cpu_ms === 'number' ? probe.cpu_ms : null } };
    };

    const sides: Side[] = refComponent ? ['baseline', 'measured', 'ref'] : ['baseline', 'measured'];
    const samples = Object.fromEntries(CONTEXTS.map((c) => [c, { baseline: [], measured: [], ref: [] }])) as unknown as Record<MeasureContext, Record<Side, Sample[]>>;
    const failed: Record<'measured' | 'ref', Partial<Record<MeasureContext, NullReason>>> = { measured: {}, ref: {} };
    let total = warmup + rounds;
    const runRounds = async (from: number) => {
    for (let r = from; r < total; r++) {
      const warm = r < warmup;
      for (const ctx of CONTEXTS) {
        if (failed.measured[ctx] && (!refComponent || failed.ref[ctx])) continue;
        check();
        progress(warm ? `warm-up ${r + 1}/${warmup}: ${ctx}` : `round ${r - warmup + 1}/${total - warmup}: ${ctx}`);
        // A balanced order: every side follows every other side equally often (see sideOrder).
        const order = sideOrder(sides, r);
        for (const side of order) {
          if (side !== 'baseline' && failed[side][ctx]) continue;
          const out = await one(ctx, side);
          if ('fail' in out) {
            if (side === 'baseline') {
              throw new MeasureError(`WordPress itself fails without the component (${ctx}: ${out.fail.reason}${out.fail.php_error ? `: ${out.fail.php_error}` : ''})`, 7);
            }
            if (warm) continue; // one-time redirects (welcome screens) and first-request work settle during warm-up
            if (ctx === 'activation' && side === 'measured') {
              throw new MeasureError(`the ${component.kind} breaks WordPress on every request: ${out.fail.reason}${out.fail.php_error ? `: ${out.fail.php_error}` : ''}`, 7);
            }
            failed[side][ctx] = out.fail;
            continue;
          }
          if (!warm) samples[ctx][side].push(out.ok);
        }
      }
    }
    };
    await runRounds(0);

    const info = {
      runtime: env.runtime,
      ...(env.runtime === 'playground' ? { runtime_note: PLAYGROUND_NOTE } : {}),
      wordpress_version: installed.wp_version,
      php_version: installed.php_version,
      rounds,
      warmup_rounds: warmup,
      baseline_theme: site.baseTheme,
      ...(component.parent ? { parent_theme: { slug: component.parent.slug, name: component.parent.name, version: component.parent.version } } : {}),
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
        { ...info, activation_hook: hook, ...(c.warnings?.length ? { warnings: c.warnings } : {}) },
        at,
      );
    let record = recordOf(component, 'measured', activationHook);
    let refRecord = refComponent ? recordOf(refComponent, 'ref', refHook) : undefined;
    // Paired differences (working tree − REF), request by request in the same round: TTFB, and the server's CPU time
    // where every request has it.
    const pairedOf = (f: (x: Sample) => number | null | undefined): PairedTtfb =>
      Object.fromEntries(
        CONTEXTS.filter((c) => !failed.measured[c] && !failed.ref[c])
          .map((c) => {
            const n = Math.min(samples[c].measured.length, samples[c].ref.length);
            const d = Array.from({ length: n }, (_, i) => {
              const a = f(samples[c].measured[i]);
              const b = f(samples[c].ref[i]);
              return typeof a === 'number' && typeof b === 'number' ? a - b : NaN;
            });
            return [c, d] as const;
          })
          .filter(([, d]) => d.length > 0 && d.every(Number.isFinite)),
      );
    const pairedTtfb = () => pairedOf((x) => x.ttfbMs);
    const pairedCpu = () => pairedOf((x) => x.cpuMs);
    // A comparison the noise cannot decide at the threshold gets one confirmation pass of as many rounds again.
    if (refComponent && refRecord && o.confirm?.(record, refRecord, pairedTtfb(), pairedCpu())) {
      progress(`TTFB too close to the threshold to decide: a confirmation pass of ${rounds} more rounds`);
      total += rounds;
      await runRounds(warmup + rounds);
      info.rounds = total - warmup;
      info.duration_s = Math.round((Date.now() - started) / 100) / 10;
      record = recordOf(component, 'measured', activationHook);
      refRecord = recordOf(refComponent, 'ref', refHook);
    }
    if (cache && !refComponent) await cache.set(cacheKey, record).catch(() => undefined);
    return { current: record, ref: refRecord, ...(refComponent ? { paired: pairedTtfb(), pairedCpu: pairedCpu() } : {}) };
  } catch (err) {
    if (signal.aborted) throw abortError(signal);
    throw err;
  } finally {
    // A server still starting when the run was aborted is stopped once it is up (or has failed to start).
    if (!server && startP) server = await startP.catch(() => undefined);
    if (server) await server.stop();
    // Unsandboxed, detached children (setsid, nohup, env -i) escape the process group: found by the run's marker or
    // their working folder, killed, and waited for (also after a server that failed to start).
    if (sweep) await waitGone(killMarked(runId, root));
    live.markers.delete(runId);
    if (root) await removeSite(root);
    if (server?.pid) live.pids.delete(server.pid);
    if (root) live.roots.delete(root);
  }
}

/** The progress line saying what holds the component's PHP. */
export function sandboxLine(s: SandboxProbe): string {
  if (s.name === 'bubblewrap') return 'sandbox: bubblewrap (own PID namespace, read-only system, only the throwaway site writable, no home or cache folder)';
  if (s.name === 'playground') return 'sandbox: WordPress Playground (WebAssembly PHP, only the throwaway site mounted)';
  return `warning: no sandbox — ${s.why ?? 'none available'}; the component's PHP can do whatever your user can`;
}

/** Resolves like p, or rejects as soon as the signal aborts (p keeps running; its result is cleaned up by the caller). */
function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** The probe's record of a request; it is written at the very end of the request, so wait for it briefly. */
async function readProbe(site: Site, id: string, signal: AbortSignal): Promise<Probe | undefined> {
  const file = path.join(site.probeDir, `${id}.json`);
  const deadline = Date.now() + 3000;
  for (;;) {
    const text = await fs.readFile(file, 'utf8').catch(() => undefined);
    if (text) {
      try {
        const p = JSON.parse(text) as Probe;
        await fs.rm(file, { force: true });
        return p;
      } catch {
        /* partly written: read again */
      }
    }
    if (Date.now() > deadline || signal.aborted) return undefined;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Readable text of an HTML answer (a wp_die() page): no head, styles or scripts, no tags, entities decoded. */
export function htmlText(html: string): string {
  return html
    .replace(/<(head|style|script)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(rsaquo|lsaquo|amp|lt|gt|quot|#039|nbsp);/g, (_, e: string) => ({ rsaquo: '›', lsaquo: '‹', amp: '&', lt: '<', gt: '>', quot: '"', '#039': "'", nbsp: ' ' })[e] ?? ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The PHP error text for a failed request: the error log's last lines, else the body's text. */
async function phpErrorText(site: Site, body: string, server: RuntimeServer): Promise<string> {
  const logFile = path.join(site.workDir, 'php-errors.log');
  const log = existsSync(logFile) ? await fs.readFile(logFile, 'utf8').catch(() => '') : '';
  const lines = log.trim().split('\n');
  const fatal = lines.map((l) => l.replace(/^\[[^\]]*\]\s*/, '')).filter((l) => /^PHP (Fatal|Parse) error/.test(l)).pop();
  const lastLog = fatal ? fatal.slice(0, 600) : lines.slice(-3).join(' | ');
  const text = htmlText(body).slice(0, 400);
  return lastLog || text || server.log().trim().slice(-400) || '(no error text)';
}
