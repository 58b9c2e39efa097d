// `--instructions`: each side's requests counted in CPU instructions, as php-src's own benchmark counts WordPress:
// PHP's work for one request under Valgrind's callgrind, which simulates the CPU and counts every instruction PHP
// executes (event Ir). A count does not depend on how busy the machine is, only on what PHP does, so two identical
// copies read the same to a few thousandths of a percent where time moves by whole percents.
//
// Deterministic by construction: after the timed rounds each side gets a php -S of its own under callgrind (its own
// sandbox, its own side's requests only), on the same site and that side's own database, with the clock set to the
// same start on every side (libfaketime: every side's server starts at the pass's start, to the second, and its clock
// runs from there at a tenth of real speed, so all see the same dates and a minute's transient outlives the pass; a
// clock frozen still hung mysqlnd's waits) and WP-Cron off
// (as in every run). opcache never revalidates files (nothing changes them): a revalidation every 2 s fell on some
// requests and not others, half a million instructions apart; with it off two identical requests differ by about
// 4,000 of 30 to 60 million. Each
// request is counted from php_request_startup to php_request_shutdown (callgrind's --zero-before / --dump-after: one
// dump per request); the first request of each context is a warm-up (opcache compiles the code then, as a production
// server does once), the next ones are counted: what production pays per request with opcache warm.
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { PhpInfo } from '../machine/environment';
import type { SandboxProbe } from '../machine/sandbox';
import { CONTEXTS, type InstructionsInfo, type LocalRecord, type MeasureContext } from '../record/method';
import { countOf } from '../compare/instructions';
export { countOf };
import { startPhpServer } from '../runtime/phpRuntime';
import { liveSite, type LiveSite } from '../site/siteClient';
import type { Site } from '../site/site';
import { requestContext, type Side } from './rounds';

/** Where Debian, Ubuntu and Fedora put libfaketime (each side's clock set to the same start). */
const FAKETIME_LIBS = ['/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib64/faketime/libfaketime.so.1', '/usr/lib/faketime/libfaketime.so.1'];

export const VALGRIND_HINT = 'install Valgrind (Debian/Ubuntu: sudo apt install valgrind libfaketime; Fedora: sudo dnf install valgrind libfaketime; macOS: not available)';

/** The machine's valgrind and libfaketime, or why `--instructions` cannot count here. */
export function findCounter(env: NodeJS.ProcessEnv): { valgrind: string; faketime?: string } | { why: string } {
  if (process.platform !== 'linux') return { why: `instructions are counted with Valgrind on Linux only (this is ${process.platform})` };
  const valgrind = (env.PATH ?? '').split(path.delimiter).filter(Boolean).map((d) => path.join(d, 'valgrind')).find((f) => existsSync(f)) ?? (existsSync('/usr/bin/valgrind') ? '/usr/bin/valgrind' : undefined);
  if (!valgrind) return { why: `Valgrind was not found: ${VALGRIND_HINT}` };
  return { valgrind, faketime: FAKETIME_LIBS.find((f) => existsSync(f)) };
}

/** Counted requests per context after the warm-up one. */
export const INSTRUCTION_ROUNDS = 3;

/** Each side's counts per context (an empty list: the context failed there). */
export type InstructionCounts = Partial<Record<Side, Record<MeasureContext, number[]>>>;

