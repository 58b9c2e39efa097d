// Makes a screenshot small for the .vsix (npm run package, scripts/vsixLinks.ts): a PNG decoded with Node's zlib,
// scaled down by area averaging to about the width the README shows it at, its colours reduced to a palette (median
// cut over a 5-bit histogram, refined by a few k-means passes; no dithering, so text stays crisp and compresses),
// written back as an 8-bit palette PNG. Lossy but deterministic; no image library and no binary needed.
import * as zlib from 'node:zlib';

export interface Image {
  width: number;
  height: number;
  /** RGBA, 8 bits per channel, row after row */
  rgba: Buffer;
}

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** A PNG's pixels (8-bit grey, RGB, palette, grey+alpha or RGBA; not interlaced). */
export function decodePng(buf: Buffer): Image {
  if (buf.length < 8 || !buf.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG file');
  let p = 8;
  let width = 0;
  let height = 0;
  let type = -1;
  let palette = Buffer.alloc(0);
  let alpha = Buffer.alloc(0);
  const idat: Buffer[] = [];
  while (p + 8 <= buf.length) {
    const len = buf.readUInt32BE(p);
    const kind = buf.toString('latin1', p + 4, p + 8);
    const data = buf.subarray(p + 8, p + 8 + len);
    if (kind === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      type = data[9];
      if (data[8] !== 8 || data[12] !== 0 || !(type in CHANNELS)) throw new Error(`PNG of bit depth ${data[8]}, colour type ${type}, interlace ${data[12]} is not read here`);
    } else if (kind === 'PLTE') palette = Buffer.from(data);
    else if (kind === 'tRNS') alpha = Buffer.from(data);
    else if (kind === 'IDAT') idat.push(data);
    else if (kind === 'IEND') break;
    p += 12 + len;
  }
  if (type < 0) throw new Error('PNG without IHDR');
  const bpp = CHANNELS[type];
  const stride = width * bpp;
  const raw = zlib.inflateSync(Buffer.concat(idat));
  if (raw.length < (stride + 1) * height) throw new Error('PNG image data too short');
  const px = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? px[row + x - bpp] : 0;
      const b = y > 0 ? px[row - stride + x] : 0;
      const c = x >= bpp && y > 0 ? px[row - stride + x - bpp] : 0;
      const v = raw[src + x];
      px[row + x] = (f === 0 ? v : f === 1 ? v + a : f === 2 ? v + b : f === 3 ? v + ((a + b) >> 1) : v + paeth(a, b, c)) & 0xff;
    }
  }
  const rgba = Buffer.alloc(width * height * 4);
  for (let i = 0, j = 0; i < width * height; i++, j += bpp) {
    const o = i * 4;
    if (type === 2 || type === 6) {
      rgba[o] = px[j];
      rgba[o + 1] = px[j + 1];
      rgba[o + 2] = px[j + 2];
      rgba[o + 3] = type === 6 ? px[j + 3] : 255;
    } else if (type === 3) {
      const k = px[j];
      rgba[o] = palette[k * 3] ?? 0;
      rgba[o + 1] = palette[k * 3 + 1] ?? 0;
      rgba[o + 2] = palette[k * 3 + 2] ?? 0;
      rgba[o + 3] = k < alpha.length ? alpha[k] : 255;
    } else {
      rgba[o] = rgba[o + 1] = rgba[o + 2] = px[j];
      rgba[o + 3] = type === 4 ? px[j + 1] : 255;
    }
  }
  return { width, height, rgba };
}

/** The image scaled down to `width` (never up), each new pixel the area-weighted mean of the pixels it covers. */
export function scaleDown(img: Image, width: number): Image {
  if (width >= img.width) return img;
  const s = img.width / width;
  const height = Math.max(1, Math.round(img.height / s));
  const sy = img.height / height;
  const out = Buffer.alloc(width * height * 4);
  const acc = new Float64Array(4);
  for (let y = 0; y < height; y++) {
    const y0 = y * sy;
    const y1 = y0 + sy;
    for (let x = 0; x < width; x++) {
      const x0 = x * s;
      const x1 = x0 + s;
      acc.fill(0);
      let total = 0;
      for (let yy = Math.floor(y0); yy < Math.min(img.height, Math.ceil(y1)); yy++) {
        const wy = Math.min(y1, yy + 1) - Math.max(y0, yy);
        for (let xx = Math.floor(x0); xx < Math.min(img.width, Math.ceil(x1)); xx++) {
          const w = wy * (Math.min(x1, xx + 1) - Math.max(x0, xx));
          const i = (yy * img.width + xx) * 4;
          for (let c = 0; c < 4; c++) acc[c] += w * img.rgba[i + c];
          total += w;
        }
      }
      const o = (y * width + x) * 4;
      for (let c = 0; c < 4; c++) out[o + c] = Math.round(acc[c] / total);
    }
  }
  return { width, height, rgba: out };
}

interface Box {
  /** histogram bins (5 bits per channel and alpha 1 bit: index r<<11|g<<6|b<<1|a) in this box */
  bins: number[];
  count: number;
}

/**
 * A palette of at most `colours` colours for the image and each pixel's index in it. An image of that many colours
 * or fewer keeps them exactly.
 */
