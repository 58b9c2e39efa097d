// Text from files and the API made safe for a terminal, a CI log and a notification; amounts written for people
// (src/core/present/format.ts).
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ciSafeJson, formatInstructions, formatMemoryKb, instructionsDelta, instructionsPercent, neutralise, terminalSafe, uiPlainText } from '../../../src/core/present/format';
import { cli, tmpDir } from '../helpers/cliRun';
import { sampleBody } from '../helpers/samples';
import { json, startTestServer, type TestServer } from '../helpers/testServer';

describe('terminal and CI log: no escape sequence or workflow command gets through', function () {
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
    const dir = await tmpDir('wpb-h2-');
    await fs.writeFile(path.join(dir, '.wp-bench.json'), JSON.stringify({ 'x\u001b]0;T\u0007\n::error::team': 1 }));
    await fs.writeFile(path.join(dir, 'composer.json'), JSON.stringify({ require: { 'wpackagist-plugin/akismet': '*' } }));
    // An API that answers with terminal escapes in the name.
    server.handle((_req, res) => json(res, 200, sampleBody({ name: 'Evil\u001b]52;c;cGF5bG9hZA==\u0007\u001b[2J\n::error::pwned' }), { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9', 'x-ratelimit-reset': '3600' }));
    const env = { WPBENCH_API_URL: server.url, WPBENCH_API_KEY: 'k', WPBENCH_CACHE_DIR: await tmpDir('wpb-h2-cache-') };
    for (const args of [['check', dir], ['scan', dir], ['lookup', 'plugin', 'akismet']]) {
      const r = await cli(args, env, dir);
      const all = `${r.out}\n${r.err}`;
      assert.doesNotMatch(all, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, `${args[0]}: no control characters`);
      assert.ok(!all.split('\n').some((l) => /^\s*::/.test(l)), `${args[0]}: no line starts a workflow command:\n${all}`);
    }
  });

  it('6. ##vso[ is neutralised anywhere in a line, on every print path; JSON stays JSON with the same values', async () => {
    assert.doesNotMatch(terminalSafe('name: x ##vso[task.setvariable variable=a]b and ##VSO[task.complete]'), /##vso\[/i);
    assert.deepEqual(JSON.parse(ciSafeJson(JSON.stringify({ n: 'a ##vso[x]b \\##vso[' }))), { n: 'a ##vso[x]b \\##vso[' });
    const apiName = 'Pwn ##vso[task.complete result=Failed]done';
    const headerName = 'Evil ##vso[task.prependpath]/tmp/evil';
    const dir = await tmpDir('wpb-h3-');
    const folder = path.join(dir, 'wp-content', 'plugins', '##vso[task.setvariable variable=x]y');
    await fs.mkdir(folder, { recursive: true });
    await fs.writeFile(path.join(folder, 'plugin.php'), `<?php\n/*\n * Plugin Name: ${headerName}\n */\n`);
    await fs.writeFile(path.join(dir, 'composer.json'), JSON.stringify({ require: { 'wpackagist-plugin/akismet': '*', 'wpackagist-plugin/##vso[task.uploadfile]x': '*' } }));
    server.handle((req, res) => {
      const slug = decodeURIComponent((req.url ?? '').split('?')[0].split('/').pop() ?? '');
      json(res, 200, sampleBody({ slug, name: apiName }), { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9', 'x-ratelimit-reset': '3600' });
    });
    const env = { WPBENCH_API_URL: server.url, WPBENCH_API_KEY: 'k', WPBENCH_CACHE_DIR: await tmpDir('wpb-h3-cache-') };
    const runs: [string[], 'json' | 'text'][] = [
      [['check', dir], 'text'],
      [['check', dir, '--format', 'json'], 'json'],
      [['check', dir, '--format', 'sarif'], 'json'],
      [['check', dir, '--format', 'markdown'], 'text'],
      [['scan', dir], 'text'],
      [['scan', dir, '--json'], 'json'],
      [['lookup', 'plugin', 'akismet'], 'text'],
      [['lookup', 'plugin', 'akismet', '--json'], 'json'],
    ];
    for (const [args, kind] of runs) {
      const r = await cli(args, env, dir);
      const label = args.join(' ');
      assert.doesNotMatch(`${r.out}\n${r.err}`, /##vso\[/i, `${label}: an Azure Pipelines command reached the log:\n${r.out}\n${r.err}`);
      if (kind === 'json') {
        const value = JSON.stringify(JSON.parse(r.out));
        assert.ok(value.includes('##vso[task.'), `${label}: the JSON keeps the names as they are`);
      }
    }
  });
});

describe('notifications: strings from the API are plain text', () => {
  it('1. an API string is plain text in a notification: no link, no command: URI, no icon', () => {
    const tier = 'pro [Renew now](command:wpBench.setApiUrl?%22http://attacker/%22) $(warning)';
    const shown = uiPlainText(`API key saved — ${tier}`);
    assert.doesNotMatch(shown, /\]\(/, 'no markdown link');
    assert.doesNotMatch(shown, /\$\(/, 'no theme icon');
    assert.match(shown, /Renew now/, 'the words stay readable');
  });
});

describe('memory amounts: a small value never reads as zero', () => {
  it('under 1 MB in KB, from 1 MB in MB; a nonzero value never reads as zero (issue 26)', () => {
    assert.equal(formatMemoryKb(0), '0 KB');
    assert.equal(formatMemoryKb(3), '3 KB');
    assert.equal(formatMemoryKb(-3), '-3 KB');
    assert.equal(formatMemoryKb(1), '1 KB');
    assert.equal(formatMemoryKb(0.5), '0.5 KB');
    assert.equal(formatMemoryKb(0.01), '0.1 KB');
    assert.equal(formatMemoryKb(40), '40 KB');
    assert.equal(formatMemoryKb(512), '512 KB');
    assert.equal(formatMemoryKb(1023.4), '1023 KB');
    assert.equal(formatMemoryKb(1023.6), '1.0 MB');
    assert.equal(formatMemoryKb(1536), '1.5 MB');
    assert.equal(formatMemoryKb(-4096), '-4.0 MB');
    assert.equal(formatMemoryKb(20480), '20 MB');
    for (let kb = 0.01; kb < 200_000; kb *= 1.37) {
      for (const v of [kb, -kb]) {
        const text = formatMemoryKb(v);
        assert.doesNotMatch(text, /^-?0(\.0+)? (KB|MB)$/, `${v} KB`);
        assert.doesNotMatch(text, /\.\d\d/, `${v} KB: at most one decimal`);
        assert.match(text, Math.abs(v) < 1023.5 ? / KB$/ : / MB$/, `${v} KB`);
      }
    }
  });
});

describe('instruction counts: three significant digits with K, M, G', () => {
  it('exact under 1,000, then K/M/G; signed on demand; never "-0" nor "1000 K"', () => {
    const cases: Array<[number, boolean, string]> = [
      [740, false, '740 instr'],
      [12_345, false, '12.3 K instr'],
      [123_456, false, '123 K instr'],
      [999_600, false, '1.00 M instr'],
      [1_420_000, false, '1.42 M instr'],
      [290_123_456, false, '290 M instr'],
      [1_500_000_000, false, '1.50 G instr'],
      [1_420_000, true, '+1.42 M instr'],
      [-1_420_000, true, '−1.42 M instr'],
      [-0.3, true, '±0 instr'],
      [0, false, '0 instr'],
    ];
    for (const [n, sign, text] of cases) assert.equal(formatInstructions(n, sign), text);
    for (let n = 1; n < 1e13; n *= 1.37) assert.match(formatInstructions(n), /^(\d{1,3}|\d\.\d\d [KMGT]|\d\d\.\d [KMGT]|\d{3} [KMGT]) instr$/, String(n));
  });

  it('percent of the clean site\'s count, and "within noise" inside the spread', () => {
    assert.equal(instructionsPercent(2_610_000, 290_000_000), '+0.9 %');
    assert.equal(instructionsPercent(-100_000, 290_000_000), '−0.03 %');
    assert.equal(instructionsPercent(1, 290_000_000), '±0 %');
    assert.equal(instructionsDelta(2_610_000, 290_000_000, 20_000), '+2.61 M instr (+0.9 %)');
    assert.equal(instructionsDelta(-15_000, 290_000_000, 20_000), '±15.0 K instr (within noise)');
    assert.equal(instructionsDelta(0, 290_000_000, 0), '±0 instr (within noise)');
  });
});
