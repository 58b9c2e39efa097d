import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEMO, knownSlugs, startEmulator, type Emulator } from '../../../src/emulator/server';
import { cli, offlineRepo } from '../helpers/cliRun';

async function writeSite(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-cli-'));
  await fs.writeFile(
    path.join(dir, 'composer.json'),
    JSON.stringify({ require: { 'wpackagist-plugin/akismet': '^5.0', 'wpackagist-theme/astra': '*', 'wp-plugin/jetpack': '*', 'roots/wordpress': '*' } }, null, 2),
  );
  await fs.mkdir(path.join(dir, 'wp-content/plugins/hello-world'), { recursive: true });
  await fs.writeFile(path.join(dir, 'wp-content/plugins/hello-world/hello-world.php'), '<?php\n/**\n * Plugin Name: Hello World\n * Version: 1.2.3\n */\n');
  return dir;
}

describe('CLI', () => {
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
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-cli-cache-'));
    emulator.resetStats();
  });

  it('scan --json prints exactly the documented shape, sorted by kind then slug', async () => {
    const dir = await writeSite();
    const r = await cli(['scan', dir, '--json']);
    assert.equal(r.code, 0, r.err);
    const parsed = JSON.parse(r.out);
    assert.deepEqual(Object.keys(parsed), ['components', 'problems']);
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(
      parsed.components.map((c: { kind: string; slug: string }) => `${c.kind}:${c.slug}`),
      ['plugin:akismet', 'plugin:hello-world', 'plugin:jetpack', 'theme:astra'],
    );
    for (const c of parsed.components) {
      assert.deepEqual(Object.keys(c).slice(0, 6), ['kind', 'slug', 'name', 'version', 'locations', 'lookup']);
      for (const l of c.locations) assert.deepEqual(Object.keys(l), ['file', 'line', 'column', 'source']);
    }
    const hello = parsed.components.find((c: { slug: string }) => c.slug === 'hello-world');
    assert.deepEqual(hello, { kind: 'plugin', slug: 'hello-world', name: 'Hello World', version: '1.2.3', locations: [{ file: 'wp-content/plugins/hello-world/hello-world.php', line: 3, column: 17, source: 'plugin-header' }], lookup: 'yes' });
    const akismet = parsed.components.find((c: { slug: string }) => c.slug === 'akismet');
    assert.deepEqual(akismet.locations, [{ file: 'composer.json', line: 3, column: 6, source: 'composer.json' }]);
    assert.equal(emulator.stats.total, 0, 'scan never uses the network');
  });

  it('scan without --json prints a table; a malformed composer.json is reported and the scan goes on', async () => {
    const dir = await writeSite();
    await fs.mkdir(path.join(dir, 'sub'));
    await fs.writeFile(path.join(dir, 'sub/composer.json'), '{ "require": { "wpackagist-plugin/x": ');
    const r = await cli(['scan', dir]);
    assert.equal(r.code, 0);
    assert.match(r.out, /hello-world\s+1\.2\.3\s+Hello World/);
    assert.match(r.err, /sub\/composer\.json:\d+:/);
  });

  it('lookup: 0 for a benchmarked plugin, with the table; the second run is served from the cache', async () => {
    const r = await cli(['lookup', 'plugin', 'akismet'], env());
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /grade [A-F]/);
    assert.match(r.out, /activation/);
    const again = await cli(['lookup', 'plugin', 'akismet', '--json'], env());
    assert.equal(again.code, 0);
    assert.equal(JSON.parse(again.out).state, 'benchmarked');
    assert.equal(emulator.stats.counted, 1, 'one request per slug per cache lifetime');
  });

  it('lookup: 0 for known-but-not-benchmarked, 3 for not in dataset', async () => {
    const [nb] = knownSlugs('plugin', 1, 'not-benchmarked');
    const r = await cli(['lookup', 'plugin', nb, '--json'], env());
    assert.equal(r.code, 0, r.err);
    assert.equal(JSON.parse(r.out).state, 'not-benchmarked');
    const missing = await cli(['lookup', 'theme', 'no-such-theme-anywhere'], env());
    assert.equal(missing.code, 3);
    assert.match(missing.out, /not in the benchmark dataset/);
  });

  it('4 for an invalid, revoked or suspended key and for no key; the key never appears', async () => {
    for (const key of ['wpb_not_a_real_key_123456', DEMO.revoked, DEMO.suspended, undefined]) {
      const r = await cli(['lookup', 'plugin', 'akismet'], env(key));
      assert.equal(r.code, 4, `${key}: ${r.err}`);
      assert.equal(r.err.split('\n').length, 1, 'one line on stderr');
      if (key) assert.ok(!r.err.includes(key) && !r.out.includes(key));
    }
  });

  it('5 when the quota is exhausted; me still works', async () => {
    const slugs = knownSlugs('plugin', 5);
    const codes = [];
    for (const slug of slugs) codes.push((await cli(['lookup', 'plugin', slug], env(DEMO.almostExhausted))).code);
    assert.deepEqual(codes, [0, 0, 0, 5, 5]);
    const me = await cli(['me', '--json'], env(DEMO.almostExhausted));
    assert.equal(me.code, 0, me.err);
    assert.equal(JSON.parse(me.out).remaining, 0);
  });

  it('6 for network failures and unreadable responses', async () => {
    const dead = await cli(['lookup', 'plugin', 'akismet'], { ...env(), WPBENCH_API_URL: 'http://127.0.0.1:9/api' });
    assert.equal(dead.code, 6);
    assert.match(dead.err, /Could not reach/);
    emulator.setFault('invalid-json');
    try {
      const bad = await cli(['lookup', 'plugin', 'jetpack'], env());
      assert.equal(bad.code, 6);
      assert.match(bad.err, /cannot read/);
    } finally {
      emulator.setFault(undefined);
    }
  });

  it('2 for usage errors: unknown command, bad kind, hostile slug, key on the command line, no API address', async () => {
    assert.equal((await cli(['frobnicate'])).code, 2);
    assert.equal((await cli(['lookup', 'widget', 'x'], env())).code, 2);
    assert.equal((await cli(['lookup', 'plugin', '../../etc/passwd'], env())).code, 2);
    assert.equal((await cli(['lookup', 'plugin', 'x', '--api-key', 'k'], env())).code, 2);
    assert.equal((await cli(['lookup', 'plugin', 'x'], { WPBENCH_API_KEY: 'k', WPBENCH_CACHE_DIR: cacheDir })).code, 2);
    assert.equal((await cli(['me'], { ...env(), WPBENCH_API_URL: 'http://example.com/api' })).code, 2);
    assert.equal(emulator.stats.total, 0, 'nothing is sent on a usage error');
  });

  it('me prints tier and quota', async () => {
    const r = await cli(['me'], env(DEMO.starter));
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Tier\s+starter/i);
    assert.match(r.out, /\/ 50,000/);
  });

  it('the built dist/cli.js runs with its shebang and exit codes', async function () {
    const cliPath = path.resolve('dist/cli.js');
    await fs.access(cliPath);
    const run = (args: string[]) =>
      new Promise<{ code: number; stdout: string }>((resolve) =>
        execFile(cliPath, args, { env: { ...process.env, ...env() } }, (error, stdout) => resolve({ code: error ? Number(error.code) : 0, stdout })),
      );
    assert.equal((await run(['--version'])).code, 0);
    assert.equal((await run(['lookup', 'plugin', 'no-such-plugin-xyz'])).code, 3);
  });
});

describe('scan and check print each problem once, mark notes, and keep the table narrow', function () {
  this.timeout(30_000);
  const plugin = (name: string) => `<?php\n/*\nPlugin Name: ${name}\nVersion: 1.0\n*/\n`;
  async function site() {
    const { base, dir, env } = await offlineRepo();
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
    const { dir, env } = await offlineRepo();
    await fs.mkdir(path.join(dir, 'wp-content', 'plugins', 'huge'), { recursive: true });
    await fs.writeFile(path.join(dir, 'wp-content', 'plugins', 'huge', 'huge.php'), `<?php\n/*\nPlugin Name: ${'N'.repeat(3000)}\nVersion: ${'9'.repeat(40000)}\n*/\n`);
    const t = await cli(['scan', '.'], env, dir);
    const widest = Math.max(...t.out.split('\n').map((l) => l.length));
    assert.ok(widest < 300, `a line of ${widest} characters`);
    assert.match(t.out, /huge +9{29}… +N{59}…/);
  });
});
