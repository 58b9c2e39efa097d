// What every HTML report of a check and of a site shares: the style sheet (inline; printable on A4 and Letter) and
// the document's head, whose Content-Security-Policy forbids any script and any external request.
import { escapeHtml } from '../present/outcome';

export const REPORT_CSS = `
:root { color-scheme: light; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --bar: #2f6fbd; --over: #c62828; --ok: #1a7f37; --warn-bg: #fff4d6; }
* { box-sizing: border-box; }
body { font: 14px/1.45 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); margin: 0 auto; padding: 24px; max-width: 180mm; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 24px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
.meta, .note { color: var(--muted); }
.synthetic { background: var(--warn-bg); border: 2px solid #b58100; padding: 8px 12px; font-weight: 600; margin: 12px 0; }
.verdict { font-weight: 600; }
.verdict.failed { color: var(--over); }
.verdict.passed { color: var(--ok); }
table { border-collapse: collapse; width: 100%; margin: 4px 0 8px; }
th, td { text-align: right; padding: 4px 6px; border-bottom: 1px solid var(--line); vertical-align: top; }
th:first-child, td:first-child, td.name, th.name { text-align: left; }
thead th { color: var(--muted); font-weight: 600; }
td.grade { font-weight: 700; text-align: left; white-space: nowrap; }
table.components { font-size: 13px; }
table.components td:last-child, table.components th:last-child { text-align: left; min-width: 9em; }
table.components td.name code { display: block; }
tr.fail td { color: var(--over); }
.over { color: var(--over); font-weight: 600; }
.within { color: var(--ok); }
svg { display: block; width: 100%; height: auto; }
svg text { font: 12px -apple-system, "Segoe UI", Roboto, Arial, sans-serif; fill: var(--fg); }
svg .bar { fill: var(--bar); }
svg .budget { stroke: var(--over); stroke-width: 2; stroke-dasharray: 5 3; }
svg .axis { stroke: var(--line); }
ul.unknown { columns: 2; padding-left: 18px; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }
@page { margin: 14mm; }
@media print {
  body { padding: 0; max-width: none; font-size: 11pt; }
  h2 { break-after: avoid; }
  tr, figure, .synthetic { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}
`;

/** The document up to <body>: `title` is plain text (escaped here); `css`, a report's own rules after the shared ones. */
export function htmlHead(title: string, css = ''): string[] {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    // No script, no external request: the policy forbids both (inline styles and data: images only).
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${REPORT_CSS}${css}</style>`,
    '</head>',
    '<body>',
  ];
}
