// `measure --findings`: a finding's file must be one of the component's own regular files (audit: `--fix` rewrote a file
// outside the component through a linked folder `lib -> elsewhere`, and forged ".." or absolute paths reached every
// report). The records are forged here as the measured PHP could write them (it can write into the records' folder).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { aggregateFindings } from '../../../../src/core/measure/findings/aggregate';
import { applyEdits, componentFile, componentRecords, withFixes } from '../../../../src/core/measure/findings/fix';
import type { Finding, FixEdit, RawFindings } from '../../../../src/core/measure/findings/types';
import { parseRawFindings } from '../../../../src/core/measure/run/findingsPass';
import { findingsHtml, findingsLines, findingsMarkdown, findingsSarif } from '../../../../src/core/report/findingsFormats';
import { findingsOut } from '../../../../src/cli/measure';
import type { LocalRecord } from '../../../../src/core/measure/record/method';
import { writeFindingsPlugin } from '../../../measure/findingsPlugin';

const RECORDED = path.resolve(__dirname, '..', '..', '..', 'fixtures', 'findings', 'acme-findings.raw.json');
const recorded = (): RawFindings[] => (JSON.parse(readFileSync(RECORDED, 'utf8')) as unknown[]).map((r) => parseRawFindings(JSON.stringify(r))!);

const VICTIM = "<?php\n// not the component's\nadd_option('victim', $v);\n";
const FORGED = ['lib/victim.php', '../../../../etc/passwd', '/etc/passwd'];
/** Nothing of the forged places in a text: neither the linked file nor the paths out. */
const noForged = (text: string, what: string) => {
  for (const bad of ['victim', 'passwd', '../']) assert.ok(!text.includes(bad), `${what} names ${bad}:\n${text}`);
};

