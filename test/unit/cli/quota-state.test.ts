// `wp-bench check` keeps the extension's request rules across CI runs: the cache folder remembers a 429 block and a
// refused key (by fingerprint), so the next run sends nothing instead of collecting more 429s and 403s.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/index';
import { DEMO, startEmulator, type Emulator } from '../../../src/emulator/server';

async function check(dir: string, env: Record<string, string>): Promise<{ code: number; err: string }> {
  const err: string[] = [];
  const code = await runCli(['check', dir, '--format', 'json'], { out: () => undefined, err: (t) => err.push(t), env, cwd: dir });
  return { code, err: err.join('\n') };
}

describe('CLI: quota state that lasts between runs', () => {
  let emulator: Emulator;
  let site: string;
  before(async () => {
    emulator = await startEmulator();
    site = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-cli-state-'));
    const require: Record<string, string> = {};
    for (const s of ['akismet', 'jetpack', 'woocommerce', 'wordpress-seo', 'contact-form-7', 'classic-editor']) require[`wpackagist-plugin/${s}`] = '*';
    await fs.writeFile(path.join(site, 'composer.json'), JSON.stringify({ require }, null, 2));
  });
  after(() => emulator.close());

  it('a refused key is not sent on the next run; another key is', async () => {
    const cache = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-cli-cache-'));
    const env = { WPBENCH_API_URL: emulator.url, WPBENCH_API_KEY: DEMO.revoked, WPBENCH_CACHE_DIR: cache };
    const first = await check(site, env);
    assert.equal(first.code, 4);
    const sent = emulator.stats.total;
    const second = await check(site, env);
    assert.equal(second.code, 4);
    assert.match(second.err, /earlier run/);
    assert.equal(emulator.stats.total, sent, 'the refused key was not sent again');
    const third = await check(site, { ...env, WPBENCH_API_KEY: DEMO.pro });
    assert.ok(third.code === 0 || third.code === 1, `judged, not refused: ${third.code} ${third.err}`);
    assert.ok(emulator.stats.total > sent);
    for (const f of await fs.readdir(cache)) {
      assert.ok(!(await fs.readFile(path.join(cache, f), 'utf8').catch(() => '')).includes(DEMO.revoked), `no key in ${f}`);
    }
  });

  it('after a 429 the next run sends nothing until the reset and exits 5', async () => {
    const cache = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-cli-cache-'));
    const env = { WPBENCH_API_URL: emulator.url, WPBENCH_API_KEY: DEMO.almostExhausted, WPBENCH_CACHE_DIR: cache };
    const first = await check(site, env);
    assert.equal(first.code, 5, first.err);
    const sent = emulator.stats.total;
    const second = await check(site, env);
    assert.equal(second.code, 5);
    assert.equal(emulator.stats.total, sent, 'no request after the 429, in a new process-like run');
  });
});

