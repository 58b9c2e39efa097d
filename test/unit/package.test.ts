// What npm and the marketplace get: the npm package is the command line only (what `npx wp-bench` needs and no
// more), installable into an empty folder with nothing else; the .vsix is the extension (the README's screenshots it
// shows: scripts/vsixLinks.ts makes them small and keeps the .vsix under 1 MB).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('packages', function () {
  this.timeout(120_000);

  it('npm pack holds the CLI bundle, undici\'s bundle and the docs, nothing else; no runtime dependencies', () => {
    assert.ok(fs.existsSync(path.join(ROOT, 'dist', 'cli.js')), 'run npm run build first');
    const [info] = JSON.parse(execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    const files = (info.files as { path: string }[]).map((f) => f.path).sort();
    assert.deepEqual(files, ['CHANGELOG.md', 'LICENSE', 'README.md', 'dist/cli-full.js', 'dist/cli.js', 'dist/http.js', 'package.json']);
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    assert.deepEqual(pkg.dependencies ?? {}, {}, 'dist/cli.js, dist/cli-full.js and dist/http.js bundle what they use');
    assert.equal(pkg.files, undefined, 'vsce refuses a files list beside .vscodeignore');
  });

  it('the packed tarball installs into an empty folder and runs: wp-bench --version, wp-bench scan', () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-pack-'));
    const out = execFileSync(npm, ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split('\n').pop()!;
    const tgz = path.join(work, out);
    const app = path.join(work, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'package.json'), '{"name":"app","private":true}');
    execFileSync(npm, ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tgz], { cwd: app, stdio: 'ignore' });
    const bin = path.join(app, 'node_modules', '.bin', 'wp-bench');
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    assert.equal(execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim(), pkg.version);
    const site = path.join(ROOT, 'test', 'fixtures', 'sample-site');
    const scan = JSON.parse(execFileSync(bin, ['scan', site, '--json'], { encoding: 'utf8' }));
    assert.ok(scan.components.some((c: { slug: string }) => c.slug === 'woocommerce'));
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('the .vsix holds only the screenshots the README shows, in the default dark theme (its light and high-contrast ones stay on GitHub)', () => {
    const vsce = path.join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'vsce.cmd' : 'vsce');
    const listed = execFileSync(vsce, ['ls', '--no-dependencies'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n').map((l) => l.trim());
    const packed = listed.filter((f) => f.startsWith('docs/screenshots/')).sort();
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const shown = [...new Set([...readme.matchAll(/!\[[^\]]*\]\((docs\/screenshots\/[^)\s]+)\)/g)].map((m) => m[1]))];
    assert.ok(shown.length > 10);
    assert.deepEqual(packed, shown.filter((f) => !/-(light|hc)\.png$/.test(f)).sort());
    assert.ok(listed.includes('dist/extension.js') && listed.includes('README.md'));
  });
});
