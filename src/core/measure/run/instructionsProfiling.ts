// `--profile --instructions`: the profile by CPU instructions. After the instructions pass, the measured side's requests
// are counted once more under callgrind with a small PHP extension (../profile/instructionsExt.ts, compiled here with
// the machine's C compiler against this PHP's headers) that runs each of the component's PHP functions through a C
// function of its own, so callgrind's count splits by PHP function (../profile/instructionsProfile.ts reads it). The
// same server set-up as the instructions pass (its own sandbox, opcache warm and never revalidating, the clock set and
// slowed as there),
// one warm-up request per context, then the counted ones: a count does not depend on the machine's load, so the
// profile of a change repeats like its total.
//
// What the extension itself adds is taken out again: every PHP function call it sees enters PHP's executor again
// (which it does not without it), a fixed number of instructions per kind of call, measured here on this PHP before the
// pass (a call from PHP code or from C, to the component's function or another); the extension counts each function's
// calls of each kind, and those times the measured cost are subtracted from its figures.
import { existsSync, promises as fs } from 'node:fs';
import { crypto } from '../../lazyNode';
import * as path from 'node:path';
import type { PhpInfo } from '../machine/environment';
import { runProcess } from '../machine/environment';
import { compileArgs, extensionSource } from '../profile/instructionsExt';
import { calibrationScripts, correctedProfile, parseCalls, type CallCosts } from '../profile/instructionsCorrection';
import { parseMap, readDump } from '../profile/instructionsProfile';
import type { LocalProfile } from '../profile/types';
import { CONTEXTS, type MeasureContext } from '../record/method';
import { startPhpServer } from '../runtime/phpRuntime';
import { liveSite } from '../site/siteClient';
import { clockStart, clockWrap, findCounter, type ServerOptions } from './instructions';
import { componentRoots } from './profiling';
import type { MeasuredComponent } from '../component/component';
import { requestContext } from './rounds';

export const PROFILE_COMPILER_HINT = 'install a C compiler and the PHP headers (Debian/Ubuntu: sudo apt install gcc php-dev)';

/** Counted requests per context after the warm-up (a count repeats exactly: one is enough). */
export const INSTRUCTION_PROFILE_ROUNDS = 1;

/** php-config of this PHP: beside it with the same suffix (php8.2 → php-config8.2), else on PATH. */
function phpConfigOf(php: PhpInfo, env: NodeJS.ProcessEnv): string | undefined {
  const dir = path.dirname(php.bin);
  const suffix = path.basename(php.bin).replace(/^php/, '');
  const onPath = (env.PATH ?? '').split(path.delimiter).filter(Boolean).map((d) => path.join(d, 'php-config'));
  return [path.join(dir, `php-config${suffix}`), path.join(dir, 'php-config'), ...onPath].find((f) => existsSync(f));
}

/** Compiles the extension into dir: its path, or why it cannot be built here. */
export async function buildExtension(php: PhpInfo, env: NodeJS.ProcessEnv, dir: string): Promise<{ so: string } | { why: string }> {
  const config = phpConfigOf(php, env);
  if (!config) return { why: `php-config (the PHP headers) was not found: ${PROFILE_COMPILER_HINT}` };
  const inc = await runProcess(config, ['--includes'], { PATH: env.PATH });
  const ver = await runProcess(config, ['--version'], { PATH: env.PATH });
  if (inc.code !== 0) return { why: `${config} --includes failed: ${PROFILE_COMPILER_HINT}` };
  if (ver.code === 0 && ver.stdout.trim().split('.').slice(0, 2).join('.') !== php.version.split('.').slice(0, 2).join('.')) return { why: `${config} is for PHP ${ver.stdout.trim()}, not ${php.version}: install the headers of this PHP (php${php.version.split('.').slice(0, 2).join('.')}-dev)` };
  const cc = (env.PATH ?? '').split(path.delimiter).filter(Boolean).flatMap((d) => ['cc', 'gcc', 'clang'].map((n) => path.join(d, n))).find((f) => existsSync(f));
  if (!cc) return { why: `no C compiler was found: ${PROFILE_COMPILER_HINT}` };
  const src = path.join(dir, 'wpbcg.c');
  const so = path.join(dir, 'wpbcg.so');
  await fs.writeFile(src, extensionSource());
  const r = await runProcess(cc, compileArgs(inc.stdout.trim().split(/\s+/), src, so), { PATH: env.PATH }, 300_000);
  if (r.code !== 0 || !existsSync(so)) return { why: `the profiling extension did not compile (${r.stderr.trim().split('\n').slice(-1)[0] ?? r.code})` };
  return { so };
}

