// After `vsce package` (npm run package), the .vsix is finished here:
// - the README's screenshots are made small (scripts/pngShrink.ts: halved past 700 pixels wide, the width the README's
//   two-column gallery shows them at, and a palette of 64 colours), about a tenth of their size;
// - every relative link in its Markdown resolves inside the package. vsce stores README.md as `extension/readme.md`
//   and CHANGELOG.md as `extension/changelog.md`, so the docs' `../README.md` missed on a case-sensitive file system:
//   such a link is pointed at the packaged name. A link to a file the package does not hold (a script, a test fixture,
//   a light or high-contrast screenshot) becomes its text, never a link that opens nothing. Code blocks and inline
//   code are left as they are;
// - the package step fails when the .vsix is 1 MB or more (VSIX_BUDGET), naming its largest files.
// The zip is read with WP Bench's one ZIP reader (src/core/measure/site/zip.ts) and written back here, Node's zlib only.
//   tsx scripts/vsixLinks.ts [FILE.vsix]
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { readZip, type ZipEntry } from '../src/core/measure/site/zip';
import { shrinkPng } from './pngShrink';

/** The .vsix must stay under this many bytes (1 MB): it was 536 KB before the screenshots went in, then 5.2 MB. */
export const VSIX_BUDGET = 1024 * 1024;
/** The screenshots made small: what the README shows (.vscodeignore packs only those). */
const SCREENSHOT = /^extension\/docs\/screenshots\/[^/]+\.png$/i;
const SCREENSHOT_WIDTH = 700;
const SCREENSHOT_COLOURS = 64;

/** A zip file of these entries, each deflated (level 9), names in UTF-8. */
export function writeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const body = zlib.deflateRawSync(e.data, { level: 9 });
    const crc = zlib.crc32(e.data);
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

export interface VsixReport {
  /** bytes of the .vsix written */
  size: number;
  /** the screenshots made small: bytes before and after */
  images: Array<{ file: string; before: number; after: number }>;
  /** what changed in each Markdown file's links */
  links: Array<{ file: string } & Omit<LinkChanges, 'text'>>;
}

/**
 * Finishes the .vsix at `vsixPath` in place: its screenshots made small, its Markdown links pointed at what it holds.
 * Throws when the result is VSIX_BUDGET bytes or more (the file is written all the same, to be looked at).
 */
export function finishVsix(vsixPath: string): VsixReport {
  const entries = readZip(fs.readFileSync(vsixPath));
  const names = entries.map((e) => e.name);
  const images: VsixReport['images'] = [];
  const links: VsixReport['links'] = [];
  for (const e of entries) {
    if (SCREENSHOT.test(e.name)) {
      const before = e.data.length;
      e.data = shrinkPng(e.data, SCREENSHOT_WIDTH, SCREENSHOT_COLOURS);
      images.push({ file: e.name, before, after: e.data.length });
    }
    if (!e.name.startsWith('extension/') || !/\.md$/i.test(e.name)) continue;
    const before = e.data.toString('utf8');
    const r = rewriteLinks(e.name, before, names);
    if (r.text !== before) {
      e.data = Buffer.from(r.text, 'utf8');
      links.push({ file: e.name, renamed: r.renamed, unlinked: r.unlinked });
    }
  }
  const zip = writeZip(entries);
  fs.writeFileSync(vsixPath, zip);
  if (zip.length >= VSIX_BUDGET) {
    const largest = entries
      .map((e) => ({ name: e.name, packed: zlib.deflateRawSync(e.data, { level: 9 }).length }))
      .sort((a, b) => b.packed - a.packed)
      .slice(0, 8)
      .map((e) => `  ${e.name}: ${kb(e.packed)}`);
    throw new Error([`${path.basename(vsixPath)} is ${(zip.length / VSIX_BUDGET).toFixed(2)} MB, over the budget of 1 MB (VSIX_BUDGET in scripts/vsixLinks.ts); its largest files, packed:`, ...largest].join('\n'));
  }
  return { size: zip.length, images, links };
}

const kb = (n: number) => `${Math.round(n / 1024).toLocaleString('en-US')} KB`;

if (require.main === module) {
  const vsix = process.argv[2] ?? path.join(__dirname, '..', `wp-bench-${JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')).version}.vsix`);
  try {
    const r = finishVsix(vsix);
    const renamed = r.links.reduce((n, l) => n + l.renamed.length, 0);
    const unlinked = r.links.reduce((n, l) => n + l.unlinked.length, 0);
    const before = r.images.reduce((n, i) => n + i.before, 0);
    const after = r.images.reduce((n, i) => n + i.after, 0);
    console.log(`${path.basename(vsix)}: ${kb(r.size)} (under the budget of 1 MB); ${r.images.length} screenshots ${kb(before)} → ${kb(after)}; ${renamed} links pointed at the packaged README/CHANGELOG names, ${unlinked} links to files not in the package made text`);
    for (const l of r.links) for (const u of l.unlinked) console.log(`  ${l.file}: ${u} (not packaged)`);
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  }
}
