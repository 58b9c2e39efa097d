import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEMO, startEmulator, type Emulator } from '../../../src/emulator/server';
import { assertSarifShape } from '../report/sarifShape';
import { json, startTestServer, type TestServer } from '../helpers/testServer';
import { cli, offlineRepo, tmpDir } from '../helpers/cliRun';
import { measureWarnings } from '../../../src/cli/check';

function composer(packages: string[]): string {
  return JSON.stringify({ require: Object.fromEntries(packages.map((p) => [p, '*'])) }, null, 2);
}

/** akismet (A), jetpack (E), classic-editor (A+, homepage not measured), a private plugin (not in dataset). */
async function writeSite(packages = ['wpackagist-plugin/akismet', 'wpackagist-plugin/jetpack', 'wpackagist-plugin/classic-editor', 'wpackagist-theme/astra']): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-check-'));
  await fs.writeFile(path.join(dir, 'composer.json'), composer(packages));
  await fs.mkdir(path.join(dir, 'wp-content/plugins/acme-private'), { recursive: true });
  await fs.writeFile(path.join(dir, 'wp-content/plugins/acme-private/acme-private.php'), '<?php\n/**\n * Plugin Name: Acme Private\n * Version: 1.0.0\n */\n');
  return dir;
}

function git(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('git', args, { cwd, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: cwd } }, (e, stdout, stderr) => (e ? reject(new Error(stderr || e.message)) : resolve(stdout))),
  );
}

