// Hostile repositories, API answers and CI logs, round three (issue 18, findings 1, 3, 6 and 7): each finding is a
// test that failed on the code before.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../src/cli/index';
import { normaliseApiUrl } from '../../src/core/api/client';
import { parseRateLimitHeaders } from '../../src/core/api/quota';
import { parseRecord } from '../../src/core/api/record';
import { ciSafeJson, terminalSafe } from '../../src/core/present/format';
import type { LookupOutcome } from '../../src/core/lookup/lookupService';
import type { DetectedComponent } from '../../src/core/model';
import { diffJudgements } from '../../src/core/report/diff';
import { toMarkdown, toSarif } from '../../src/core/report/formats';
import { judge, type JudgeConfig } from '../../src/core/report/judge';
import { parseComposerJson, parseComposerLock, parseWpEnv, scanWorkspace, wordPressOrgUriSlug } from '../../src/core/scan';
import { parseFileHeaders, PLUGIN_HEADER_NAMES } from '../../src/core/scan/headers';
import { json, startTestServer, type TestServer } from './helpers/testServer';
import { sampleBody } from './helpers/samples';

const tmp = (p: string) => fs.mkdtemp(path.join(os.tmpdir(), p));

async function cli(args: string[], env: Record<string, string>, cwd: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/**
 * Runs `fn` and fails when it took `ms` or more. A regex runs synchronously: no timer can interrupt it, so the
 * time is measured around the call (a mocha timeout would only be noticed after it returns).
 */
function within<T>(ms: number, label: string, fn: () => T): T {
  const started = performance.now();
  const result = fn();
  const took = performance.now() - started;
  assert.ok(took < ms, `${label}: took ${Math.round(took)} ms (limit ${ms} ms)`);
  return result;
}

/** The Markdown outside code spans (CommonMark: a run of n backticks is closed by the next run of exactly n). */
function outsideCodeSpans(md: string): string {
  let out = '';
  let i = 0;
  while (i < md.length) {
    if (md[i] === '\\') {
      out += md.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (md[i] !== '`') {
      out += md[i++];
      continue;
    }
    let n = 0;
    while (md[i + n] === '`') n++;
    let j = i + n;
    let close = -1;
    while (j < md.length) {
      if (md[j] !== '`') {
        j++;
        continue;
      }
      let m = 0;
      while (md[j + m] === '`') m++;
      if (m === n) {
        close = j;
        break;
      }
      j += m;
    }
    if (close < 0) {
      out += md.slice(i, i + n);
      i += n;
    } else {
      out += '(code)';
      i = close + n;
    }
  }
  return out;
}

/** Asserts that `md` renders hostile strings as text: no HTML, image, mention, bare link or extra table cell. */
function assertInert(md: string, allowedTargets: string[]): void {
  const text = outsideCodeSpans(md);
  // An escaped `\]` closes no link: only an unescaped `](` starts a target.
  const targets = [...text.matchAll(/(?<!\\)\]\(([^)]*)\)/g)].map((m) => m[1]);
  for (const t of targets) assert.ok(allowedTargets.includes(t), `unexpected link target ${t}`);
  const rest = text.replace(/(?<!\\)\]\(([^)]*)\)/g, ']').replace(/<\/?sub>/g, ''); // <sub>: the report's own notes
  assert.doesNotMatch(rest, /(?<!\\)</, 'no raw HTML');
  assert.doesNotMatch(rest, /(?<!\\)!(?=\[)/, 'no image');
  assert.doesNotMatch(rest, /@[A-Za-z0-9]/, 'no @mention');
  assert.doesNotMatch(rest, /https?:\/\/|www\./i, 'no bare link');
  // Every row of a table has the header's cell count (GFM splits cells on every unescaped `|`).
  const cells = (line: string) => line.split(/(?<!\\)\|/).length;
  let header = 0;
  for (const line of md.split('\n')) {
    if (!line.startsWith('|')) header = 0;
    else if (header === 0) header = cells(line);
    else assert.equal(cells(line), header, `a row with a different cell count:\n${line}`);
  }
}

