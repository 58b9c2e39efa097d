// Formatting of numbers and grades for people; shared by the CLI, hovers, the tree and the webview.
import { l10n } from '../l10n';
import type { ContextMeasurement } from '../model';

export function formatMs(ms: number): string {
  return `${ms >= 100 ? Math.round(ms) : Math.round(ms * 10) / 10} ms`;
}

/**
 * Memory as people read it: under 1 MB in KB ("412 KB", "0.4 KB" under one), from 1 MB in MB (one decimal under
 * 10 MB, whole from 10). A value that is not zero never reads as "0" (nor "-0"), and no figure ever carries three
 * decimals ("0.001 MB" was a hover's way of saying 1 KB).
 */
export function formatMemoryKb(kb: number): string {
  if (!Number.isFinite(kb)) return `${kb} KB`;
  const abs = Math.abs(kb);
  if (abs * 1024 < 1) return '0 KB'; // under a byte
  if (abs < 1) return `${kb < 0 ? '-' : ''}${Math.max(0.1, Math.round(abs * 10) / 10)} KB`;
  if (Math.round(abs) < 1024) return `${Math.round(kb)} KB`;
  const mb = kb / 1024;
  return `${mb.toFixed(Math.abs(mb) >= 9.95 ? 0 : 1)} MB`;
}

const INSTRUCTION_UNITS = ['', 'K', 'M', 'G', 'T'];

/**
 * CPU instructions per request (`measure --instructions`) as people read them: exact under 1,000 ("740 instr"), else
 * three significant digits with K, M, G ("12.3 K instr", "1.42 M instr", "290 M instr"; powers of 1,000). `sign`:
 * "+1.42 M instr", "−1.42 M instr", "±0 instr" (a count that rounds to zero has no sign). JSON keeps the exact integer.
 */
export function formatInstructions(n: number, sign = false): string {
  if (!Number.isFinite(n)) return `${n} instr`;
  const a = Math.abs(Math.round(n));
  const mark = a === 0 ? (sign ? '±' : '') : n < 0 ? '−' : sign ? '+' : '';
  if (a < 1000) return `${mark}${a} instr`;
  let u = 1;
  while (u < INSTRUCTION_UNITS.length - 1 && a >= 1000 ** (u + 1)) u++;
  // 999,600 is "1.00 M", not "1.00e+3 K".
  if (u < INSTRUCTION_UNITS.length - 1 && Number((a / 1000 ** u).toPrecision(3)) >= 1000) u++;
  const v = a / 1000 ** u;
  return `${mark}${v >= 1000 ? Math.round(v) : v.toPrecision(3)} ${INSTRUCTION_UNITS[u]} instr`;
}

/** A part of a whole in percent for instruction counts: "+0.9 %", "−0.04 %" (two decimals under 0.1 %), "±0 %". */
export function instructionsPercent(part: number, whole: number): string {
  if (!(whole > 0)) return '';
  const p = (part / whole) * 100;
  const a = Math.abs(p);
  const digits = a >= 0.1 ? 1 : 2;
  const text = a.toFixed(digits);
  return `${Number(text) === 0 ? '±' : p < 0 ? '−' : '+'}${Number(text) === 0 ? '0' : text} %`;
}

/** "+1.42 M instr (+0.9 %)": an instructions delta with its share of `whole` (the clean site's count), when known. */
export function signedInstructions(delta: number, whole?: number): string {
  const pct = whole === undefined ? '' : instructionsPercent(delta, whole);
  return `${formatInstructions(delta, true)}${pct ? ` (${pct})` : ''}`;
}

/**
 * An instructions delta for people: "+1.42 M instr (+0.9 %)" (in percent of the clean site's count), or, inside the
 * run's spread (the larger max − min range of the two sides' counts), "±3.10 K instr (within noise)".
 */
export function instructionsDelta(delta: number, clean?: number, spread = 0): string {
  return Math.abs(delta) <= spread ? l10n.t('{0} (within noise)', `±${formatInstructions(Math.abs(delta))}`) : signedInstructions(delta, clean);
}

export function formatCount(n: number): string {
  return (Math.round(n) || 0).toLocaleString('en-US'); // never "-0"
}

/** The singular or the plural form for a count: `plural(n, l10n.t('1 component'), l10n.t('{0} components', n))`. */
export function plural<T>(n: number, one: T, other: T): T {
  return n === 1 ? one : other;
}

