// `measure --findings --browser`: the browser's measurements at a finding's line show in every findings format — the
// table, Markdown, HTML, SARIF (the text and the result's properties) — and the two browser kinds are SARIF rules.
import * as assert from 'node:assert/strict';
import type { Finding } from '../../../src/core/measure/findings/types';
import { browserEvidenceText, findingsHtml, findingsLines, findingsMarkdown, findingsSarif } from '../../../src/core/report/findingsFormats';
import type { LocalRecord } from '../../../src/core/measure/record/method';

const blocking: Finding = {
  kind: 'render-blocking-script',
  severity: 'warning',
  contexts: ['homepage'],
  file: 'inc/front.php',
  line: 3,
  function: '{closure}',
  message: 'The script "acme-head" (300 KB) is printed in the page\'s head without defer or async: the browser stops rendering until it has loaded and run it.',
  evidence: { handle: 'acme-head', type: 'script', bytes: 307_200, in_head: true, screens: ['front'], main_thread_ms: 251.5, transfer_kb: 230.4 },
  saves: { homepage: { bytes: 307_200 } },
  fix: { description: 'Load it in the footer or deferred.' },
};
const shift: Finding = {
  kind: 'layout-shift',
  severity: 'warning',
  contexts: ['homepage'],
  file: 'calib-banner.php',
  line: 5,
  function: null,
  message: 'With the component the homepage\'s layout shifts by 0.148 per load (3 loads): div#calib-content<b> moves; "#calib-content" is named at this line.',
  evidence: { cls: 0.148, node: 'div#calib-content<b>', loads: 3, named: '#calib-content' },
  saves: {},
  fix: { description: 'Reserve the space.' },
};
const record = { slug: 'acme', type: 'plugin', name: 'Acme', local: { wordpress_version: '6.8', php_version: '8.2' }, findings: [blocking, shift] } as unknown as LocalRecord;

describe('measure --findings --browser: the measured evidence in every format', () => {
  it('one sentence of what the browser measured at the line; none for a finding without it or of the browser\'s own kinds', () => {
    assert.equal(browserEvidenceText(blocking), 'Measured in Chromium: 252 ms main thread, 230.4 KB on the wire per load.');
    // The browser's own kinds say it in their message.
    assert.equal(browserEvidenceText(shift), '');
    assert.equal(browserEvidenceText({ ...blocking, evidence: { handle: 'x' } }), '');
  });

  it('the table, Markdown and HTML say it; SARIF has it in the text and the properties, the browser kinds among the rules', () => {
    const table = findingsLines(record.findings).join('\n');
    assert.ok(table.includes('Measured in Chromium: 252 ms main thread, 230.4 KB on the wire per load.'), table);
    assert.ok(findingsMarkdown(record).includes('252 ms main thread, 230.4 KB on the wire'), findingsMarkdown(record));
    const html = findingsHtml(record);
    assert.ok(html.includes('252 ms main thread') && html.includes('div#calib-content&') && !html.includes('content<b>'), html);
    const sarif = JSON.parse(findingsSarif(record)) as { runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string; message: { text: string }; properties?: Record<string, unknown> }[] }[] };
    const [run] = sarif.runs;
    assert.ok(run.tool.driver.rules.some((r) => r.id === 'main-thread') && run.tool.driver.rules.some((r) => r.id === 'layout-shift'));
    const b = run.results.find((r) => r.ruleId === 'render-blocking-script')!;
    assert.match(b.message.text, /252 ms main thread/);
    assert.deepEqual([b.properties?.main_thread_ms, b.properties?.transfer_kb], [251.5, 230.4]);
    const s = run.results.find((r) => r.ruleId === 'layout-shift')!;
    assert.deepEqual([s.properties?.cls, s.properties?.node], [0.148, 'div#calib-content<b>']);
  });
});