const CONFIG: JudgeConfig = { failOn: 'C', context: 'homepage', budgets: {}, ignore: [] };
const HOSTILE_SLUG = 'x` ![px](http://127.0.0.1:9/t.png) <img src=x> | @octocat `y';
/** The same as a folder name (no `/`; Windows forbids `<`, `>` and `|` in names too). */
const HOSTILE_FOLDER = process.platform === 'win32' ? 'x` ![px](t.png) @octocat `y' : 'x` ![px](t.png) <img src=x> | @octocat `y';
const HOSTILE_PROFILE = 'https://wpbench.test/p|@octocat|https://phish.test/login|';

function component(slug: string, version: string | null = null): DetectedComponent {
  return { kind: 'plugin', slug, name: null, version, locations: [{ file: `wp-content/plugins/${slug}/${slug}.php`, line: 3, column: 4, length: 5, source: 'plugin-header' }] };
}

function outcome(slug: string, extra: Record<string, unknown>): LookupOutcome {
  return { kind: 'plugin', slug, result: parseRecord(sampleBody({ slug, ...extra }), 'plugin', slug), stale: false, fromCache: true, fetchedAt: 0 };
}

describe('hostile, round three', function () {
  this.timeout(30_000);
  let server: TestServer;
  beforeEach(async () => (server = await startTestServer()));
  afterEach(() => server.close());

  it('1. a 57-byte composer.json with a hostile package name scans in well under a second', async function () {
    this.timeout(2000);
    const dir = await tmp('wpb-h3-');
    await fs.writeFile(path.join(dir, 'composer.json'), '{"require":{"wpackagist-plugin/aaaaaaaaaaaaaaaa!":"*"}}');
    const started = performance.now();
    const r = await scanWorkspace(dir);
    assert.ok(performance.now() - started < 1000, `the scan took ${Math.round(performance.now() - started)} ms`);
    assert.deepEqual(r.components, []);
    assert.match(r.problems.map((p) => p.message).join('\n'), /"wpackagist-plugin\/a{16}!" is not a valid Composer package name/);
  });

  it('1. every pattern that reads workspace or API text runs in linear time on long hostile input', () => {
    const long = 100_000;
    const lockOf = (names: string[]) => JSON.stringify({ packages: names.map((name) => ({ name, type: 'wordpress-plugin', version: '1.0' })) });
    const hostileNames = [`wpackagist-plugin/${'a'.repeat(10_000)}!`, `wpackagist-plugin/${'a-'.repeat(5_000)}!`, `wpackagist-plugin/${'a.a--'.repeat(2_000)}!`, `${'a_'.repeat(5_000)}!/x`];
    // First the rows the old code took seconds on (quadratic), then the exponential ones it never finished.
    // Each row: the call under the deadline, then what it must have found.
    const rows: [string, () => unknown, (r: any) => void][] = [
      ['.wp-env.json: a query with a line break', () => parseWpEnv(JSON.stringify({ plugins: [`https://x.test/a.zip${'?'.repeat(long)}\nx`] }), '.wp-env.json'),
        (r) => assert.deepEqual(r.components.map((c: DetectedComponent) => c.slug), ['a'])],
      ['.wp-env.json: a .zip URL with a long dotted version', () => parseWpEnv(JSON.stringify({ plugins: [`https://x.test/p${'.1'.repeat(long / 2)}x.zip`, `https://x.test/p${'.1'.repeat(long / 2)}.zip`] }), '.wp-env.json'),
        (r) => assert.deepEqual(r.components.map((c: DetectedComponent) => [c.slug, c.version?.length]), [['p', long - 1]], 'the other is no slug (over 200 characters)')],
      ['.wp-env.json: a git address made of @', () => parseWpEnv(JSON.stringify({ plugins: ['a@'.repeat(long / 2), `${'a@'.repeat(long / 2)}h:x.git`] }), '.wp-env.json'),
        (r) => assert.deepEqual(r.components.map((c: DetectedComponent) => c.slug), ['x'])],
      ['.wp-env.json: the other source forms (wordpress.org, GitHub, owner/repo, git, local)', () => parseWpEnv(JSON.stringify({ plugins: [
        `https://downloads.wordpress.org/plugin/${'a'.repeat(long)}.zipx`, `https://github.com/${'a/'.repeat(long / 2)}`, `https://codeload.github.com/a/${'b'.repeat(long)} `,
        `o/r${'/x'.repeat(long / 2)} y`, `o/${'r'.repeat(long)} #`, `git+ssh://${'h'.repeat(long)}.git.git`, `${'./'.repeat(long / 2)}x`,
      ] }), '.wp-env.json'),
        (r) => assert.deepEqual([r.components.map((c: DetectedComponent) => c.slug), r.problems.length], [['a', 'x'], 5])],
      ['composer.json: a WordPress install folder made of slashes', () => parseComposerJson(JSON.stringify({ extra: { 'wordpress-install-dir': `wp${'/'.repeat(long)}x` } }), 'composer.json'),
        (r) => assert.ok(r.coreDir?.endsWith('/x'))],
      ['the API address with a long run of slashes', () => normaliseApiUrl(`http://127.0.0.1:9/api${'/'.repeat(long)}x`),
        (r) => assert.equal(r.hostname, '127.0.0.1')],
      ['composer.json: package names that backtrack exponentially', () => parseComposerJson(JSON.stringify({ require: Object.fromEntries([...hostileNames, 'wpackagist-plugin/ok-name.v2--x'].map((n) => [n, '*'])) }), 'composer.json'),
        (r) => {
          assert.deepEqual(r.components.map((c: DetectedComponent) => c.slug), ['ok-name.v2--x']);
          assert.equal(r.problems.length, hostileNames.length - 1, 'a vendor without a WordPress prefix is not a WordPress package');
        }],
      ['composer.lock: the same names', () => parseComposerLock(lockOf(hostileNames), 'composer.lock'), (r) => assert.equal(r.problems.length, hostileNames.length)],
      ['plugin headers: 8 KiB of repeated names, colons and comment marks',
        () => [`<?php\n${'Plugin Name:'.repeat(700)}`, `/*${' '.repeat(8000)}Plugin Name: x ${' '.repeat(100)}`, `Plugin Name: ${' \t'.repeat(4000)}*`].map((body) => parseFileHeaders(body, PLUGIN_HEADER_NAMES)['Plugin Name']),
        (r) => assert.deepEqual([r[0].slice(0, 12), r[1], r[2]], ['Plugin Name:', 'x', '*'])],
      ['Plugin URI headers', () => [`https://wordpress.org/plugins/${'a'.repeat(long)} `, `https://wordpress.org/plugins/a/${'?'.repeat(long)}\n`, 'https://'.repeat(long / 8)].map((uri) => wordPressOrgUriSlug(uri, 'plugin')),
        (r) => assert.deepEqual(r, [null, 'a', null])],
      ['rate-limit headers from the API', () => parseRateLimitHeaders({ 'x-ratelimit-limit': `${' '.repeat(long)}1x`, 'x-ratelimit-remaining': `1${'.1'.repeat(long / 2)}`, 'x-ratelimit-reset': `2026-01-01${' '.repeat(long)}` }, Date.now()),
        (r) => assert.equal(r?.limit ?? null, null)],
    ];
    for (const [label, run, check] of rows) check(within(1000, label, run));
  });

  it('3. folder names and API links cannot inject Markdown: code spans, table cells, link targets, diff rows', () => {
    const hostile = component(HOSTILE_SLUG, '1.0');
    const akismet = component('akismet');
    const outcomes = new Map([['plugin/akismet', outcome('akismet', { name: 'Aki | @octocat <b>x</b> ![i](https://t.test/i.png)', links: { profile: HOSTILE_PROFILE } })]]);
    const head = judge({ components: [hostile, akismet], outcomes, config: CONFIG });
    const base = judge({ components: [component(HOSTILE_SLUG, '0.9')], outcomes, config: CONFIG });
    const expectedTarget = 'https://wpbench.test/p%7C@octocat%7Chttps://phish.test/login%7C';
    const added = toMarkdown(head, { diff: diffJudgements('main', base, head) });
    const removed = toMarkdown(base, { diff: diffJudgements('main', head, base) });
    for (const md of [toMarkdown(head), added, removed]) assertInert(md, [expectedTarget]);
    assert.match(added, /\| ➕ added \| \[Aki/);
    assert.match(removed, /\| ➖ removed \| \[Aki/);
    assert.match(added, /\| 🔄 version \| ``x` !\[px\]/, 'the changed row keeps the slug in a code span');
    assert.ok(toMarkdown(head).includes('``x` ![px](http://127.0.0.1:9/t.png) <img src=x> \\| @octocat `y``'), 'the slug reads as written');
  });

  it('3. check --format markdown: a plugin folder named to inject markup stays text', async () => {
    const dir = await tmp('wpb-h3-');
    const folder = path.join(dir, 'wp-content', 'plugins', HOSTILE_FOLDER);
    await fs.mkdir(folder, { recursive: true });
    await fs.writeFile(path.join(folder, `${HOSTILE_FOLDER}.php`), '<?php\n/*\n * Plugin Name: Evil <img src=x> @octocat\n */\n');
    const env = { WPBENCH_API_URL: 'http://127.0.0.1:9/api', WPBENCH_CACHE_DIR: await tmp('wpb-h3-cache-') };
    const r = await cli(['check', dir, '--offline', '--format', 'markdown'], env, dir);
    assert.equal(r.code, 0, r.err);
    assert.ok(r.out.includes('`x` ![px]'), `the folder is in the report:\n${r.out}`);
    assertInert(r.out, []);
  });

  it('6. ##vso[ is neutralised anywhere in a line, on every print path; JSON stays JSON with the same values', async () => {
    assert.doesNotMatch(terminalSafe('name: x ##vso[task.setvariable variable=a]b and ##VSO[task.complete]'), /##vso\[/i);
    assert.deepEqual(JSON.parse(ciSafeJson(JSON.stringify({ n: 'a ##vso[x]b \\##vso[' }))), { n: 'a ##vso[x]b \\##vso[' });
    const apiName = 'Pwn ##vso[task.complete result=Failed]done';
    const headerName = 'Evil ##vso[task.prependpath]/tmp/evil';
    const dir = await tmp('wpb-h3-');
    const folder = path.join(dir, 'wp-content', 'plugins', '##vso[task.setvariable variable=x]y');
    await fs.mkdir(folder, { recursive: true });
    await fs.writeFile(path.join(folder, 'plugin.php'), `<?php\n/*\n * Plugin Name: ${headerName}\n */\n`);
    await fs.writeFile(path.join(dir, 'composer.json'), JSON.stringify({ require: { 'wpackagist-plugin/akismet': '*', 'wpackagist-plugin/##vso[task.uploadfile]x': '*' } }));
    server.handle((req, res) => {
      const slug = decodeURIComponent((req.url ?? '').split('?')[0].split('/').pop() ?? '');
      json(res, 200, sampleBody({ slug, name: apiName }), { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9', 'x-ratelimit-reset': '3600' });
    });
    const env = { WPBENCH_API_URL: server.url, WPBENCH_API_KEY: 'k', WPBENCH_CACHE_DIR: await tmp('wpb-h3-cache-') };
    const runs: [string[], 'json' | 'text'][] = [
      [['check', dir], 'text'],
      [['check', dir, '--format', 'json'], 'json'],
      [['check', dir, '--format', 'sarif'], 'json'],
      [['check', dir, '--format', 'markdown'], 'text'],
      [['scan', dir], 'text'],
      [['scan', dir, '--json'], 'json'],
      [['lookup', 'plugin', 'akismet'], 'text'],
      [['lookup', 'plugin', 'akismet', '--json'], 'json'],
    ];
    for (const [args, kind] of runs) {
      const r = await cli(args, env, dir);
      const label = args.join(' ');
      assert.doesNotMatch(`${r.out}\n${r.err}`, /##vso\[/i, `${label}: an Azure Pipelines command reached the log:\n${r.out}\n${r.err}`);
      if (kind === 'json') {
        const value = JSON.stringify(JSON.parse(r.out));
        assert.ok(value.includes('##vso[task.'), `${label}: the JSON keeps the names as they are`);
      }
    }
  });

  it('7. SARIF message text escapes [ and ]: a name cannot become an embedded link', () => {
    const name = 'Evil [Security advisory: click to fix](https://phish.test/fix) \\[x\\]';
    const outcomes = new Map([['plugin/akismet', outcome('akismet', { name, speed_score: { grade: 'F', numeric: 3 } })]]);
    const sarif = JSON.parse(toSarif(judge({ components: [component('akismet')], outcomes, config: CONFIG })));
    const [result] = sarif.runs[0].results;
    const text: string = result.message.text;
    assert.ok(text.includes('Evil \\[Security advisory: click to fix\\](https://phish.test/fix) \\\\\\[x\\\\\\]'), text);
    assert.doesNotMatch(text.replace(/\\[\\[\]]/g, ''), /[[\]]/, 'every bracket is escaped');
  });
});
