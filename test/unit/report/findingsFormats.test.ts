// `measure --findings`: text that comes from the measured code (option names, function names, file names, evidence)
// prints a line break as the two characters \n in every format, as docs/measuring-locally.md promises: a newline can
// never start a line of its own ("wp-bench: fixed …" forged by an option name), and is not silently a space either.
import * as assert from 'node:assert/strict';
import { aggregateFindings } from '../../../src/core/measure/findings/aggregate';
import type { Finding, RawFindings } from '../../../src/core/measure/findings/types';
import { findingsHtml, findingsLines, findingsMarkdown, findingsSarif } from '../../../src/core/report/findingsFormats';
import { findingHover, findingSpecs } from '../../../src/core/present/findingsView';
import type { LocalRecord, LocalResult } from '../../../src/core/measure/record/method';

const OPTION = 'acme\nwp-bench: fixed inc/x.php:1';
const raw: RawFindings[] = [
  { v: 1, id: 'w', phase: 'w', writes: [{ file: 'inc/options.php', line: 5, function: 'acme\nactivate', callee: 'add_option', via: null, option: OPTION, op: 'add' }] },
  { v: 1, id: 'p', phase: 'p:homepage:front', writes: [], reads: [], queries: [], http: [], assets: [], autoload: [[OPTION, 'yes', 200 * 1024]] },
];

describe('measure --findings: a line break from the measured code prints as \\n', () => {
  const findings = aggregateFindings(raw);
  const named: Finding = { ...findings[0], file: 'inc/a\nb.php' };
  const record = (fs: Finding[]) => ({ slug: 'acme', type: 'plugin', name: 'Acme', local: { wordpress_version: '6.5', php_version: '8.2' }, findings: fs }) as unknown as LocalRecord;

  it('the finding itself: its message, function and evidence hold \\n, never a line break', () => {
    assert.equal(findings.length, 1);
    const f = findings[0];
    assert.equal(f.function, 'acme\\nactivate');
    assert.equal(f.evidence.option, 'acme\\nwp-bench: fixed inc/x.php:1');
    assert.match(f.message, /"acme\\nwp-bench: fixed inc\/x\.php:1"/);
    assert.ok(!/[\n\r]/.test(`${f.message}${f.function}${String(f.evidence.option)}${f.fix.description}`));
  });

  it('table, Markdown, HTML and SARIF: \\n where the text had a line break (the file\'s name too), no space in its place', () => {
    const table = findingsLines([named]).join('\n');
    assert.ok(table.includes('inc/a\\nb.php:5'), table);
    assert.ok(table.includes('acme\\nwp-bench: fixed'), table);
    assert.ok(!table.split('\n').some((l) => l.startsWith('wp-bench:')), table);
    assert.ok(!table.includes('acme wp-bench') && !table.includes('inc/a b.php'), table);
    const md = findingsMarkdown(record([named]));
    assert.ok(md.includes('acme\\\\nwp-bench') || md.includes('acme\\nwp-bench'), md);
    assert.ok(!md.includes('acme wp-bench') && !md.includes('inc/a b.php'), md);
    const html = findingsHtml(record([named]));
    assert.ok(html.includes('acme\\nwp-bench') && html.includes('inc/a\\nb.php'), html);
    const sarif = JSON.parse(findingsSarif(record([named]))) as { runs: { results: { message: { text: string } }[] }[] };
    const text = sarif.runs[0].results[0].message.text;
    assert.ok(/acme\\+nwp-bench/.test(text) && !text.includes('acme wp-bench') && !/[\n\r]/.test(text), text);
  });

  it('the editor: the diagnostic and its hover say \\n', () => {
    const local = { kind: 'plugin', slug: 'acme', source: '/src/acme', stale: false, record: record(findings) } as unknown as LocalResult;
    const [spec] = findingSpecs([local]);
    assert.ok(spec.message.includes('acme\\nwp-bench') && !/[\n\r]/.test(spec.message), spec.message);
    const hover = findingHover(spec);
    assert.ok(!hover.includes('acme wp-bench'), hover);
  });
});
