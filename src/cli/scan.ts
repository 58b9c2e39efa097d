// `wp-bench scan`: the plugins and themes of a folder (no network). Apart from the rest of the CLI so that dist/cli.js
// runs it with the scanner alone (src/wp-bench.ts): a CI job or an editor task that only scans does not compile the
// reports, the API client and the measuring engine (npm run bench, figure 1b). cli.ts runs the same scanCommand().
import { truncateForMessage } from '../core/api/errors';
import { ciSafeJson, countNoun, terminalSafe } from '../core/present/format';
import type { ScanResult } from '../core/model';
import { plainText, problemsSummary, textTable } from '../core/report/plain';
import { LOOKUP_NOTE, principalLocation, scanWorkspace } from '../core/scan';
import { loadTeamConfig } from '../core/config/teamConfig';
import { versionPlace } from '../core/versions';
import { writeSync } from 'node:fs';
import * as path from 'node:path';

export const EXIT = { ok: 0, judged: 1, usage: 2, notInDataset: 3, key: 4, quota: 5, failure: 6 } as const;

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** aborts a running `measure` (tests; the real process wires Ctrl-C) */
  signal?: AbortSignal;
}

/** A command line the CLI refuses: exit 2, with the message and a pointer to --help. */
export class UsageError extends Error {}

/**
 * A command line's positional arguments and options, for `wp-bench` and `wp-bench measure`: `--name value`,
 * `--name=value` or a flag; `--` ends the options; a lone `-` is positional. `refuse` names options never taken,
 * with why (the API key).
 */
export function parseOptions(
  argv: string[],
  valueFlags: ReadonlySet<string>,
  boolFlags: ReadonlySet<string>,
  refuse: (name: string) => string | undefined = () => undefined,
): { positional: string[]; flags: Map<string, string | true> } {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    const refused = refuse(name);
    if (refused) throw new UsageError(refused);
    if (valueFlags.has(name)) {
      const v = eq > 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined) throw new UsageError(`${name} needs a value`);
      flags.set(name, v);
    } else if (boolFlags.has(name)) {
      flags.set(name, true);
    } else {
      throw new UsageError(`unknown option ${truncateForMessage(name, 40)}`);
    }
  }
  return { positional, flags };
}

/** Every print path: API and file strings never reach the terminal or a CI log with escape sequences or as a workflow command. */
export function safeIo(raw: CliIo): CliIo {
  return { ...raw, out: (t) => raw.out(terminalSafe(t)), err: (t) => raw.err(terminalSafe(t)) };
}

/** One scan problem on stderr; a note (severity info) says so. */
export function problemLine(p: ScanResult['problems'][number], dir: string): string {
  return `wp-bench: ${p.file || dir}:${p.line}: ${p.severity === 'info' ? '(info) ' : ''}${p.message}`;
}

export function scanToJson(result: ScanResult): string {
  const components = result.components.map((c) => {
    const o: Record<string, unknown> = {
      kind: c.kind,
      slug: c.slug,
      name: c.name,
      version: c.version,
      locations: c.locations.map((l) => ({ file: l.file, line: l.line, column: l.column, source: l.source })),
      lookup: c.lookup ?? 'yes',
    };
    if (c.parent !== undefined) o.parent = c.parent;
    if (c.versions) o.versions = c.versions;
    // Required only for the repository's tests (require-dev under vendor/): listed from its Composer entries.
    if (c.testOnly) o.test_only = true;
    return o;
  });
  const problems = result.problems.map((p) => ({ file: p.file, line: p.line, column: p.column, message: p.message, severity: p.severity ?? 'warning' }));
  return ciSafeJson(JSON.stringify({ components, problems }));
}

