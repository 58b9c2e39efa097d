// WP Bench's one ZIP reader (stored and deflated entries, no ZIP64): enough to unpack the SQLite integration plugin
// without an `unzip` binary (entry names are checked so an archive can never write outside the target folder), and
// what scripts/vsixLinks.ts reads a .vsix with.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { zlib } from '../../lazyNode';

export interface ZipEntry {
  name: string;
  data: Buffer;
  /** MS-DOS time and date, as stored */
  time: number;
  date: number;
}

export class ZipError extends Error {}

const MAX_TOTAL = 256 * 1024 * 1024;

/** The file entries of a zip, in their order (folders' own entries left out). */
export function readZip(buf: Buffer): ZipEntry[] {
  // End of central directory: last 22..(22+65535) bytes.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipError('not a zip file (no end of central directory)');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const out: ZipEntry[] = [];
  let total = 0;
  for (let n = 0; n < count; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) throw new ZipError('corrupt central directory');
    const method = buf.readUInt16LE(p + 10);
    const time = buf.readUInt16LE(p + 12);
    const date = buf.readUInt16LE(p + 14);
    const compSize = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    p += 46 + nameLen + extraLen + commentLen;
    if (name.endsWith('/')) continue;
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50) throw new ZipError(`corrupt entry ${name}`);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(start, start + compSize);
    total += size;
    if (total > MAX_TOTAL) throw new ZipError('archive too large');
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) data = zlib().inflateRawSync(raw, { maxOutputLength: Math.max(size, 1) });
    else throw new ZipError(`unsupported compression method ${method} for ${name}`);
    if (data.length !== size) throw new ZipError(`size mismatch for ${name}`);
    out.push({ name, data, time, date });
  }
  return out;
}

/** Safe relative path of an entry, or null when it is absolute or climbs out. */
export function safeEntryPath(name: string): string | null {
  if (name.includes('\0') || name.startsWith('/') || /^[A-Za-z]:/.test(name)) return null;
  const parts = name.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
  if (parts.length === 0 || parts.includes('..')) return null;
  return parts.join(path.sep);
}

/**
 * Unpacks the entries under `prefix` (e.g. "plugin-sqlite-database-integration/") into dir. When no entry is under
 * it and every entry is under one top folder (wordpress.org's plugin zips: "sqlite-database-integration/"), that
 * folder is the prefix.
 */
export async function extractZip(zipFile: string, dir: string, prefix = ''): Promise<number> {
  const entries = readZip(await fs.readFile(zipFile));
  if (prefix && !entries.some((e) => e.name.startsWith(prefix))) {
    const tops = new Set(entries.map((e) => e.name.split('/')[0]));
    if (tops.size === 1 && entries.every((e) => e.name.includes('/'))) prefix = `${[...tops][0]}/`;
  }
  let n = 0;
  for (const e of entries) {
    if (!e.name.startsWith(prefix)) continue;
    const rel = safeEntryPath(e.name.slice(prefix.length));
    if (!rel) continue;
    const target = path.join(dir, rel);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, e.data);
    n++;
  }
  return n;
}
