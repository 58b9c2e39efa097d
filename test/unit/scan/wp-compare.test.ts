// Runs WordPress core's own get_plugins(), get_mu_plugins() and search_theme_directories() (through
// test/wp-compare/wp-list.php) on the edge-case site and checks that scanWorkspace() agrees.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildEdgeCaseSite } from '../../wp-compare/edge-fixture';
import { buildPhpunitDataSites } from '../../wp-compare/phpunit-fixture';

const PHP = process.env.PHP_BIN || 'php';
const CORE = process.env.WP_CORE_DIR || '/usr/share/wordpress';
const compareScript = path.join(__dirname, '..', '..', 'wp-compare', 'compare.mjs');

function whyUnavailable(): string | null {
  const v = spawnSync(PHP, ['-v'], { encoding: 'utf8' });
  if (v.error || v.status !== 0) return `"${PHP}" is not runnable (install php-cli, or set PHP_BIN)`;
  if (!fs.existsSync(path.join(CORE, 'wp-admin', 'includes', 'plugin.php'))) {
    return `WordPress core not found in ${CORE} (apt-get install wordpress, or set WP_CORE_DIR)`;
  }
  return null;
}

describe('scan: agreement with WordPress core (php)', function () {
  this.timeout(60000);
  let root: string;
  before(function () {
    const why = whyUnavailable();
    if (why) {
      // In CI .ci/run installs php-cli and wordpress: a missing one is a failure there, never a silent pass.
      if (process.env.CI) throw new Error(`WordPress comparison cannot run in CI: ${why}`);
      console.warn(`    [scan-wp-compare] SKIPPED: ${why}`);
      this.skip();
    }
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'wpbench-wpcmp-'));
  });
  after(() => root && fs.rmSync(root, { recursive: true, force: true }));

  function runCompare(dir: string) {
    const r = spawnSync(process.execPath, [compareScript, dir, '--json'], { encoding: 'utf8', env: { ...process.env, WP_CORE_DIR: CORE, PHP_BIN: PHP } });
    if (r.status === 2 || !r.stdout) assert.fail(`compare.mjs could not run: ${r.stderr}`);
    return { status: r.status, result: JSON.parse(r.stdout) as { rows: { key: string; ok: boolean }[]; mismatches: string[] } };
  }

  it('lists the same plugins, mu-plugins and themes (slugs, names, versions) on the edge-case site', () => {
    const wc = buildEdgeCaseSite(root);
    const { status, result } = runCompare(wc);
    assert.deepEqual(result.mismatches, []);
    assert.equal(status, 0);
    const keys = result.rows.map((r) => r.key);
    for (const k of ['plugin:hello-dolly', 'plugin:cut-off', 'plugin:crlf-plugin', 'plugin:bom-plugin', 'plugin:noheader', 'theme:nested-a', 'theme:noname']) {
      assert.ok(keys.includes(k), `${k} missing from ${keys.join(', ')}`);
    }
    for (const k of ['plugin:spaced-colon', 'plugin:bom-line1', 'plugin:late-header', 'plugin:deep', 'plugin:hidden-folder']) {
      assert.ok(!keys.includes(k), `${k} should not be listed`);
    }
  });

  it("agrees with WordPress on its own PHPUnit test data (modelled): odd names, groups, self-parented themes", () => {
    const { themedir1, themedir2 } = buildPhpunitDataSites(path.join(root, 'phpunit'));
    const one = runCompare(themedir1);
    assert.deepEqual(one.result.mismatches, []);
    assert.equal(one.status, 0);
    const keys = one.result.rows.map((r) => r.key);
    for (const k of ['plugin:hello-dolly', 'plugin:custom-internationalized-plugin', 'theme:theme with spaces', 'theme:block_theme-[1.0.0]', 'theme:block_thémé-[0.4.0]', 'theme:camelCase', 'theme:sandbox', 'theme:child-parent-itself']) {
      assert.ok(keys.includes(k), `${k} missing from ${keys.join(', ')}`);
    }
    assert.equal(keys.length, 4 + 34, keys.join(', '));
    const two = runCompare(themedir2);
    assert.deepEqual(two.result.mismatches, []);
    assert.deepEqual(two.result.rows.map((r) => r.key), ['theme:test', 'theme:test-parent']);
  });

  it("agrees on Debian's real WordPress tree", function () {
    const wc = path.join(CORE, 'wp-content');
    if (!fs.existsSync(path.join(wc, 'plugins'))) this.skip();
    const { status, result } = runCompare(fs.realpathSync(wc));
    assert.deepEqual(result.mismatches, []);
    assert.equal(status, 0);
    assert.ok(result.rows.length > 0);
  });
});
