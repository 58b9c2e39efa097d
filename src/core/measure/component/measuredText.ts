// Text that comes from the measured code, made safe to print: one line, no control or bidirectional characters, no
// password of the run.

/** Passwords of the run (the database's): never shown, whatever the measured code prints them into. */
const secrets = new Set<string>();
export function registerSecret(secret: string | undefined): void {
  if (secret && secret.length >= 4) secrets.add(secret);
}

/** Bidirectional and invisible formatting characters: shown as \uXXXX, never applied to the line around them. */
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g;

/**
 * Text that comes from the measured code (PHP errors, exception messages, names, file names), made safe to print on
 * one line in every format: line breaks, tabs, control characters and bidirectional or invisible formatting
 * characters written as escapes (`\n`, `\u202e`), the run's passwords as ***. A newline in an exception's text can
 * no longer start a line of its own (a forged "wp-bench: measured OK").
 */
export function measuredText(text: string): string {
  let t = String(text);
  for (const s of secrets) t = t.split(s).join('***');
  return t.replace(UNSAFE_CHARS, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/**
 * measuredText on one bounded line (at most `max` characters, "…" at the cut): for the findings' texts in every
 * report, where a line break reads `\n` (plainText, for the CLI's other columns, makes it a space).
 */
export function measuredLine(text: string, max = 120): string {
  const t = measuredText(String(text).trim());
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}