/** "1 component", "2 components" (English: the CLI and the reports; the editor's strings use plural() with l10n.t). */
export function countNoun(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : pluralForm}`;
}

/**
 * An added cost with its sign: "+3 ms", and a negative one as the formatter wrote it ("-0.3 ms"), never "+-0.3 ms".
 * Decided on the text, so a value that rounds to zero reads "+0", whatever its sign was.
 */
export function signed(text: string): string {
  return /^[-−]/.test(text) ? text : `+${text}`;
}

export const signedMs = (ms: number): string => signed(formatMs(ms));
export const signedKb = (kb: number): string => signed(formatMemoryKb(kb));
export const signedCount = (n: number): string => signed(formatCount(n));
/** "+1 query", "-3 queries": the signed count with its noun. */
export const signedQueries = (n: number): string => `${signedCount(n)} ${plural(Math.round(Math.abs(n)), 'query', 'queries')}`;

export function formatContext(c: ContextMeasurement | null): { ttfb: string; memory: string; queries: string } {
  if (!c) {
    const notMeasured = l10n.t('not measured');
    return { ttfb: notMeasured, memory: notMeasured, queries: notMeasured };
  }
  return { ttfb: formatMs(c.ttfbDeltaMs), memory: formatMemoryKb(c.memoryDeltaKb), queries: formatCount(c.queriesDelta) };
}

export function formatAge(ms: number): string {
  const m = Math.round(ms / 60_000);
  if (m < 1) return l10n.t('just now');
  if (m < 60) return l10n.t('{0} min ago', m);
  const h = Math.round(m / 60);
  if (h < 48) return l10n.t('{0} h ago', h);
  return l10n.t('{0} days ago', Math.round(h / 24));
}

/** Grade order, best first. Unknown grades sort after F. */
const GRADE_ORDER = ['A+', 'A', 'A-', 'B+', 'B', 'B-', 'C+', 'C', 'C-', 'D+', 'D', 'D-', 'E+', 'E', 'E-', 'F+', 'F', 'F-'];

export function gradeRank(grade: string | null | undefined): number {
  if (!grade) return GRADE_ORDER.length + 1;
  const i = GRADE_ORDER.indexOf(grade.trim().toUpperCase());
  if (i >= 0) return i;
  const letter = GRADE_ORDER.indexOf(grade.trim().charAt(0).toUpperCase());
  return letter >= 0 ? letter : GRADE_ORDER.length;
}

/** True when `grade`'s letter is worse than `minimum`'s (minimum C: D, E and F are worse; C- is not). */
export function isWorseThan(grade: string | null | undefined, minimum: string): boolean {
  if (!grade) return false;
  const letters = 'ABCDEF';
  const g = letters.indexOf(grade.trim().charAt(0).toUpperCase());
  const m = letters.indexOf(minimum.trim().charAt(0).toUpperCase());
  if (g < 0 || m < 0) return false;
  return g > m;
}

/** `1,234 / 50,000` style. */
export function formatQuota(used: number | null, limit: number | null): string {
  if (used === null && limit === null) return l10n.t('quota unknown');
  return `${used === null ? '?' : formatCount(used)} / ${limit === null ? '?' : formatCount(limit)}`;
}


/** An Azure Pipelines logging command: the agent acts on it anywhere in a line, in any case. */
const AZURE_COMMAND = /##vso\[/gi;

/**
 * What terminalSafe() changes: a control character (every escape sequence starts with one), a workflow command at the
 * start of a line, `##vso[`. Three simple tests (the commands only where `::` or `##` occurs at all) take less than
 * half the time of one alternation over a megabyte.
 */
// eslint-disable-next-line no-control-regex
const CONTROL_CHAR = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** Bidirectional controls (U+202E and its kin): they reorder what a terminal shows around them. */
const BIDI_CHAR = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const LINE_COMMAND = /^[ \t]*(?:::|##\[)/m;
const AZURE_COMMAND_ANY = /##vso\[/i;

/**
 * Text for a terminal or a CI log: no escape sequences (CSI, OSC: clipboard writes, links, titles, screen clears), no
 * other control characters (line breaks and tabs stay), and nothing a CI runner would execute as a workflow
 * command (`::error::…`, `##[…]` at the start of a line, `##vso[…]` anywhere).
 */
export function terminalSafe(text: string): string {
  // Nothing to neutralise (JSON output, most lines): one pass instead of seven over what may be megabytes.
  const t = String(text);
  return CONTROL_CHAR.test(t) || ((t.includes('::') || t.includes('##')) && (LINE_COMMAND.test(t) || AZURE_COMMAND_ANY.test(t))) ? neutralise(t) : t;
}

/** terminalSafe() without its quick test: every pass, whatever the text (exported for the test that they agree). */
export function neutralise(text: string): string {
  const clean = String(text)
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g, '') // OSC … BEL / ST
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-?]*[ -/]*[@-~]?/g, '') // CSI
    // eslint-disable-next-line no-control-regex
    .replace(/\u009d[^\u0007\u009c]*[\u0007\u009c]?/g, '') // 8-bit OSC
    // eslint-disable-next-line no-control-regex
    .replace(/\u009b[0-?]*[ -/]*[@-~]?/g, '') // 8-bit CSI
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
  return clean
    // Written as the escape (in JSON the same value): shown, never applied.
    .replace(BIDI_CHAR, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/^([ \t]*)(::|##\[)/gm, (_m, ws: string, cmd: string) => `${ws}${cmd === '::' ? ': :' : '# #['}`)
    .replace(AZURE_COMMAND, (m) => `${m.slice(0, 5)}\u200b[`); // zero-width space: the agent sees no command
}

/** JSON text for a CI log: `##vso[` is written `##vso\u005b`, the same JSON value that no agent acts on. */
export function ciSafeJson(json: string): string {
  return json.replace(AZURE_COMMAND, (m) => `${m.slice(0, 5)}\\u005b`);
}

/**
 * Text for a notification, quick pick, input box or status bar: plain, whatever an API or a file says. VS Code renders
 * `[label](command:…)` as a working link in notifications and `$(icon)` as an icon: brackets and the icon syntax are
 * neutralised, control characters removed, length bounded.
 */
export function uiPlainText(text: string, max = 500): string {
  const t = String(text)
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/\[/g, '\u27e6')
    .replace(/\]/g, '\u27e7')
    .replace(/\$\(/g, '$\u200b(');
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}
