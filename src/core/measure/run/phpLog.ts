// What PHP logged (the site's php-errors.log), request by request: read after each request from where the last read
// ended, so what was read is that request's (php -S serves one request at a time, and WP Bench sends them one after
// the other). Its warnings and errors are said as progress lines, once each, escaped; a sandbox's limit reached
// (sandboxLimits.ts) ends the run, saying which.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Site } from '../site/site';
import { MeasureError } from '../options/runOptions';
import { measuredText } from '../component/measuredText';
import { limitReached } from '../machine/sandboxLimits';

/** What is read of one request's entries at most: its first and last half (a plugin may log megabytes). */
const READ_BYTES = 512 * 1024;
/** Longest warning said (escaped), and how many a run says. */
const SAID_CHARS = 500;
const SAID_MAX = 20;

interface LogState {
  offset: number;
  /** entries said (or WordPress's own, logged on the clean side): not said again */
  said: Set<string>;
  /** how many were said */
  shown: number;
}

const states = new WeakMap<Site, LogState>();

const logFile = (site: Site) => path.join(site.workDir, 'php-errors.log');

async function sizeOf(site: Site): Promise<number> {
  return (await fs.stat(logFile(site)).catch(() => undefined))?.size ?? 0;
}

/**
 * Marks the log's end before a request: what was logged before it (WordPress's install, WP Bench's own requests in
 * between) is not the request's.
 */
export async function markLog(site: Site): Promise<void> {
  const size = await sizeOf(site);
  const st = states.get(site);
  if (st) st.offset = size;
  else states.set(site, { offset: size, said: new Set(), shown: 0 });
}

/**
 * The entries logged since the mark (or the last read), each `PHP Warning: text in file on line N` with the lines
 * that follow it (a message's own line breaks, a stack trace), without its date; none before markLog().
 */
export async function newEntries(site: Site): Promise<string[]> {
  const st = states.get(site);
  if (!st) return [];
  const size = await sizeOf(site);
  if (size <= st.offset) {
    st.offset = size;
    return [];
  }
  const fh = await fs.open(logFile(site), 'r').catch(() => undefined);
  if (!fh) return [];
  let text = '';
  try {
    const part = async (from: number, n: number) => {
      const buf = Buffer.alloc(n);
      const { bytesRead } = await fh.read(buf, 0, n, from);
      return buf.subarray(0, bytesRead).toString('utf8');
    };
    const n = size - st.offset;
    text = n <= 2 * READ_BYTES ? await part(st.offset, n) : `${await part(st.offset, READ_BYTES)}\n${await part(size - READ_BYTES, READ_BYTES)}`;
  } finally {
    await fh.close();
  }
  st.offset = size;
  const entries: string[] = [];
  for (const line of text.split('\n')) {
    const start = /^\[[^\]\n]{1,64}\] (.*)$/.exec(line);
    if (start) entries.push(start[1]);
    else if (entries.length > 0 && line !== '') entries[entries.length - 1] += `\n${line}`;
  }
  return entries;
}

/** PHP's own entries (not a plugin's error_log() lines): warnings, notices, deprecations, errors, uncaught exceptions. */
const PHP_ENTRY = /^PHP ([A-Z][A-Za-z ]{2,30}):\s+/;

/** An entry as said: `PHP Warning: text in wp-content/…` (one space after the level, the site's folder left out). */
function entryText(site: Site, e: string): string | undefined {
  const m = PHP_ENTRY.exec(e);
  return m ? `PHP ${m[1]}: ${e.slice(m[0].length)}`.split(`${site.siteDir}/`).join('') : undefined;
}

/** Text from the measured code on one line, escaped (measuredText), at most SAID_CHARS long. */
function capped(text: string): string {
  const safe = measuredText(text);
  return safe.length > SAID_CHARS ? `${safe.slice(0, SAID_CHARS)}…` : safe;
}

/** The clean side's entries (WordPress's own, not the component's): never said for the component. */
export function noteClean(site: Site, entries: string[]): void {
  const st = states.get(site);
  for (const e of entries) {
    const text = entryText(site, e);
    if (st && text !== undefined) st.said.add(text);
  }
}

/**
 * Says (as `warning: WHERE: PHP Warning: text`) each of PHP's entries not said before in this run: on one line,
 * escaped, the site's folder left out of its paths, at most SAID_CHARS long; at most SAID_MAX in a run.
 */
export function sayEntries(site: Site, entries: string[], where: string, progress: (line: string) => void): void {
  const st = states.get(site);
  if (!st) return;
  for (const e of entries) {
    const text = entryText(site, e);
    if (text === undefined || st.said.has(text)) continue;
    st.said.add(text);
    if (st.shown++ < SAID_MAX) progress(`warning: ${where}: ${capped(text)}`);
    else if (st.shown === SAID_MAX + 1) progress(`warning: ${where}: more of PHP's warnings and errors than ${SAID_MAX}; the rest are not said`);
  }
}

/**
 * The run's end when what was logged, or the error said (the probe's, or the server's last words), shows a limit of
 * the sandbox reached: "the plugin hit the sandbox's limit of 1,024 processes (PHP Warning: proc_open(): Fork
 * failed: Resource temporarily unavailable in wp-content/…); the run is stopped".
 */
export function limitError(site: Site, who: string, entries: string[], said = ''): MeasureError | undefined {
  const hit = limitReached([...entries, said].join('\n'), site.siteDir);
  if (!hit) return undefined;
  // The words that show it: PHP's entry that says so, else the error said when it is one line (the probe's, not a
  // server's last output), else the sign alone.
  const entry = entries.find((e) => e.includes(hit.sign));
  const oneLine = said.includes(hit.sign) && said.length <= 300 && !/\\n|\n/.test(said);
  const words = entry !== undefined ? (entryText(site, entry) ?? entry) : oneLine ? said : hit.sign;
  return new MeasureError(`${who} hit ${hit.reason} (${capped(words.split(`${site.siteDir}/`).join(''))}); the run is stopped`, 7);
}

/**
 * A request that got no answer (the server died: what it printed last is in the error) as the limit it reached, if
 * it did; else as it was.
 */
export async function orLimitError(site: Site, who: string, err: MeasureError): Promise<MeasureError> {
  return limitError(site, who, await newEntries(site), err.message) ?? err;
}
