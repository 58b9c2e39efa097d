// The .vsix's screenshots made small (scripts/pngShrink.ts): PNGs of every 8-bit colour type read back to their
// pixels, scaled down by area averaging, reduced to a palette that keeps an image of few colours exact.
import * as assert from 'node:assert/strict';
import * as zlib from 'node:zlib';
import { decodePng, encodePalettePng, quantize, scaleDown, shrinkPng, type Image } from '../../scripts/pngShrink';

/** A PNG of colour type `type` from its raw samples, each row with the given filter (the bytes already filtered). */
function png(width: number, height: number, type: number, rows: Buffer[], extra: Array<[string, Buffer]> = []): Buffer {
  const chunk = (kind: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(Buffer.concat([Buffer.from(kind, 'latin1'), data])));
    return Buffer.concat([len, Buffer.from(kind, 'latin1'), data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = type;
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), ...extra.map(([k, d]) => chunk(k, d)), chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

const pixels = (img: Image) => Array.from({ length: img.width * img.height }, (_, i) => [...img.rgba.subarray(i * 4, i * 4 + 4)]);

describe('screenshots made small for the .vsix', () => {
  it('reads RGB rows under each filter (none, sub, up, average, Paeth), grey, grey+alpha and palette with tRNS', () => {
    // Two RGB rows of 2 pixels: (10,20,30) (40,50,60) / (70,80,90) (100,110,120), the second row in each filter.
    const row0 = Buffer.from([0, 10, 20, 30, 40, 50, 60]);
    const want = [[10, 20, 30, 255], [40, 50, 60, 255], [70, 80, 90, 255], [100, 110, 120, 255]];
    const second: Record<number, number[]> = {
      0: [70, 80, 90, 100, 110, 120],
      1: [70, 80, 90, 30, 30, 30],
      2: [60, 60, 60, 60, 60, 60],
      3: [70 - 5, 80 - 10, 90 - 15, 100 - 55, 110 - 65, 120 - 75],
      4: [60, 60, 60, 30, 30, 30],
    };
    for (const [f, bytes] of Object.entries(second)) assert.deepEqual(pixels(decodePng(png(2, 2, 2, [row0, Buffer.from([Number(f), ...bytes])]))), want, `filter ${f}`);
    assert.deepEqual(pixels(decodePng(png(2, 1, 0, [Buffer.from([0, 7, 200])]))), [[7, 7, 7, 255], [200, 200, 200, 255]]);
    assert.deepEqual(pixels(decodePng(png(1, 1, 4, [Buffer.from([0, 9, 128])]))), [[9, 9, 9, 128]]);
    const pal = png(2, 1, 3, [Buffer.from([0, 1, 0])], [['PLTE', Buffer.from([1, 2, 3, 4, 5, 6])], ['tRNS', Buffer.from([0])]]);
    assert.deepEqual(pixels(decodePng(pal)), [[4, 5, 6, 255], [1, 2, 3, 0]]);
    assert.throws(() => decodePng(Buffer.from('GIF89a, not a PNG at all')), /not a PNG/);
  });

  it('scales down by area: each new pixel the mean of the pixels it covers; never up', () => {
    const img: Image = { width: 4, height: 2, rgba: Buffer.from([0, 0, 0, 255, 100, 100, 100, 255, 10, 20, 30, 255, 10, 20, 30, 255, 200, 0, 0, 255, 100, 100, 100, 255, 10, 20, 30, 255, 10, 20, 30, 255]) };
    assert.deepEqual(pixels(scaleDown(img, 2)), [[100, 50, 50, 255], [10, 20, 30, 255]]);
    assert.equal(scaleDown(img, 8), img);
  });

  it('an image of no more colours than the palette keeps them exactly; more are reduced to the palette\'s size', () => {
    const few: Image = { width: 3, height: 1, rgba: Buffer.from([1, 2, 3, 255, 250, 0, 0, 255, 1, 2, 3, 255]) };
    const q = quantize(few, 2);
    assert.deepEqual(pixels(decodePng(encodePalettePng(3, 1, q))), pixels(few));
    const many: Image = { width: 256, height: 4, rgba: Buffer.alloc(256 * 4 * 4) };
    for (let i = 0; i < 256 * 4; i++) many.rgba.set([i & 255, (i * 7) & 255, (i >> 2) & 255, 255], i * 4);
    const back = decodePng(encodePalettePng(256, 4, quantize(many, 16)));
    const colours = new Set(pixels(back).map((p) => p.join()));
    assert.ok(colours.size <= 16 && colours.size >= 8, `${colours.size} colours`);
    const err = pixels(back).reduce((s, p, i) => s + Math.abs(p[0] - many.rgba[i * 4]) + Math.abs(p[1] - many.rgba[i * 4 + 1]) + Math.abs(p[2] - many.rgba[i * 4 + 2]), 0) / (256 * 4 * 3);
    assert.ok(err < 40, `mean error ${err}`);
  });

  it('keeps the original when the small one would not be smaller', () => {
    const tiny = png(1, 1, 2, [Buffer.from([0, 1, 2, 3])]);
    assert.equal(shrinkPng(tiny, 700), tiny);
  });
});