describe('CLI check', () => {
  let emulator: Emulator;
  let cacheDir: string;
  const env = (...key: (string | undefined)[]) => ({ WPBENCH_API_URL: emulator.url, WPBENCH_API_KEY: key.length ? key[0] : DEMO.pro, WPBENCH_CACHE_DIR: cacheDir });

  before(async () => {
    emulator = await startEmulator();
  });
  after(async () => {
    await emulator.close();
  });
  beforeEach(async () => {
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-check-cache-'));
    emulator.resetStats();
  });

  it('1 when a component is graded worse than the default C; table worst first with the site total; cached the second time', async () => {
    const dir = await writeSite();
    const r = await cli(['check', dir], env());
    assert.equal(r.code, 1, r.err);
    const lines = r.out.split('\n');
    assert.match(lines[1], /^E\s+plugin\s+jetpack\s.*FAIL/);
    assert.match(r.out, /SITE TOTAL\s+\+[\d.]+ ms/);
    assert.match(r.out, /acme-private\s.*not in dataset/);
    assert.match(r.out, /FAILED: 1 graded worse than C\./);
    assert.equal(emulator.stats.counted, 5);
    const again = await cli(['check', dir, '--format', 'json'], env());
    assert.equal(again.code, 1);
    assert.equal(emulator.stats.counted, 5, 'the second run is served from the cache');
    assert.equal(JSON.parse(again.out).passed, false);
  });

  it('2 for an API address that answers 404 to everything (path left off): said once, nothing reported as "not in dataset", nothing cached', async () => {
    const plugins = ['akismet', 'jetpack', 'classic-editor', 'query-monitor', 'wordpress-seo', 'woocommerce', 'contact-form-7', 'redirection', 'wp-super-cache'];
    const dir = await writeSite(plugins.map((p) => `wpackagist-plugin/${p}`));
    const wrong = { ...env(), WPBENCH_API_URL: new URL(emulator.url).origin };
    const r = await cli(['check', dir, '--format', 'json'], wrong);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /answers 404 to \/me as well as to lookups: it is not a WP Bench API\. .* 10 components affected/);
    const states = JSON.parse(r.out).components.map((c: { state: string }) => c.state);
    assert.ok(!states.includes('not-in-dataset'), states.join());
    assert.equal(emulator.stats.me, 0, 'the emulator routes nothing under the wrong address');
    assert.ok(emulator.stats.total <= 5, `requests to the wrong address: ${emulator.stats.total} (at most the 4 in flight and one /me)`);
    const right = await cli(['check', dir, '--format', 'json'], env());
    assert.equal(right.code, 1, right.err);
    assert.ok(JSON.parse(right.out).components.some((c: { state: string }) => c.state === 'benchmarked'), 'the right address is asked afresh');
  });

  it('0 when nothing is worse than --fail-on; not-in-dataset and not-benchmarked never fail (3 is not used by check)', async () => {
    const dir = await writeSite();
    assert.equal((await cli(['check', dir, '--fail-on', 'E'], env())).code, 0);
    assert.equal((await cli(['check', dir, '--fail-on', 'none'], env())).code, 0);
    const onlyUnknown = await writeSite(['wpackagist-plugin/no-such-plugin-xyz']);
    const r = await cli(['check', onlyUnknown, '--format', 'json'], env());
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out).components.map((c: { state: string }) => c.state), ['not-in-dataset', 'not-in-dataset']);
  });

  it('json: the site total sums measured deltas; the unmeasured homepage of classic-editor is listed, not counted as zero', async () => {
    const dir = await writeSite();
    const j = JSON.parse((await cli(['check', dir, '--format', 'json'], env())).out);
    const classic = j.components.find((c: { slug: string }) => c.slug === 'classic-editor');
    assert.equal(classic.state, 'benchmarked');
    assert.equal(classic.contexts.homepage, null);
    const measured = j.components.filter((c: any) => c.contexts?.homepage);
    const sum = measured.reduce((s: number, c: any) => s + c.contexts.homepage.ttfbDeltaMs, 0);
    assert.ok(Math.abs(j.siteTotal.homepage.ttfbDeltaMs - sum) < 1e-9);
    assert.equal(j.siteTotal.homepage.measured, measured.length);
    assert.equal(j.siteTotal.homepage.notMeasured, 1);
    assert.equal(j.siteTotal.unknown, 1);
  });

  it('budgets: pass, fail, per context, memory and queries; flags override .wp-bench.json', async () => {
    const dir = await writeSite();
    const j = JSON.parse((await cli(['check', dir, '--format', 'json', '--fail-on', 'none'], env())).out);
    const home = j.siteTotal.homepage;
    const admin = j.siteTotal.admin;
    const run = (...flags: string[]) => cli(['check', dir, '--fail-on', 'none', ...flags], env());
    assert.equal((await run('--budget-ttfb-ms', String(Math.ceil(home.ttfbDeltaMs) + 1))).code, 0);
    const over = await run('--budget-ttfb-ms', String(Math.floor(home.ttfbDeltaMs / 2)));
    assert.equal(over.code, 1);
    assert.match(over.out, /over budget: homepage TTFB/);
    assert.match(over.out, /FAILED: 1 budget exceeded/);
    assert.equal((await run('--budget-memory-mb', '1')).code, 1);
    assert.equal((await run('--budget-queries', String(home.queriesDelta))).code, 0, 'equal to the budget passes');
    assert.equal((await run('--context', 'admin', '--budget-ttfb-ms', String(Math.ceil(admin.ttfbDeltaMs) + 1))).code, 0);
    assert.equal((await run('--context', 'admin', '--budget-ttfb-ms', String(Math.floor(admin.ttfbDeltaMs) - 1))).code, 1);

    await fs.writeFile(path.join(dir, '.wp-bench.json'), JSON.stringify({ minimumGrade: 'F', budgets: { homepage: { ttfbMs: 1 } } }, null, 2));
    const fromConfig = await cli(['check', dir, '--format', 'sarif'], env());
    assert.equal(fromConfig.code, 1, 'the config budget fails');
    const budget = JSON.parse(fromConfig.out).runs[0].results.find((r: any) => r.ruleId === 'budget-exceeded');
    assert.equal(budget.locations[0].physicalLocation.artifactLocation.uri.endsWith('.wp-bench.json'), true, 'located at the line that set it');
    assert.equal(budget.locations[0].physicalLocation.region.startLine, 5);
    const flagWins = await cli(['check', dir, '--budget-ttfb-ms', '100000'], env());
    assert.equal(flagWins.code, 0, `${flagWins.out}\n${flagWins.err}`);
  });

  it('.wp-bench.json: minimumGrade and ignore are used, --fail-on wins, and apiUrl / key are refused', async () => {
    const dir = await writeSite();
    await fs.writeFile(
      path.join(dir, '.wp-bench.json'),
      JSON.stringify({ minimumGrade: 'F', ignore: ['acme-private'], apiUrl: 'http://127.0.0.1:9/api', apiKey: 'stolen', key: 'x' }, null, 2),
    );
    const r = await cli(['check', dir, '--format', 'json'], env());
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assert.equal(j.failOn, 'F');
    assert.equal(j.counts.ignored, 1);
    assert.ok(!j.components.some((c: { slug: string }) => c.slug === 'acme-private'));
    assert.match(r.err, /\.wp-bench\.json:\d+:3: "apiUrl" is refused: the team config can never set the API address or the API key/);
    assert.match(r.err, /"apiKey" is refused/);
    assert.match(r.err, /"key" is refused/);
    assert.ok(emulator.stats.counted > 0, 'requests went to the configured API, not the config file\'s');
    assert.ok(emulator.stats.authHeaders.every((h) => h === `Bearer ${DEMO.pro}`));
    assert.equal((await cli(['check', dir, '--fail-on', 'C'], env())).code, 1, 'the flag overrides the file');
  });

  it('markdown: PR-ready table sorted worst first with the site total row', async () => {
    const dir = await writeSite();
    const r = await cli(['check', dir, '--format', 'markdown'], env());
    assert.equal(r.code, 1);
    assert.match(r.out, /^### WP Bench: ❌ check failed/);
    const rows = r.out.split('\n').filter((l) => /^\| (🔴|🟠|🟡|🟢|–)/.test(l));
    assert.match(rows[0], /`jetpack`/);
    assert.match(r.out, /\| \| \*\*Site total\*\* \|/);
    assert.match(r.out, /synthetic data/);
  });

  it('sarif: valid 2.1.0 shape, results at composer.json lines and plugin headers; --output writes the file', async () => {
    const dir = await writeSite();
    const file = path.join(dir, 'out.sarif');
    const r = await cli(['check', dir, '--format', 'sarif', '--output', file], env());
    assert.equal(r.code, 1);
    assert.match(r.out, /sarif report written to .*out\.sarif: FAILED/);
    const sarif = JSON.parse(await fs.readFile(file, 'utf8'));
    assertSarifShape(sarif);
    const results = sarif.runs[0].results;
    const jetpack = results.find((x: any) => x.ruleId === 'grade-below-threshold');
    assert.deepEqual(jetpack.locations[0].physicalLocation.artifactLocation, { uri: 'composer.json', uriBaseId: '%SRCROOT%' });
    assert.equal(jetpack.locations[0].physicalLocation.region.startLine, 4);
    const priv = results.find((x: any) => x.ruleId === 'not-in-dataset');
    assert.equal(priv.locations[0].physicalLocation.artifactLocation.uri, 'wp-content/plugins/acme-private/acme-private.php');
    assert.equal(priv.locations[0].physicalLocation.region.startLine, 3);
  });

  it('--offline sends no request and needs no key: cached answers are judged, the rest is listed as not cached', async () => {
    const dir = await writeSite();
    const cold = await cli(['check', dir, '--offline', '--format', 'json'], env(undefined));
    assert.equal(cold.code, 0, cold.err);
    assert.ok(JSON.parse(cold.out).components.every((c: any) => c.state === 'unknown' && c.unknownReason === 'offline'));
    assert.match(cold.err, /5 components are not in the cache \(--offline\)/);
    assert.equal(emulator.stats.total, 0);
    await cli(['lookup', 'plugin', 'jetpack'], env());
    emulator.resetStats();
    const warm = await cli(['check', dir, '--offline'], env(undefined));
    assert.equal(warm.code, 1, 'jetpack is judged from the cache');
    assert.equal(emulator.stats.total, 0, 'not one request offline');
    const noAddress = await cli(['check', dir, '--offline'], { WPBENCH_CACHE_DIR: cacheDir });
    assert.equal(noAddress.code, 2, 'the cache is per API address: --offline needs it');
    assert.match(noAddress.err, /--offline reads the cache of one API address: give it with --api-url or WPBENCH_API_URL/);
    assert.match(noAddress.err, /or add --measure-local to judge local measurements alone/);
  });

  it('--max-requests N sends at most N lookups (first by kind/slug) and reports the rest as not looked up', async () => {
    const dir = await writeSite();
    const r = await cli(['check', dir, '--max-requests', '2', '--format', 'json'], env());
    assert.equal(emulator.stats.counted, 2);
    assert.match(r.err, /3 lookups skipped: --max-requests 2 reached \(plugin classic-editor, plugin jetpack, theme astra\)/);
    const j = JSON.parse(r.out);
    const looked = j.components.filter((c: any) => c.state !== 'unknown').map((c: any) => c.slug).sort();
    assert.deepEqual(looked, ['acme-private', 'akismet']);
    assert.ok(j.components.filter((c: any) => c.state === 'unknown').every((c: any) => c.unknownReason === 'limit'));
    assert.equal(r.code, 0, 'nothing judged failed');
    emulator.resetStats();
    await cli(['check', dir, '--max-requests', '0'], env());
    assert.equal(emulator.stats.total, 0);
    await cli(['check', dir], env());
    assert.equal(emulator.stats.counted, 3, 'only what is missing is asked for next time');
  });

  it('a header-only plugin whose Update URI points away from wordpress.org is never looked up, as in the extension', async () => {
    const dir = await writeSite(['wpackagist-plugin/akismet']);
    await fs.mkdir(path.join(dir, 'wp-content/plugins/jetpack'), { recursive: true });
    await fs.writeFile(path.join(dir, 'wp-content/plugins/jetpack/jetpack.php'), '<?php\n/**\n * Plugin Name: Our Jetpack Fork\n * Update URI: https://example.test/jetpack\n */\n');
    const r = await cli(['check', dir, '--format', 'json'], env());
    assert.equal(r.code, 0, r.err);
    const fork = JSON.parse(r.out).components.find((c: { slug: string }) => c.slug === 'jetpack');
    assert.equal(fork.state, 'unknown');
    assert.equal(fork.unknownReason, 'local');
    assert.match(fork.findings[0].message, /Update URI/);
    assert.equal(emulator.stats.byPath.get('/api/v1/plugins/akismet'), 1, 'the path format is right');
    assert.equal(emulator.stats.byPath.get('/api/v1/plugins/jetpack'), undefined);
  });

  it('4 without a key (when a request is needed) or with a revoked key; the key never appears', async () => {
    const dir = await writeSite();
    const none = await cli(['check', dir], env(undefined));
    assert.equal(none.code, 4);
    assert.match(none.err, /No API key is set/);
    assert.equal(emulator.stats.total, 0);
    const revoked = await cli(['check', dir, '--format', 'json'], env(DEMO.revoked));
    assert.equal(revoked.code, 4);
    assert.ok(!revoked.out.includes(DEMO.revoked) && !revoked.err.includes(DEMO.revoked));
    assert.ok(emulator.stats.total <= 4, 'a rejected key is not sent again and again');
  });

  it('5 when the quota runs out: what was judged is printed, stale and unknown are named', async () => {
    const dir = await writeSite();
    const r = await cli(['check', dir, '--format', 'json', '--fail-on', 'none'], env(DEMO.almostExhausted));
    assert.equal(r.code, 5);
    const j = JSON.parse(r.out);
    assert.equal(j.components.filter((c: any) => c.state !== 'unknown').length, 3);
    assert.equal(j.counts.unknown, 2);
    assert.match(r.err, /quota is used up.*2 components affected: 0 judged from stale cache, 2 unknown/);
    assert.equal(emulator.stats.counted, 3, 'no request after the 429');
  });

  it('6 when the API cannot be reached; 2 for usage errors', async () => {
    const dir = await writeSite();
    const dead = await cli(['check', dir], { ...env(), WPBENCH_API_URL: 'http://127.0.0.1:9/api' });
    assert.equal(dead.code, 6);
    assert.match(dead.err, /Could not reach/);
    for (const args of [
      ['check', dir, '--format', 'xml'],
      ['check', dir, '--fail-on', 'Q'],
      ['check', dir, '--context', 'checkout'],
      ['check', dir, '--budget-ttfb-ms', '-5'],
      ['check', dir, '--max-requests', 'many'],
      ['check', dir, '--diff', 'HEAD', '--format', 'sarif'],
      ['check', dir, '--offline', '--no-cache'],
      ['check', path.join(dir, 'missing')],
      ['check', dir, 'extra'],
      ['scan', dir, '--offline'],
      ['lookup', 'plugin', 'akismet', '--format', 'json'],
    ]) {
      const r = await cli(args, env());
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    }
    assert.equal((await cli(['check', dir], { WPBENCH_API_KEY: 'k', WPBENCH_CACHE_DIR: cacheDir })).code, 2, 'no API address');
    assert.equal(emulator.stats.total, 0);
  });

  it('--diff REF: components added and removed, and the site-total change, against a git ref', async () => {
    const dir = await writeSite(['wpackagist-plugin/akismet', 'wpackagist-theme/astra']);
    await git(dir, ['init', '-q', '-b', 'main']);
    await git(dir, ['config', 'user.email', 'ci@example.test']);
    await git(dir, ['config', 'user.name', 'CI']);
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', 'base']);
    await fs.writeFile(path.join(dir, 'composer.json'), composer(['wpackagist-plugin/jetpack', 'wpackagist-theme/astra']));
    const r = await cli(['check', dir, '--diff', 'main', '--format', 'json', '--fail-on', 'none'], env());
    assert.equal(r.code, 0, r.err);
    const d = JSON.parse(r.out).diff;
    assert.equal(d.ref, 'main');
    assert.deepEqual(d.added.map((c: any) => c.slug), ['jetpack']);
    assert.deepEqual(d.removed.map((c: any) => c.slug), ['akismet']);
    const jetpackHome = d.added[0].contexts.homepage.ttfbDeltaMs;
    const akismetHome = d.removed[0].contexts.homepage.ttfbDeltaMs;
    assert.ok(Math.abs(d.siteTotal.delta.homepage.ttfbDeltaMs - (jetpackHome - akismetHome)) < 1e-9);
    assert.match(d.headline, /^This change adds \+[\d.]+ ms TTFB on the homepage/);
    const md = await cli(['check', dir, '--diff', 'main', '--format', 'markdown'], env());
    assert.match(md.out, /➕ added \| \[Jetpack `jetpack`\]/);
    assert.match(md.out, /➖ removed \| \[[^\]]*`akismet`\]/);
    const text = await cli(['check', dir, '--diff', 'HEAD'], env());
    assert.match(text.out, /^Compared with HEAD: This change adds/);
    assert.match(text.out, /\n {2}\+ plugin jetpack/);
    assert.match(text.out, /\n {2}- plugin akismet/);
    assert.equal((await git(dir, ['status', '--porcelain'])).trim(), 'M composer.json', 'the repository is not touched');
    assert.equal((await cli(['check', dir, '--diff', 'no-such-branch'], env())).code, 2);
    assert.equal((await cli(['check', dir, '--diff', '--upload-pack=touch /tmp/x'], env())).code, 2, 'refs that look like options are refused');
  });
});

