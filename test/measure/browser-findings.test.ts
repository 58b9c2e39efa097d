// Integration: `measure --findings --browser` with real PHP, MariaDB and Chromium on a calibration plugin BUILT by the
// test (browserPlugins.ts: a head script, a footer script doing work, a banner pushed in after load, one plugin): the
// head script's finding carries its measured main-thread time and bytes, the footer script busy past 50 ms is a
// main-thread finding at its line, the banner's layout shift is a layout-shift finding at the line that prints the
// element it moves; the record itemises the page's own growth and counts the plugin's front-end files.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { measure } from '../../src/core/measure/run/engine';
import type { LocalRecord } from '../../src/core/measure/record/method';
import { findingsLines } from '../../src/core/report/findingsFormats';
import { measureTable } from '../../src/core/report/measureText';
import { combined, footerWork, headWork, lateBanner, writeCalibration } from './browserPlugins';
import { nativeMeasureSuite } from './helpers';

const ROOT = path.resolve(__dirname, '..', '..');

describe('wp-bench measure --findings --browser (native php, MariaDB, Chromium)', () => {
  const { opts } = nativeMeasureSuite(ROOT);
  let dir: string;
  let record: LocalRecord;
  let lines: string[] = [];
  const plugin = combined('calib-mix', headWork(300), footerWork(300), lateBanner(200));
  const php = String(plugin.files['calib-mix.php']).split('\n');
  const lineOf = (text: string) => php.findIndex((l) => l.includes(text)) + 1;

  before(async function () {
    this.timeout(600_000);
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-browser-findings-'));
    const p = await writeCalibration(dir, plugin);
    record = await measure(opts(p, { rounds: 1, warmup: 0, browser: true, browserRounds: 3, findings: true, progress: (l) => lines.push(l) }));
  });
  after(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });
  const find = (kind: string, line: number) => record.findings?.find((f) => f.kind === kind && f.file === 'calib-mix.php' && f.line === line);
  const all = () => (record.findings ?? []).map((f) => `${f.kind} ${f.file}:${f.line}`).join(', ');

  it('the head script\'s render-blocking finding carries its measured main-thread time and its bytes on the wire', () => {
    assert.ok(record.contexts.homepage?.browser, lines.filter((l) => /browser|warning/i.test(l)).join(' | '));
    const f = find('render-blocking-script', lineOf("'calib-head'"));
    assert.ok(f, all());
    assert.equal(typeof f.evidence.main_thread_ms, 'number');
    assert.ok((f.evidence.transfer_kb as number) > 0, JSON.stringify(f.evidence));
    assert.match(findingsLines(record.findings).join('\n'), /Measured in Chromium: \d+ ms main thread, [\d.]+ KB on the wire per load\./);
  });

  it('the footer script busy past 50 ms a load, with no other finding, is a main-thread finding at its line', () => {
    const f = find('main-thread', lineOf("'calib-footer'"));
    assert.ok(f, all());
    assert.equal(f.evidence.handle, 'calib-footer');
    // The banner's own script does almost nothing: no finding of its own.
    assert.ok(!record.findings!.some((x) => x.kind === 'main-thread' && x.evidence.handle === 'calib-banner'), all());
  });

  it('the banner pushed in after load: a layout-shift finding at the line that prints the element it moves', () => {
    const shifts = record.contexts.homepage!.browser!.layout_shifts ?? [];
    assert.ok(shifts.some((s) => s.node === 'div#calib-content'), JSON.stringify(shifts));
    const f = find('layout-shift', lineOf('calib-content'));
    assert.ok(f, all());
    assert.equal(f.evidence.node, 'div#calib-content');
    assert.ok((f.evidence.cls as number) > 0);
  });

  it('the record itemises the page\'s own growth and counts the plugin\'s front-end files; the table says both', () => {
    const d = record.contexts.homepage!.browser!;
    assert.equal(d.front_end_files, 3);
    assert.ok(d.document, 'no document growth');
    // The banner's stage is markup printed in the footer, never an inline part.
    assert.ok(d.document.markup_kb > 0, JSON.stringify(d.document));
    assert.ok(d.document.inline.every((p) => !p.id.startsWith('calib-stage')), JSON.stringify(d.document));
    const text = measureTable(record);
    assert.match(text, /The page's own HTML: \+[\d.]+ KB on the wire/);
    assert.match(text, /div#calib-content moves: [\d.]+ \(in \d loads?\)/);
  });
});
