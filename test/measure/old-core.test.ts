// Integration: an old WordPress core (Debian bullseye's 5.7.14, fetched by scripts/fetch-old-core.mjs as npm run
// test:measure starts) installs and measures on today's PHP and MariaDB, and a core that still fails to install
// says its version, the PHP version and --wordpress. Missing core: the suite fails (never skipped).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MeasureError, measure, type MeasureOptions } from '../../src/core/measure/run/engine';
import { nativeMeasureSuite } from './helpers';

const ROOT = path.resolve(__dirname, '..', '..');
const FIX = path.join(ROOT, 'test', 'fixtures', 'measure');
const OLD_CORE = path.join(ROOT, 'node_modules', '.cache', 'wp-bench-old-core', '5.7.14', 'usr', 'share', 'wordpress');

describe('an old WordPress core (5.7) on today\'s PHP', function () {
  const { opts: measureOpts } = nativeMeasureSuite(ROOT);
  const opts = (extra: Partial<MeasureOptions>) => measureOpts(path.join(FIX, 'memory-queries'), extra);
  before(() => {
    assert.ok(existsSync(path.join(OLD_CORE, 'wp-includes', 'version.php')), `no WordPress 5.7 at ${OLD_CORE}: run bash scripts/install-measure-deps.sh`);
  });

  it('installs on MariaDB and measures exactly: 4 MB and 5 queries in every context, the record says 5.7.14', async () => {
    const r = await measure(opts({ wordpress: OLD_CORE }));
    assert.equal(r.local.wordpress_version, '5.7.14');
    assert.equal(r.local.database?.engine, 'mariadb');
    for (const c of ['activation', 'homepage', 'admin'] as const) {
      assert.ok(r.contexts[c], `${c} measured (null: ${JSON.stringify(r.local.null_reasons)})`);
      assert.equal(r.contexts[c]!.queries_delta, 5, `${c} queries`);
      assert.ok(Math.abs(r.contexts[c]!.memory_delta_kb - 4096) <= 4096 * 0.05 + 256, `${c} memory ${r.contexts[c]!.memory_delta_kb} KB`);
    }
  });

  it('a core that still fails to install names its version, the PHP version and --wordpress (exit 7)', async () => {
    const broken = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-broken-core-'));
    try {
      execFileSync('cp', ['-a', `${OLD_CORE}/.`, broken]);
      await fs.appendFile(path.join(broken, 'wp-admin', 'includes', 'upgrade.php'), "\nthrow new Error('this core does not run on this PHP');\n");
      await assert.rejects(measure(opts({ wordpress: broken })), (e: unknown) => {
        assert.ok(e instanceof MeasureError, String(e));
        assert.equal(e.exitCode, 7);
        assert.match(e.message, /WordPress 5\.7\.14 did not install on PHP \d+\.\d+/);
        assert.match(e.message, /this core does not run on this PHP/);
        assert.match(e.message, /--wordpress DIR/);
        return true;
      });
    } finally {
      await fs.rm(broken, { recursive: true, force: true });
    }
  });
});
