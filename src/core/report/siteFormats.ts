// `measure SITE --site` as a report: Markdown (a pull-request comment, or a section appended to a check's report) and
// a self-contained HTML page (or a <section> of the check's HTML report). The wording and the arithmetic are
// siteText.ts's, as the terminal table says them; every string from the record (slugs, names, reasons, PHP errors)
// is escaped here. Pure: no I/O, no vscode.
import type { SiteRecord } from '../measure/siteRun/siteRecord';
import { escapeMarkdown, markdownCode } from '../present/markdownEscape';
import { escapeHtml } from '../present/outcome';
import { htmlHead } from './htmlPage';
import { plainText } from './plain';
import { BROWSER_FOOTNOTE, BROWSER_HEADERS, BROWSER_TITLE, NO_FILES, siteBrowserView, type BrowserRow } from './siteBrowserText';
import { cleanLine, COMPONENTS_LINE, DROP_IN_REASON, kindLabel, measuredFacts, notCountedLine, notedMembers, measuredMembers, memberCell, mustUseMembers, MUST_USE_LINE, SITE_FOOTNOTE, INSTRUCTIONS_FOOTNOTE, markedSections, stackRows } from './siteText';

export interface SiteReportOptions {
  /** The site the report is about (its folder's name), shown in the title. */
  subject?: string;
}

const SITE_TITLE = 'The site as it runs';
const STACK_HEADERS = ['Context', 'The stack, as it runs', 'Sum of the parts, each alone', 'Difference'];
const MEMBER_HEADERS = ['Kind', 'Plugin or theme', 'In this site (homepage)', 'Alone (homepage)', 'In this site (admin)', 'Alone (admin)'];
const DIFFERENCE_NOTE = 'The difference is the stack minus the sum of the parts: code two components share is counted twice in the sum, and a component that needs another costs nothing alone.';

/** "Measured locally on 2026-11-25: php runtime, PHP 8.2.36, …" (plain text). */
function measuredLine(r: SiteRecord, stale?: string): string {
  const date = r.measured_at?.slice(0, 10);
  return `Measured locally${date ? ` on ${date}` : ''}: ${measuredFacts(r)}.${stale ? ` Stale: ${plainText(stale, 300)}; measure the site again.` : ''}`;
}

/** A member as it is named: its name and slug, or the slug alone when they are the same. */
function named(c: { name: string; slug: string }): { name: string | null; slug: string } {
  const name = plainText(c.name, 80);
  return { name: name && name !== c.slug ? name : null, slug: c.slug };
}

/** A reason or note from the record: one line, no control characters (a PHP error's stack trace stays out). */
const reason = (text: string) => plainText(text, 2000);

const leftOut = (r: SiteRecord) => r.components.filter((x) => x.left_out);

const mdRow = (cells: string[]) => `| ${cells.join(' | ')} |`;
const mdMember = (c: { name: string; slug: string }) => {
  const n = named(c);
  return n.name ? `${escapeMarkdown(n.name)} ${markdownCode(n.slug)}` : markdownCode(n.slug);
};

/** The site's report as a Markdown section (no document title): for a check's report to append. */
export function siteMarkdownSection(r: SiteRecord, stale?: string): string {
  const out: string[] = [`### ${SITE_TITLE}`, '', escapeMarkdown(measuredLine(r, stale)), ''];
  out.push(mdRow(STACK_HEADERS), '|:--|--:|--:|--:|');
  for (const x of stackRows(r)) out.push(mdRow([x.context, escapeMarkdown(x.stack), escapeMarkdown(x.sum), escapeMarkdown(x.difference)]));
  const nc = notCountedLine(r);
  const cl = cleanLine(r);
  out.push('', ...(nc ? [escapeMarkdown(nc), ''] : []), ...(cl ? [escapeMarkdown(cl), ''] : []), escapeMarkdown(DIFFERENCE_NOTE), '');
  const members = measuredMembers(r);
  out.push(`${escapeMarkdown(COMPONENTS_LINE)}:`, '');
  if (members.length) {
    out.push(mdRow(MEMBER_HEADERS), '|:--|:--|--:|--:|--:|--:|');
    for (const x of members) out.push(mdRow([kindLabel(x), mdMember(x), ...[memberCell(x.in_site, 'homepage'), memberCell(x.alone, 'homepage'), memberCell(x.in_site, 'admin'), memberCell(x.alone, 'admin')].map(escapeMarkdown)]));
  } else {
    out.push('No component was measured in the stack.');
  }
  const mus = mustUseMembers(r);
  if (mus.length) out.push('', `${escapeMarkdown(MUST_USE_LINE)}: ${mus.map((c) => markdownCode(c.slug)).join(', ')}`);
  for (const x of notedMembers(r)) out.push('', `${x.kind} ${mdMember(x)}: ${escapeMarkdown(reason(x.note!))}`);
  const left = leftOut(r);
  if (left.length || r.drop_ins_left_out.length) {
    out.push('', '**Left out of the stack**', '');
    for (const x of left) out.push(`- ${kindLabel(x)} ${mdMember(x)}: ${escapeMarkdown(reason(x.left_out!))}`);
    for (const d of r.drop_ins_left_out) out.push(`- drop-in ${markdownCode(d)}: ${escapeMarkdown(DROP_IN_REASON)}`);
  }
  for (const m of markedSections(r)) out.push('', `**${escapeMarkdown(m.heading)}**`, '', ...m.lines.map((l) => `- ${escapeMarkdown(l)}`));
  out.push(...browserMarkdown(r), '', `<sub>${escapeMarkdown(SITE_FOOTNOTE)}</sub>`);
  if (r.local.instructions) out.push('', `<sub>${escapeMarkdown(INSTRUCTIONS_FOOTNOTE)}</sub>`);
  return out.join('\n');
}

