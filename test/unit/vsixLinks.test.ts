// The .vsix's Markdown links resolve inside the package (scripts/vsixLinks.ts, run by npm run package): vsce stores
// README.md as readme.md, so the docs' ../README.md is pointed there; a link to a file not shipped becomes its text;
// code is left alone; the zip it writes back reads the same.
import * as assert from 'node:assert/strict';
import { codeSpans, crc32, readZip, rewriteLinks, writeZip } from '../../scripts/vsixLinks';

const NAMES = ['extension/readme.md', 'extension/changelog.md', 'extension/docs/README.md', 'extension/docs/measuring-locally.md', 'extension/docs/screenshots/tree.png', 'extension/package.json'];

describe('the packaged extension\'s links', () => {
  it('a docs page\'s ../README.md and ../CHANGELOG.md point at the names vsce packs, fragment kept', () => {
    const r = rewriteLinks('extension/docs/measuring-locally.md', '[WP Bench](../README.md) › [Documentation](README.md) · [log](../CHANGELOG.md#010) [db](#the-database)', NAMES);
    assert.equal(r.text, '[WP Bench](../readme.md) › [Documentation](README.md) · [log](../changelog.md#010) [db](#the-database)');
    assert.deepEqual(r.renamed, ['../README.md → ../readme.md', '../CHANGELOG.md#010 → ../changelog.md#010']);
    assert.deepEqual(r.unlinked, []);
  });

  it('packaged files, folders and web addresses stay links; a file not shipped becomes its text (an image its alt text)', () => {
    const md = '[docs](docs/README.md) [shots](docs/screenshots/) ![tree](docs/screenshots/tree.png) [site](https://example.org/x.md) [script](scripts/install-code-server.sh) ![gone](docs/screenshots/gone.png)';
    const r = rewriteLinks('extension/readme.md', md, NAMES);
    assert.equal(r.text, '[docs](docs/README.md) [shots](docs/screenshots/) ![tree](docs/screenshots/tree.png) [site](https://example.org/x.md) script *gone*');
    assert.deepEqual(r.unlinked, ['scripts/install-code-server.sh', 'docs/screenshots/gone.png']);
  });

  it('code blocks and inline code (of any fence length) are left as they are', () => {
    const md = ['```md', '[x](../README.md)', '```', 'a ``x `[y](nope.md)` z`` and `[q](nope.md)` then [r](nope.md)'].join('\n');
    assert.equal(rewriteLinks('extension/docs/README.md', md, NAMES).text, ['```md', '[x](../README.md)', '```', 'a ``x `[y](nope.md)` z`` and `[q](nope.md)` then r'].join('\n'));
    assert.deepEqual(codeSpans('a `b` ``c ` d`` `e'), [
      { code: false, text: 'a ' },
      { code: true, text: '`b`' },
      { code: false, text: ' ' },
      { code: true, text: '``c ` d``' },
      { code: false, text: ' `e' },
    ]);
  });

  it('the zip written back holds the same entries, names and dates', () => {
    const entries = [
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>'), time: 0x6b20, date: 0x5b7b },
      { name: 'extension/docs/é.md', data: Buffer.from('x'.repeat(5000)), time: 1, date: 2 },
      { name: 'extension/empty', data: Buffer.alloc(0), time: 3, date: 4 },
    ];
    assert.deepEqual(readZip(writeZip(entries)), entries);
    assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
    assert.throws(() => readZip(Buffer.from('not a zip at all, not at all')), /not a zip file/);
  });
});
