// Markdown escaping per place (text, code span, link target): each row is the exact output for a hostile input.
import assert from 'node:assert/strict';
import { escapeMarkdown, markdownCode, markdownLink, markdownLinkTarget } from '../../../src/core/present/markdownEscape';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseRecord } from '../../../src/core/api/record';
import type { LookupOutcome } from '../../../src/core/lookup/lookupService';
import type { DetectedComponent } from '../../../src/core/model';
import { diffJudgements } from '../../../src/core/report/diff';
import { toMarkdown, toSarif } from '../../../src/core/report/formats';
import { judge, type JudgeConfig } from '../../../src/core/report/judge';
import { cli, tmpDir } from '../helpers/cliRun';
import { sampleBody } from '../helpers/samples';

const ZWJ = '\u200d';

describe('markdown escaping', () => {
  it('text: what Markdown needs is escaped (and nothing else), line breaks and control characters go, no @mention survives', () => {
    const rows: [string, string][] = [
      ['plain words', 'plain words'],
      ['a*b_c', 'a\\*b\\_c'],
      ['![px](http://x/t.png)', '!\\[px\\](http\\://x/t.png)'],
      ['<img src=x>', '\\<img src=x\\>'],
      ['a | b', 'a \\| b'],
      ['cc @octocat', `cc \\@${ZWJ}octocat`],
      ['me@example.com', `me\\@${ZWJ}example.com`],
      ['www.evil.test', 'www\\.evil.test'],
      ['https://evil.test/x', 'https\\://evil.test/x'],
      ['FAILED: 9 budgets exceeded.', 'FAILED: 9 budgets exceeded.'],
      ['plugin-name 1.2.3 (beta)', 'plugin-name 1.2.3 (beta)'],
      ['# heading', '\\# heading'],
      ['- item', '\\- item'],
      ['+ item', '\\+ item'],
      ['12. item', '12\\. item'],
      ['3) item', '3\\) item'],
      ['=== setext', '\\=== setext'],
      ['a &amp; b &lt;x&gt; AT&T', 'a \\&amp; b \\&lt;x\\&gt; AT&T'],
      ['costs $5 and $x^2$', 'costs \\$5 and \\$x^2\\$'],
      ['~~struck~~', '\\~\\~struck\\~\\~'],
      ['line\nbreak\r\nand\rmore', 'line break and more'],
      ['bell\u0007 esc\u001b', 'bell esc'],
      ['back\\slash `tick`', 'back\\\\slash \\`tick\\`'],
    ];
    for (const [input, expected] of rows) assert.equal(escapeMarkdown(input), expected, JSON.stringify(input));
  });

  it('code span: a longer fence than any backtick run inside, padded at a backtick edge, `|` escaped for a table', () => {
    const rows: [string, string][] = [
      ['akismet', '`akismet`'],
      ['a`b', '``a`b``'],
      ['x` ![px](http://x/t.png) <img src=x> | @octocat `y', '``x` ![px](http://x/t.png) <img src=x> \\| @octocat `y``'],
      ['`edge`', '`` `edge` ``'],
      ['a``b```c', '````a``b```c````'],
      [' spaced ', '`  spaced  `'],
      ['two\nlines', '`two lines`'],
      ['', ''],
    ];
    for (const [input, expected] of rows) assert.equal(markdownCode(input), expected, JSON.stringify(input));
  });

  it('link target: http(s) only; characters that end a target, split a cell or open markup are percent-encoded', () => {
    const rows: [string | null, string | null][] = [
      ['https://wpbench.test/p/akismet', 'https://wpbench.test/p/akismet'],
      ['https://x.test/p|@octocat|https://x.test/phish|', 'https://x.test/p%7C@octocat%7Chttps://x.test/phish%7C'],
      ['https://x.test/a)(b', 'https://x.test/a%29%28b'],
      ['https://x.test/a b<c>', 'https://x.test/a%20b%3Cc%3E'],
      ['https://x.test/[x]`y`', 'https://x.test/%5Bx%5D%60y%60'],
      ['javascript:alert(1)', null],
      ['command:wpBench.setApiKey', null],
      ['not a url', null],
      [null, null],
    ];
    for (const [input, expected] of rows) assert.equal(markdownLinkTarget(input), expected, JSON.stringify(input));
  });

  it('link: the label with its target, or the label alone when the address is unusable', () => {
    assert.equal(markdownLink('`akismet`', 'https://x.test/p|q'), '[`akismet`](https://x.test/p%7Cq)');
    assert.equal(markdownLink('`akismet`', 'javascript:alert(1)'), '`akismet`');
    assert.equal(markdownLink('`akismet`', null), '`akismet`');
  });
});