export function quantize(img: Image, colours = 256): { palette: Buffer; alpha: Buffer; indices: Buffer } {
  const n = img.width * img.height;
  const exact = new Map<number, number>();
  for (let i = 0; i < n && exact.size <= colours; i++) exact.set(img.rgba.readUInt32BE(i * 4), 0);
  let centres: number[][];
  if (exact.size <= colours) centres = [...exact.keys()].map((v) => [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255]);
  else {
    // The histogram: per bin the pixel count and the sums of its pixels' channels.
    const count = new Float64Array(1 << 16);
    const sum = new Float64Array((1 << 16) * 4);
    for (let i = 0; i < n; i++) {
      const o = i * 4;
      const bin = binOf(img.rgba[o], img.rgba[o + 1], img.rgba[o + 2], img.rgba[o + 3]);
      count[bin]++;
      for (let c = 0; c < 4; c++) sum[bin * 4 + c] += img.rgba[o + c];
    }
    const used: number[] = [];
    for (let b = 0; b < count.length; b++) if (count[b]) used.push(b);
    const mean = (b: number, c: number) => sum[b * 4 + c] / count[b];
    // Median cut: split the box of the largest count × widest channel range at its weighted median, until `colours`.
    const boxes: Box[] = [{ bins: used, count: n }];
    while (boxes.length < colours) {
      let best = -1;
      let bestScore = 0;
      let bestChannel = 0;
      for (let k = 0; k < boxes.length; k++) {
        const box = boxes[k];
        if (box.bins.length < 2) continue;
        for (let c = 0; c < 4; c++) {
          let lo = 255;
          let hi = 0;
          for (const b of box.bins) {
            const v = mean(b, c);
            if (v < lo) lo = v;
            if (v > hi) hi = v;
          }
          const score = (hi - lo) * Math.sqrt(box.count);
          if (score > bestScore) {
            bestScore = score;
            best = k;
            bestChannel = c;
          }
        }
      }
      if (best < 0) break;
      const box = boxes[best];
      box.bins.sort((a, b) => mean(a, bestChannel) - mean(b, bestChannel));
      let seen = 0;
      let cut = 1;
      for (; cut < box.bins.length - 1; cut++) {
        seen += count[box.bins[cut - 1]];
        if (seen >= box.count / 2) break;
      }
      const left = box.bins.slice(0, cut);
      const right = box.bins.slice(cut);
      const sumOf = (bins: number[]) => bins.reduce((s, b) => s + count[b], 0);
      boxes.splice(best, 1, { bins: left, count: sumOf(left) }, { bins: right, count: sumOf(right) });
    }
    centres = boxes.map((box) => [0, 1, 2, 3].map((c) => box.bins.reduce((s, b) => s + sum[b * 4 + c], 0) / box.count));
    // A few k-means passes over the bins: each bin to its nearest centre, each centre to the mean of its bins.
    for (let pass = 0; pass < 4; pass++) {
      const acc = centres.map(() => [0, 0, 0, 0, 0]);
      for (const b of used) {
        const k = nearest(centres, mean(b, 0), mean(b, 1), mean(b, 2), mean(b, 3));
        for (let c = 0; c < 4; c++) acc[k][c] += sum[b * 4 + c];
        acc[k][4] += count[b];
      }
      centres = centres.map((old, k) => (acc[k][4] ? [0, 1, 2, 3].map((c) => acc[k][c] / acc[k][4]) : old));
    }
    centres = centres.map((c) => c.map((v) => Math.round(v)));
  }
  const palette = Buffer.alloc(centres.length * 3);
  const alpha = Buffer.alloc(centres.length);
  centres.forEach((c, k) => {
    palette[k * 3] = c[0];
    palette[k * 3 + 1] = c[1];
    palette[k * 3 + 2] = c[2];
    alpha[k] = c[3];
  });
  const indices = Buffer.alloc(n);
  const memo = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const v = img.rgba.readUInt32BE(i * 4);
    let k = memo.get(v);
    if (k === undefined) {
      k = nearest(centres, v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255);
      memo.set(v, k);
    }
    indices[i] = k;
  }
  return { palette, alpha, indices };
}

function binOf(r: number, g: number, b: number, a: number): number {
  return ((r >> 3) << 11) | ((g >> 3) << 6) | ((b >> 3) << 1) | (a >> 7);
}

function nearest(centres: number[][], r: number, g: number, b: number, a: number): number {
  let best = 0;
  let bestD = Infinity;
  for (let k = 0; k < centres.length; k++) {
    const c = centres[k];
    // Weighted like the eye: green most, blue least.
    const d = 3 * (c[0] - r) ** 2 + 4 * (c[1] - g) ** 2 + 2 * (c[2] - b) ** 2 + 3 * (c[3] - a) ** 2;
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  return best;
}

function chunk(kind: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(kind, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(data, zlib.crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

/** An 8-bit palette PNG (a tRNS chunk only when some colour is not opaque), each row unfiltered, deflated at level 9. */
export function encodePalettePng(width: number, height: number, q: { palette: Buffer; alpha: Buffer; indices: Buffer }): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 3;
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) q.indices.copy(raw, y * (width + 1) + 1, y * width, (y + 1) * width);
  const opaque = q.alpha.every((a) => a === 255);
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('PLTE', q.palette),
    ...(opaque ? [] : [chunk('tRNS', q.alpha)]),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9, memLevel: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A screenshot made small: divided by the smallest whole number that brings it to at most `maxWidth` pixels wide (a
 * whole factor keeps lines crisp: 1400 → 700), at most `colours` colours; the original when that is smaller.
 */
export function shrinkPng(buf: Buffer, maxWidth: number, colours = 256): Buffer {
  const full = decodePng(buf);
  const img = scaleDown(full, Math.round(full.width / Math.ceil(full.width / maxWidth)));
  const out = encodePalettePng(img.width, img.height, quantize(img, colours));
  return out.length < buf.length ? out : buf;
}
