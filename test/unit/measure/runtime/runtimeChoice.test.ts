// Choosing the runtime: what is said when one cannot run is the advice that applies (a machine with PHP 8.2 and
// SQLite was told to install PHP 7.4 with SQLite when only WordPress's SQLite integration was missing).
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MeasureError } from '../../../../src/core/measure/run/engine';
import { findEnvironment } from '../../../../src/core/measure/runtime/runtimeChoice';
import { checkProfiler } from '../../../../src/core/measure/run/profiling';

describe('measure: choosing the runtime', () => {
  let dir: string;
  let core: string;
  /** A stand-in for php (a shell script answering the version probe), so the test needs no PHP. */
  const fakePhp = async (version: string, sqlite: boolean) => {
    const bin = path.join(dir, `php-${version}-${sqlite}`);
    await fs.writeFile(bin, `#!/bin/sh\nprintf '%s\\n%s' '${version}' '${sqlite ? 1 : 0}'\n`, { mode: 0o755 });
    return bin;
  };
  const fail = async (php: string) => {
    try {
      await findEnvironment({ path: dir, env: { PATH: process.env.PATH }, cwd: dir, runtime: 'php', php, wordpress: core, sqliteIntegration: path.join(dir, 'none.zip'), searchFrom: [] });
    } catch (e) {
      assert.ok(e instanceof MeasureError, String(e));
      assert.equal(e.exitCode, 8);
      return e.message;
    }
    assert.fail('the runtime was chosen');
  };

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-runtime-'));
    core = path.join(dir, 'wordpress');
    await fs.mkdir(path.join(core, 'wp-includes'), { recursive: true });
    await fs.mkdir(path.join(core, 'wp-admin', 'includes'), { recursive: true });
    await fs.writeFile(path.join(core, 'wp-admin', 'includes', 'upgrade.php'), '<?php\n');
    await fs.writeFile(path.join(core, 'wp-settings.php'), '<?php\n');
    await fs.writeFile(path.join(core, 'wp-includes', 'version.php'), "<?php\n$wp_version = '6.4.1';\n");
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  it('PHP 8.2 with SQLite but no SQLite integration: says only where to get the integration', async () => {
    const m = await fail(await fakePhp('8.2.7', true));
    assert.match(m, /WordPress's SQLite integration was not found: pass --sqlite-integration DIR/);
    assert.doesNotMatch(m, /install PHP/);
  });

  it('PHP without pdo_sqlite, or too old: the install advice', async () => {
    assert.match(await fail(await fakePhp('8.2.7', false)), /no pdo_sqlite extension.*To measure, install PHP 7\.4 or newer with SQLite/);
    assert.match(await fail(await fakePhp('7.2.1', true)), /is PHP 7\.2\.1; 7\.4 or newer is needed\. To measure, install PHP/);
  });

  it('--profile: a PHP without Excimer, or Playground, is refused with what to install (exit 8)', async () => {
    const noExcimer = path.join(dir, 'php-no-excimer');
    await fs.writeFile(noExcimer, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    await assert.rejects(checkProfiler('php', noExcimer, { PATH: process.env.PATH }), (e: unknown) => e instanceof MeasureError && e.exitCode === 8 && /has no Excimer extension\. To profile, install the Excimer sampling profiler .*apt install php-excimer/.test(e.message));
    await assert.rejects(checkProfiler('playground', undefined, {}), (e: unknown) => e instanceof MeasureError && e.exitCode === 8 && /needs the php runtime/.test(e.message));
    const withExcimer = path.join(dir, 'php-excimer');
    await fs.writeFile(withExcimer, "#!/bin/sh\nprintf '1.0.4'\n", { mode: 0o755 });
    assert.equal(await checkProfiler('php', withExcimer, { PATH: process.env.PATH }), 'excimer 1.0.4');
  });
});
