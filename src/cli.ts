// Command-line front end over src/core: `wp-bench scan|lookup|me`.
import * as os from 'node:os';
import * as path from 'node:path';
import { BenchClient } from './core/api/client';
import { ApiError, errors, exitCodeFor, truncateForMessage } from './core/api/errors';
import { createUndiciTransport } from './core/api/undiciTransport';
import { DiskCache } from './core/cache/diskCache';
import { formatAge, formatContext, formatCount, formatQuota } from './core/format';
import type { Logger } from './core/logger';
import { nullLogger } from './core/logger';
import { LookupService, type LookupOutcome } from './core/lookupService';
import { CONTEXT_NAMES, isValidSlug, type AccountInfo, type ComponentKind, type ScanResult } from './core/model';
import { scanWorkspace } from './core/scan';

const VERSION = '0.1.0';

export const EXIT = { ok: 0, usage: 2, notInDataset: 3, key: 4, quota: 5, failure: 6 } as const;

const USAGE = `WP Bench ${VERSION} — what each WordPress plugin and theme costs your site.

Usage:
  wp-bench scan [dir] [--json]                  list plugins and themes (no network)
  wp-bench lookup plugin|theme <slug> [--json]  benchmark of one plugin or theme
  wp-bench me [--json]                          your tier, quota and usage

Options:
  --api-url URL   API address before /v1 (or WPBENCH_API_URL)
  --no-cache      ask the API even when a cached answer is fresh
  --verbose       log requests to stderr (never the key)
  --help, --version

The API key is read from WPBENCH_API_KEY only (never from the command line).
Cache: WPBENCH_CACHE_DIR, else $XDG_CACHE_HOME/wp-bench, else ~/.cache/wp-bench.
Exit codes: 0 ok, 2 usage, 3 not in dataset, 4 key invalid or revoked, 5 quota exhausted,
6 network, server or unreadable response.`;

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

class UsageError extends Error {}

interface Parsed {
  positional: string[];
  flags: Map<string, string | true>;
}

const VALUE_FLAGS = new Set(['--api-url']);
const BOOL_FLAGS = new Set(['--json', '--no-cache', '--verbose', '--help', '--version', '-h']);

function parseArgs(argv: string[]): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('-')) {
      const [name, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
      if (name === '--api-key' || name === '--key') throw new UsageError('the API key is never taken from the command line: set WPBENCH_API_KEY');
      if (VALUE_FLAGS.has(name)) {
        const v = inline ?? argv[++i];
        if (v === undefined) throw new UsageError(`${name} needs a value`);
        flags.set(name, v);
      } else if (BOOL_FLAGS.has(name)) {
        flags.set(name, true);
      } else {
        throw new UsageError(`unknown option ${truncateForMessage(name, 40)}`);
      }
    } else {
      positional.push(a);
    }
  }
  return { positional, flags };
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

function makeClient(parsed: Parsed, io: CliIo): BenchClient {
  const apiUrl = (parsed.flags.get('--api-url') as string | undefined) ?? io.env.WPBENCH_API_URL;
  const key = io.env.WPBENCH_API_KEY;
  return new BenchClient({
    apiUrl: apiUrl ?? '',
    getKey: () => key,
    transport: createUndiciTransport,
    logger: parsed.flags.has('--verbose') ? stderrLogger(io) : nullLogger,
  });
}

export function scanToJson(result: ScanResult): string {
  const components = result.components.map((c) => ({
    kind: c.kind,
    slug: c.slug,
    name: c.name,
    version: c.version,
    locations: c.locations.map((l) => ({ file: l.file, line: l.line, source: l.source })),
  }));
  return JSON.stringify({ components });
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : pad(cell, widths[i]))).join('  ')).join('\n');
}

async function runScan(parsed: Parsed, io: CliIo): Promise<number> {
  if (parsed.positional.length > 2) throw new UsageError('scan takes at most one folder');
  const dir = path.resolve(io.cwd, parsed.positional[1] ?? '.');
  const result = await scanWorkspace(dir);
  if (parsed.flags.has('--json')) {
    io.out(scanToJson(result));
  } else if (result.components.length === 0) {
    io.out(`No plugins or themes found in ${dir}.`);
  } else {
    const rows = [['KIND', 'SLUG', 'VERSION', 'NAME', 'DECLARED IN']];
    for (const c of result.components) {
      const first = c.locations[0];
      const where = first ? `${first.file}:${first.line}${c.locations.length > 1 ? ` (+${c.locations.length - 1})` : ''}` : '';
      rows.push([c.kind, c.slug, c.version ?? '-', c.name ?? '-', where]);
    }
    io.out(table(rows));
    io.out(`\n${result.components.length} components.`);
  }
  for (const p of result.problems) io.err(`wp-bench: ${p.file}:${p.line}: ${p.message}`);
  return EXIT.ok;
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
    const service = new LookupService(new DiskCache({ dir: cacheDir(io.env) }), () => client);
    const outcome = await service.get(kind, slug, { network: true, force: parsed.flags.has('--no-cache') });
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

function printLookup(outcome: LookupOutcome, io: CliIo, json: boolean): void {
  const result = outcome.result!;
  const fetchedAt = outcome.fetchedAt ? new Date(outcome.fetchedAt).toISOString() : null;
  if (json) {
    const record = result.state === 'not-in-dataset' ? null : result.record;
    io.out(JSON.stringify({ kind: outcome.kind, slug: outcome.slug, state: result.state, stale: outcome.stale, fetchedAt, record }));
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
  io.out(table(rows));
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
    io.out(JSON.stringify({ tier: account.tier, limit: account.limit, used: account.used, remaining: account.remaining, resetAt: account.resetAt ? new Date(account.resetAt).toISOString() : null }));
    return;
  }
  io.out(table([
    ['Tier', account.tier ?? 'unknown'],
    ['Used', formatQuota(account.used, account.limit)],
    ['Remaining', account.remaining === null ? 'unknown' : formatCount(account.remaining)],
    ['Resets', account.resetAt ? new Date(account.resetAt).toISOString().slice(0, 10) : 'unknown'],
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

export async function runCli(argv: string[], io: CliIo): Promise<number> {
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
    switch (command) {
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
    io.err(`wp-bench: unexpected failure: ${truncateForMessage(String((err as Error)?.message ?? err), 300)}`);
    return EXIT.failure;
  }
}

if (require.main === module) {
  void runCli(process.argv.slice(2), {
    out: (t) => process.stdout.write(`${t}\n`),
    err: (t) => process.stderr.write(`${t}\n`),
    env: process.env,
    cwd: process.cwd(),
  }).then((code) => {
    process.exitCode = code;
  });
}