/** The instruction count of one callgrind dump ("summary: N", else "totals: N"). */
export function dumpCount(text: string): number | undefined {
  const m = /^summary:\s+(\d+)/m.exec(text) ?? /^totals:\s+(\d+)/m.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** The clock's start for libfaketime: now, to the second, in UTC ("YYYY-MM-DD HH:MM:SS"). */
export function clockStart(at: Date): string {
  return at.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * How fast a counted server's clock runs: a tenth of real time. Under callgrind a request takes 40–55 times as long,
 * and several times more on a busy machine: at real speed a side's pass outlived WordPress's 60-second global-styles
 * transient now and then, and the request that rebuilt it paid 7.5 M instructions more (a real plugin's identical
 * requests varied by 19 %). A frozen clock hung mysqlnd's waits; a slow one keeps them finite.
 */
export const CLOCK_RATE = 0.1;

/**
 * The wrapper that starts a counted server's PHP with its clock at `at` (clockStart), running at CLOCK_RATE: an
 * offset from now (libfaketime's speed applies to offsets, not to "@" start times), so every server started for the
 * pass, whenever, begins at the same second.
 */
export function clockWrap(faketime: string | undefined, at: string, now = Date.now()): string[] {
  if (!faketime) return [];
  const offset = Math.round((Date.parse(`${at.replace(' ', 'T')}Z`) - now) / 1000);
  return ['/usr/bin/env', `LD_PRELOAD=${faketime}`, `FAKETIME=${offset >= 0 ? '+' : ''}${offset} x${CLOCK_RATE}`, 'FAKETIME_DONT_FAKE_MONOTONIC=1'];
}

interface PassOptions {
  live: LiveSite;
  site: Site;
  php: PhpInfo;
  env: NodeJS.ProcessEnv;
  sandbox: SandboxProbe;
  counter: { valgrind: string; faketime?: string };
  cookie: string;
  sides: Side[];
  rounds?: number;
  runId?: string;
  onChild: (pid: number | undefined) => void;
  check: () => void;
  progress: (line: string) => void;
}

/** Counts every side, two at a time (one core each), after the timed rounds. */
export async function instructionsPass(o: PassOptions): Promise<InstructionCounts> {
  const rounds = o.rounds ?? INSTRUCTION_ROUNDS;
  const at = clockStart(new Date());
  o.progress(`counting instructions: ${o.sides.length} sides × ${CONTEXTS.length} contexts × ${rounds} requests under callgrind${o.counter.faketime ? `, each side's clock starting at ${at} UTC, at a tenth of real speed` : ' (libfaketime not found: the machine\'s clock, time-based work may vary the counts)'}`);
  const out: InstructionCounts = {};
  const queue = [...o.sides];
  const worker = async () => {
    for (let side = queue.shift(); side; side = queue.shift()) out[side] = await countSide(o, side, rounds, at);
  };
  await Promise.all([worker(), worker()]);
  return out;
}

/** Where a counted server's requests go: a side (X-WPBench-Side) or a `--site` configuration (X-WPBench-Config). */
export interface CountTarget {
  id: string;
  headers: Record<string, string>;
  /** what a failure names ("the measured code") */
  label: string;
}

async function countSide(o: PassOptions, side: Side, rounds: number, at: string): Promise<Record<MeasureContext, number[]>> {
  const target = { id: side, headers: { 'X-WPBench-Side': side }, label: side === 'baseline' ? 'WordPress without the component' : 'the measured code' };
  return withCountedServer(o, `counts-${side}`, at, async (ask) => {
    const counts = Object.fromEntries(CONTEXTS.map((c) => [c, [] as number[]])) as Record<MeasureContext, number[]>;
    for (const ctx of CONTEXTS) {
      for (let i = 0; i <= rounds; i++) {
        const n = await ask(target, ctx);
        if (n === null) {
          counts[ctx] = [];
          break;
        }
        if (i > 0 && n !== undefined) counts[ctx].push(n);
      }
    }
    return counts;
  });
}

/** Asks one request of a target in a context on a counted server: its count; null when the request failed. */
export type CountedAsk = (t: CountTarget, ctx: MeasureContext) => Promise<number | null | undefined>;

/** What a counted server needs (a side's pass, a site's, the instruction profile's). */
export type ServerOptions = Pick<PassOptions, 'live' | 'site' | 'php' | 'env' | 'sandbox' | 'counter' | 'cookie' | 'runId' | 'onChild' | 'check' | 'progress'>;

/**
 * A php -S of its own under callgrind (its folder `work/NAME`, a sandbox of its own), `use` asking it requests one
 * after the other (each request one dump); stopped after.
 */
export async function withCountedServer<T>(o: ServerOptions, name: string, at: string, use: (ask: CountedAsk) => Promise<T>): Promise<T> {
  const dir = path.join(o.site.workDir, name);
  await fs.mkdir(dir, { recursive: true });
  const srv = await startPhpServer(
    o.php,
    o.site,
    o.env,
    (c) => o.onChild(c.pid),
    o.sandbox,
    o.runId,
    undefined,
    {
      // The clock's start for PHP alone (the relay beside it waits on real time).
      wrap: [...clockWrap(o.counter.faketime, at), o.counter.valgrind, '--tool=callgrind', '-q', '--zero-before=php_request_startup', '--dump-after=php_request_shutdown', '--dump-instr=no', '--compress-strings=no', `--callgrind-out-file=${path.join(dir, 'cg.%p')}`],
      env: {},
      // Its own folder for the dumps, seen by this server's sandbox only.
      mounts: [{ path: dir, writable: true }],
      socketDir: dir,
      // opcache never looks at the files' times again (nothing changes them during the pass): a look every 2 s fell
      // on some requests and not others, half a million instructions apart.
      phpArgs: ['-d', 'opcache.validate_timestamps=0'],
      // Valgrind maps far more address space than PHP uses: the process limit holds, not 2 GiB.
      limits: { processes: 1024 },
    },
  );
  try {
    const live = liveSite(o.site, srv, o.live.signal, o.live.sides, { sweep: true, note: (l) => o.progress(`warning: ${l}`) });
    for (const [k, v] of o.live.dbOf) live.dbOf.set(k, v);
    let seen = 0;
    return await use(async (t, ctx) => {
      o.check();
      const r = await requestContext(live, o.cookie, ctx, t.headers, t.label);
      const n = await nextDump(dir, ++seen, o.live.signal);
      return 'ok' in r ? n : null;
    });
  } finally {
    await srv.stop();
  }
}

/** The count of the `k`-th request's dump (cg.<pid>.<k>), waiting while callgrind writes it (at most 60 s). */
async function nextDump(dir: string, k: number, signal: AbortSignal): Promise<number | undefined> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    const f = names.find((x) => new RegExp(`^cg\\.\\d+\\.${k}$`).test(x));
    if (f) {
      const n = dumpCount(await fs.readFile(path.join(dir, f), 'utf8').catch(() => ''));
      if (n !== undefined) return n;
    }
    if (Date.now() > deadline || signal.aborted) return undefined;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The record with its instruction counts: per context the delta of the medians (measured − clean), the clean side's
 * own count and the larger range of the two sides. A context either side could not count keeps its figures without.
 */
export function withInstructions(record: LocalRecord, measured: Record<MeasureContext, number[]> | undefined, baseline: Record<MeasureContext, number[]> | undefined, how: InstructionsInfo): LocalRecord {
  const contexts = { ...record.contexts };
  const base = { ...record.local.baseline };
  const spread = { ...record.local.spread };
  for (const c of CONTEXTS) {
    const m = countOf(measured?.[c]);
    const b = countOf(baseline?.[c]);
    if (!m || !b || !contexts[c] || !base[c] || !spread[c]) continue;
    contexts[c] = { ...contexts[c]!, instructions_delta: m.median - b.median };
    base[c] = { ...base[c]!, instructions: b.median };
    spread[c] = { ...spread[c]!, instructions: Math.max(m.spread, b.spread) };
  }
  return { ...record, contexts, local: { ...record.local, baseline: base, spread, instructions: how } };
}
