// What PHP logged, request by request (src/core/measure/run/phpLog.ts): read from where the last read ended, entries
// with their following lines, said once each on one escaped line, and a limit of the sandbox reached as the run's end.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Site } from '../../../../src/core/measure/site/site';
import { limitError, markLog, newEntries, noteClean, sayEntries } from '../../../../src/core/measure/run/phpLog';

describe('phpLog: what PHP logged during a request', () => {
  let site: Site;
  let log: string;
  const stamp = '[28-Nov-2026 02:22:12 UTC] ';

  beforeEach(async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-phplog-'));
    site = { root, siteDir: path.join(root, 'site'), workDir: path.join(root, 'work'), probeDir: '', key: '', baseTheme: '', target: '' };
    await fs.mkdir(site.workDir, { recursive: true });
    log = path.join(site.workDir, 'php-errors.log');
  });

  it('reads only what was logged since the mark or the last read, entry by entry', async () => {
    await fs.writeFile(log, `${stamp}PHP Warning:  during the install in x.php on line 1\n`);
    await markLog(site);
    assert.deepEqual(await newEntries(site), []);
    await fs.appendFile(log, `${stamp}PHP Warning:  hostile\nline in ${site.siteDir}/wp-content/plugins/p/p.php on line 6\n${stamp}PHP Fatal error:  Uncaught Exception: boom in /x.php:3\nStack trace:\n#0 {main}\n  thrown in /x.php on line 3\n`);
    assert.deepEqual(await newEntries(site), [
      `PHP Warning:  hostile\nline in ${site.siteDir}/wp-content/plugins/p/p.php on line 6`,
      'PHP Fatal error:  Uncaught Exception: boom in /x.php:3\nStack trace:\n#0 {main}\n  thrown in /x.php on line 3',
    ]);
    assert.deepEqual(await newEntries(site), [], 'read once');
    // What came between two requests (WP Bench's own) is not the next one's.
    await fs.appendFile(log, `${stamp}PHP Warning:  between requests\n`);
    await markLog(site);
    assert.deepEqual(await newEntries(site), []);
    // A log cut short (by the measured code: it can write there) is followed from its new end.
    await fs.writeFile(log, '');
    assert.deepEqual(await newEntries(site), []);
    await fs.appendFile(log, `${stamp}PHP Notice:  again\n`);
    assert.deepEqual(await newEntries(site), ['PHP Notice:  again']);
  });

  it("says PHP's entries once each, escaped, without the site's folder, capped; a plugin's own error_log() lines not", async () => {
    await markLog(site);
    const lines: string[] = [];
    const entries = [`PHP Warning:  hostile\nline \u001b[31m\u202e in ${site.siteDir}/wp-content/plugins/p/p.php on line 6`, 'my plugin: debug', `PHP Deprecated:  ${'x'.repeat(2000)}`];
    sayEntries(site, entries, 'activating the plugin', (l) => lines.push(l));
    sayEntries(site, entries, 'admin, first request', (l) => lines.push(l));
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.equal(lines[0], 'warning: activating the plugin: PHP Warning: hostile\\nline \\u001b[31m\\u202e in wp-content/plugins/p/p.php on line 6');
    assert.ok(lines[1].startsWith('warning: activating the plugin: PHP Deprecated: xxx'));
    assert.ok(lines[1].length < 600 && lines[1].endsWith('…'), `${lines[1].length} characters`);
  });

  it("what the clean side logged too (WordPress's own) is not said for the component", async () => {
    await markLog(site);
    const lines: string[] = [];
    noteClean(site, [`PHP Warning:  core's own in ${site.siteDir}/wp-includes/x.php on line 1`]);
    sayEntries(site, [`PHP Warning:  core's own in ${site.siteDir}/wp-includes/x.php on line 1`, 'PHP Warning:  the plugin\'s'], 'homepage, first request', (l) => lines.push(l));
    assert.deepEqual(lines, ["warning: homepage, first request: PHP Warning: the plugin's"]);
  });

  it('says at most 20 in a run, then that the rest are not said', async () => {
    await markLog(site);
    const lines: string[] = [];
    sayEntries(site, Array.from({ length: 30 }, (_, i) => `PHP Notice:  notice ${i}`), 'homepage, first request', (l) => lines.push(l));
    assert.equal(lines.length, 21);
    assert.match(lines[20], /more of PHP's warnings and errors than 20; the rest are not said/);
  });

  it('a limit reached is a MeasureError (exit 7) naming it and the words that show it', () => {
    const e = limitError(site, 'the plugin', [`PHP Notice:  unrelated`, `PHP Warning:  proc_open(): Fork failed: Resource temporarily unavailable in ${site.siteDir}/wp-content/plugins/p/p.php on line 5`]);
    assert.equal(e?.exitCode, 7);
    assert.equal(e?.message, "the plugin hit the machine's limit of processes (PHP Warning: proc_open(): Fork failed: Resource temporarily unavailable in wp-content/plugins/p/p.php on line 5); the run is stopped");
    assert.equal(limitError(site, 'the plugin', ['PHP Warning:  nothing of the kind']), undefined);
    assert.match(limitError(site, 'the theme', [], 'the site stopped answering; server output: [200] GET /\\nmmap() failed: [12] Cannot allocate memory\\nOut of memory')!.message, /^the theme hit the machine's memory \(mmap\(\) failed: \[12\] Cannot allocate memory\); the run is stopped$/);
  });
});