/** `wp-bench scan [dir] [--json]`, its arguments already checked. */
export async function scanCommand(dir: string, json: boolean, io: CliIo): Promise<number> {
  const result = await scanWorkspace(dir);
  // The team's ignore list (.wp-bench.json) says what `check` and the extension never look up.
  const team = await loadTeamConfig(dir).catch(() => undefined);
  const ignored = new Set(team?.config.ignore ?? []);
  for (const c of result.components) if (ignored.has(c.slug) && c.lookup === 'yes') c.lookup = 'ignored';
  if (json) {
    io.out(scanToJson(result));
  } else if (result.components.length === 0) {
    io.out(`No plugins or themes found in ${dir}.`);
  } else {
    const rows = [['KIND', 'SLUG', 'VERSION', 'NAME', 'LOOKED UP', 'DECLARED IN']];
    for (const c of result.components) {
      const first = principalLocation(c.locations);
      const where = first ? `${first.file}:${first.line}${c.locations.length > 1 ? ` (+${c.locations.length - 1})` : ''}` : '';
      const lookup = !c.lookup || c.lookup === 'yes' ? 'yes' : `no: ${LOOKUP_NOTE[c.lookup]}`;
      // Long versions and names are cut, as in the reports (a 40,000-character Version header widened every row).
      rows.push([c.kind, c.slug, plainText(c.version ?? '-', 30), plainText(c.name ?? '-', 60), lookup, where]);
      // Places that disagree on the version: one line each, the version shown above first ("used").
      for (const [i, v] of (c.versions ?? []).entries()) rows.push(['', '', `${i === 0 ? '=' : '≠'} ${plainText(v.version, 28)}`, versionPlace(v.source), '', `${v.file}:${v.line}`]);
    }
    io.out(textTable(rows));
    const never = result.components.filter((c) => c.lookup && c.lookup !== 'yes').length;
    io.out(`\n${countNoun(result.components.length, 'component')}${never ? ` (${never} never looked up)` : ''}${result.problems.length ? `; ${problemsSummary(result.problems)} (on stderr)` : ''}.`);
  }
  for (const p of result.problems) io.err(problemLine(p, dir));
  return EXIT.ok;
}

/**
 * `scan`, at most one folder, and no option but `--json`: what dist/cli.js answers without the rest of the CLI. Any
 * other command line (a usage error included) goes to the whole CLI, so that it answers exactly as it always has.
 */
export function isPlainScan(argv: string[]): boolean {
  if (argv[0] !== 'scan') return false;
  const rest = argv.slice(1).filter((a) => a !== '--json');
  return rest.length <= 1 && rest.every((a) => a !== '' && !a.startsWith('-'));
}

/** A plain scan (see isPlainScan) as the whole CLI would run it, unexpected failures included. */
export async function runPlainScan(argv: string[], rawIo: CliIo): Promise<number> {
  const io = safeIo(rawIo);
  try {
    const folder = argv.slice(1).find((a) => a !== '--json');
    return await scanCommand(path.resolve(io.cwd, folder ?? '.'), argv.includes('--json'), io);
  } catch (err) {
    io.err(`wp-bench: unexpected failure: ${truncateForMessage(String((err as Error)?.message ?? err), 300)}`);
    return EXIT.failure;
  }
}

/**
 * Writes a line to fd 1 or 2 with fs.writeSync: process.stdout is never created unless needed (creating it for a pipe
 * loads the stream and net modules, about 3 ms of a `wp-bench scan`). A write that would block (a non-blocking pipe
 * that is full) sends the rest, and every later line, through the stream, in order. A reader that went away
 * (`wp-bench scan | head`) ends the process quietly, as the stream's EPIPE handler does. Windows: the stream itself.
 */
function lineWriter(fd: 1 | 2): (text: string) => void {
  const streamOf = () => {
    const s = fd === 1 ? process.stdout : process.stderr;
    s.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw err;
    });
    return s;
  };
  let stream = process.platform === 'win32' ? streamOf() : undefined;
  return (text) => {
    if (stream) return void stream.write(`${text}\n`);
    const buf = Buffer.from(`${text}\n`, 'utf8');
    let done = 0;
    try {
      while (done < buf.length) done += writeSync(fd, buf, done);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') process.exit(process.exitCode ?? 0);
      if (code !== 'EAGAIN') throw err;
      stream = streamOf();
      stream.write(buf.subarray(done));
    }
  };
}

/** Runs a command as the process: its exit code, its lines on stdout and stderr (see lineWriter). */
export function runAsProcess(run: (argv: string[], io: CliIo) => Promise<number>, argv: string[]): void {
  void run(argv, { out: lineWriter(1), err: lineWriter(2), env: process.env, cwd: process.cwd() }).then((code) => {
    process.exitCode = code;
  });
}
