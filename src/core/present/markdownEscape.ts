// Markdown escaping, one function per place a string goes (text, code span, link target). Folder names, file
// contents and API answers render as the same text: never as markup, raw HTML, an image, a link, an @mention or a
// new table cell. The target is GitHub Flavored Markdown (tables, autolinks, mentions); hovers use it too.

/** Control characters go; tab and line breaks are handled by each place. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;
const LINE_BREAK = /\r?\n|\r/g;
/** Zero-width joiner after `@`: `@octocat` stays readable but is no mention and no e-mail autolink. */
const NO_MENTION = '@\u200d';

function oneLine(text: string): string {
  return String(text).replace(LINE_BREAK, ' ').replace(CONTROL, '');
}

/**
 * Text in a paragraph, a table cell, a list item or link text. Escapes what Markdown needs, and only that, so a raw
 * job log still reads "FAILED: 9 budgets exceeded." (not "FAILED\: 9 budgets exceeded\."):
 * - always: `\` `` ` `` `*` `_` `[` `]` `<` `>` `|` `~` `$` (emphasis, code, links and images, raw HTML, table cells,
 *   strikethrough, GitHub's math);
 * - `&` before an entity name (`&amp;`), `:` in `://` and `.` after `www` (GFM's autolinks), `@` (mentions, e-mail
 *   autolinks: a zero-width joiner after it);
 * - at the start of the text: a heading `#`, a list `-` `+` or `1.` `1)`, a setext or thematic `=`.
 */
export function escapeMarkdown(text: string): string {
  return oneLine(text)
    .replace(/[\\`*_[\]<>|~$]/g, (c) => `\\${c}`)
    .replace(/&(?=#?[a-zA-Z0-9]+;)/g, '\\&')
    .replace(/:(?=\/\/)/g, '\\:')
    .replace(/\b(www)\./gi, '$1\\.')
    .replace(/^(\s*)(#|[-+=]|\d+(?=[.)]))/, (_m, sp: string, c: string) => (/^\d/.test(c) ? `${sp}${c}\\` : `${sp}\\${c}`))
    .replace(/@/g, `\\${NO_MENTION}`);
}

/**
 * A code span in a table cell: a fence longer than any run of backticks inside, a space inside the fence when
 * the text starts or ends with a backtick or a space (CommonMark strips one), and `|` escaped (GFM tables split
 * cells on `|` even inside code spans, and unescape `\|` there).
 */
export function markdownCode(text: string): string {
  const t = oneLine(text).replace(/\|/g, '\\|');
  if (t === '') return '';
  let longest = 0;
  let run = 0;
  for (const c of t) {
    run = c === '`' ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  const fence = '`'.repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(t) ? ' ' : '';
  return `${fence}${pad}${t}${pad}${fence}`;
}

/**
 * A link target: http(s) only (else null), with every character that could end the target, break a table
 * cell or start markup percent-encoded.
 */
export function markdownLinkTarget(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
    return u.toString().replace(/[()<> "'\\|[\]`{}]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  } catch {
    return null;
  }
}

/** `[label](url)` with `label` already Markdown (escaped text, code spans); the label alone when the URL is unusable. */
export function markdownLink(label: string, url: string | null | undefined): string {
  const target = markdownLinkTarget(url);
  return target ? `[${label}](${target})` : label;
}
