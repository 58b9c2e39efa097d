// get_file_data() semantics (wp-includes/functions.php), on raw bytes. Plain Node, no vscode.
import { isUtf8 } from 'buffer';

/** WordPress reads only the first 8 KiB of a plugin/theme file. */
export const HEADER_BYTES = 8 * 1024;

export const PLUGIN_HEADER_NAMES = ['Plugin Name', 'Version', 'Update URI', 'Plugin URI', 'Text Domain'];
export const THEME_HEADER_NAMES = ['Theme Name', 'Version', 'Template', 'Update URI', 'Theme URI', 'Text Domain'];

/** A header value with its position in the file (1-based line and column, UTF-16 length). */
export interface HeaderMatch {
  value: string;
  line: number;
  column: number;
  length: number;
}

const regexCache = new Map<string, RegExp>();

function headerRegex(name: string): RegExp {
  let re = regexCache.get(name);
  if (!re) {
    const quoted = name.replace(/[.\\+*?[^\]$(){}=!<>|:\-#/]/g, '\\$&');
    // WP 5.8+: `<\?(?:php)?`; `(.*)$` on bytes (latin1 string: one char per byte).
    re = new RegExp('^(?:[ \\t]*<\\?(?:php)?)?[ \\t\\/*#@]*' + quoted + ':(.*)$', 'mi');
    regexCache.set(name, re);
  }
  return re;
}

/** PHP's trim() default character set: " \t\n\r\0\x0B". */
function phpTrimBounds(s: string): [number, number] {
  let a = 0;
  let b = s.length;
  const ws = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x00 || c === 0x0b;
  while (a < b && ws(s.charCodeAt(a))) a++;
  while (b > a && ws(s.charCodeAt(b - 1))) b--;
  return [a, b];
}

/** _cleanup_header_comment(): cut at `*\/` or `?>` (PCRE `\s` without /u is ASCII), then trim(). */
const CLEANUP_RE = /[\t\n\v\f\r ]*(?:\*\/|\?>).*/;

function toBytes(input: Buffer | string): Buffer {
  const buf = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  return buf.length > HEADER_BYTES ? buf.subarray(0, HEADER_BYTES) : buf;
}

/** How many of `buf`'s bytes are the file's: `length` when given (a reused buffer), at most 8 KiB. */
function byteLength(buf: Buffer, length: number | undefined): number {
  return Math.min(length ?? buf.length, buf.length, HEADER_BYTES);
}

/** Decodes bytes as UTF-8 when valid, else byte-per-char (Latin-1), as an editor would show them. */
function decode(bytes: Buffer): string {
  return isUtf8(bytes) ? bytes.toString('utf8') : bytes.toString('latin1');
}

function startsWithBom(buf: Buffer, len = buf.length): boolean {
  return len >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
}

/** Text of at most 8 KiB, `\r` turned into `\n`, one char per byte (same offsets as the bytes). */
function headerText(bytes: Buffer): string {
  return bytes.toString('latin1').replace(/\r/g, '\n');
}

/** Line/column (1-based, columns in UTF-16 units) of a byte offset, counting CRLF, CR and LF as one break. */
function position(bytes: Buffer, offset: number, len = bytes.length): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const c = bytes[i];
    if (c === 0x0a) {
      line++;
      lineStart = i + 1;
    } else if (c === 0x0d) {
      if (i + 1 < len && bytes[i + 1] === 0x0a) i++;
      line++;
      lineStart = i + 1;
    }
  }
  if (line === 1 && startsWithBom(bytes, len)) lineStart = Math.min(3, offset);
  // ASCII before the value (nearly always): a byte is a column, and no string is made to count them.
  let ascii = true;
  for (let i = lineStart; i < offset && ascii; i++) ascii = bytes[i] < 0x80;
  return { line, column: (ascii ? offset - lineStart : decode(bytes.subarray(lineStart, offset)).length) + 1 };
}

const needleCache = new Map<string, Uint8Array>();

function needleOf(name: string): Uint8Array {
  let n = needleCache.get(name);
  if (!n) {
    n = Uint8Array.from(Buffer.from(name.toLowerCase(), 'latin1'));
    needleCache.set(name, n);
  }
  return n;
}

const lowerAscii = (b: number) => (b >= 0x41 && b <= 0x5a ? b | 0x20 : b);
const isBreak = (b: number) => b === 0x0a || b === 0x0d;

/** `^(?:[ \t]*<\?(?:php)?)?[ \t\/*#@]*$` on bytes [from, to). */
function prefixOk(buf: Uint8Array, from: number, to: number): boolean {
  let i = from;
  while (i < to && (buf[i] === 0x20 || buf[i] === 0x09)) i++;
  if (i + 1 < to && buf[i] === 0x3c && buf[i + 1] === 0x3f) {
    i += 2;
    if (i + 3 <= to && lowerAscii(buf[i]) === 0x70 && lowerAscii(buf[i + 1]) === 0x68 && lowerAscii(buf[i + 2]) === 0x70) i += 3;
  } else {
    i = from;
  }
  for (; i < to; i++) {
    const c = buf[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x2f && c !== 0x2a && c !== 0x23 && c !== 0x40) return false;
  }
  return true;
}

const isPcreSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d);
const isPhpTrim = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x00 || c === 0x0b;

/**
 * The get_file_data() regex, on bytes, without building strings: every `:` (memchr) preceded by
 * NAME (ASCII case-insensitive, as PCRE without /u) whose line prefix is valid is a match; the
 * first one wins. `\r` is a line break (str_replace("\r", "\n")). Returns the byte range of the
 * value after _cleanup_header_comment(), or null when empty / "0" (PHP falsy `$match[1]`).
 */
function matchOne(buf: Buffer, name: string, len = buf.length, last = lastColon(buf, len)): { start: number; end: number } | null {
  const needle = needleOf(name);
  const n = needle.length;
  let from = n;
  for (;;) {
    // Never past the last colon: a forward search from there would run to the end of a reused 8 KiB buffer.
    if (from > last) return null;
    const colon = buf.indexOf(0x3a, from);
    if (colon < 0 || colon > last) return null;
    from = colon + 1;
    let k = n - 1;
    while (k >= 0 && lowerAscii(buf[colon - n + k]) === needle[k]) k--;
    if (k >= 0) continue;
    const at = colon - n;
    let ls = at;
    while (ls > 0 && !isBreak(buf[ls - 1])) ls--;
    if (!prefixOk(buf, ls, at)) continue;
    const rawStart = colon + 1;
    let le = rawStart;
    while (le < len && !isBreak(buf[le])) le++;
    if (le === rawStart || (le === rawStart + 1 && buf[rawStart] === 0x30)) return null;
    // _cleanup_header_comment(): cut at the first `*/` or `?>` with the whitespace before it, trim().
    let end = le;
    for (let i = rawStart; i + 1 < le; i++) {
      if ((buf[i] === 0x2a && buf[i + 1] === 0x2f) || (buf[i] === 0x3f && buf[i + 1] === 0x3e)) {
        end = i;
        while (end > rawStart && isPcreSpace(buf[end - 1])) end--;
        break;
      }
    }
    let start = rawStart;
    while (start < end && isPhpTrim(buf[start])) start++;
    while (end > start && isPhpTrim(buf[end - 1])) end--;
    return start < end ? { start, end } : null;
  }
}

/** The offset of the last `:` among the first `len` bytes (searched backwards from there), or -1. */
function lastColon(buf: Buffer, len: number): number {
  return len > 0 ? buf.lastIndexOf(0x3a, len - 1) : -1;
}

/** The reference implementation (the regex itself), kept for tests. */
export function matchOneRegex(input: Buffer | string, name: string): string {
  const text = headerText(toBytes(input));
  const m = headerRegex(name).exec(text);
  if (!m || m[1] === '' || m[1] === '0') return '';
  const cut = m[1].replace(CLEANUP_RE, '');
  const [a, b] = phpTrimBounds(cut);
  return cut.slice(a, b);
}

/**
 * get_file_data(): the value of each named header ('' when missing), from the first 8 KiB.
 * Strings are encoded as UTF-8 first, so an editor buffer parses like the file on disk.
 */
export function parseFileHeaders(input: Buffer | string, names: string[]): Record<string, string> {
  const bytes = toBytes(input);
  const out: Record<string, string> = {};
  for (const name of names) {
    const r = matchOne(bytes, name);
    out[name] = r ? decode(bytes.subarray(r.start, r.end)) : '';
  }
  return out;
}

const NO_HEADERS: Record<string, HeaderMatch> = Object.freeze({});

/** Like parseFileHeaders, with the position of each value that was found (missing headers are absent). */
export function parseFileHeaderLocations(
  input: Buffer | string,
  names: string[],
  /** Stop (return {}) when this header is missing: saves work on files without a header. */
  required?: string,
  /** Only the first `length` bytes of `input` are the file's (a reused buffer). */
  length?: number,
): Record<string, HeaderMatch> {
  const bytes = typeof input === 'string' ? toBytes(input) : input;
  const len = byteLength(bytes, length);
  const last = lastColon(bytes, len);
  // Most files have no header: one shared, frozen answer for them rather than an object each.
  if (required !== undefined && !matchOne(bytes, required, len, last)) return NO_HEADERS;
  const out: Record<string, HeaderMatch> = {};
  for (const name of names) {
    const r = matchOne(bytes, name, len, last);
    if (!r) continue;
    const value = decode(bytes.subarray(r.start, r.end));
    const pos = position(bytes, r.start, len);
    out[name] = { value, line: pos.line, column: pos.column, length: value.length };
  }
  return out;
}

/** Position of the `Plugin Name:` value in a PHP buffer (first 8 KiB), or null. */
export function parsePluginHeaderLocation(input: Buffer | string): HeaderMatch | null {
  return parseFileHeaderLocations(input, ['Plugin Name'])['Plugin Name'] ?? null;
}

/** Position of the `Theme Name:` value in a style.css buffer (first 8 KiB), or null. */
export function parseThemeHeaderLocation(input: Buffer | string): HeaderMatch | null {
  return parseFileHeaderLocations(input, ['Theme Name'])['Theme Name'] ?? null;
}
