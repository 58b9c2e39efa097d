// Integration (issue 44): `wp-bench measure SITE --site --instructions` on a calibration site written here — a plugin
// doing a loop of known work, a plugin that does nothing — with real PHP, MariaDB and Valgrind: the loop's
// count in the site and alone within ±2 % (and the floor) of the same loop counted alone; the plugin that does
// nothing "within noise" in every context, alone and in the site; a plugin whose work varies from request to
// request named as such.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CONTEXTS } from '../../src/core/measure/record/method';
import { countInNoise, INSTRUCTIONS_FLOOR } from '../../src/core/measure/siteRun/sitePlan';
import type { SiteRecord } from '../../src/core/measure/siteRun/siteRecord';
import { countedAlone, countedWorkPlugin } from './countedWork';
import { measureCli } from './helpers';

const LOOP = 40_000;

async function put(dir: string, rel: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
  await fs.writeFile(path.join(dir, rel), text);
}

async function measureSite(site: string, tmp: string): Promise<{ code: number; record: SiteRecord; err: string }> {
  const r = await measureCli([site, '--site', '--instructions', '--rounds', '3', '--warmup', '1', '--no-cache', '--json'], { ...process.env, WPBENCH_CACHE_DIR: path.join(tmp, 'cache') });
  return { code: r.code, record: JSON.parse(r.out || '{}') as SiteRecord, err: r.err };
}

describe('wp-bench measure SITE --site --instructions (native php, a throwaway MariaDB, Valgrind)', function () {
  this.timeout(900_000);
  let tmp: string;
  before(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-site-instr-'));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('a loop reads its own count in the site and alone; a plugin that does nothing reads within noise everywhere', async () => {
    const site = path.join(tmp, 'site');
    await put(site, 'wp-content/plugins/work/work.php', countedWorkPlugin(LOOP));
    await put(site, 'wp-content/plugins/noop/noop.php', "<?php\n/**\n * Plugin Name: Does nothing\n * Version: 1.0\n */\nadd_action('init', function () {});\n");
    const { code, record, err } = await measureSite(site, tmp);
    assert.equal(code, 0, err.slice(-2000));
    assert.equal(record.local.instructions?.counter, 'callgrind');
    const truth = countedAlone(LOOP, tmp);
    const work = record.components.find((c) => c.slug === 'work')!;
    const noop = record.components.find((c) => c.slug === 'noop')!;
    for (const ctx of CONTEXTS) {
      for (const [how, fig] of [['in the site', work.in_site?.contexts[ctx]], ['alone', work.alone?.contexts[ctx]]] as const) {
        const n = fig?.instructions_delta;
        assert.equal(typeof n, 'number', `work ${how}, ${ctx}: counted`);
        assert.ok(Math.abs(n! - truth) <= truth * 0.02 + INSTRUCTIONS_FLOOR, `work ${how}, ${ctx}: ${n} against ${truth} counted alone`);
      }
      for (const [how, fig] of [['in the site', noop.in_site?.contexts[ctx]], ['alone', noop.alone?.contexts[ctx]]] as const) {
        assert.equal(countInNoise(fig!), true, `noop ${how}, ${ctx}: ${fig?.instructions_delta} (spread ${fig?.spread?.instructions}) should read within noise`);
      }
      assert.ok(record.site.contexts[ctx]!.instructions_delta! > truth, `the stack costs at least the loop (${ctx})`);
    }
    assert.equal(record.instructions_varying, undefined, JSON.stringify(record.instructions_varying));
  });

  it('a plugin whose work changes from request to request is named, not averaged away', async () => {
    const site = path.join(tmp, 'varies');
    await put(site, 'wp-content/plugins/dice/dice.php', "<?php\n/**\n * Plugin Name: Rolls dice\n * Version: 1.0\n */\nadd_action('init', function () { $s = 0; for ($i = 0, $n = random_int(10000, 60000); $i < $n; $i++) { $s += $i % 7; } $GLOBALS['dice'] = $s; });\n");
    const { code, record, err } = await measureSite(site, tmp);
    assert.equal(code, 0, err.slice(-2000));
    const named = new Set((record.instructions_varying ?? []).map((v) => v.config));
    assert.ok(named.has('alone:plugin:dice') || named.has('stack'), `the dice plugin's configurations named: ${JSON.stringify(record.instructions_varying)}`);
    assert.match(err, /did different work from one counted request to the next/);
  });
});