describe('check and scan: a FIFO in the repository, an API that never finishes', function () {
  this.timeout(30_000);
  let server: TestServer;
  beforeEach(async () => (server = await startTestServer()));
  afterEach(() => server.close());

  it('2. a FIFO named .wp-bench.json or composer.json (or linked to one) is refused, never opened: check and scan end', async function () {
    if (process.platform === 'win32') this.skip();
    const { spawnSync } = await import('node:child_process');
    const dir = await tmpDir('wpb-h2-');
    assert.equal(spawnSync('mkfifo', [path.join(dir, '.wp-bench.json')]).status, 0);
    assert.equal(spawnSync('mkfifo', [path.join(dir, 'fifo')]).status, 0);
    await fs.symlink(path.join(dir, 'fifo'), path.join(dir, 'composer.json'));
    const env = { WPBENCH_API_URL: 'http://127.0.0.1:9/api', WPBENCH_CACHE_DIR: await tmpDir('wpb-h2-cache-') };
    const check = await cli(['check', dir, '--offline'], env, dir);
    assert.equal(check.code, 0, check.err);
    assert.match(check.err, /team config is not a regular file/);
    // check: the problem is in the report (stdout), once; scan prints its problems on stderr.
    assert.match(check.out, /composer\.json is a FIFO/);
    assert.doesNotMatch(check.err, /composer\.json is a FIFO/);
    const scan = await cli(['scan', dir], env, dir);
    assert.equal(scan.code, 0);
    assert.match(scan.err, /composer\.json is a FIFO, not a regular file; it was not opened/);
  });

  it('4. check has a time limit for the whole run and stops after 3 timeouts in a row; what is known is reported, exit 6', async () => {
    const dir = await tmpDir('wpb-h2-');
    const require: Record<string, string> = {};
    for (let i = 0; i < 12; i++) require[`wpackagist-plugin/slow-${i}`] = '*';
    await fs.writeFile(path.join(dir, 'composer.json'), JSON.stringify({ require }));
    // A server that sends headers, then trickles the body: every request times out.
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const t = setInterval(() => res.write(' '), 200);
      res.on('close', () => clearInterval(t));
    });
    const env = { WPBENCH_API_URL: server.url, WPBENCH_API_KEY: 'k', WPBENCH_CACHE_DIR: await tmpDir('wpb-h2-cache-') };
    // Each request has a 1 s limit here (timeoutSeconds is the client's; the CLI uses 15 s): use a short run limit.
    const started = Date.now();
    const r = await cli(['check', dir, '--timeout-s', '2', '--format', 'json'], env, dir);
    const took = Date.now() - started;
    assert.equal(r.code, 6, r.err);
    assert.match(r.err, /time limit|timeouts in a row/);
    const report = JSON.parse(r.out);
    assert.equal(report.components.length, 12, 'the report of what is known is printed');
    assert.ok(server.requests.length < 12, `sending stopped: ${server.requests.length} requests`);
    assert.ok(took < 10_000, `bounded by --timeout-s: ${took} ms`);
  });
});