/** Callgrind's options for the profiled server and the calibration runs. */
function callgrindArgs(valgrind: string, outFile: string): string[] {
  // The request's call counts are written after its last PHP code ran: never counted. Each trampoline's callers kept
  // apart up to 200 C frames deep: which of the component's functions a call ran inside.
  return [valgrind, '--tool=callgrind', '-q', '--toggle-collect=wpb_write_calls', '--collect-atstart=yes', '--separate-callers200=wpb_f_*', '--dump-instr=no', '--compress-strings=no', '--compress-pos=no', `--callgrind-out-file=${outFile}`];
}

/** The instructions each kind of call through the extension adds on this PHP (4 kinds, see instructionsExt.ts). */
export async function calibrate(php: PhpInfo, valgrind: string, so: string, dir: string, env: NodeJS.ProcessEnv): Promise<CallCosts> {
  const cal = path.join(dir, 'calibration');
  const scripts = calibrationScripts();
  for (const [name, text] of Object.entries(scripts.files)) {
    await fs.mkdir(path.dirname(path.join(cal, name)), { recursive: true });
    await fs.writeFile(path.join(cal, name), text);
  }
  const count = async (tag: string, args: string[], hooked: boolean): Promise<number> => {
    const out = path.join(cal, `cg.${tag}`);
    const r = await runProcess(valgrind, [...callgrindArgs(valgrind, out).slice(1), php.bin, '-n', ...(hooked ? ['-d', `extension=${so}`] : []), ...args], { PATH: env.PATH, ...(hooked ? { WPBENCH_CG_ROOTS: path.join(cal, 'comp') } : {}) }, 300_000);
    const n = r.code === 0 ? readDump(await fs.readFile(out, 'utf8').catch(() => '')).total : 0;
    if (!n) throw new Error(`the calibration of --profile --instructions failed (${tag}): ${r.stderr.trim().split('\n').slice(-1)[0] ?? r.code}`); // l10n-ignore: CLI error (English)
    return n;
  };
  // Each kind's cost: the hooked run's extra instructions over the plain run's, for N calls of that kind.
  const N = String(scripts.calls);
  const run = (k: number, hooked: boolean) => count(`${k}.${hooked ? 'hooked' : 'plain'}`, [path.join(cal, 'main.php'), ...[0, 1, 2, 3].map((i) => (i === k ? N : '0'))], hooked);
  const costs: number[] = [];
  const [p0, h0] = [await run(-1, false), await run(-1, true)];
  for (const k of [0, 1, 2, 3]) {
    const [p, h] = await Promise.all([run(k, false), run(k, true)]);
    costs[k] = Math.max(0, Math.round((h - h0 - (p - p0)) / scripts.calls));
  }
  return costs as CallCosts;
}

/**
 * The compiled extension and what its calls add on this PHP: from the cache folder when this PHP, Valgrind and
 * extension were measured before (both take about a minute), else built and measured, then kept there.
 */
