// Markdown escaping per place (text, code span, link target): each row is the exact output for a hostile input.
import assert from 'node:assert/strict';
import { escapeMarkdown, markdownCode, markdownLink, markdownLinkTarget } from '../../../src/core/present/markdownEscape';

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
