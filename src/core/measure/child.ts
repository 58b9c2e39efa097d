// Runs `wp-bench measure PATH --json` (or `--site --json`) in a child process (the editor's own Node: the extension host never blocks on
// PHP), reads its progress lines from stderr and its one record from stdout. Cancelling sends SIGTERM (the CLI
// stops the site and removes its folder), then SIGKILL if it has not exited after a grace period.
import { childProcess } from '../lazyNode';
import type { LocalRecord } from './record/method';
import { isSiteRecord, type SiteRecord } from './siteRun/siteRecord';

export interface MeasureChildOptions {
  /** Node (in VS Code: process.execPath with ELECTRON_RUN_AS_NODE=1). */
  node: string;
  /** dist/cli.js */
  cli: string;
  path: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  extraArgs?: string[];
  signal?: AbortSignal;
  /** One human line per step ("installing WordPress", "round 3/9"). */
  onProgress?: (step: string, raw: string) => void;
  /** Told the child's pid once it runs (tests check it is gone afterwards). */
  onSpawn?: (pid: number) => void;
  killGraceMs?: number;
}

export class MeasureChildError extends Error {
  constructor(
    message: string,
    /** The CLI's exit code (2 nothing to measure, 6 time limit/interrupted, 7 WordPress broken, 8 no runtime), or null. */
    readonly exitCode: number | null,
    readonly cancelled = false,
  ) {
    super(message);
  }
}

/** Names of variables never handed to the child: WP Bench's key and anything that looks like a secret. */
const SECRET = /(^WPBENCH_API_KEY$|KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)/i;

/** The child's environment: the parent's without secrets, plus what makes Electron's binary act as Node. */
export function measureChildEnv(env: NodeJS.ProcessEnv, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !SECRET.test(k) && !k.startsWith('VSCODE_')) out[k] = v;
  return { ...out, ELECTRON_RUN_AS_NODE: '1', ...extra };
}

/** A CLI progress line without its "wp-bench: " prefix, or undefined for one that is not worth showing. */
export function progressStep(line: string): string | undefined {
  const t = line.replace(/^wp-bench:\s*/, '').trim();
  if (!t) return undefined;
  // The temp folder and the server's pid are for the terminal, not for a notification.
  return t.replace(/ in \/\S+$/, '').replace(/ \(server pid \d+\)$/, '');
}

/**
 * The editor's Measure Locally: always with its findings; Profile Locally with --profile; with --instructions when
 * the setting wpBench.measure.instructions is on (the CLI counts where the machine has Valgrind, else says why).
 */
export function measureLocallyArgs(o: { profile: boolean; instructions: boolean; browser?: boolean }): string[] {
  return o.profile ? ['--profile', '--findings'] : ['--findings', ...(o.instructions ? ['--instructions'] : []), ...(o.browser ? ['--browser'] : [])];
}

/** Why a run asked for --instructions measured without them ("Valgrind was not found: install …"), from its progress. */
export function instructionsSkipped(steps: readonly string[]): string | undefined {
  for (const s of steps) {
    const why = /^warning: (.*); measured without instructions$/.exec(s.trim())?.[1];
    if (why) return why;
  }
  return undefined;
}

const isLocalRecord = (v: unknown): v is LocalRecord => (v as LocalRecord)?.source === 'local' && typeof (v as LocalRecord).slug === 'string';

/** `measure PATH --json`: one component's record. */
export function runMeasureChild(o: MeasureChildOptions): Promise<LocalRecord> {
  return runCliChild(o, ['measure', o.path, '--json', ...(o.extraArgs ?? [])], isLocalRecord);
}

/** `measure ROOT --site --json`: the site's record (its shape checked). */
export function runSiteChild(o: MeasureChildOptions): Promise<SiteRecord> {
  return runCliChild(o, ['measure', o.path, '--site', '--json', ...(o.extraArgs ?? [])], isSiteRecord);
}

/** What `measure PATH --baseline-ref REF --json` prints (the parts the editor reads). */
export interface CompareResult {
  current: LocalRecord;
  baseline: LocalRecord;
  passed: boolean;
  /** what the working tree saves against REF, per request ("homepage −204 KB"), or null */
  saved: string | null;
}

const isCompareResult = (v: unknown): v is CompareResult => !!v && typeof v === 'object' && isLocalRecord((v as CompareResult).current) && isLocalRecord((v as CompareResult).baseline);

/** `measure PATH --baseline-ref REF --json`: both copies in one run (exit 1, a budget exceeded, and 3, inconclusive, still print the result). */
export function runCompareChild(o: MeasureChildOptions & { ref: string }): Promise<CompareResult> {
  return runCliChild(o, ['measure', o.path, '--baseline-ref', o.ref, '--json', ...(o.extraArgs ?? [])], isCompareResult, [0, 1, 3]);
}

function runCliChild<T>(o: MeasureChildOptions, args: string[], accept: (v: unknown) => v is T, okCodes: readonly number[] = [0]): Promise<T> {
  return new Promise((resolve, reject) => {
    if (o.signal?.aborted) return reject(new MeasureChildError('cancelled', null, true));
    const child = childProcess().spawn(o.node, [o.cli, ...args], { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    if (child.pid !== undefined) o.onSpawn?.(child.pid);
    let stdout = '';
    let stderrTail = '';
    let partial = '';
    let cancelled = false;
    let killTimer: NodeJS.Timeout | undefined;
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (stdout.length < 4 * 1024 * 1024) stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderrTail = (stderrTail + d).slice(-4000);
      partial += d;
      const lines = partial.split('\n');
      partial = lines.pop() ?? '';
      for (const l of lines) {
        const step = progressStep(l);
        if (step) o.onProgress?.(step, l);
      }
    });
    const onAbort = () => {
      cancelled = true;
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), o.killGraceMs ?? 10_000);
    };
    o.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) => {
      o.signal?.removeEventListener('abort', onAbort);
      reject(new MeasureChildError(`could not start the measurement: ${err.message}`, null));
    });
    child.on('close', (code) => {
      clearTimeout(killTimer);
      o.signal?.removeEventListener('abort', onAbort);
      if (cancelled) return reject(new MeasureChildError('cancelled', code, true));
      if (code !== null && okCodes.includes(code)) {
        try {
          const record: unknown = JSON.parse(stdout.trim().split('\n').pop() ?? '');
          if (!accept(record)) throw new Error('not a local record');
          return resolve(record);
        } catch (err) {
          return reject(new MeasureChildError(`the measurement printed no record (${(err as Error).message})`, code));
        }
      }
      // The CLI's last "wp-bench: …" line says why.
      const last = stderrTail.trim().split('\n').filter((l) => l.trim()).pop() ?? `exit code ${code}`;
      reject(new MeasureChildError(last.replace(/^wp-bench:\s*/, ''), code));
    });
  });
}