async function extensionFor(o: ProfilePassOptions, dir: string): Promise<{ built: { so: string }; costs: CallCosts } | { why: string }> {
  const key = crypto().createHash('sha256').update([extensionSource(), JSON.stringify(calibrationScripts()), o.php.bin, o.php.version, o.counter.valgrind].join('\0')).digest('hex').slice(0, 16);
  const home = o.cacheDir ? path.join(o.cacheDir, 'wpbcg', key) : undefined;
  const so = path.join(dir, 'wpbcg.so');
  if (home) {
    const costs = await fs.readFile(path.join(home, 'costs.json'), 'utf8').then((t) => JSON.parse(t) as unknown, () => undefined);
    if (Array.isArray(costs) && costs.length === 4 && costs.every((x) => Number.isInteger(x) && x >= 0) && (await fs.copyFile(path.join(home, 'wpbcg.so'), so).then(() => true, () => false))) {
      return { built: { so }, costs: costs as CallCosts };
    }
  }
  o.progress('profiling by instructions: compiling the profiling extension for this PHP');
  const built = await buildExtension(o.php, o.env, dir);
  if ('why' in built) return built;
  o.check();
  o.progress('profiling by instructions: measuring what the extension adds per call on this PHP');
  const costs = await calibrate(o.php, o.counter.valgrind, built.so, dir, o.env);
  if (home) {
    await fs
      .mkdir(home, { recursive: true })
      .then(() => fs.copyFile(built.so, path.join(home, 'wpbcg.so')))
      .then(() => fs.writeFile(path.join(home, 'costs.json'), JSON.stringify(costs)))
      .catch(() => undefined);
  }
  return { built, costs };
}

interface ProfilePassOptions extends ServerOptions {
  /** where the compiled extension and its measured costs are kept between runs */
  cacheDir?: string;
  /** the component's files and folders as PHP sees them, and the folder paths are relative to */
  roots: { roots: string[]; base: string };
  measured: ReadonlySet<MeasureContext>;
  rounds?: number;
}

/** The measured side's profile by instructions, or why it cannot be made here (the run goes on with the time profile). */
export async function instructionsProfilePass(o: ProfilePassOptions): Promise<{ profile: LocalProfile } | { why: string }> {
  const rounds = o.rounds ?? INSTRUCTION_PROFILE_ROUNDS;
  const dir = path.join(o.site.workDir, 'iprofile');
  await fs.mkdir(dir, { recursive: true });
  const ready = await extensionFor(o, dir);
  if ('why' in ready) return ready;
  const { built, costs } = ready;
  const at = clockStart(new Date());
  const rootsText = [...new Set(o.roots.roots.flatMap((r) => [r, ...(existsSync(r) ? [path.resolve(r)] : [])]))].join('\n');
  const srv = await startPhpServer(o.php, o.site, o.env, (c) => o.onChild(c.pid), o.sandbox, o.runId, undefined, {
    wrap: [...clockWrap(o.counter.faketime, at), ...callgrindArgs(o.counter.valgrind, path.join(dir, 'cg.%p')), `--zero-before=php_request_startup`, '--dump-after=php_request_shutdown'],
    env: { WPBENCH_CG_ROOTS: rootsText, WPBENCH_CG_MAP: path.join(dir, 'map.tsv'), WPBENCH_CG_CALLS: path.join(dir, 'calls.tsv') },
    mounts: [{ path: dir, writable: true }],
    socketDir: dir,
    phpArgs: ['-d', 'opcache.validate_timestamps=0', '-d', `extension=${built.so}`],
    limits: { processes: 1024 },
  });
  const dumps: Partial<Record<MeasureContext, number[]>> = {};
  try {
    const live = liveSite(o.site, srv, o.live.signal, o.live.sides, { sweep: true, note: (l) => o.progress(`warning: ${l}`) });
    for (const [k, v] of o.live.dbOf) live.dbOf.set(k, v);
    let seen = 0;
    for (const ctx of CONTEXTS) {
      if (!o.measured.has(ctx)) continue;
      for (let i = 0; i <= rounds; i++) {
        o.check();
        o.progress(`profiling by instructions: ${ctx} ${i === 0 ? '(warm-up)' : `${i}/${rounds}`} under callgrind`);
        const r = await requestContext(live, o.cookie, ctx, { 'X-WPBench-Side': 'measured' });
        if (!(await waitDump(dir, ++seen, o.live.signal))) return { why: `callgrind wrote no count for ${ctx}` };
        if (!('ok' in r)) break;
        if (i > 0) (dumps[ctx] ??= []).push(seen);
      }
    }
  } finally {
    await srv.stop();
  }
  const map = parseMap(await fs.readFile(path.join(dir, 'map.tsv'), 'utf8').catch(() => ''));
  const calls = parseCalls(await fs.readFile(path.join(dir, 'calls.tsv'), 'utf8').catch(() => ''));
  const names = await fs.readdir(dir);
  const rel = (file: string): string | undefined => {
    for (const b of [o.roots.base, path.resolve(o.roots.base)]) if (file.startsWith(b + '/')) return file.slice(b.length + 1);
    return undefined;
  };
  const contexts = {} as LocalProfile['contexts'];
  for (const ctx of CONTEXTS) {
    const ks = dumps[ctx];
    if (!ks?.length) {
      contexts[ctx] = null;
      continue;
    }
    const read = [];
    for (const k of ks) {
      const f = names.find((x) => new RegExp(`^cg\\.\\d+\\.${k}$`).test(x))!;
      read.push({ dump: readDump(await fs.readFile(path.join(dir, f), 'utf8')), calls: calls.get(k) });
    }
    contexts[ctx] = correctedProfile(read, map, rel, ctx, costs);
  }
  return { profile: { profiler: `callgrind (${path.basename(o.counter.valgrind)}), the component's PHP functions by the wpbcg extension`, unit: 'instructions', period_ms: 0, rounds, call_costs: costs, contexts } };
}