describe('measure --findings: only the component\'s own files', () => {
  let tmp: string;
  let root: string;
  let outside: string;
  before(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'wpbench-own-files-'));
    outside = path.join(tmp, 'outside');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'victim.php'), VICTIM);
    root = await writeFindingsPlugin(tmp);
    symlinkSync(outside, path.join(root, 'lib'));
    symlinkSync(path.join(root, 'inc', 'options.php'), path.join(root, 'inc', 'linked.php'));
    execFileSync('mkfifo', [path.join(root, 'inc', 'pipe.php')]);
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  const finding = (file: string, line: number, edits?: FixEdit[]): Finding => ({
    kind: 'autoloaded-option',
    severity: 'warning',
    contexts: ['homepage'],
    file,
    line,
    function: null,
    message: `add_option() at ${file}:${line} autoloads the option "x" (200 KB)`,
    evidence: { option: 'x', call: 'add_option' },
    saves: { homepage: { memory_kb: 200 } },
    fix: { description: 'Turn autoload off', ...(edits ? { edits } : {}) },
  });
  const victimEdit: FixEdit = { file: 'lib/victim.php', line: 3, end_line: 3, old: "add_option('victim', $v);", new: "add_option('victim', $v, '', false);" };

  it('componentFile: a regular file under the real root, no link on the way; nothing else', async () => {
    assert.equal(await componentFile(root, 'inc/options.php'), path.join(root, 'inc', 'options.php'));
    // The root itself may be reached through a link (plugins/acme -> ~/src/acme): it is resolved first.
    symlinkSync(root, path.join(tmp, 'root-link'));
    assert.equal(await componentFile(path.join(tmp, 'root-link'), 'inc/options.php'), path.join(root, 'inc', 'options.php'));
    for (const file of [...FORGED, 'lib', 'inc', 'inc/linked.php', 'inc/pipe.php', 'inc/missing.php', 'inc//options.php', './inc/options.php', 'inc/../inc/options.php', '', 'inc/options.php\u0000']) {
      assert.equal(await componentFile(root, file), undefined, file);
    }
  });

  it('withFixes makes no edit and applyEdits writes nothing through the linked folder (checked again right before writing)', async () => {
    const [f] = await withFixes([finding('lib/victim.php', 3)], root);
    assert.equal(f.fix.edits, undefined, 'no edit read through the link');
    const out = await applyEdits(root, [victimEdit, { ...victimEdit, file: '../../outside/victim.php' }, { ...victimEdit, file: path.join(outside, 'victim.php') }]);
    assert.deepEqual(out.map((a) => a.applied), [false, false, false]);
    assert.equal(readFileSync(path.join(outside, 'victim.php'), 'utf8'), VICTIM);
  });

  it('a folder swapped for a link after the findings were made: applyEdits refuses the edit it was given', async () => {
    const text = "<?php\nadd_option('s', $v);\n";
    mkdirSync(path.join(root, 'swap'));
    writeFileSync(path.join(root, 'swap', 'a.php'), text);
    const [f] = await withFixes([finding('swap/a.php', 2)], root);
    assert.equal(f.fix.edits?.length, 1, 'the edit is made while swap/ is the component\'s own folder');
    renameSync(path.join(root, 'swap'), path.join(outside, 'swap'));
    symlinkSync(path.join(outside, 'swap'), path.join(root, 'swap'));
    const [a] = await applyEdits(root, f.fix.edits!);
    assert.equal(a.applied, false);
    assert.match(a.why!, /component's own/);
    assert.equal(readFileSync(path.join(outside, 'swap', 'a.php'), 'utf8'), text);
  });

  it('forged records: the forged places are dropped before aggregation with one warning line; no format names them', async () => {
    const raw = recorded();
    const where = (file: string, line: number, via: string | null = null) => ({ file, line, function: null, callee: 'wpdb::get_var', via });
    const first = raw.findIndex((r) => r.phase === 'w');
    // An "add" of the real finding's option seen first, at the linked file: it would take the finding's place.
    raw[first] = { ...raw[first], writes: [{ ...where('lib/victim.php', 3), callee: 'add_option', option: 'acme_cache', op: 'add' }, ...raw[first].writes] };
    for (const r of raw.filter((x) => x.phase === 'p:homepage:front')) {
      r.queries = [...(r.queries ?? []), { ...where('/etc/passwd', 1), shape: 'SELECT ?', n: 9 }];
      r.http = [...(r.http ?? []), { ...where('../../../../etc/passwd', 2), host: 'evil.example', method: 'GET', n: 1 }, { ...where('lib/victim.php\nwp-bench: measured OK', 2), host: 'evil.example', method: 'GET', n: 1 }];
      // A helper with two callers is reported at each caller's line: callers forged.
      const asset = (handle: string, via: string) => ({ type: 'script' as const, handle, enq: { ...where('inc/front.php', 20, via), callee: 'wp_enqueue_script' }, printed: true, in_head: true, deferred: false, bytes: 20_000 });
      r.assets = [...(r.assets ?? []), asset('evil-a', '/etc/passwd:1'), asset('evil-b', '../../../../etc/passwd:2'), asset('evil-c', 'lib/victim.php:3')];
      // Every line that enqueued a handle (issue 45): forged ones among them.
      const own = { ...where('inc/front.php', 21), callee: 'wp_enqueue_script' };
      r.assets.push({ type: 'script', handle: 'evil-d', enq: own, enqs: [{ ...where('/etc/passwd', 1), callee: 'wp_enqueue_script' }, own, { ...where('lib/victim.php', 3), callee: 'wp_enqueue_script' }], printed: true, in_head: true, deferred: false, bytes: 20_000 });
    }
    const warned: string[] = [];
    const kept = await componentRecords(raw, root, (l) => warned.push(l));
    assert.equal(warned.length, 1, warned.join('\n'));
    assert.match(warned[0], /^warning: .*left out.*lib\/victim\.php/);
    assert.ok(warned[0].includes('lib/victim.php\\nwp-bench: measured OK') && !warned[0].includes('\n'), `one line, the forged place escaped: ${warned[0]}`);
    const fs = await withFixes(aggregateFindings(kept), root);
    assert.ok(fs.every((f) => !FORGED.includes(f.file)), fs.map((f) => f.file).join(', '));
    const cache = fs.find((f) => f.evidence.option === 'acme_cache')!;
    assert.equal(`${cache.file}:${cache.line}`, 'inc/options.php:5', 'the real line, not the forged one');
    assert.equal(cache.fix.edits?.length, 1);
    const record = { slug: 'acme-findings', type: 'plugin', name: 'Acme', local: { wordpress_version: '6.5', php_version: '8.2' }, findings: fs } as unknown as LocalRecord;
    for (const [what, text] of [['table', findingsLines(fs).join('\n')], ['JSON', JSON.stringify(record)], ['SARIF', findingsSarif(record, 'wp-content/plugins/acme-findings')], ['Markdown', findingsMarkdown(record)], ['HTML', findingsHtml(record)]]) noForged(text, what);
  });

  describe('the CLI (measure --findings --fix), a record holding forged findings', () => {
    const io = () => {
      const out: string[] = [];
      const err: string[] = [];
      return { out, err, io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s), env: { PATH: process.env.PATH }, cwd: tmp, cacheDir: path.join(tmp, 'cache') } };
    };
    const record = async (): Promise<LocalRecord> => {
      const [real] = await withFixes([{ ...finding('inc/options.php', 5), evidence: { option: 'acme_cache', call: 'add_option' } }], root);
      assert.equal(real.fix.edits?.length, 1);
      const findings = [real, finding('lib/victim.php', 3, [victimEdit]), finding('../../../../etc/passwd', 1, [{ ...victimEdit, file: '../../../../etc/passwd', line: 1, end_line: 1 }]), finding('/etc/passwd', 1)];
      return { slug: 'acme-findings', type: 'plugin', name: 'Acme', contexts: {}, local: { wordpress_version: '6.5', php_version: '8.2', runtime: 'php', rounds: 5, spread: {}, null_reasons: {} }, findings } as unknown as LocalRecord;
    };

    it('--fix changes nothing outside the component; the forged findings are dropped with one line', async () => {
      const options = readFileSync(path.join(root, 'inc', 'options.php'), 'utf8');
      try {
        const t = io();
        assert.equal(await findingsOut(await record(), 'table', true, t.io as never, root), 0);
        assert.equal(readFileSync(path.join(outside, 'victim.php'), 'utf8'), VICTIM, 'the file behind the link is unchanged');
        const dropped = t.err.filter((l) => /left out/.test(l));
        assert.equal(dropped.length, 1, t.err.join('\n'));
        assert.ok(!t.err.some((l) => /fixed .*(victim|passwd)/.test(l)), t.err.join('\n'));
        assert.ok(t.err.some((l) => /^wp-bench: fixed .*inc\/options\.php:5/.test(l)), `the component's own line is still fixed:\n${t.err.join('\n')}`);
        noForged(t.out.join('\n'), 'table');
      } finally {
        writeFileSync(path.join(root, 'inc', 'options.php'), options);
      }
    });

    for (const format of ['table', 'json', 'sarif', 'markdown', 'html']) {
      it(`--format ${format}: no forged finding in the output`, async () => {
        const t = io();
        assert.equal(await findingsOut(await record(), format, false, t.io as never, root), 0);
        const text = t.out.join('\n');
        noForged(text, format);
        assert.ok(text.includes('options.php'), `the component's own finding stays:\n${text}`);
        assert.equal(t.err.filter((l) => /left out/.test(l)).length, 1, t.err.join('\n'));
      });
    }
  });
});