/** The site's report as a Markdown document. */
export function siteMarkdown(r: SiteRecord, opts: SiteReportOptions = {}): string {
  const subject = opts.subject ? ` — ${escapeMarkdown(plainText(opts.subject, 80))}` : '';
  return `## WP Bench: the site as it runs${subject}\n\n${siteMarkdownSection(r)}\n`;
}

/** `--browser`: the stack and each member in the site, figure by figure, each member's files (siteBrowserText.ts). */
function browserMarkdown(r: SiteRecord): string[] {
  const v = siteBrowserView(r);
  if (v === undefined) return [];
  if (typeof v === 'string') return ['', escapeMarkdown(v)];
  const label = (x: BrowserRow) => (x.member ? `${kindLabel(x.member)} ${mdMember(x.member)}` : escapeMarkdown(x.label));
  const out = ['', `#### ${BROWSER_TITLE}`, '', escapeMarkdown(`${v.how}.`), '', mdRow(BROWSER_HEADERS), `|:--|${'--:|'.repeat(BROWSER_HEADERS.length - 1)}`];
  for (const x of v.rows) out.push(mdRow([label(x), ...x.cells.map(escapeMarkdown)]));
  if (v.files.length || v.none.length) out.push('', 'Their files on the homepage (per load, in the stack):', '');
  for (const f of v.files) for (const l of f.lines) out.push(`- ${kindLabel(f.member)} ${mdMember(f.member)}: ${escapeMarkdown(l)}`);
  for (const m of v.none) out.push(`- ${kindLabel(m)} ${mdMember(m)}: ${NO_FILES}`);
  out.push('', ...v.notes.map((n) => `${escapeMarkdown(n)}.  `), '', `<sub>${escapeMarkdown(BROWSER_FOOTNOTE)}</sub>`);
  return out;
}

/** `--browser` as HTML (escaped). */
function browserHtml(r: SiteRecord): string[] {
  const v = siteBrowserView(r);
  if (v === undefined) return [];
  if (typeof v === 'string') return [`<p class="note">${escapeHtml(v)}</p>`];
  const label = (x: BrowserRow) => (x.member ? `${escapeHtml(kindLabel(x.member))} ${htmlMember(x.member)}` : escapeHtml(x.label));
  const out = [`<h3>${escapeHtml(BROWSER_TITLE)}</h3>`, `<p class="meta">${escapeHtml(`${v.how}.`)}</p>`, `<table class="browser">${th(BROWSER_HEADERS, 0)}<tbody>`];
  for (const x of v.rows) out.push(`<tr><td class="name">${label(x)}</td>${x.cells.map((c) => `<td>${htmlFigures(c)}</td>`).join('')}</tr>`);
  out.push('</tbody></table>');
  if (v.files.length || v.none.length) {
    out.push('<p>Their files on the homepage (per load, in the stack):</p>', '<ul class="browser-files">');
    for (const f of v.files) for (const l of f.lines) out.push(`<li>${escapeHtml(kindLabel(f.member))} ${htmlMember(f.member)}: ${escapeHtml(l)}</li>`);
    for (const m of v.none) out.push(`<li>${escapeHtml(kindLabel(m))} ${htmlMember(m)}: ${escapeHtml(NO_FILES)}</li>`);
    out.push('</ul>');
  }
  out.push(...v.notes.map((n) => `<p class="note">${escapeHtml(n)}.</p>`), `<p class="note">${escapeHtml(BROWSER_FOOTNOTE)}</p>`);
  return out;
}