describe('check --request-timeout-s is bounded, with one message', () => {
  for (const value of ['3000000', '0', '0.5', '3601']) {
    it(`--request-timeout-s ${value} is a usage error (exit 2) that says what is accepted`, async () => {
      const { dir, env } = await offlineRepo();
      const r = await cli(['check', '.', '--offline', '--request-timeout-s', value], env, dir);
      assert.equal(r.code, 2, r.err + r.out);
      assert.match(r.err, /--request-timeout-s needs a number from 1 to 3600/);
    });
  }
  it('--request-timeout-s 3600 and 1 are accepted', async () => {
    const { dir, env } = await offlineRepo();
    for (const value of ['3600', '1']) assert.equal((await cli(['check', '.', '--offline', '--request-timeout-s', value], env, dir)).code, 0);
  });
});

describe('check --measure-local --site', () => {
  it('--site without --measure-local is a usage error (exit 2) before anything is scanned or sent', async () => {
    const { dir, env } = await offlineRepo();
    const r = await cli(['check', '.', '--offline', '--site'], env, dir);
    assert.equal(r.code, 2, r.err + r.out);
    assert.match(r.err, /--site goes with --measure-local/);
    assert.equal(r.out, '');
    assert.equal((await cli(['scan', '.', '--site'], env, dir)).code, 2, 'a check option only');
  });

  it('a site that cannot be measured: said on stderr, the report printed with its budgets on the sum, exit 6', async () => {
    const { dir, env } = await offlineRepo();
    await fs.writeFile(path.join(dir, '.wp-bench.json'), JSON.stringify({ budgets: { homepage: { memoryMb: 0.1 } } }));
    // No php on PATH: the native runtime --site needs cannot run (nothing starts).
    const r = await cli(['check', '.', '--offline', '--measure-local', '--site', '--format', 'json'], { ...env, WPBENCH_API_URL: undefined, PATH: '/nonexistent' }, dir);
    assert.equal(r.code, 6, r.err);
    assert.match(r.err, /^wp-bench: the site could not be measured locally: /m);
    const report = JSON.parse(r.out);
    assert.equal(report.site, undefined);
    assert.deepEqual(report.budgets.map((b: { exceeded: boolean; unknown: number }) => [b.exceeded, b.unknown]), [[false, 1]], 'judged on the sum: akismet unknown');
    assert.equal(report.components[0].state, 'unknown', 'not measured one by one');
  });
});

