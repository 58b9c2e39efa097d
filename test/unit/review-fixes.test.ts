// Defects found by the review of issues 18 and 21: each test failed on the code before its fix.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../src/cli/index';
import { OutputFileError, writeOutputFile } from '../../src/core/outputFile';
import { scanWorkspace } from '../../src/core/scan';
import { parseRecord } from '../../src/core/api/record';
import { formatMemoryKb } from '../../src/core/present/format';
import type { LookupOutcome } from '../../src/core/lookup/lookupService';
import type { DetectedComponent } from '../../src/core/model';
import { diffJudgements } from '../../src/core/report/diff';
import { toJson, toMarkdown, toSarif, toTable } from '../../src/core/report/formats';
import { toHtml } from '../../src/core/report/html';
import { judge, type JudgeConfig } from '../../src/core/report/judge';
import { WorkspaceSession } from '../../src/core/session/session';
import { componentDiagnostic } from '../../src/core/session/surfaces';
import { fakeApi, fakeHost } from './helpers/fakeSession';
import { sampleBody } from './helpers/samples';

const made: string[] = [];
async function tmp(prefix: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}
async function cli(args: string[], env: Record<string, string>, cwd: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A repository with one plugin, checked offline (no API needed). */
async function repo(): Promise<{ base: string; dir: string; env: Record<string, string> }> {
  const base = await tmp('wpb-rv-repo-');
  const dir = path.join(base, 'repo');
  await fs.mkdir(path.join(dir, 'wp-content', 'plugins', 'akismet'), { recursive: true });
  await fs.writeFile(path.join(dir, 'wp-content', 'plugins', 'akismet', 'akismet.php'), '<?php\n/*\nPlugin Name: Akismet\nVersion: 5.0\n*/\n');
  return { base, dir, env: { WPBENCH_API_URL: 'http://127.0.0.1:9/api', WPBENCH_CACHE_DIR: await tmp('wpb-rv-cache-') } };
}

type Measured = { ttfb_delta_ms: number; memory_delta_kb: number; queries_delta: number };
function measured(slug: string, m: Measured): LookupOutcome {
  const body = sampleBody({ slug, name: `Name of ${slug}`, speed_score: { grade: 'A', numeric: 90 }, contexts: { activation: m, homepage: m, admin: m } });
  return { kind: 'plugin', slug, result: parseRecord(body, 'plugin', slug), stale: false, fromCache: true, fetchedAt: 0 };
}
function comp(slug: string, line = 3): DetectedComponent {
  return { kind: 'plugin', slug, name: null, version: null, locations: [{ file: 'composer.json', line, column: 6, length: 20, source: 'composer.json' }] };
}
const CONFIG: JudgeConfig = { failOn: 'C', context: 'homepage', budgets: {}, ignore: [] };

const plugin = (name: string) => `<?php\n/*\nPlugin Name: ${name}\nVersion: 1.0\n*/\n`;
const LOADER = "<?php\nwpcom_vip_load_plugin( 'secret-client-plugin' );\n";

describe('review of issues 18 and 21', function () {
  this.timeout(30_000);
  after(() => Promise.all(made.splice(0).map((d) => fs.rm(d, { recursive: true, force: true }))));

  describe('1. a VIP loader outside the workspace declares plugins that are never looked up unasked', () => {
    it('client-mu-plugins linked to a folder outside: its wpcom_vip_load_plugin() plugin is flagged outside-workspace', async () => {
      const base = await tmp('wpb-rv-vip-');
      const dir = path.join(base, 'repo');
      await fs.mkdir(path.join(base, 'outside'), { recursive: true });
      await fs.writeFile(path.join(base, 'outside', 'plugin-loader.php'), LOADER);
      await fs.mkdir(path.join(dir, 'plugins', 'akismet'), { recursive: true });
      await fs.writeFile(path.join(dir, 'plugins', 'akismet', 'akismet.php'), plugin('Akismet'));
      await fs.mkdir(path.join(dir, 'themes'), { recursive: true });
      await fs.symlink('../outside', path.join(dir, 'client-mu-plugins'));
      const r = await scanWorkspace(dir);
      const secret = r.components.find((c) => c.slug === 'secret-client-plugin');
      assert.ok(secret, JSON.stringify(r.components.map((c) => c.slug)));
      assert.equal(secret.lookup, 'outside-workspace');
      assert.ok(r.problems.some((p) => /secret-client-plugin.*outside the workspace/.test(p.message)), JSON.stringify(r.problems));
      assert.equal(r.components.find((c) => c.slug === 'akismet')?.lookup, 'yes');
    });

    it('only client-mu-plugins/plugin-loader.php linked to a file outside: flagged as well; a loader inside is looked up', async () => {
      const base = await tmp('wpb-rv-vip2-');
      const dir = path.join(base, 'repo');
      await fs.mkdir(path.join(base, 'outside'), { recursive: true });
      await fs.writeFile(path.join(base, 'outside', 'loader.php'), LOADER);
      await fs.mkdir(path.join(dir, 'client-mu-plugins'), { recursive: true });
      await fs.mkdir(path.join(dir, 'plugins'), { recursive: true });
      await fs.mkdir(path.join(dir, 'themes'), { recursive: true });
      await fs.symlink('../../outside/loader.php', path.join(dir, 'client-mu-plugins', 'plugin-loader.php'));
      await fs.writeFile(path.join(dir, 'client-mu-plugins', 'inside-loader.php'), "<?php\nwpcom_vip_load_plugin( 'liveblog' );\n");
      const r = await scanWorkspace(dir);
      const lookup = Object.fromEntries(r.components.map((c) => [c.slug, c.lookup]));
      assert.equal(lookup['secret-client-plugin'], 'outside-workspace', JSON.stringify(lookup));
      assert.equal(lookup['liveblog'], 'yes');
    });
  });

  describe('4. the outside-workspace note only for what stays flagged after the merge', () => {
    it('a plugin linked from outside that composer.json also declares is looked up, and no note says otherwise', async () => {
      const base = await tmp('wpb-rv-merge-');
      const dir = path.join(base, 'repo');
      await fs.mkdir(path.join(base, 'shared', 'shared-plugin'), { recursive: true });
      await fs.writeFile(path.join(base, 'shared', 'shared-plugin', 'shared-plugin.php'), plugin('Shared'));
      await fs.mkdir(path.join(dir, 'wp-content', 'plugins'), { recursive: true });
      await fs.mkdir(path.join(dir, 'wp-content', 'themes'), { recursive: true });
      await fs.symlink('../../../shared/shared-plugin', path.join(dir, 'wp-content', 'plugins', 'shared-plugin'));
      await fs.writeFile(path.join(dir, 'composer.json'), JSON.stringify({ require: { 'wpackagist-plugin/shared-plugin': '^1.0' } }));
      const r = await scanWorkspace(dir);
      assert.equal(r.components.find((c) => c.slug === 'shared-plugin')?.lookup, 'yes');
      assert.deepEqual(r.problems.filter((p) => /not looked up unless you ask/.test(p.message)), []);
    });
  });

  describe('5. an mu-plugins sub-folder that Composer installs keeps its header, and no note says "not listed"', () => {
    it('a wordpress-muplugin package in web/app/mu-plugins/acme-tools/ (no autoloader): its name and version are listed', async () => {
      const dir = await tmp('wpb-rv-mu-');
      await fs.writeFile(
        path.join(dir, 'composer.json'),
        JSON.stringify({ require: { 'acme/acme-tools': '^2.0' }, extra: { 'installer-paths': { 'web/app/mu-plugins/{$name}/': ['type:wordpress-muplugin'], 'web/app/plugins/{$name}/': ['type:wordpress-plugin'] } } }),
      );
      await fs.writeFile(path.join(dir, 'composer.lock'), JSON.stringify({ packages: [{ name: 'acme/acme-tools', version: '2.1.0', type: 'wordpress-muplugin' }], 'packages-dev': [] }));
      await fs.mkdir(path.join(dir, 'web', 'app', 'mu-plugins', 'acme-tools'), { recursive: true });
      await fs.mkdir(path.join(dir, 'web', 'app', 'plugins'), { recursive: true });
      await fs.mkdir(path.join(dir, 'web', 'app', 'themes'), { recursive: true });
      await fs.writeFile(path.join(dir, 'web', 'app', 'mu-plugins', 'acme-tools', 'acme-tools.php'), '<?php\n/*\nPlugin Name: Acme Tools\nVersion: 2.1.0\n*/\n');
      const r = await scanWorkspace(dir);
      const acme = r.components.find((c) => c.slug === 'acme-tools');
      assert.ok(acme, JSON.stringify(r.components));
      assert.equal(acme.name, 'Acme Tools');
      assert.equal(acme.version, '2.1.0');
      assert.ok(acme.locations.some((l) => l.file === 'web/app/mu-plugins/acme-tools/acme-tools.php'), JSON.stringify(acme.locations));
      const notes = r.problems.filter((p) => p.file === 'web/app/mu-plugins/acme-tools/acme-tools.php');
      assert.equal(notes.length, 1, JSON.stringify(r.problems));
      assert.doesNotMatch(notes[0].message, /not listed/);
      assert.match(notes[0].message, /installed by Composer.*loader/);
    });
  });

  describe('2. --output never writes through a symlinked folder inside the repository', () => {
    it('reports -> ../victimdir: --output reports/report.md is refused (exit 2) and the file outside is unchanged', async () => {
      const { base, dir, env } = await repo();
      await fs.mkdir(path.join(base, 'victimdir'));
      await fs.writeFile(path.join(base, 'victimdir', 'report.md'), 'precious\n');
      await fs.symlink('../victimdir', path.join(dir, 'reports'));
      const r = await cli(['check', '.', '--offline', '--format', 'markdown', '--output', 'reports/report.md'], env, dir);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, /passes through .*reports, a symbolic link to a folder inside .*nothing was written/);
      assert.equal(await fs.readFile(path.join(base, 'victimdir', 'report.md'), 'utf8'), 'precious\n');
      assert.deepEqual(await fs.readdir(path.join(base, 'victimdir')), ['report.md']);
      // The editor's Export Report passes its workspace folder the same way.
      await assert.rejects(writeOutputFile(path.join(dir, 'reports', 'report.md'), 'x', dir), (e: unknown) => e instanceof OutputFileError && e.reason === 'refused');
    });

    it('a link above the current folder (as /tmp is on macOS) is the user\'s own: an absolute path through it is written', async () => {
      const { base, dir, env } = await repo();
      await fs.mkdir(path.join(base, 'real-out'));
      await fs.symlink('real-out', path.join(base, 'out-link'));
      const target = path.join(base, 'out-link', 'report.md');
      const r = await cli(['check', '.', '--offline', '--format', 'markdown', '--output', target], env, dir);
      assert.equal(r.code, 0, r.err);
      assert.match(await fs.readFile(path.join(base, 'real-out', 'report.md'), 'utf8'), /akismet/);
      // A real folder inside the repository is fine.
      await fs.mkdir(path.join(dir, 'out'));
      const r2 = await cli(['check', '.', '--offline', '--format', 'markdown', '--output', 'out/report.md'], env, dir);
      assert.equal(r2.code, 0, r2.err);
    });
  });

  describe('6. --request-timeout-s is bounded, with one message', () => {
    for (const value of ['3000000', '0', '0.5', '3601']) {
      it(`--request-timeout-s ${value} is a usage error (exit 2) that says what is accepted`, async () => {
        const { dir, env } = await repo();
        const r = await cli(['check', '.', '--offline', '--request-timeout-s', value], env, dir);
        assert.equal(r.code, 2, r.err + r.out);
        assert.match(r.err, /--request-timeout-s needs a number from 1 to 3600/);
      });
    }
    it('--request-timeout-s 3600 and 1 are accepted', async () => {
      const { dir, env } = await repo();
      for (const value of ['3600', '1']) assert.equal((await cli(['check', '.', '--offline', '--request-timeout-s', value], env, dir)).code, 0);
    });
  });

  describe('7. a small memory value never reads as zero', () => {
    it('under 1 MB in KB, from 1 MB in MB; a nonzero value never reads as zero (issue 26)', () => {
      assert.equal(formatMemoryKb(0), '0 KB');
      assert.equal(formatMemoryKb(3), '3 KB');
      assert.equal(formatMemoryKb(-3), '-3 KB');
      assert.equal(formatMemoryKb(1), '1 KB');
      assert.equal(formatMemoryKb(0.5), '0.5 KB');
      assert.equal(formatMemoryKb(0.01), '0.1 KB');
      assert.equal(formatMemoryKb(40), '40 KB');
      assert.equal(formatMemoryKb(512), '512 KB');
      assert.equal(formatMemoryKb(1023.4), '1023 KB');
      assert.equal(formatMemoryKb(1023.6), '1.0 MB');
      assert.equal(formatMemoryKb(1536), '1.5 MB');
      assert.equal(formatMemoryKb(-4096), '-4.0 MB');
      assert.equal(formatMemoryKb(20480), '20 MB');
      for (let kb = 0.01; kb < 200_000; kb *= 1.37) {
        for (const v of [kb, -kb]) {
          const text = formatMemoryKb(v);
          assert.doesNotMatch(text, /^-?0(\.0+)? (KB|MB)$/, `${v} KB`);
          assert.doesNotMatch(text, /\.\d\d/, `${v} KB: at most one decimal`);
          assert.match(text, Math.abs(v) < 1023.5 ? / KB$/ : / MB$/, `${v} KB`);
        }
      }
    });

    it('the grade diagnostic says the activation cost with the same formatter (not "0 MB memory") and "1 query"', async () => {
      const api = fakeApi();
      api.reply = (p) => ({ status: 200, body: sampleBody({ slug: p.split('/').pop(), speed_score: { grade: 'E', numeric: 20 }, contexts: { activation: { ttfb_delta_ms: 12.5, memory_delta_kb: 300, queries_delta: 1 }, homepage: null, admin: null } }) });
      const { sessionHost, roots } = fakeHost(api, { slugs: ['jetpack'] });
      const s = new WorkspaceSession(sessionHost);
      try {
        await s.refreshKeyState();
        await s.rescan();
        const d = componentDiagnostic(s, s.components[0], path.join(roots[0], 'composer.json'));
        assert.match(d!.message, /Activation adds 12\.5 ms TTFB, 300 KB memory, 1 query\./);
      } finally {
        s.dispose();
      }
    });
  });

  describe('8. "1 queries" is gone from --diff', () => {
    it('the headline and the table lines say "+1 query"', () => {
      const outcomes = new Map<string, LookupOutcome>([
        ['plugin/base', measured('base', { ttfb_delta_ms: 10, memory_delta_kb: 1024, queries_delta: 4 })],
        ['plugin/one', measured('one', { ttfb_delta_ms: 5, memory_delta_kb: 3, queries_delta: 1 })],
      ]);
      const before = judge({ components: [comp('base')], outcomes, config: CONFIG });
      const after = judge({ components: [comp('base'), comp('one', 4)], outcomes, config: CONFIG });
      const d = diffJudgements('main', before, after);
      assert.match(d.headline, /\(\+3 KB memory, \+1 query; 1 component added/);
      const table = toTable(after, { diff: d });
      assert.match(table, /homepage: +\+5 ms TTFB, \+3 KB, \+1 query$/m);
      assert.doesNotMatch(table, /\b1 queries/);
      assert.match(diffJudgements('main', after, before).headline, /-1 query;/);
    });
  });

  describe('3. notes of the scan are not said to be uncounted', () => {
    const warning = { file: 'wp-content/themes/empty', line: 1, column: 1, message: 'Theme folder "empty" has no style.css', severity: 'warning' as const };
    const note = { file: 'wp-content/plugins/private/private.php', line: 1, column: 1, message: 'Plugin "private" is read through a symbolic link', severity: 'info' as const };
    const outcomes = new Map<string, LookupOutcome>([['plugin/base', measured('base', { ttfb_delta_ms: 10, memory_delta_kb: 1024, queries_delta: 4 })]]);

    it('a note only: no "could not be counted", no "not judged or counted"; listed as a note', () => {
      const j = judge({ components: [comp('base')], outcomes, config: CONFIG, problems: [note] });
      assert.equal(j.counts.uncounted, 0);
      assert.equal(j.counts.notes, 1);
      for (const text of [toTable(j), toMarkdown(j), toHtml(j)]) {
        assert.doesNotMatch(text, /could not be counted|not judged or counted/);
        assert.match(text, /1 note\b/);
      }
      const json = JSON.parse(toJson(j));
      assert.deepEqual(json.problems.map((p: { severity: string }) => p.severity), ['info']);
      const rule = JSON.parse(toSarif(j)).runs[0].tool.driver.rules.find((r: { id: string }) => r.id === 'scan-problem');
      assert.match(rule.fullDescription.text, /Level note: .*leaves nothing uncounted/);
    });

    it('a problem and a note: one component or file could not be counted, not two', () => {
      const j = judge({ components: [comp('base')], outcomes, config: CONFIG, problems: [warning, note] });
      assert.equal(j.counts.problems, 2);
      assert.equal(j.counts.uncounted, 1);
      assert.match(toTable(j), /PASSED: .*1 component or file could not be counted/);
      assert.match(toTable(j), /Problems found by the scan \(1 problem, 1 note\):/);
      assert.match(toMarkdown(j), /\*\*Problems found by the scan \(1 problem, 1 note\)\*\*: what a problem concerns is not judged or counted; a note \(info\) is for information/);
      assert.deepEqual(JSON.parse(toJson(j)).problems.map((p: { severity: string }) => p.severity).sort(), ['info', 'warning']);
    });

    it('the scan says a theme folder without style.css as a warning (it leaves a theme uncounted)', async () => {
      const dir = await tmp('wpb-rv-theme-');
      await fs.mkdir(path.join(dir, 'wp-content', 'themes', 'empty'), { recursive: true });
      await fs.mkdir(path.join(dir, 'wp-content', 'plugins', 'akismet'), { recursive: true });
      await fs.writeFile(path.join(dir, 'wp-content', 'plugins', 'akismet', 'akismet.php'), plugin('Akismet'));
      const r = await scanWorkspace(dir);
      assert.deepEqual(r.problems.map((p) => [p.file, p.severity ?? 'warning']), [['wp-content/themes/empty', 'warning']]);
    });
  });

  describe('9-11. scan and check print each problem once, mark notes, and keep the table narrow', () => {
    async function site() {
      const { base, dir, env } = await repo();
      await fs.mkdir(path.join(dir, 'wp-content', 'themes', 'empty-theme'), { recursive: true });
      await fs.mkdir(path.join(base, 'shared', 'linked'), { recursive: true });
      await fs.writeFile(path.join(base, 'shared', 'linked', 'linked.php'), plugin('Linked'));
      await fs.symlink('../../../shared/linked', path.join(dir, 'wp-content', 'plugins', 'linked'));
      return { dir, env };
    }
    const count = (text: string, re: RegExp) => text.split('\n').filter((l) => re.test(l)).length;

    it('9. check (table): every scan problem printed once, in the report on stdout; with --output, on stderr', async () => {
      const { dir, env } = await site();
      const r = await cli(['check', '.', '--offline'], env, dir);
      assert.equal(r.code, 0, r.err);
      assert.equal(count(`${r.out}\n${r.err}`, /empty-theme.*no style\.css/), 1, `${r.out}\n---\n${r.err}`);
      assert.equal(count(`${r.out}\n${r.err}`, /linked\.php:1: .*outside the workspace/), 1);
      const o = await cli(['check', '.', '--offline', '--output', 'report.md', '--format', 'markdown'], env, dir);
      assert.equal(o.code, 0, o.err);
      assert.equal(count(o.err, /empty-theme.*no style\.css/), 1);
      assert.equal(count(o.out, /no style\.css/), 0);
    });

    it('10. scan --json problems carry severity and column; scan\'s stderr marks notes', async () => {
      const { dir, env } = await site();
      const j = await cli(['scan', '.', '--json'], env, dir);
      const problems = JSON.parse(j.out).problems as { file: string; severity: string; column: number }[];
      assert.deepEqual(problems.map((p) => [p.file, p.severity]).sort(), [
        ['wp-content/plugins/linked/linked.php', 'info'],
        ['wp-content/themes/empty-theme', 'warning'],
      ]);
      assert.ok(problems.every((p) => p.column === 1));
      const t = await cli(['scan', '.'], env, dir);
      assert.match(t.err, /linked\.php:1: \(info\) Plugin "linked"/);
      assert.match(t.err, /empty-theme:1: Theme folder/);
      assert.match(t.out, /1 problem, 1 note \(on stderr\)/);
    });

    it('11. scan: a 40,000-character version or name is cut in the table', async () => {
      const { dir, env } = await repo();
      await fs.mkdir(path.join(dir, 'wp-content', 'plugins', 'huge'), { recursive: true });
      await fs.writeFile(path.join(dir, 'wp-content', 'plugins', 'huge', 'huge.php'), `<?php\n/*\nPlugin Name: ${'N'.repeat(3000)}\nVersion: ${'9'.repeat(40000)}\n*/\n`);
      const t = await cli(['scan', '.'], env, dir);
      const widest = Math.max(...t.out.split('\n').map((l) => l.length));
      assert.ok(widest < 300, `a line of ${widest} characters`);
      assert.match(t.out, /huge +9{29}… +N{59}…/);
    });
  });
});
