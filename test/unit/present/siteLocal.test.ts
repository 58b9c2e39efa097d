// The site measurement in the editor, in plain Node: the record's shape check, the store (stale when a member's
// files change or a component is added, persisted, a hostile file dropped), what the tree, hover and site report say
// (the stack beside the sum of the parts, each component "in this site · alone"), the site roots offered, and the
// child process that runs `measure ROOT --site --json`.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isSiteRecord, type SiteRecord } from '../../../src/core/measure/siteRun/siteRecord';
import { runSiteChild } from '../../../src/core/measure/child';
import { figuresText, memberText, siteContextText, siteFactsText, siteHoverSection, siteMember, siteTotalText, siteTotalTooltip } from '../../../src/core/present/siteLocal';
import { hashOfPath } from '../../../src/core/session/localResults';
import { SiteResults, siteRoots } from '../../../src/core/session/siteResults';
import { siteReportView } from '../../../src/core/report/glanceView';
import { judge } from '../../../src/core/report/judge';
import { toJson, toMarkdown } from '../../../src/core/report/formats';
import { WorkspaceSession } from '../../../src/core/session/session';
import { componentHover } from '../../../src/core/session/surfaces';
import { fakeApi, fakeHost } from '../helpers/fakeSession';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-site-'));
const f = (ttfb: number, kb: number, q: number) => ({ ttfb_delta_ms: ttfb, memory_delta_kb: kb, queries_delta: q });
const ctx = (x: ReturnType<typeof f> | null) => ({ contexts: { activation: x, homepage: x, admin: x } });

function siteRecord(over: Partial<SiteRecord> = {}): SiteRecord {
  return {
    source: 'local',
    measured_at: '2026-11-27T10:00:00.000Z',
    site: ctx(f(212, 5900, 28)),
    sum_of_alone: ctx(f(275, 8976, 31)),
    components: [
      { kind: 'plugin', slug: 'share-a', name: 'Share A', alone: ctx(f(31, 3077, 3)), in_site: ctx(f(0.4, 0, 0)), left_out: null },
      { kind: 'theme', slug: 'cal-theme', name: 'Calibration <b>theme</b>', alone: ctx(f(5, 512, 2)), in_site: ctx(f(5.2, 512, 2)), left_out: null },
      { kind: 'plugin', slug: 'premium', name: 'Premium', alone: null, in_site: null, left_out: 'its activation failed: <script>alert(1)</script> | *x* `y`' },
      { kind: 'plugin', slug: 'site-mu', name: 'Site MU', must_use: true, alone: null, in_site: null, left_out: null, note: 'a must-use plugin: in the stack on every request; not measured apart in this version' },
    ],
    drop_ins_left_out: ['wp-content/object-cache.php'],
    local: { database: { engine: 'mariadb', version: '10.11.19', server: 'throwaway' }, theme: 'cal-theme', wordpress: '6.1.9', php: '8.2.36', runtime: 'php', rounds: 9, configurations: 10, duration_s: 19 },
    ...over,
  };
}

/** A site folder with one plugin (its file) and one theme. */
function siteFolder(): { root: string; plugin: string } {
  const root = tmp();
  const dir = path.join(root, 'wp-content', 'plugins', 'share-a');
  fs.mkdirSync(dir, { recursive: true });
  const plugin = path.join(dir, 'share-a.php');
  fs.writeFileSync(plugin, '<?php\n/**\n * Plugin Name: Share A\n */\n');
  return { root, plugin };
}