describe('check --measure-local --instructions', () => {
  it('--instructions without --measure-local is a usage error (exit 2) before anything is scanned or sent; --help lists it', async () => {
    const { dir, env } = await offlineRepo();
    const r = await cli(['check', '.', '--offline', '--instructions'], env, dir);
    assert.equal(r.code, 2, r.err + r.out);
    assert.match(r.err, /--instructions goes with --measure-local/);
    assert.equal(r.out, '');
    assert.equal((await cli(['scan', '.', '--instructions'], env, dir)).code, 2, 'a check option only');
    assert.match((await cli(['--help'])).out, /^ {2}--instructions {2,}with --measure-local: also count/m);
  });

  it("the measurement's instruction warnings reach stderr, named, each once: Valgrind missing (with the install command), a varying context", () => {
    const err: string[] = [];
    const say = measureWarnings((t) => err.push(t));
    const valgrind = 'warning: Valgrind was not found: install Valgrind (Debian/Ubuntu: sudo apt install valgrind libfaketime; Fedora: sudo dnf install valgrind libfaketime; macOS: not available); measured without instructions';
    say('plugin acme')('round 1/9 homepage');
    say('plugin acme')(valgrind);
    say('plugin other')(valgrind);
    say('plugin acme')('warning: CPU instructions varied between identical requests in homepage (by up to 2.00 M instr, 0.7 % of the request): work …');
    say('plugin acme')('warning: no sandbox (bubblewrap is not installed)');
    assert.deepEqual(err, [
      'wp-bench: plugin acme: Valgrind was not found: install Valgrind (Debian/Ubuntu: sudo apt install valgrind libfaketime; Fedora: sudo dnf install valgrind libfaketime; macOS: not available); measured without instructions',
      'wp-bench: plugin acme: CPU instructions varied between identical requests in homepage (by up to 2.00 M instr, 0.7 % of the request): work …',
    ]);
  });
});
