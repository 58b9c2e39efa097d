// options/: what a run is told and how it fails (this file); everything that runs a site reads it. May import machine/,
// profile/, record/ and compare/ (types only); nothing above it.
//
// What a measurement run is told (its options and defaults) and how it fails: MeasureError with its exit code, and
// the run's abort (Ctrl-C or the time limit) as one.
import type { RequestProfile } from '../profile/types';
import type { LocalRecord } from '../record/method';
import type { RuntimeName } from '../machine/runtime';
import type { PairedTtfb } from '../compare/regression';
import type { BrowserDelta } from '../browser/types';
import type { PairedBrowser } from '../browser/paired';
import type { SandboxChoice } from '../machine/sandbox';

export const DEFAULT_ROUNDS = 9;
export const DEFAULT_WARMUP = 2;
export const DEFAULT_TIMEOUT_S = 300;
/** What the measured code may write into the run's folders (uploads, caches, its temporary folder, the database), MiB. */
export const DEFAULT_DISK_LIMIT_MIB = 1024;

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
  /** `--db`: auto (a throwaway MariaDB/MySQL server when one is installed, else SQLite; default), sqlite, or mysql://USER:PASS@HOST:PORT/ */
  db?: string;
  /** `--profile`: also sample the measured side's requests (native php with Excimer; exit 8 otherwise) */
  profile?: boolean;
  /**
   * `--findings`: also note what the component does that costs every request, at its own lines (the activation and
   * warm-up requests marked for the collector, and a findings pass after the timed rounds); the record's `findings`
   */
  findings?: boolean;
  /**
   * `--instructions`: after the timed rounds, each side's requests counted in CPU instructions under Valgrind's
   * callgrind (run/instructions.ts); without Valgrind, said, and measured without
   */
  instructions?: boolean;
  /**
   * `--browser`: after the server rounds, the homepage of each side loaded in headless Chromium (browser/pass.ts);
   * native php only; without Chromium, said, and measured without
   */
  browser?: boolean;
  /** `--device`: the browser's network and CPU profile (default desktop) */
  device?: 'desktop' | 'mobile';
  /** `--browser-rounds`: loads per side (default BROWSER_ROUNDS) */
  browserRounds?: number;
  /** given every browser load as recorded (requests, timings, long tasks, shifts: the waterfall's data) */
  onBrowserLoads?: (loads: import('../browser/types').BrowserLoad[]) => void;
  /** given what the collector recorded, request by request (`--findings`; the unit tests' recorded data) */
  onFindingsRaw?: (raw: import('../findings/types').RawFindings[]) => void;
  /** profiled requests per context (default PROFILE_ROUNDS) */
  profileRounds?: number;
  /** given the raw profiles of a --profile run, per context (for --format speedscope|collapsed) */
  onProfiles?: (raw: Partial<Record<'activation' | 'homepage' | 'admin', RequestProfile[]>>) => void;
  rounds?: number;
  warmup?: number;
  timeoutS?: number;
  /** `measure --site --shard K/N`: measure every N-th member alone and in the site, from the K-th (with the clean site and the stack) */
  shard?: { k: number; n: number };
  /** `--disk-limit-mib`: the cap on what the run's writable folders may hold (default DEFAULT_DISK_LIMIT_MIB); past it the run ends, exit 7 */
  diskLimitMiB?: number;
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
  /**
   * A comparison with `browser`: asked once after the browser's loads with each copy's figures and the paired
   * differences; the timed figures it names undecided get a confirmation pass of as many loads a side again.
   */
  confirmBrowser?: (current: BrowserDelta, ref: BrowserDelta, paired: PairedBrowser) => string[];
  /** test hook: told about each temp folder and server as they are made */
  onResource?: (r: { root?: string; pid?: number; port?: number }) => void;
}

export function abortError(signal: AbortSignal): MeasureError {
  const r = signal.reason;
  return r instanceof MeasureError ? r : new MeasureError('interrupted', 6);
}

/** Resolves like p, or rejects as soon as the signal aborts (p keeps running; its result is cleaned up by the caller). */
export function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
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