describe('site records', () => {
  it('the shape check accepts a record and refuses what is not one', () => {
    assert.ok(isSiteRecord(siteRecord()));
    assert.ok(!isSiteRecord({ ...siteRecord(), source: 'api' }));
    assert.ok(!isSiteRecord({ ...siteRecord(), site: { contexts: { activation: null, homepage: { ttfb_delta_ms: 'x' }, admin: null } } }));
    assert.ok(!isSiteRecord({ ...siteRecord(), components: [{ kind: 'mu', slug: 'x', name: 'x', alone: null, in_site: null, left_out: null }] }));
    assert.ok(!isSiteRecord({ ...siteRecord(), components: [{ kind: 'plugin', slug: 'x'.repeat(301), name: 'x', alone: null, in_site: null, left_out: null }] }));
    assert.ok(!isSiteRecord(null));
  });

  it('the tree says the stack as it runs beside the sum of the parts, and each member in this site beside alone', () => {
    const r = { record: siteRecord() };
    assert.equal(siteTotalText(r), 'as it runs: +212 ms, +5.8 MB homepage · sum of the parts: +275 ms, +8.8 MB');
    assert.equal(siteContextText(r, 'admin'), 'as it runs +212 ms · +5.8 MB · +28 queries · sum of the parts +275 ms · +8.8 MB · +31 queries');
    assert.equal(memberText(r, siteMember(r, 'plugin', 'share-a')!), 'in this site +0.4 ms · alone +31 ms');
    assert.equal(memberText(r, siteMember(r, 'plugin', 'premium')!), 'left out of the site measurement');
    const notHere = { record: siteRecord({ components: [{ kind: 'plugin', slug: 'jetpack', name: 'Jetpack', alone: null, in_site: null, not_installed: true, left_out: 'not installed here (declared in composer.json; its code is not in the working tree)' }] }) };
    assert.equal(memberText(notHere, siteMember(notHere, 'plugin', 'jetpack')!), 'not installed here');
    assert.equal(memberText(r, siteMember(r, 'plugin', 'site-mu')!), 'in the stack, not measured apart');
    assert.equal(siteMember(r, 'theme', 'share-a'), undefined, 'kind and slug both');
    assert.equal(figuresText(null), 'not measured');
    assert.equal(siteFactsText(r), 'MariaDB 10.11 · 2026-11-27 · 1 left out');
    const stale = { record: siteRecord(), stale: 'plugin share-a changed since' };
    assert.match(siteTotalText(stale), /\(stale\)$/);
    assert.match(memberText(stale, siteMember(stale, 'plugin', 'share-a')!), /\(stale\)$/);
    assert.match(siteTotalTooltip(stale).join('\n'), /Stale: plugin share-a changed since\. Run WP Bench: Measure Site Locally again\./);
    assert.doesNotMatch(siteTotalTooltip(r).join('\n'), /Not in the sum/);
    const partial = { record: siteRecord({ sum_of_alone: { ...ctx(f(275, 8976, 31)), not_counted: { activation: [], homepage: ['needs-a'], admin: ['needs-a'] } } }) };
    assert.match(siteTotalTooltip(partial).join('\n'), /Not in the sum of the parts \(not measured alone\): needs-a/);
  });

  it('the hover explains both figures, per context, and escapes what the run wrote', () => {
    const r = { record: siteRecord() };
    const hover = siteHoverSection(r, siteMember(r, 'plugin', 'share-a')!).join('\n');
    assert.match(hover, /\| Homepage \| \+0\.4 ms · \+0 KB · \+0 queries \| \+31 ms · \+3\.0 MB · \+3 queries \|/);
    assert.match(hover, /what removing it would save/);
    assert.match(hover, /MariaDB 10\\?\.11/);
    const left = siteHoverSection(r, siteMember(r, 'plugin', 'premium')!).join('\n');
    assert.match(left, /Left out of the site measurement: its activation failed: \\<script\\>alert\(1\)\\<\/script\\> \\\| \\\*x\\\* \\`y\\`/);
    assert.doesNotMatch(left, /<script>/);
  });

  it('the site report shows the stack, the sum and the difference, each member, and escapes every string', () => {
    const judgement = judge({ components: [], outcomes: new Map(), config: { failOn: 'C', context: 'homepage', budgets: {}, ignore: [] } });
    const { body } = siteReportView(judgement, { record: siteRecord(), stale: 'plugin share-a changed since' });
    assert.match(body, /<h2>The site as it runs<\/h2>/);
    const fig = (...xs: string[]) => xs.map((x) => `<span class="fig">${x}</span>`).join('<br>');
    assert.ok(body.includes(`<tr><th scope="row">Homepage</th><td>${fig('+212 ms', '+5.8 MB', '+28 queries')}</td><td>${fig('+275 ms', '+8.8 MB', '+31 queries')}</td><td>${fig('-63 ms', '-3.0 MB', '-3 queries')}</td></tr>`), body);
    assert.match(body, /Calibration &#60;b&#62;theme&#60;\/b&#62; <code>cal-theme<\/code><\/th><td><span class="fig">\+5\.2 ms<\/span>/);
    assert.match(body, /&#60;script&#62;alert\(1\)&#60;\/script&#62;/);
    assert.doesNotMatch(body, /<script|<b>/);
    assert.match(body, /Stale: plugin share-a changed since/);
    assert.match(body, /In the stack, not measured apart: site-mu \(a must-use plugin/);
  });

  it('offers the open folders and each folder above wp-content or Bedrock web/app, inside the open folders only', () => {
    const s = path.sep;
    const w = `${s}w`;
    assert.deepEqual(
      siteRoots([w], [`${w}${s}sites${s}a${s}wp-content${s}plugins${s}x${s}x.php`, `${w}${s}b${s}web${s}app${s}themes${s}t${s}style.css`, `${s}elsewhere${s}wp-content${s}plugins${s}y.php`]),
      [w, `${w}${s}b`, `${w}${s}sites${s}a`],
    );
  });
});

describe('the store of site measurements', () => {
  it('a member\'s edit makes it stale, a component added too; it is kept across a reload; a hostile file is dropped', async () => {
    const { root, plugin } = siteFolder();
    const store = path.join(tmp(), 'site-results.json');
    const rec = siteRecord({ components: [{ kind: 'plugin', slug: 'share-a', name: 'Share A', alone: ctx(f(1, 1, 1)), in_site: ctx(f(1, 1, 1)), left_out: null, path: 'wp-content/plugins/share-a/share-a.php', hash: (await hashOfPath(plugin))! }] });
    const a = new SiteResults(store);
    let changes = 0;
    a.onDidChange(() => changes++);
    assert.equal((await a.set(root, rec)).stale, undefined);
    assert.equal(changes, 1);
    assert.equal(await a.recheck(undefined, () => new Set(['plugin:share-a'])), false);
    assert.equal(await a.recheck(undefined, () => new Set(['plugin:share-a', 'plugin:new-one'])), true);
    assert.equal(a.get(root)?.stale, 'plugin new-one was added since');
    assert.equal(await a.recheck(undefined, () => new Set(['plugin:share-a'])), true, 'fresh again');
    fs.appendFileSync(plugin, '// edited\n');
    assert.equal(await a.recheck(path.join(root, 'wp-content', 'other.php')), false, 'a file outside its members is not looked at');
    assert.equal(await a.recheck(plugin), true);
    assert.equal(a.get(root)?.stale, 'plugin share-a changed since');
    a.dispose();

    const b = new SiteResults(store);
    await b.load();
    assert.equal(b.get(root)?.record.measured_at, rec.measured_at);
    assert.equal(b.get(root)?.stale, 'plugin share-a changed since', 'checked again on load');
    b.dispose();

    fs.writeFileSync(store, JSON.stringify({ version: 1, sites: [{ root: 'relative', record: rec }, { root, record: { ...rec, source: 'api' } }, { root: '/x', record: null }] }));
    const c = new SiteResults(store);
    await c.load();
    assert.deepEqual(c.all(), []);
    c.dispose();
    fs.writeFileSync(store, '{ not json');
    const d = new SiteResults(store);
    await d.load();
    assert.deepEqual(d.all(), []);
    d.dispose();
  });

  it('the hover of a component measured in its site says both; a namesake outside the site says nothing of it', async () => {
    const { root, plugin } = siteFolder();
    const other = tmp();
    const { sessionHost } = fakeHost(fakeApi(), {
      folders: [root, other],
      scan: async (r) => ({ root: r, components: [{ kind: 'plugin', slug: 'share-a', name: 'Share A', version: '1.0', locations: [{ file: 'wp-content/plugins/share-a/share-a.php', line: 3, column: 4, length: 7, source: 'plugin-header' }], lookup: 'not-a-wordpress-org-slug' }], problems: [], stats: { filesOpened: 0, bytesRead: 0, dirsRead: 0 } }),
    });
    const s = new WorkspaceSession(sessionHost);
    await s.refreshKeyState();
    await s.rescan();
    await s.sites.set(root, siteRecord({ components: [{ kind: 'plugin', slug: 'share-a', name: 'Share A', alone: ctx(f(31, 3077, 3)), in_site: ctx(f(0.4, 0, 0)), left_out: null, path: 'wp-content/plugins/share-a/share-a.php', hash: (await hashOfPath(plugin))! }] }));
    assert.equal(s.siteResult()?.root, root);
    const inside = s.components.find((e) => e.locations.some((l) => l.file === plugin))!;
    assert.match(componentHover(s, inside), /\*\*In this site\*\* · in this site \+0\.4 ms · alone \+31 ms/);
    // Export Report (the judgement): the stack's section; stale after an edit, said in the report.
    assert.equal(s.judgement().site?.measured_at, '2026-11-27T10:00:00.000Z');
    assert.match(toMarkdown(s.judgement()), /### The site as it runs[\s\S]*Measured locally on 2026-11-27: php runtime, PHP 8\.2\.36/);
    fs.appendFileSync(plugin, '// edited\n');
    await s.sites.recheck(plugin);
    assert.match(toMarkdown(s.judgement()), /Stale: plugin share-a changed since; measure the site again\./);
    assert.equal((JSON.parse(toJson(s.judgement())) as { site: { stale: string } }).site.stale, 'plugin share-a changed since');
    s.dispose();
    // The same slug in another folder only: not the measured site's component.
    const { sessionHost: h2 } = fakeHost(fakeApi(), {
      folders: [other],
      scan: async (r) => ({ root: r, components: [{ kind: 'plugin', slug: 'share-a', name: 'Share A', version: '1.0', locations: [{ file: 'p/share-a.php', line: 3, column: 4, length: 7, source: 'plugin-header' }], lookup: 'not-a-wordpress-org-slug' }], problems: [], stats: { filesOpened: 0, bytesRead: 0, dirsRead: 0 } }),
      storageDir: undefined,
    });
    const s2 = new WorkspaceSession(h2);
    await s2.rescan();
    await s2.sites.set(path.join(other, 'site'), siteRecord());
    assert.doesNotMatch(componentHover(s2, s2.components[0]), /In this site/);
    s2.dispose();
  });
});

describe('site child process', () => {
  const fakeCli = (script: string) => {
    const file = path.join(tmp(), 'cli.js');
    fs.writeFileSync(file, script);
    return file;
  };
  const base = { node: process.execPath, path: '/x', cwd: os.tmpdir(), env: {} };

  it('passes --site and resolves with a site record; a component record is refused', async () => {
    const ok = fakeCli(`if (!process.argv.includes('--site')) process.exit(3); process.stderr.write('wp-bench: configuration 7 of 18, round 3/9: homepage\\n'); console.log(JSON.stringify(${JSON.stringify(siteRecord())}));`);
    const steps: string[] = [];
    const r = await runSiteChild({ ...base, cli: ok, onProgress: (s) => steps.push(s) });
    assert.equal(r.site.contexts.homepage?.memory_delta_kb, 5900);
    assert.deepEqual(steps, ['configuration 7 of 18, round 3/9: homepage']);
    const one = fakeCli(`console.log(JSON.stringify({ source: 'local', slug: 'x' }))`);
    await assert.rejects(runSiteChild({ ...base, cli: one }), /printed no record/);
  });
});