/** The Markdown outside code spans (CommonMark: a run of n backticks is closed by the next run of exactly n). */
function outsideCodeSpans(md: string): string {
  let out = '';
  let i = 0;
  while (i < md.length) {
    if (md[i] === '\\') {
      out += md.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (md[i] !== '`') {
      out += md[i++];
      continue;
    }
    let n = 0;
    while (md[i + n] === '`') n++;
    let j = i + n;
    let close = -1;
    while (j < md.length) {
      if (md[j] !== '`') {
        j++;
        continue;
      }
      let m = 0;
      while (md[j + m] === '`') m++;
      if (m === n) {
        close = j;
        break;
      }
      j += m;
    }
    if (close < 0) {
      out += md.slice(i, i + n);
      i += n;
    } else {
      out += '(code)';
      i = close + n;
    }
  }
  return out;
}

/** Asserts that `md` renders hostile strings as text: no HTML, image, mention, bare link or extra table cell. */
function assertInert(md: string, allowedTargets: string[]): void {
  const text = outsideCodeSpans(md);
  // An escaped `\]` closes no link: only an unescaped `](` starts a target.
  const targets = [...text.matchAll(/(?<!\\)\]\(([^)]*)\)/g)].map((m) => m[1]);
  for (const t of targets) assert.ok(allowedTargets.includes(t), `unexpected link target ${t}`);
  const rest = text.replace(/(?<!\\)\]\(([^)]*)\)/g, ']').replace(/<\/?sub>/g, ''); // <sub>: the report's own notes
  assert.doesNotMatch(rest, /(?<!\\)</, 'no raw HTML');
  assert.doesNotMatch(rest, /(?<!\\)!(?=\[)/, 'no image');
  assert.doesNotMatch(rest, /@[A-Za-z0-9]/, 'no @mention');
  assert.doesNotMatch(rest, /https?:\/\/|www\./i, 'no bare link');
  // Every row of a table has the header's cell count (GFM splits cells on every unescaped `|`).
  const cells = (line: string) => line.split(/(?<!\\)\|/).length;
  let header = 0;
  for (const line of md.split('\n')) {
    if (!line.startsWith('|')) header = 0;
    else if (header === 0) header = cells(line);
    else assert.equal(cells(line), header, `a row with a different cell count:\n${line}`);
  }
}

const CONFIG: JudgeConfig = { failOn: 'C', context: 'homepage', budgets: {}, ignore: [] };
const HOSTILE_SLUG = 'x` ![px](http://127.0.0.1:9/t.png) <img src=x> | @octocat `y';
/** The same as a folder name (no `/`; Windows forbids `<`, `>` and `|` in names too). */
const HOSTILE_FOLDER = process.platform === 'win32' ? 'x` ![px](t.png) @octocat `y' : 'x` ![px](t.png) <img src=x> | @octocat `y';
const HOSTILE_PROFILE = 'https://wpbench.test/p|@octocat|https://phish.test/login|';

function component(slug: string, version: string | null = null): DetectedComponent {
  return { kind: 'plugin', slug, name: null, version, locations: [{ file: `wp-content/plugins/${slug}/${slug}.php`, line: 3, column: 4, length: 5, source: 'plugin-header' }] };
}

function outcome(slug: string, extra: Record<string, unknown>): LookupOutcome {
  return { kind: 'plugin', slug, result: parseRecord(sampleBody({ slug, ...extra }), 'plugin', slug), stale: false, fromCache: true, fetchedAt: 0 };
}

describe('reports: hostile folder names and API strings stay text in Markdown and SARIF', function () {
  this.timeout(30_000);

  it('3. folder names and API links cannot inject Markdown: code spans, table cells, link targets, diff rows', () => {
    const hostile = component(HOSTILE_SLUG, '1.0');
    const akismet = component('akismet');
    const outcomes = new Map([['plugin/akismet', outcome('akismet', { name: 'Aki | @octocat <b>x</b> ![i](https://t.test/i.png)', links: { profile: HOSTILE_PROFILE } })]]);
    const head = judge({ components: [hostile, akismet], outcomes, config: CONFIG });
    const base = judge({ components: [component(HOSTILE_SLUG, '0.9')], outcomes, config: CONFIG });
    const expectedTarget = 'https://wpbench.test/p%7C@octocat%7Chttps://phish.test/login%7C';
    const added = toMarkdown(head, { diff: diffJudgements('main', base, head) });
    const removed = toMarkdown(base, { diff: diffJudgements('main', head, base) });
    for (const md of [toMarkdown(head), added, removed]) assertInert(md, [expectedTarget]);
    assert.match(added, /\| ➕ added \| \[Aki/);
    assert.match(removed, /\| ➖ removed \| \[Aki/);
    assert.match(added, /\| 🔄 version \| ``x` !\[px\]/, 'the changed row keeps the slug in a code span');
    assert.ok(toMarkdown(head).includes('``x` ![px](http://127.0.0.1:9/t.png) <img src=x> \\| @octocat `y``'), 'the slug reads as written');
  });

  it('3. check --format markdown: a plugin folder named to inject markup stays text', async () => {
    const dir = await tmpDir('wpb-h3-');
    const folder = path.join(dir, 'wp-content', 'plugins', HOSTILE_FOLDER);
    await fs.mkdir(folder, { recursive: true });
    await fs.writeFile(path.join(folder, `${HOSTILE_FOLDER}.php`), '<?php\n/*\n * Plugin Name: Evil <img src=x> @octocat\n */\n');
    const env = { WPBENCH_API_URL: 'http://127.0.0.1:9/api', WPBENCH_CACHE_DIR: await tmpDir('wpb-h3-cache-') };
    const r = await cli(['check', dir, '--offline', '--format', 'markdown'], env, dir);
    assert.equal(r.code, 0, r.err);
    assert.ok(r.out.includes('`x` ![px]'), `the folder is in the report:\n${r.out}`);
    assertInert(r.out, []);
  });

  it('7. SARIF message text escapes [ and ]: a name cannot become an embedded link', () => {
    const name = 'Evil [Security advisory: click to fix](https://phish.test/fix) \\[x\\]';
    const outcomes = new Map([['plugin/akismet', outcome('akismet', { name, speed_score: { grade: 'F', numeric: 3 } })]]);
    const sarif = JSON.parse(toSarif(judge({ components: [component('akismet')], outcomes, config: CONFIG })));
    const [result] = sarif.runs[0].results;
    const text: string = result.message.text;
    assert.ok(text.includes('Evil \\[Security advisory: click to fix\\](https://phish.test/fix) \\\\\\[x\\\\\\]'), text);
    assert.doesNotMatch(text.replace(/\\[\\[\]]/g, ''), /[[\]]/, 'every bracket is escaped');
  });
});
