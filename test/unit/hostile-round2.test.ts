// Hostile servers, repositories and CI logs, round two: each finding is a test that failed on the code before.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../src/cli/index';
import { BenchClient } from '../../src/core/api/client';
import { parseAccount, parseRateLimitHeaders } from '../../src/core/api/quota';
import { DiskCache } from '../../src/core/cache/diskCache';
import { neutralise, terminalSafe, uiPlainText } from '../../src/core/present/format';
import { childEnv } from '../../src/core/report/git';
import { json, startTestServer, type TestServer } from './helpers/testServer';
import { sampleBody } from './helpers/samples';
import { createUndiciTransport } from '../../src/core/api/undiciTransport';

async function cli(args: string[], env: Record<string, string>, cwd = process.cwd()) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
const tmp = (p: string) => fs.mkdtemp(path.join(os.tmpdir(), p));

describe('hostile, round two', function () {
  this.timeout(30_000);
  let server: TestServer;
  beforeEach(async () => (server = await startTestServer()));
  afterEach(() => server.close());

  it('3a. terminalSafe()\'s quick test lets through only what every pass leaves as it is', () => {
    // Pieces of everything the passes act on, and of what they must leave alone, in 20,000 seeded combinations.
    const pieces = ['a', ' ', '\t', '\n', '\r', ':', '::', '#', '##[', '##vso[', '##VSO[', '[', '\u001b', '\u001b[2J', '\u001b]0;t\u0007', '\u0007', '\u009b31m', '\u009d', '\u009c', '\u007f', '\u0000', '\u00a0', 'é', '\u2028', '{"a":1}'];
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    let quick = 0;
    for (let i = 0; i < 20_000; i++) {
      let text = '';
      for (let k = Math.floor(next() * 6); k >= 0; k--) text += pieces[Math.floor(next() * pieces.length)];
      assert.equal(terminalSafe(text), neutralise(text), JSON.stringify(text));
      if (neutralise(text) === text) quick++;
    }
    assert.ok(quick > 1000, `${quick} texts needed no change: the quick path was exercised`);
  });

  it('3. no escape sequence or workflow command reaches the terminal or a CI log from a file or the API', async () => {
    assert.equal(terminalSafe('a\u001b]52;c;ZXZpbA==\u0007b\u001b]8;;https://x\u001b\\c\u001b[2Jd\u009b31me'), 'abcde');
    assert.equal(terminalSafe('x\n::error::team\n  ::warning file=a::b\n##[error]y'), 'x\n: :error::team\n  : :warning file=a::b\n# #[error]y');
    // A pull request's .wp-bench.json with an escape sequence and a line break in a key.
    const dir = await tmp('wpb-h2-');
    await fs.writeFile(path.join(dir, '.wp-bench.json'), JSON.stringify({ 'x\u001b]0;T\u0007\n::error::team': 1 }));
    await fs.writeFile(path.join(dir, 'composer.json'), JSON.stringify({ require: { 'wpackagist-plugin/akismet': '*' } }));
    // An API that answers with terminal escapes in the name.
    server.handle((_req, res) => json(res, 200, sampleBody({ name: 'Evil\u001b]52;c;cGF5bG9hZA==\u0007\u001b[2J\n::error::pwned' }), { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9', 'x-ratelimit-reset': '3600' }));
    const env = { WPBENCH_API_URL: server.url, WPBENCH_API_KEY: 'k', WPBENCH_CACHE_DIR: await tmp('wpb-h2-cache-') };
    for (const args of [['check', dir], ['scan', dir], ['lookup', 'plugin', 'akismet']]) {
      const r = await cli(args, env, dir);
      const all = `${r.out}\n${r.err}`;
      assert.doesNotMatch(all, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, `${args[0]}: no control characters`);
      assert.ok(!all.split('\n').some((l) => /^\s*::/.test(l)), `${args[0]}: no line starts a workflow command:\n${all}`);
    }
  });

  it('2. a FIFO named .wp-bench.json or composer.json (or linked to one) is refused, never opened: check and scan end', async function () {
    if (process.platform === 'win32') this.skip();
    const { spawnSync } = await import('node:child_process');
    const dir = await tmp('wpb-h2-');
    assert.equal(spawnSync('mkfifo', [path.join(dir, '.wp-bench.json')]).status, 0);
    assert.equal(spawnSync('mkfifo', [path.join(dir, 'fifo')]).status, 0);
    await fs.symlink(path.join(dir, 'fifo'), path.join(dir, 'composer.json'));
    const env = { WPBENCH_API_URL: 'http://127.0.0.1:9/api', WPBENCH_CACHE_DIR: await tmp('wpb-h2-cache-') };
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
    const dir = await tmp('wpb-h2-');
    const require: Record<string, string> = {};
    for (let i = 0; i < 12; i++) require[`wpackagist-plugin/slow-${i}`] = '*';
    await fs.writeFile(path.join(dir, 'composer.json'), JSON.stringify({ require }));
    // A server that sends headers, then trickles the body: every request times out.
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const t = setInterval(() => res.write(' '), 200);
      res.on('close', () => clearInterval(t));
    });
    const env = { WPBENCH_API_URL: server.url, WPBENCH_API_KEY: 'k', WPBENCH_CACHE_DIR: await tmp('wpb-h2-cache-') };
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

  it('5. out-of-range reset times are unknown, never a crash: 429 exits 5, /me exits 0', async () => {
    const now = Date.now();
    assert.equal(parseRateLimitHeaders({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1e20' }, now)?.resetAt ?? null, null);
    assert.equal(parseAccount({ tier: 'pro', limit: 10, used: 1, reset_at: 1e20 }, now).resetAt, null);
    assert.equal(parseAccount({ tier: 'pro', limit: 10, used: 1, reset_at: '1999-01-01' }, now).resetAt, null);
    server.handle((req, res) => {
      if (req.url?.endsWith('/me')) json(res, 200, { tier: 'pro', limit: 10, used: 1, remaining: 9, reset_at: 1e20 });
      else json(res, 429, { error: 'quota' }, { 'x-ratelimit-reset': '1e20', 'retry-after': '99999999999999999999' });
    });
    const env = { WPBENCH_API_URL: server.url, WPBENCH_API_KEY: 'k', WPBENCH_CACHE_DIR: await tmp('wpb-h2-cache-') };
    const look = await cli(['lookup', 'plugin', 'akismet'], env);
    assert.equal(look.code, 5, look.err);
    assert.doesNotMatch(look.err, /Invalid time value/);
    const me = await cli(['me'], env);
    assert.equal(me.code, 0, me.err);
    assert.match(me.out, /Resets\s+unknown/);
  });

  it('6. cache entries are validated on read: a bad grade is discarded, a future date is stale', async () => {
    const dir = await tmp('wpb-h2-cache-');
    const apiId = 'http://127.0.0.1:9/api';
    const c1 = new DiskCache({ dir });
    const record = { slug: 'akismet', kind: 'plugin', name: 'Akismet', benchmarked: true, benchmarkedAt: null, grade: 'A', score: 90, contexts: { activation: null, homepage: null, admin: null }, activeInstalls: null, rating: null, profileUrl: null };
    await c1.set(apiId, 'plugin', 'akismet', { state: 'benchmarked', record } as never);
    await c1.set(apiId, 'plugin', 'jetpack', { state: 'benchmarked', record: { ...record, slug: 'jetpack' } } as never);
    const files = await fs.readdir(path.join(dir, 'lookups-v1'), { recursive: true });
    const fileOf = async (slug: string) => path.join(dir, 'lookups-v1', files.find((f) => String(f).endsWith(`plugin-${slug}.json`))! as string);
    // Hand-edited entries: a numeric grade, and a date far in the future.
    const ak = JSON.parse(await fs.readFile(await fileOf('akismet'), 'utf8'));
    ak.result.record.grade = 5;
    await fs.writeFile(await fileOf('akismet'), JSON.stringify(ak));
    const jp = JSON.parse(await fs.readFile(await fileOf('jetpack'), 'utf8'));
    jp.savedAt = Date.now() + 365 * 24 * 3600 * 1000;
    jp.result.record.profileUrl = 'javascript:alert(1)';
    await fs.writeFile(await fileOf('jetpack'), JSON.stringify(jp));
    const c2 = new DiskCache({ dir });
    assert.equal(await c2.get(apiId, 'plugin', 'akismet'), undefined, 'a grade that is not a grade: discarded');
    await assert.rejects(fs.access(await fileOf('akismet')), 'and removed');
    assert.equal(await c2.get(apiId, 'plugin', 'jetpack'), undefined, 'a profile link that is not http(s): discarded');
  });

  it('6b. an entry dated in the future is stale, not fresh until that date', async () => {
    const dir = await tmp('wpb-h2-cache-');
    const apiId = 'http://127.0.0.1:9/api';
    let now = Date.now() + 30 * 24 * 3600 * 1000; // written by a clock a month ahead
    const ahead = new DiskCache({ dir, now: () => now });
    const record = { slug: 'akismet', kind: 'plugin', name: 'Akismet', benchmarked: true, benchmarkedAt: null, grade: 'A', score: 90, contexts: { activation: null, homepage: null, admin: null }, activeInstalls: null, rating: null, profileUrl: null };
    await ahead.set(apiId, 'plugin', 'akismet', { state: 'benchmarked', record } as never);
    now = Date.now();
    const hit = await new DiskCache({ dir, now: () => now }).get(apiId, 'plugin', 'akismet');
    assert.equal(hit?.stale, true);
  });

  it('8. a redirect loop says so; a key with a line break or a non-Latin character is never sent; git and tar never see the key; an unwritable cache is said', async () => {
    server.handle((_req, res) => {
      res.writeHead(302, { location: '/api/v1/plugins/akismet' });
      res.end();
    });
    const client = (key: string) => new BenchClient({ apiUrl: server.url, getKey: () => key, transport: createUndiciTransport, timeoutMs: 2000 });
    const c = client('k');
    await assert.rejects(c.lookup('plugin', 'akismet'), /keeps redirecting/);
    await c.dispose();
    const before = server.requests.length;
    for (const bad of ['abc\r\nX-Evil: 1', 'clé-ключ', 'abc\u200bdef']) {
      const k = client(bad);
      await assert.rejects(k.lookup('plugin', 'akismet'), /contains characters that cannot be sent/);
      await k.dispose();
    }
    assert.equal(server.requests.length, before, 'nothing was sent, not even once');
    assert.equal(childEnv({ WPBENCH_API_KEY: 'secret', PATH: '/bin' }).WPBENCH_API_KEY, undefined);
    assert.equal(childEnv({ WPBENCH_API_KEY: 'secret', PATH: '/bin' }).PATH, '/bin');
    // An unwritable cache folder (a file where the folder should be: unwritable even for root): one stderr line.
    const blocker = path.join(await tmp('wpb-h2-'), 'cache');
    await fs.writeFile(blocker, '');
    server.handle((_req, res) => json(res, 200, sampleBody()));
    const r = await cli(['lookup', 'plugin', 'akismet'], { WPBENCH_API_URL: server.url, WPBENCH_API_KEY: 'k', WPBENCH_CACHE_DIR: blocker });
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /cache folder cannot be written/);
  });
});

describe('hostile, round two: strings in notifications', () => {
  it('1. an API string is plain text in a notification: no link, no command: URI, no icon', () => {
    const tier = 'pro [Renew now](command:wpBench.setApiUrl?%22http://attacker/%22) $(warning)';
    const shown = uiPlainText(`API key saved — ${tier}`);
    assert.doesNotMatch(shown, /\]\(/, 'no markdown link');
    assert.doesNotMatch(shown, /\$\(/, 'no theme icon');
    assert.match(shown, /Renew now/, 'the words stay readable');
  });
});
