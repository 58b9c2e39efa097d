// The .vsix's Markdown links resolve inside the package (scripts/vsixLinks.ts, run by npm run package): vsce stores
// README.md as readme.md, so the docs' ../README.md is pointed there; a link to a file not shipped becomes its text;
// code is left alone; the zip it writes back reads the same, with WP Bench's one ZIP reader (src/core/measure/site/
// zip.ts). The README's screenshots are made small in the package and the .vsix stays under its budget (1 MB).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { codeSpans, finishVsix, rewriteLinks, VSIX_BUDGET, writeZip } from '../../scripts/vsixLinks';
import { decodePng } from '../../scripts/pngShrink';
import { readZip } from '../../src/core/measure/site/zip';

const ROOT = path.join(__dirname, '..', '..');

/** An RGB PNG of w×h whose every pixel differs from its neighbours (many colours, as a screenshot's text makes). */
function noisyPng(w: number, h: number): Buffer {
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w * 3; x++) raw[y * (w * 3 + 1) + 1 + x] = (x * 37 + y * 101 + ((x * y) % 13)) & 0xff;
  const chunk = (kind: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(Buffer.concat([Buffer.from(kind, 'latin1'), data])));
    return Buffer.concat([len, Buffer.from(kind, 'latin1'), data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

function tmpVsix(entries: { name: string; data: Buffer }[]): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-vsix-')), 'x.vsix');
  fs.writeFileSync(file, writeZip(entries.map((e) => ({ ...e, time: 0, date: 0x21 }))));
  return file;
}

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
    const one = writeZip([{ name: 'a', data: Buffer.from('123456789'), time: 0, date: 0 }]);
    assert.equal(one.readUInt32LE(14), 0xcbf43926, 'the CRC-32 of the entry');
    assert.throws(() => readZip(Buffer.from('not a zip at all, not at all')), /not a zip file/);
  });

  it('one ZIP reader: nothing but src/core/measure/site/zip.ts reads a zip\'s central directory', () => {
    const readers: string[] = [];
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
        const rel = `${dir}/${e.name}`;
        if (e.isDirectory()) walk(rel);
        else if (/\.(ts|mjs|js)$/.test(e.name) && /readUInt32LE\([^)]*\)\s*[!=]==\s*0x02014b50/.test(fs.readFileSync(path.join(ROOT, rel), 'utf8'))) readers.push(rel);
      }
    };
    for (const dir of ['src', 'scripts', 'bench']) walk(dir);
    assert.deepEqual(readers, ['src/core/measure/site/zip.ts']);
  });

  it('the README\'s screenshots are made small in the package: half size past 700 pixels, a palette of 64 colours', () => {
    const big = noisyPng(1400, 40);
    const small = noisyPng(300, 20);
    const file = tmpVsix([
      { name: 'extension/readme.md', data: Buffer.from('![a](docs/screenshots/a.png) ![b](docs/screenshots/b.png)') },
      { name: 'extension/docs/screenshots/a.png', data: big },
      { name: 'extension/docs/screenshots/b.png', data: small },
      { name: 'extension/media/icon.png', data: big },
    ]);
    const r = finishVsix(file);
    const out = new Map(readZip(fs.readFileSync(file)).map((e) => [e.name, e.data]));
    const a = out.get('extension/docs/screenshots/a.png')!;
    assert.equal(a[25], 3, 'a palette PNG');
    const img = decodePng(a);
    assert.deepEqual([img.width, img.height], [700, 20]);
    assert.ok(new Set(Array.from({ length: img.width * img.height }, (_, i) => img.rgba.readUInt32BE(i * 4))).size <= 64);
    assert.ok(a.length < big.length / 3, `${a.length} bytes of ${big.length}`);
    assert.equal(decodePng(out.get('extension/docs/screenshots/b.png')!).width, 300, 'a narrow one keeps its size');
    assert.deepEqual(out.get('extension/media/icon.png'), big, 'only the screenshots');
    assert.equal(r.size, fs.statSync(file).size);
    assert.ok(r.size < VSIX_BUDGET);
  });

  it('a .vsix of 1 MB or more fails the package step, naming its largest files', () => {
    assert.equal(VSIX_BUDGET, 1024 * 1024);
    let seed = 1;
    const noise = Buffer.from(Buffer.alloc(VSIX_BUDGET + 10_000, 0).map(() => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24));
    const file = tmpVsix([
      { name: 'extension/readme.md', data: Buffer.from('# x') },
      { name: 'extension/dist/big.js', data: noise },
    ]);
    assert.throws(() => finishVsix(file), /x\.vsix is 1\.0\d MB, over the budget of 1 MB[\s\S]*extension\/dist\/big\.js/);
  });
});
