// Plain-text helpers of the CLI's output: columns, untrusted strings made plain, the scan's problems counted. Small on
// purpose: `wp-bench scan` (dist/cli.js alone, see src/wp-bench.ts) loads these and not the report formats. Plain Node.
import { countNoun } from '../present/format';

/** Plain text of untrusted strings: no control characters, bounded length. */
export function plainText(text: string, max = 120): string {
  // eslint-disable-next-line no-control-regex
  const t = String(text).replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** "1 problem, 2 notes": the scan's problems (something left uncounted) and notes (severity info), by count. */
export function problemsSummary(problems: readonly { severity?: 'warning' | 'info' }[]): string {
  const notes = problems.filter((p) => p.severity === 'info').length;
  const uncounted = problems.length - notes;
  return [uncounted ? countNoun(uncounted, 'problem') : null, notes ? countNoun(notes, 'note') : null].filter(Boolean).join(', ');
}

export function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

/** Plain-text columns, as the CLI prints them. */
export function textTable(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : pad(cell, widths[i]))).join('  ').trimEnd()).join('\n');
}