/** A figures cell: each figure kept on one line ("+2,053 KB"), a narrow column breaking only between figures. */
const htmlFigures = (text: string) => escapeHtml(text).replace(/ (ms|KB|q)\b/g, '&nbsp;$1');

/** A table's head; the column `name` (the member's) is aligned left as its cells. */
const th = (cells: string[], name?: number) => `<thead><tr>${cells.map((c, i) => `<th scope="col"${i === name ? ' class="name"' : ''}>${escapeHtml(c)}</th>`).join('')}</tr></thead>`;
const htmlMember = (c: { name: string; slug: string }) => {
  const n = named(c);
  return n.name ? `${escapeHtml(n.name)} <code>${escapeHtml(n.slug)}</code>` : `<code>${escapeHtml(n.slug)}</code>`;
};

/** The site's report as a <section> (escaped): for a check's HTML report to embed. */
export function siteHtmlSection(r: SiteRecord, stale?: string): string {
  const out: string[] = ['<section class="site">', `<h2>${escapeHtml(SITE_TITLE)}</h2>`, `<p class="meta">${escapeHtml(measuredLine(r, stale))}</p>`];
  out.push(`<table class="stack">${th(STACK_HEADERS)}<tbody>`);
  for (const x of stackRows(r)) out.push(`<tr><th scope="row">${escapeHtml(x.context)}</th><td>${htmlFigures(x.stack)}</td><td>${htmlFigures(x.sum)}</td><td>${htmlFigures(x.difference)}</td></tr>`);
  const nc = notCountedLine(r);
  const cl = cleanLine(r);
  out.push('</tbody></table>', ...(nc ? [`<p class="note">${escapeHtml(nc)}</p>`] : []), ...(cl ? [`<p class="note">${escapeHtml(cl)}</p>`] : []), `<p class="note">${escapeHtml(DIFFERENCE_NOTE)}</p>`);
  const members = measuredMembers(r);
  out.push(`<p>${escapeHtml(COMPONENTS_LINE)}:</p>`);
  if (members.length) {
    out.push(`<table class="members">${th(MEMBER_HEADERS, 1)}<tbody>`);
    for (const x of members) {
      const cells = [memberCell(x.in_site, 'homepage'), memberCell(x.alone, 'homepage'), memberCell(x.in_site, 'admin'), memberCell(x.alone, 'admin')].map((c) => `<td>${htmlFigures(c)}</td>`).join('');
      out.push(`<tr><td>${escapeHtml(kindLabel(x))}</td><td class="name">${htmlMember(x)}</td>${cells}</tr>`);
    }
    out.push('</tbody></table>');
  } else {
    out.push('<p class="note">No component was measured in the stack.</p>');
  }
  const mus = mustUseMembers(r);
  if (mus.length) out.push(`<p class="note">${escapeHtml(MUST_USE_LINE)}: ${mus.map((c) => `<code>${escapeHtml(c.slug)}</code>`).join(', ')}</p>`);
  for (const x of notedMembers(r)) out.push(`<p class="note">${escapeHtml(x.kind)} ${htmlMember(x)}: ${escapeHtml(reason(x.note!))}</p>`);
  const left = leftOut(r);
  if (left.length || r.drop_ins_left_out.length) {
    out.push(`<h3>Left out of the stack</h3>`, '<ul class="left-out">');
    for (const x of left) out.push(`<li>${escapeHtml(kindLabel(x))} ${htmlMember(x)}: ${escapeHtml(reason(x.left_out!))}</li>`);
    for (const d of r.drop_ins_left_out) out.push(`<li>drop-in <code>${escapeHtml(d)}</code>: ${escapeHtml(DROP_IN_REASON)}</li>`);
    out.push('</ul>');
  }
  for (const m of markedSections(r)) out.push(`<h3>${escapeHtml(m.heading)}</h3>`, '<ul class="marked">', ...m.lines.map((l) => `<li>${escapeHtml(l)}</li>`), '</ul>');
  out.push(...browserHtml(r), `<p class="note">${escapeHtml(SITE_FOOTNOTE)}</p>`);
  if (r.local.instructions) out.push(`<p class="note">${escapeHtml(INSTRUCTIONS_FOOTNOTE)}</p>`);
  out.push('</section>');
  return out.join('\n');
}

/** The site's report as a self-contained HTML document (no script, no external request). */
export function siteHtml(r: SiteRecord, opts: SiteReportOptions = {}): string {
  const subject = opts.subject ? plainText(opts.subject, 80) : '';
  const title = `WP Bench: the site as it runs${subject ? ` — ${subject}` : ''}`;
  return [...htmlHead(title), `<header><h1>${escapeHtml(title)}</h1></header>`, siteHtmlSection(r), '</body>', '</html>', ''].join('\n');
}
