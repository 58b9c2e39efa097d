// Writes media/icon.png (128×128): a dark tile with four grade-coloured bars. No image library needed.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const W = 128, H = 128;
const px = Buffer.alloc(W * H * 4);
const set = (x, y, [r, g, b, a = 255]) => { const i = (y * W + x) * 4; px[i] = r; px[i + 1] = g; px[i + 2] = b; px[i + 3] = a; };
const inRounded = (x, y, r) => {
  const cx = x < r ? r : x > W - 1 - r ? W - 1 - r : x;
  const cy = y < r ? r : y > H - 1 - r ? H - 1 - r : y;
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
  if (!inRounded(x, y, 22)) { set(x, y, [0, 0, 0, 0]); continue; }
  const t = y / H;
  set(x, y, [Math.round(30 + 10 * t), Math.round(41 + 12 * t), Math.round(59 + 20 * t)]);
}
const bars = [[22, 40, [34, 197, 94]], [46, 62, [59, 130, 246]], [70, 50, [234, 179, 8]], [94, 78, [239, 68, 68]]];
for (const [x0, h, color] of bars) for (let x = x0; x < x0 + 14; x++) for (let y = 104 - h; y < 104; y++) set(x, y, color);
for (let x = 16; x < 112; x++) for (let y = 106; y < 109; y++) set(x, y, [226, 232, 240]);

const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
const crc = (buf) => { let c = 0xffffffff; for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
const chunk = (type, data) => { const len = Buffer.alloc(4); len.writeUInt32BE(data.length); const td = Buffer.concat([Buffer.from(type), data]); const c = Buffer.alloc(4); c.writeUInt32BE(crc(td)); return Buffer.concat([len, td, c]); };
const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(W, 0); ihdr.writeUInt32BE(H, 4); ihdr[8] = 8; ihdr[9] = 6;
const raw = Buffer.alloc((W * 4 + 1) * H);
for (let y = 0; y < H; y++) px.copy(raw, y * (W * 4 + 1) + 1, y * W * 4, (y + 1) * W * 4);
writeFileSync(new URL('../media/icon.png', import.meta.url), Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]));
