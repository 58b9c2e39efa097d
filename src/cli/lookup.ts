// `wp-bench lookup` and `wp-bench me`, with the API client, the logger and the cache folder the commands share.
import * as os from 'node:os';
import * as path from 'node:path';
import { BenchClient } from '../core/api/client';
import { errors, exitCodeFor } from '../core/api/errors';
import type { TransportFactory } from '../core/api/transport';
import { DiskCache } from '../core/cache/diskCache';
import { ciSafeJson, formatAge, formatContext, formatCount, formatQuota } from '../core/present/format';
import type { Logger } from '../core/logger';
import { nullLogger } from '../core/logger';
import { LookupService, type LookupOutcome } from '../core/lookup/lookupService';
import { CONTEXT_NAMES, isValidSlug, type AccountInfo, type ComponentKind, isoTime } from '../core/model';
import { lookupForCheck } from '../core/report/check';
import { textTable } from '../core/report/plain';
import { QuotaGuard } from '../core/lookup/quotaGuard';
import { EXIT, UsageError, type CliIo } from './scan';
import { numberFlag, REQUEST_TIMEOUT_RANGE, type Parsed } from './flags';

/**
 * undici is loaded with the first request only (`scan` never needs it): dist/http.js beside the bundle, as the
 * extension does; from the sources (tests through tsx), the module itself.
 */
export const lazyUndici: TransportFactory = (options) => {
  const bundled = path.join(__dirname, 'http.js');
  const modulePath = require('node:fs').existsSync(bundled) ? bundled : path.join(__dirname, '..', 'core', 'api', 'undiciTransport');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(modulePath) as typeof import('../core/api/undiciTransport')).createUndiciTransport(options);
};

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

export function makeClient(parsed: Parsed, io: CliIo, transport: TransportFactory = lazyUndici): BenchClient {
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

export async function runLookup(parsed: Parsed, io: CliIo): Promise<number> {
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
export function warnUnwritableCache(cache: DiskCache, io: CliIo): void {
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

export async function runMe(parsed: Parsed, io: CliIo): Promise<number> {
  if (parsed.positional.length > 1) throw new UsageError('usage: wp-bench me');
  const client = makeClient(parsed, io);
  try {
    printAccount(await client.me(), io, parsed.flags.has('--json'));
    return EXIT.ok;
  } finally {
    await client.dispose();
  }
}
