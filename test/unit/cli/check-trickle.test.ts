// Issue 21, item 11: `check` against a server that trickles its bodies, 12 plugins. The built CLI (dist/cli.js, with
// undici in its own bundle, as users run it): after 3 timeouts in a row nothing more is sent, no lookup is tried twice,
// the run ends within 40 s with exit 6 and a report listing all 12 (unknown where no answer came).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/testServer';

const CLI = path.join(__dirname, '..', '..', '..', 'dist', 'cli.js');

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('issue 21: check against a server that trickles its bodies', function () {
  this.timeout(45_000);
  let server: TestServer;
  before(async () => {
    await fs.access(CLI);
    server = await startTestServer();
    // Headers at once, then one byte every 200 ms: every request runs into its time limit.
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const t = setInterval(() => res.write(' '), 200);
      res.on('close', () => clearInterval(t));
    });
  });
  after(() => server.close());

  it('12 plugins: at most 3 timeouts in a row, no lookup twice, exit 6 within 40 s, all 12 in the report', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-trickle-'));
    const slugs = Array.from({ length: 12 }, (_, i) => `slow-plugin-${i}`);
    await fs.writeFile(path.join(dir, 'composer.json'), JSON.stringify({ require: Object.fromEntries(slugs.map((s) => [`wpackagist-plugin/${s}`, '*'])) }));
    const env = { WPBENCH_API_URL: server.url, WPBENCH_API_KEY: 'k', WPBENCH_CACHE_DIR: await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-trickle-cache-')) };
    const started = Date.now();
    // A 1 s limit per request instead of 15 s keeps the test short; the run's own limit stays the default.
    const r = await run(['check', dir, '--request-timeout-s', '1', '--format', 'json'], env);
    const took = Date.now() - started;
    assert.equal(r.code, 6, r.err);
    assert.ok(took < 40_000, `ended in ${took} ms`);
    const lookups = server.requests.map((q) => q.path).filter((p) => p.includes('/v1/plugins/'));
    assert.equal(new Set(lookups).size, lookups.length, `no lookup tried twice: ${lookups.join(', ')}`);
    // 4 in flight time out together; the first two timeouts free a slot before the third stops sending.
    assert.ok(lookups.length <= 6, `sending stopped after 3 timeouts in a row: ${lookups.length} requests`);
    assert.match(r.err, /sending stopped after 3 timeouts in a row/);
    const report = JSON.parse(r.out);
    assert.deepEqual(report.components.map((c: { slug: string }) => c.slug).sort(), [...slugs].sort());
    for (const c of report.components) assert.equal(c.state, 'unknown', `${c.slug}: no answer came`);
  });
});
