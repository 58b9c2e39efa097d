// Command-line front end over src/core: `wp-bench scan|lookup|me|check`. This file parses the command line and
// dispatches; the commands live beside it (scan.ts, lookup.ts for lookup and me, check.ts, measure.ts).
import * as path from 'node:path';
import { ApiError, exitCodeFor, truncateForMessage } from '../core/api/errors';
import { OutputFileError } from '../core/outputFile';
import { EXIT, parseOptions, runAsProcess, safeIo, scanCommand, UsageError, type CliIo } from './scan';
import { interruptSignal, measureSearchFrom, runMeasureCli } from './measure';
import { VERSION, type Parsed } from './flags';
import { cacheDir, runLookup, runMe } from './lookup';
import { runCheck } from './check';
import { runMergeCli } from './merge';

export { EXIT, scanToJson, type CliIo } from './scan';
export { cacheDir } from './lookup';

const USAGE = `WP Bench ${VERSION} — what each WordPress plugin and theme costs your site.

Usage:
  wp-bench scan [dir] [--json]                  list plugins and themes (no network)
  wp-bench lookup plugin|theme <slug> [--json]  benchmark of one plugin or theme
  wp-bench me [--json]                          your tier, quota and usage
  wp-bench check [dir] [options]                judge every plugin and theme (for CI)
  wp-bench measure PATH [options]               measure a plugin or theme locally (runs its PHP;
                                                see wp-bench measure --help)
  wp-bench merge FILE...                        put the records of measure --site --shard K/N together

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
  --timeout-s N           time limit of the whole run (default 120; 1800 with --site): no request starts after
                          it, and sending stops after 3 timeouts in a row; the report of what is known is
                          printed, exit 6
  --offline               the cache only: no request at all, no key needed (the cache is kept per API
                          address: give --api-url or WPBENCH_API_URL)
  --diff REF              also show what this tree adds or removes compared with git REF
  --measure-local         measure locally (runs their PHP on a throwaway site, see wp-bench measure) the
                          plugins and themes in this folder the API has no benchmark for, so the site total
                          and budgets cover them; marked "measured locally" in every report; bounded by --timeout-s
  --site                  with --measure-local: measure the folder's whole stack once instead (as wp-bench measure
                          SITE --site: every plugin, must-use plugin and the theme together, each alone and each
                          left out) and judge the budgets on the stack as it runs, not on the sum of the parts;
                          every format shows the stack (json: "site"); the components are not measured one by
                          one; --timeout-s defaults to 1800 with it
  --instructions          with --measure-local: also count the CPU instructions of each request (as wp-bench
                          measure --instructions; native php with Valgrind: sudo apt install valgrind
                          libfaketime), shown beside time in every format; a context whose identical requests
                          vary is named; without Valgrind, said, and measured without

The API key is read from WPBENCH_API_KEY only (never from the command line).
Cache: WPBENCH_CACHE_DIR, else $XDG_CACHE_HOME/wp-bench, else ~/.cache/wp-bench.
Exit codes: 0 ok, 2 usage, 3 not in dataset, 4 key invalid or revoked, 5 quota exhausted,
6 network, server or unreadable response; check: 1 when the judgement fails (3 is not used), 6 also when
--measure-local --site could not measure the site (the report is printed, its budgets judged on the sum).`;

const CHECK_VALUE_FLAGS = ['--timeout-s', '--fail-on', '--context', '--budget-ttfb-ms', '--budget-memory-mb', '--budget-queries', '--format', '--output', '--max-requests', '--diff'];
const CHECK_BOOL_FLAGS = ['--offline', '--measure-local', '--site', '--instructions'];
const VALUE_FLAGS = new Set(['--api-url', '--request-timeout-s', ...CHECK_VALUE_FLAGS]);
const BOOL_FLAGS = new Set(['--json', '--no-cache', '--verbose', '--help', '--version', '-h', ...CHECK_BOOL_FLAGS]);

function parseArgs(argv: string[]): Parsed {
  return parseOptions(argv, VALUE_FLAGS, BOOL_FLAGS, (name) =>
    name === '--api-key' || name === '--key' ? 'the API key is never taken from the command line: set WPBENCH_API_KEY' : undefined,
  );
}

async function runScan(parsed: Parsed, io: CliIo): Promise<number> {
  if (parsed.positional.length > 2) throw new UsageError('scan takes at most one folder');
  return scanCommand(path.resolve(io.cwd, parsed.positional[1] ?? '.'), parsed.flags.has('--json'), io);
}

export async function runCli(argv: string[], rawIo: CliIo): Promise<number> {
  // Every print path: API and file strings never reach the terminal or a CI log with escape sequences or as a
  // workflow command.
  const io = safeIo(rawIo);
  if (argv[0] === 'merge') return runMergeCli(argv.slice(1), io);
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
