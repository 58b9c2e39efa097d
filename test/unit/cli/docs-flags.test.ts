// The docs and the CLI's help say the same flags. Every flag `wp-bench measure --help` and `wp-bench check --help`
// print (read from the CLI at run time, so a flag added to the help is checked the day it is added) is documented in
// docs/measuring-locally.md, docs/ci-and-reports.md or README.md; and every `--flag` the docs put on a `wp-bench
// measure` or `wp-bench check` command line (fenced or inline code), or in the flag table of the check page, exists
// in that command's help.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { cli } from '../helpers/cliRun';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const DOCS = ['docs/measuring-locally.md', 'docs/ci-and-reports.md', 'README.md'];
const read = (rel: string) => readFileSync(path.join(ROOT, rel), 'utf8');

/** The long flags in a text: `--name`, not inside a longer word (a URL, `--wordpress-install-mode` is its own flag). */
function flagsIn(text: string): Set<string> {
  return new Set([...text.matchAll(/(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*/g)].map((m) => m[0]));
}

type Command = 'measure' | 'check';

/**
 * The flags the Markdown puts on a `wp-bench measure|check` command line: in fenced blocks (the command's line and
 * its continuations: after a trailing `\`, or indented lines of options) and in inline code spans.
 */
function commandFlags(markdown: string): Array<{ command: Command; flag: string; where: string }> {
  const out: Array<{ command: Command; flag: string; where: string }> = [];
  const start = /wp-bench (measure|check)\b/;
  const add = (command: Command, text: string, where: string) => {
    // What follows a shell comment or a redirection is not the command's.
    const own = text.replace(/\s#\s.*$/, '').replace(/\s>.*$/, '');
    for (const flag of flagsIn(own.slice(own.search(start)))) out.push({ command, flag, where });
  };
  const lines = markdown.split('\n');
  let fenced = false;
  let current: Command | undefined;
  let continues = false;
  lines.forEach((line, i) => {
    const where = `line ${i + 1}: ${line.trim().slice(0, 100)}`;
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      current = undefined;
      return;
    }
    if (fenced) {
      const m = start.exec(line);
      if (m) {
        current = m[1] as Command;
        add(current, line, where);
      } else if (current && (continues || /^\s+[[-]/.test(line))) {
        add(current, `wp-bench ${current} ${line}`, where);
      } else {
        current = undefined;
      }
      continues = /\\\s*$/.test(line);
      return;
    }
    for (const span of line.matchAll(/`([^`]+)`/g)) {
      const m = start.exec(span[1]);
      if (m) add(m[1] as Command, span[1], where);
    }
    // The check page's flag table: | `--flag …` | default | meaning |
    const row = /^\|\s*(`--[^|]*)\|/.exec(line);
    if (row) out.push(...[...flagsIn(row[1])].map((flag) => ({ command: 'check' as Command, flag, where: `table ${where}` })));
  });
  return out;
}

describe('the docs and `--help` name the same flags', () => {
  let help: Record<Command, Set<string>>;
  const docs = DOCS.map((rel) => ({ rel, text: read(rel) }));

  before(async () => {
    const m = await cli(['measure', '--help']);
    const c = await cli(['check', '--help']);
    assert.equal(m.code, 0, m.err);
    assert.equal(c.code, 0, c.err);
    // --help itself is printed by every command.
    help = { measure: new Set([...flagsIn(m.out), '--help']), check: new Set([...flagsIn(c.out), '--help']) };
    assert.ok(help.measure.has('--baseline-ref') && help.check.has('--measure-local'), 'the help texts were read');
  });

  it('every flag `measure --help` and `check --help` print is documented', () => {
    const documented = new Set(docs.flatMap((d) => [...flagsIn(d.text)]));
    for (const command of ['measure', 'check'] as const) {
      const missing = [...help[command]].filter((f) => f !== '--help' && !documented.has(f));
      assert.deepEqual(missing, [], `printed by wp-bench ${command} --help, in none of ${DOCS.join(', ')}`);
    }
  });

  it('every flag the docs give `wp-bench measure` or `wp-bench check` exists in that command\'s help', () => {
    const wrong: string[] = [];
    let seen = 0;
    for (const d of docs) {
      // The flag table belongs to the check page only.
      for (const u of commandFlags(d.text).filter((x) => !x.where.startsWith('table') || d.rel === 'docs/ci-and-reports.md')) {
        seen++;
        if (!help[u.command].has(u.flag)) wrong.push(`${d.rel} ${u.where}: ${u.flag} is not in wp-bench ${u.command} --help`);
      }
    }
    assert.ok(seen > 40, `the docs' command lines were found (${seen} flags)`);
    assert.deepEqual(wrong, []);
  });

  it('reads command lines as the docs write them (fenced, continued, inline, the flag table)', () => {
    const md = [
      '```sh',
      'npx wp-bench measure PATH [--rounds N] \\',
      '  --json   # then --not-this',
      '                          [--db URL]',
      'echo --unrelated',
      '```',
      'Run `wp-bench check --offline` or `wp-bench scan --deep`; prose --loose is not a command.',
      '| `--fail-on GRADE` / `--context NAME` | C | … |',
    ].join('\n');
    assert.deepEqual(
      commandFlags(md).map((x) => `${x.command} ${x.flag}`),
      ['measure --rounds', 'measure --json', 'measure --db', 'check --offline', 'check --fail-on', 'check --context'],
    );
  });
});
