// Patterns that read workspace or API text run in linear time: hostile input of any length is read in well under a
// second (issue 18, finding 1: each row failed on the code before, some never finished).
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { normaliseApiUrl } from '../../../src/core/api/client';
import { parseRateLimitHeaders } from '../../../src/core/api/quota';
import type { DetectedComponent } from '../../../src/core/model';
import { parseComposerJson, parseComposerLock, parseWpEnv, scanWorkspace, wordPressOrgUriSlug } from '../../../src/core/scan';
import { parseFileHeaders, PLUGIN_HEADER_NAMES } from '../../../src/core/scan/headers';
import { tmpDir } from '../helpers/cliRun';

/**
 * Runs `fn` and fails when it took `ms` or more. A regex runs synchronously: no timer can interrupt it, so the
 * time is measured around the call (a mocha timeout would only be noticed after it returns).
 */
function within<T>(ms: number, label: string, fn: () => T): T {
  const started = performance.now();
  const result = fn();
  const took = performance.now() - started;
  assert.ok(took < ms, `${label}: took ${Math.round(took)} ms (limit ${ms} ms)`);
  return result;
}

describe('linear time on hostile input: scan parsers, the API address, rate-limit headers', function () {
  this.timeout(30_000);

  it('1. a 57-byte composer.json with a hostile package name scans in well under a second', async function () {
    this.timeout(2000);
    const dir = await tmpDir('wpb-h3-');
    await fs.writeFile(path.join(dir, 'composer.json'), '{"require":{"wpackagist-plugin/aaaaaaaaaaaaaaaa!":"*"}}');
    const started = performance.now();
    const r = await scanWorkspace(dir);
    assert.ok(performance.now() - started < 1000, `the scan took ${Math.round(performance.now() - started)} ms`);
    assert.deepEqual(r.components, []);
    assert.match(r.problems.map((p) => p.message).join('\n'), /"wpackagist-plugin\/a{16}!" is not a valid Composer package name/);
  });

  it('1. every pattern that reads workspace or API text runs in linear time on long hostile input', () => {
    const long = 100_000;
    const lockOf = (names: string[]) => JSON.stringify({ packages: names.map((name) => ({ name, type: 'wordpress-plugin', version: '1.0' })) });
    const hostileNames = [`wpackagist-plugin/${'a'.repeat(10_000)}!`, `wpackagist-plugin/${'a-'.repeat(5_000)}!`, `wpackagist-plugin/${'a.a--'.repeat(2_000)}!`, `${'a_'.repeat(5_000)}!/x`];
    // First the rows the old code took seconds on (quadratic), then the exponential ones it never finished.
    // Each row: the call under the deadline, then what it must have found.
    const rows: [string, () => unknown, (r: any) => void][] = [
      ['.wp-env.json: a query with a line break', () => parseWpEnv(JSON.stringify({ plugins: [`https://x.test/a.zip${'?'.repeat(long)}\nx`] }), '.wp-env.json'),
        (r) => assert.deepEqual(r.components.map((c: DetectedComponent) => c.slug), ['a'])],
      ['.wp-env.json: a .zip URL with a long dotted version', () => parseWpEnv(JSON.stringify({ plugins: [`https://x.test/p${'.1'.repeat(long / 2)}x.zip`, `https://x.test/p${'.1'.repeat(long / 2)}.zip`] }), '.wp-env.json'),
        (r) => assert.deepEqual(r.components.map((c: DetectedComponent) => [c.slug, c.version?.length]), [['p', long - 1]], 'the other is no slug (over 200 characters)')],
      ['.wp-env.json: a git address made of @', () => parseWpEnv(JSON.stringify({ plugins: ['a@'.repeat(long / 2), `${'a@'.repeat(long / 2)}h:x.git`] }), '.wp-env.json'),
        (r) => assert.deepEqual(r.components.map((c: DetectedComponent) => c.slug), ['x'])],
      ['.wp-env.json: the other source forms (wordpress.org, GitHub, owner/repo, git, local)', () => parseWpEnv(JSON.stringify({ plugins: [
        `https://downloads.wordpress.org/plugin/${'a'.repeat(long)}.zipx`, `https://github.com/${'a/'.repeat(long / 2)}`, `https://codeload.github.com/a/${'b'.repeat(long)} `,
        `o/r${'/x'.repeat(long / 2)} y`, `o/${'r'.repeat(long)} #`, `git+ssh://${'h'.repeat(long)}.git.git`, `${'./'.repeat(long / 2)}x`,
      ] }), '.wp-env.json'),
        (r) => assert.deepEqual([r.components.map((c: DetectedComponent) => c.slug), r.problems.length], [['a', 'x'], 5])],
      ['composer.json: a WordPress install folder made of slashes', () => parseComposerJson(JSON.stringify({ extra: { 'wordpress-install-dir': `wp${'/'.repeat(long)}x` } }), 'composer.json'),
        (r) => assert.ok(r.coreDir?.endsWith('/x'))],
      ['the API address with a long run of slashes', () => normaliseApiUrl(`http://127.0.0.1:9/api${'/'.repeat(long)}x`),
        (r) => assert.equal(r.hostname, '127.0.0.1')],
      ['composer.json: package names that backtrack exponentially', () => parseComposerJson(JSON.stringify({ require: Object.fromEntries([...hostileNames, 'wpackagist-plugin/ok-name.v2--x'].map((n) => [n, '*'])) }), 'composer.json'),
        (r) => {
          assert.deepEqual(r.components.map((c: DetectedComponent) => c.slug), ['ok-name.v2--x']);
          assert.equal(r.problems.length, hostileNames.length - 1, 'a vendor without a WordPress prefix is not a WordPress package');
        }],
      ['composer.lock: the same names', () => parseComposerLock(lockOf(hostileNames), 'composer.lock'), (r) => assert.equal(r.problems.length, hostileNames.length)],
      ['plugin headers: 8 KiB of repeated names, colons and comment marks',
        () => [`<?php\n${'Plugin Name:'.repeat(700)}`, `/*${' '.repeat(8000)}Plugin Name: x ${' '.repeat(100)}`, `Plugin Name: ${' \t'.repeat(4000)}*`].map((body) => parseFileHeaders(body, PLUGIN_HEADER_NAMES)['Plugin Name']),
        (r) => assert.deepEqual([r[0].slice(0, 12), r[1], r[2]], ['Plugin Name:', 'x', '*'])],
      ['Plugin URI headers', () => [`https://wordpress.org/plugins/${'a'.repeat(long)} `, `https://wordpress.org/plugins/a/${'?'.repeat(long)}\n`, 'https://'.repeat(long / 8)].map((uri) => wordPressOrgUriSlug(uri, 'plugin')),
        (r) => assert.deepEqual(r, [null, 'a', null])],
      ['rate-limit headers from the API', () => parseRateLimitHeaders({ 'x-ratelimit-limit': `${' '.repeat(long)}1x`, 'x-ratelimit-remaining': `1${'.1'.repeat(long / 2)}`, 'x-ratelimit-reset': `2026-01-01${' '.repeat(long)}` }, Date.now()),
        (r) => assert.equal(r?.limit ?? null, null)],
    ];
    for (const [label, run, check] of rows) check(within(1000, label, run));
  });
});
