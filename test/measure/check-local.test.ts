// Integration: `wp-bench check --measure-local` on a small site (one plugin the API knows, one custom plugin) against
// the emulator on 127.0.0.1: the custom plugin is measured with the native php runtime, counted in the site total
// and marked "measured locally" in every report, never mixed with the API's numbers.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../src/cli/index';
import { DEMO, startEmulator, type Emulator } from '../../src/emulator/server';

const CUSTOM = `<?php
/**
 * Plugin Name: Acme Custom
 * Version: 2.0.0
 */
add_action('init', function () {
  $GLOBALS['acme_custom'] = str_repeat('x', 2 * 1024 * 1024);
  global $wpdb;
  $wpdb->get_var('SELECT 1');
  $wpdb->get_var('SELECT 2');
});
`;

describe('wp-bench check --measure-local (native php, emulator on 127.0.0.1)', function () {
  let emulator: Emulator;
  let dir: string;
  let cache: string;
  before(async () => {
    emulator = await startEmulator();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-check-local-'));
    cache = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-check-local-cache-'));
    await fs.writeFile(path.join(dir, 'composer.json'), JSON.stringify({ require: { 'wpackagist-plugin/akismet': '*' } }));
    await fs.mkdir(path.join(dir, 'wp-content/plugins/acme-custom'), { recursive: true });
    await fs.writeFile(path.join(dir, 'wp-content/plugins/acme-custom/acme-custom.php'), CUSTOM);
  });
  after(async () => {
    await emulator.close();
    await fs.rm(dir, { recursive: true, force: true });
    await fs.rm(cache, { recursive: true, force: true });
  });

  const run = async (args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const env = { ...process.env, WPBENCH_API_URL: emulator.url, WPBENCH_API_KEY: DEMO.pro, WPBENCH_CACHE_DIR: cache };
    const code = await runCli(['check', dir, ...args], { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd: dir });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('the custom plugin is measured, counted in the total and marked as local in JSON, table, Markdown and HTML', async () => {
    const j = await run(['--measure-local', '--format', 'json', '--timeout-s', '120']);
    assert.equal(j.code, 0, j.err);
    const r = JSON.parse(j.out);
    const acme = r.components.find((c: any) => c.slug === 'acme-custom');
    const akismet = r.components.find((c: any) => c.slug === 'akismet');
    assert.equal(acme.source, 'local');
    assert.equal(acme.grade, null, 'no grade the API did not give');
    assert.match(acme.local.label, /^measured locally, PHP \d+\.\d+, WordPress 6\.1\.9, MariaDB \d+\.\d+, \d{4}-\d{2}-\d{2}$/);
    assert.equal(acme.contexts.homepage.queriesDelta, 2);
    assert.ok(Math.abs(acme.contexts.homepage.memoryDeltaKb - 2048) < 256, `memory ${acme.contexts.homepage.memoryDeltaKb}`);
    assert.equal(akismet.source, 'api');
    assert.equal(r.siteTotal.local, 1);
    assert.equal(r.siteTotal.benchmarked, 1);
    assert.equal(r.siteTotal.sources, '1 from the benchmark API, 1 measured locally, 0 unknown');
    assert.equal(r.siteTotal.homepage.measured, 2);
    assert.equal(r.siteTotal.homepage.queriesDelta, akismet.contexts.homepage.queriesDelta + 2);

    // A second run answers from the measure cache; every format marks the row.
    const table = await run(['--measure-local']);
    assert.match(table.out, /acme-custom.*measured locally, PHP/);
    assert.match(table.out, /Site total: 1 from the benchmark API, 1 measured locally, 0 unknown/);
    const md = await run(['--measure-local', '--format', 'markdown']);
    assert.match(md.out, /🖥 measured locally, PHP/);
    const html = await run(['--measure-local', '--format', 'html']);
    assert.match(html.out, /class="local">measured locally, PHP/);
    const sarif = JSON.parse((await run(['--measure-local', '--format', 'sarif'])).out);
    assert.equal(sarif.runs[0].properties.measuredLocally[0].slug, 'acme-custom');
  });

  it('without --measure-local nothing is measured: the custom plugin stays unknown', async () => {
    const r = JSON.parse((await run(['--format', 'json'])).out);
    const acme = r.components.find((c: any) => c.slug === 'acme-custom');
    assert.equal(acme.source, 'api');
    assert.equal(acme.state, 'not-in-dataset');
    assert.equal(r.siteTotal.sources, '1 from the benchmark API, 0 measured locally, 1 unknown');
  });

  it('--offline --measure-local with no API address at all: nothing from the API, the local measurement judged (issue 29)', async () => {
    const out: string[] = [];
    const err: string[] = [];
    // No WPBENCH_API_URL, no key: a plugin author without a subscription.
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, WPBENCH_CACHE_DIR: cache };
    const code = await runCli(['check', dir, '--offline', '--measure-local', '--format', 'json', '--timeout-s', '120'], { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd: dir });
    assert.equal(code, 0, err.join('\n'));
    assert.match(err.join('\n'), /no API address \(--offline --measure-local\): nothing from the benchmark API/);
    const r = JSON.parse(out.join('\n'));
    const acme = r.components.find((c: any) => c.slug === 'acme-custom');
    assert.equal(acme.source, 'local');
    assert.equal(acme.contexts.homepage.queriesDelta, 2);
    assert.equal(r.siteTotal.benchmarked, 0, 'nothing from the API');
    assert.equal(r.siteTotal.local, 1);
  });
});