describe('CLI: the 429 block belongs to the key and the API address (issue 21, item 10)', () => {
  let first: Emulator;
  let second: Emulator;
  let site: string;
  before(async () => {
    first = await startEmulator();
    second = await startEmulator();
    site = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-cli-state-'));
    const require: Record<string, string> = {};
    for (const s of ['akismet', 'jetpack', 'woocommerce', 'wordpress-seo', 'contact-form-7', 'classic-editor']) require[`wpackagist-plugin/${s}`] = '*';
    await fs.writeFile(path.join(site, 'composer.json'), JSON.stringify({ require }, null, 2));
  });
  after(async () => {
    await first.close();
    await second.close();
  });

  it('key B on the same cache folder after key A got 429 is not blocked; key A stays blocked; another API is not blocked', async () => {
    const cache = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-cli-cache-'));
    const a = { WPBENCH_API_URL: first.url, WPBENCH_API_KEY: DEMO.almostExhausted, WPBENCH_CACHE_DIR: cache };
    assert.equal((await check(site, a)).code, 5);
    const afterA = first.stats.total;
    // An upgraded plan: another key, same cache folder, same API.
    const b = await check(site, { ...a, WPBENCH_API_KEY: DEMO.pro });
    assert.ok(b.code === 0 || b.code === 1, `key B is judged, not blocked: ${b.code} ${b.err}`);
    assert.ok(first.stats.total > afterA, 'key B sent its lookups');
    const afterB = first.stats.total;
    // Key A on what key B has not cached: still blocked.
    const uncached = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-cli-state-'));
    await fs.writeFile(path.join(uncached, 'composer.json'), JSON.stringify({ require: { 'wpackagist-plugin/hello-dolly': '*', 'wpackagist-plugin/elementor': '*' } }));
    const again = await check(uncached, a);
    assert.equal(again.code, 5, 'key A is still blocked');
    assert.equal(first.stats.total, afterB, 'nothing sent with key A');
    // The same key at another API address has its own quota there.
    const other = await check(site, { ...a, WPBENCH_API_URL: second.url });
    assert.ok(second.stats.total > 0, `the other API is asked (${other.code})`);
    for (const f of await fs.readdir(cache)) {
      const text = await fs.readFile(path.join(cache, f), 'utf8').catch(() => '');
      assert.ok(!text.includes(DEMO.almostExhausted) && !text.includes(DEMO.pro), `no key in ${f}`);
    }
  });
});

describe('CLI: a closed pipe', () => {
  it('wp-bench scan | head: the run ends quietly, no EPIPE crash', async function () {
    this.timeout(20000);
    const { spawn } = await import('node:child_process');
    const cliJs = path.join(__dirname, '..', '..', '..', 'dist', 'cli.js');
    await fs.access(cliJs);
    const site = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-cli-pipe-'));
    const require: Record<string, string> = {};
    for (let i = 0; i < 20000; i++) require[`wpackagist-plugin/p${i}`] = '*';
    await fs.writeFile(path.join(site, 'composer.json'), JSON.stringify({ require }));
    const child = spawn(process.execPath, [cliJs, 'scan', site], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.once('data', () => child.stdout.destroy()); // `head -1` reads a line and leaves
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stderr, /EPIPE|Unhandled/);
  });

  it('a full non-blocking pipe: the output arrives whole and in order (the writer falls back to the stream)', async function () {
    this.timeout(30000);
    const { execFileSync } = await import('node:child_process');
    const cliJs = path.join(__dirname, '..', '..', '..', 'dist', 'cli.js');
    const site = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-cli-nbpipe-'));
    const require: Record<string, string> = {};
    for (let i = 0; i < 3000; i++) require[`wpackagist-plugin/p${i}`] = '*';
    await fs.writeFile(path.join(site, 'composer.json'), JSON.stringify({ require }));
    // python3 hands the CLI the write end of a pipe set non-blocking (Node's own children always get blocking stdio),
    // reads nothing for 300 ms so that the 64 KiB pipe fills, then reads everything.
    const py = [
      'import os, subprocess, sys, time',
      'r, w = os.pipe()',
      'os.set_blocking(w, False)',
      'p = subprocess.Popen(sys.argv[1:], stdout=w)',
      'os.close(w)',
      'time.sleep(0.3)',
      'chunks = []',
      'while True:',
      '    b = os.read(r, 1 << 16)',
      '    if not b: break',
      '    chunks.append(b)',
      'sys.stdout.buffer.write(str(p.wait()).encode() + b"\\n" + b"".join(chunks))',
    ].join('\n');
    const out = execFileSync('python3', ['-c', py, process.execPath, cliJs, 'scan', site, '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const nl = out.indexOf('\n');
    assert.equal(out.slice(0, nl), '0');
    const body = out.slice(nl + 1);
    assert.ok(body.length > 200_000, `${body.length} bytes: more than the pipe holds`);
    const scan = JSON.parse(body) as { components: { slug: string }[] };
    assert.equal(scan.components.length, 3000);
    assert.ok(body.endsWith('}\n'), 'one line, whole');
  });
});
