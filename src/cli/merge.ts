// `wp-bench merge FILE…`: the JSON records of `measure SITE --site --shard K/N` (one per CI job) put together into one
// site record, printed as `measure --site` prints it.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { MAX_SHARDS, printable } from '../core/measure/siteRun/shardShape';
import { MergeError, mergeSiteRecords } from '../core/measure/siteRun/shards';
import { siteTable } from '../core/report/siteText';
import { siteHtml, siteMarkdown } from '../core/report/siteFormats';
import { parseOptions, UsageError, type CliIo } from './scan';

export const MERGE_USAGE = `Usage: wp-bench merge FILE... [--json | --format table|json|markdown|html]
  Puts the JSON records of \`wp-bench measure SITE --site --shard K/N --json\` (all N shards, each once) into one site
  record: the stack from shard 1, each component from the shard that measured it, the sum of the parts added up again.
  A single record of \`measure SITE --site --json\` (without --shard) is shown again as it is, in any format.

Exit codes: 0 merged, 2 usage, or the records are not all N shards of one run on one set-up (or one is not of the
shape \`measure --site --shard K/N --json\` writes: the file and the field are named).`;

const MAX_RECORD_BYTES = 32 * 1024 * 1024;

export async function runMergeCli(argv: string[], io: CliIo): Promise<number> {
  try {
    const parsed = parseOptions(argv, new Set(['--format']), new Set(['--json', '--help', '-h']));
    if (parsed.flags.has('--help') || parsed.flags.has('-h')) {
      io.out(MERGE_USAGE);
      return 0;
    }
    const format = parsed.flags.has('--json') ? 'json' : ((parsed.flags.get('--format') as string | undefined) ?? 'table');
    if (!['table', 'json', 'markdown', 'html'].includes(format)) throw new UsageError('--format is table, json, markdown or html');
    if (!parsed.positional.length) throw new UsageError('merge takes the shards\' JSON files');
    if (parsed.positional.length > MAX_SHARDS) throw new UsageError(`merge takes at most ${MAX_SHARDS} files (one per shard)`);
    const records: unknown[] = [];
    for (const f of parsed.positional) {
      const file = path.resolve(io.cwd, f);
      const name = printable(f);
      const st = await fs.stat(file).catch(() => undefined);
      if (!st?.isFile()) throw new UsageError(`${name} is not a file`);
      if (st.size > MAX_RECORD_BYTES) throw new UsageError(`${name} is over ${MAX_RECORD_BYTES / 1024 / 1024} MiB: not a site record`);
      try {
        records.push(JSON.parse(await fs.readFile(file, 'utf8')));
      } catch {
        throw new UsageError(`${name} is not JSON (measure SITE --site --shard K/N --json writes it)`);
      }
    }
    const merged = mergeSiteRecords(records, parsed.positional);
    io.out(format === 'json' ? JSON.stringify(merged) : format === 'markdown' ? siteMarkdown(merged) : format === 'html' ? siteHtml(merged) : siteTable(merged));
    return 0;
  } catch (err) {
    if (err instanceof UsageError || err instanceof MergeError) {
      io.err(`wp-bench merge: ${err.message}`);
      return 2;
    }
    throw err;
  }
}
