// After `vsce package` (npm run package): every relative link in the .vsix's Markdown resolves inside the package.
// vsce stores README.md as `extension/readme.md` and CHANGELOG.md as `extension/changelog.md`, so the docs'
// `../README.md` missed on a case-sensitive file system: such a link is pointed at the packaged name. A link to a file
// the package does not hold (a script, a test fixture) becomes its text, never a link that opens nothing. Code blocks
// and inline code are left as they are. The zip is read and written with Node's zlib only.
//   tsx scripts/vsixLinks.ts FILE.vsix
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';

export interface ZipEntry {
  name: string;
  data: Buffer;
  /** MS-DOS time and date, as stored */
  time: number;
  date: number;
}

/** The entries of a zip file (stored or deflated; no zip64: a .vsix is far below 4 GB), in their order. */
export function readZip(buf: Buffer): ZipEntry[] {
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip file (no end of central directory)');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const out: ZipEntry[] = [];
  for (let k = 0; k < count; k++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error('not a zip file (bad central directory)');
    const method = buf.readUInt16LE(p + 10);
    const time = buf.readUInt16LE(p + 12);
    const date = buf.readUInt16LE(p + 14);
    const compressed = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(start, start + compressed);
    if (method !== 0 && method !== 8) throw new Error(`${name}: compression method ${method} is not read here`);
    out.push({ name, data: method === 0 ? Buffer.from(raw) : zlib.inflateRawSync(raw), time, date });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(b: Buffer): number {
  let c = 0xffffffff;
  for (const x of b) c = CRC_TABLE[(c ^ x) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A zip file of these entries, each deflated, names in UTF-8. */
export function writeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const body = zlib.deflateRawSync(e.data);
    const crc = crc32(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(e.time, 10);
    local.writeUInt16LE(e.date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(e.time, 12);
    central.writeUInt16LE(e.date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

export interface LinkChanges {
  text: string;
  /** links pointed at the packaged name of their file (README.md → readme.md) */
  renamed: string[];
  /** links to files the package does not hold, made their text */
  unlinked: string[];
}

/**
 * Rewrites the relative links of one packaged Markdown file (`file`, a path inside the zip) against the zip's file
 * names: kept when the target is packaged (a file, or a folder holding packaged files), pointed at the packaged
 * name when only the case differs, else made the link's text (an image: its alt text).
 */
export function rewriteLinks(file: string, markdown: string, names: readonly string[]): LinkChanges {
  const exact = new Set(names);
  const byLower = new Map(names.map((n) => [n.toLowerCase(), n]));
  const dir = path.posix.dirname(file);
  const renamed: string[] = [];
  const unlinked: string[] = [];
  const resolveLink = (image: string, label: string, target: string, title: string, whole: string): string => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('/')) return whole;
    const hash = target.indexOf('#');
    const rel = hash < 0 ? target : target.slice(0, hash);
    const fragment = hash < 0 ? '' : target.slice(hash);
    let decoded: string;
    try {
      decoded = decodeURI(rel);
    } catch {
      decoded = rel;
    }
    const resolved = path.posix.normalize(path.posix.join(dir, decoded)).replace(/\/$/, '');
    if (exact.has(resolved) || names.some((n) => n.startsWith(resolved + '/'))) return whole;
    const real = byLower.get(resolved.toLowerCase());
    if (real) {
      renamed.push(`${target} → ${path.posix.relative(dir, real)}${fragment}`);
      return `${image}[${label}](${path.posix.relative(dir, real)}${fragment}${title})`;
    }
    unlinked.push(target);
    return image ? `*${label}*` : label;
  };
  let fenced = false;
  const lines = markdown.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return line;
    }
    if (fenced) return line;
    // Inline code spans are kept apart from the links around them.
    return codeSpans(line)
      .map((part) => (part.code ? part.text : part.text.replace(/(!?)\[((?:[^\][]|`[^`]*`)*)\]\(([^)\s]+)((?:\s+"[^"]*")?)\)/g, (whole, image: string, label: string, target: string, title: string) => resolveLink(image, label, target, title, whole))))
      .join('');
  });
  return { text: lines.join('\n'), renamed, unlinked };
}

/**
 * A line cut into text and inline code: a run of N backticks opens a code span that the next run of exactly N
 * closes (CommonMark), so ``a `b` c`` is one span; a run never closed is text.
 */
export function codeSpans(line: string): Array<{ code: boolean; text: string }> {
  const out: Array<{ code: boolean; text: string }> = [];
  let text = '';
  let i = 0;
  while (i < line.length) {
    if (line[i] !== '`') {
      text += line[i++];
      continue;
    }
    let n = 0;
    while (line[i + n] === '`') n++;
    const fence = '`'.repeat(n);
    let j = i + n;
    let close = -1;
    while ((j = line.indexOf(fence, j)) >= 0) {
      let m = 0;
      while (line[j + m] === '`') m++;
      if (m === n) {
        close = j;
        break;
      }
      j += m;
    }
    if (close < 0) {
      text += fence;
      i += n;
      continue;
    }
    if (text) out.push({ code: false, text });
    text = '';
    out.push({ code: true, text: line.slice(i, close + n) });
    i = close + n;
  }
  if (text) out.push({ code: false, text });
  return out;
}

/** Rewrites every Markdown file of the .vsix at `vsixPath` in place; what changed, per file. */
export function fixVsixLinks(vsixPath: string): Array<{ file: string } & Omit<LinkChanges, 'text'>> {
  const entries = readZip(fs.readFileSync(vsixPath));
  const names = entries.map((e) => e.name);
  const report: Array<{ file: string } & Omit<LinkChanges, 'text'>> = [];
  let changed = false;
  for (const e of entries) {
    if (!e.name.startsWith('extension/') || !/\.md$/i.test(e.name)) continue;
    const before = e.data.toString('utf8');
    const r = rewriteLinks(e.name, before, names);
    if (r.text !== before) {
      e.data = Buffer.from(r.text, 'utf8');
      changed = true;
      report.push({ file: e.name, renamed: r.renamed, unlinked: r.unlinked });
    }
  }
  if (changed) fs.writeFileSync(vsixPath, writeZip(entries));
  return report;
}

if (require.main === module) {
  const vsix = process.argv[2] ?? path.join(__dirname, '..', `wp-bench-${JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')).version}.vsix`);
  const report = fixVsixLinks(vsix);
  const renamed = report.reduce((n, r) => n + r.renamed.length, 0);
  const unlinked = report.reduce((n, r) => n + r.unlinked.length, 0);
  console.log(`${path.basename(vsix)}: ${renamed} links pointed at the packaged README/CHANGELOG names, ${unlinked} links to files not in the package made text`);
  for (const r of report) for (const u of r.unlinked) console.log(`  ${r.file}: ${u} (not packaged)`);
}