/** Waits for the k-th request's dump (cg.<pid>.<k>, complete: its totals written), at most 120 s. */
async function waitDump(dir: string, k: number, signal: AbortSignal): Promise<boolean> {
  const deadline = Date.now() + 120_000;
  const re = new RegExp(`^cg\\.\\d+\\.${k}$`);
  for (;;) {
    const f = (await fs.readdir(dir).catch(() => [] as string[])).find((x) => re.test(x));
    if (f && /^totals:/m.test(await fs.readFile(path.join(dir, f), 'utf8').catch(() => ''))) return true;
    if (Date.now() > deadline || signal.aborted) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}


/**
 * `--profile --instructions` after the time profile: the profile by instructions where it can be made (its functions'
 * queries and hooks taken from the time profile, which counts them exactly), else the time profile with a warning.
 */
export async function profileByInstructions(o: Omit<ProfilePassOptions, 'counter' | 'roots'> & { component: MeasuredComponent }, time: LocalProfile): Promise<LocalProfile> {
  const counter = findCounter(o.env);
  const made = 'why' in counter ? counter : await instructionsProfilePass({ ...o, counter, roots: componentRoots(o.site, o.component, o.site.target, 'mu-plugins') });
  if ('why' in made) {
    o.progress(`warning: --profile --instructions: ${made.why}; the profile is by time`);
    return time;
  }
  const contexts = { ...made.profile.contexts };
  for (const ctx of CONTEXTS) {
    const t = time.contexts[ctx];
    const c = contexts[ctx];
    if (!t || !c) continue;
    const byKey = new Map(t.functions.map((f) => [`${f.file}:${f.line}`, f]));
    contexts[ctx] = { ...c, functions: c.functions.map((f) => ({ ...f, queries: byKey.get(`${f.file}:${f.line}`)?.queries ?? 0, hooks: byKey.get(`${f.file}:${f.line}`)?.hooks ?? [] })) };
  }
  return { ...made.profile, contexts };
}
