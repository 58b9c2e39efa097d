// `measure SITE --site` as Markdown and HTML: the stack beside the sum of its parts and their difference, the members
// by what they add in the site, what was left out and why, every string from the record escaped.
import assert from 'node:assert/strict';
import { isSiteRecord } from '../../../src/core/measure/siteRun/siteRecord';
import { siteHtml, siteHtmlSection, siteMarkdown, siteMarkdownSection } from '../../../src/core/report/siteFormats';
import { figuresDifference, siteTable } from '../../../src/core/report/siteText';
import { HOSTILE_REASON, siteRecord } from '../helpers/siteRecord';

/** The cells of a GFM table row, split on `|` not escaped by a backslash (as GitHub splits them). */
function cells(line: string): string[] {
  return line
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

/** The rows of the Markdown table whose header starts with `first`, as cells (header and delimiter row left out). */
function table(md: string, first: string): string[][] {
  const lines = md.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`| ${first} |`));
  assert.ok(start >= 0, `no table starting with ${first}`);
  const rows: string[][] = [];
  for (const l of lines.slice(start + 2)) {
    if (!l.startsWith('|')) break;
    rows.push(cells(l));
  }
  return rows;
}

describe('report: a site measured as a whole (measure SITE --site --format markdown|html)', () => {
  it('the fixture is a site record', () => {
    assert.equal(isSiteRecord(siteRecord()), true);
  });

  it('markdown: the stack as it runs, the sum of the parts and their difference per context; a null context is "not measured"', () => {
    const md = siteMarkdown(siteRecord(), { subject: 'client-site' });
    assert.match(md, /^## WP Bench: the site as it runs — client-site\n\n### The site as it runs\n/);
    assert.match(md, /Measured locally on 2026-11-25: php runtime, PHP 8\.2\.36, WordPress 6\.8\.1, MariaDB 10\.11\.6, theme storefront, 10 rounds of 8 configurations, 21\.4 s\./);
    const rows = table(md, 'Context');
    assert.deepEqual(rows.map((r) => r[0]), ['activation', 'homepage', 'admin']);
    for (const r of rows) assert.equal(r.length, 4, r.join(' / '));
    const [activation, homepage, admin] = rows;
    // 12.5 − 9.3 is 3.2000000000000002 in floating point: said 3.2; memory and queries exact.
    assert.deepEqual(homepage, ['homepage', '\\+12.5 ms · +4,200 KB · +5 q', '\\+9.3 ms · +7,200 KB · +8 q', '\\+3.2 ms · -3,000 KB · -3 q']);
    assert.deepEqual(activation.slice(3), ['\\+4.3 ms · -3,880 KB · -3 q']);
    assert.deepEqual(admin, ['admin', 'not measured', '\\+6.0 ms · +6,100 KB · +7 q', '—']);
    assert.deepEqual(figuresDifference(siteRecord().site.contexts.homepage, siteRecord().sum_of_alone.contexts.homepage), { ttfb_delta_ms: 3.2, memory_delta_kb: -3000, queries_delta: -3 });
    assert.equal(figuresDifference(null, siteRecord().sum_of_alone.contexts.admin), null);
  });

  it('markdown: the members by what they add in the site (homepage TTFB, most first); two plugins sharing a library add ~0 in the site but 3,000 KB alone', () => {
    const md = siteMarkdownSection(siteRecord());
    const rows = table(md, 'Kind');
    assert.deepEqual(rows.map((r) => r[1]), ['Storefront `storefront`', 'Lib User A `lib-user-a`', 'Lib User \\| B \\*two\\* `lib-user-b`']);
    for (const r of rows) assert.equal(r.length, 6, `a name with "|" does not add a cell: ${r.join(' / ')}`);
    const b = rows[2];
    assert.equal(b[2], '\\+0.1 ms · 0 KB · 0 q', 'in this site: the library is already there');
    assert.equal(b[3], '\\+2.9 ms · +3,000 KB · +3 q', 'alone: it costs the library');
    assert.equal(b[4], 'not measured');
    assert.equal(b[5], '\\+2.0 ms · +3,000 KB · +3 q');
    assert.ok(!rows.some((r) => /premium-pro|mu-loader/.test(r[1])), 'the left-out and the must-use plugin have no figures row');
  });

  it('markdown: the must-use plugins, what was left out with its reason escaped on one line, the drop-ins and the footnote', () => {
    const md = siteMarkdownSection(siteRecord());
    assert.match(md, /^Must-use plugins in the stack, not measured apart in this version \(the sum of the parts leaves them out\): `mu-loader`$/m);
    assert.match(md, /\n\*\*Left out of the stack\*\*\n/);
    const item = md.split('\n').find((l) => l.startsWith('- plugin Premium Pro `premium-pro`: '));
    assert.ok(item, md);
    assert.ok(item.includes('Stack trace'), 'the reason stays on its list item: its line break is gone');
    assert.ok(item.includes('\\<script\\>alert(1)\\</script\\>'), item);
    assert.ok(item.includes('the stack \\| \\*bold\\* \\`code\\`'), item);
    assert.doesNotMatch(md, /(?<!\\)<script/i, 'no raw HTML from the record');
    assert.match(md, /^- drop-in `wp-content\/object-cache\.php`: drop-ins are not measured/m);
    assert.match(md, /<sub>Deltas against the same clean site \(no plugin, the baseline theme\): TTFB the median of the round-by-round differences/);
    // The section is the document without its title.
    assert.doesNotMatch(md, /^## /m);
    assert.ok(md.startsWith('### The site as it runs\n'));
    assert.equal(siteMarkdown(siteRecord()), `## WP Bench: the site as it runs\n\n${md}\n`);
  });

  it('html: a self-contained page, every string escaped, no script at all; the section embeds alone', () => {
    const r = siteRecord();
    const html = siteHtml(r, { subject: 'site <b>x</b>' });
    assert.match(html, /^<!DOCTYPE html>\n<html lang="en">/);
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">/);
    assert.doesNotMatch(html, /<script/i);
    assert.doesNotMatch(html, /<b>x<\/b>/);
    assert.doesNotMatch(html, /\b(src|href)=/, 'no external resource');
    assert.ok(html.includes('&#60;script&#62;alert(1)&#60;/script&#62;'));
    assert.ok(html.includes('&#96;code&#96;'));
    const section = siteHtmlSection(r);
    assert.ok(html.includes(section));
    assert.match(section, /^<section class="site">\n<h2>The site as it runs<\/h2>/);
    assert.match(section, /<\/section>$/);
    assert.doesNotMatch(section, /<html|<body|<style/);
    // Each figure on one line (a narrow column breaks between figures only).
    const plain = section.replace(/&nbsp;/g, ' ');
    assert.match(section, /<td>\+12\.5&nbsp;ms · \+4,200&nbsp;KB · \+5&nbsp;q<\/td>/);
    assert.match(plain, /<tr><th scope="row">homepage<\/th><td>\+12\.5 ms · \+4,200 KB · \+5 q<\/td><td>\+9\.3 ms · \+7,200 KB · \+8 q<\/td><td>\+3\.2 ms · -3,000 KB · -3 q<\/td><\/tr>/);
    assert.match(plain, /<tr><th scope="row">admin<\/th><td>not measured<\/td><td>\+6\.0 ms · \+6,100 KB · \+7 q<\/td><td>—<\/td><\/tr>/);
    const order = ['storefront', 'lib-user-a', 'lib-user-b'].map((s) => section.indexOf(`<code>${s}</code></td>`));
    assert.ok(order.every((i, k) => i > 0 && (k === 0 || i > order[k - 1])), `members by what they add: ${order}`);
    assert.ok(section.includes('Lib User | B *two* <code>lib-user-b</code>'));
    assert.match(section, /<li>plugin Premium Pro <code>premium-pro<\/code>: it breaks the stack \| \*bold\* &#96;code&#96; \(homepage: PHP Fatal error: &#60;script&#62;alert\(1\)&#60;\/script&#62; Stack trace: #0 \{main\}<\/li>/);
    assert.match(section, /<li>drop-in <code>wp-content\/object-cache\.php<\/code>: /);
    assert.match(section, /not measured apart in this version \(the sum of the parts leaves them out\): <code>mu-loader<\/code>/);
  });

  it('the terminal table says the same (its wording unchanged), from the same figures', () => {
    const t = siteTable({ ...siteRecord(), components: [...siteRecord().components].sort((a, b) => a.slug.localeCompare(b.slug)) });
    assert.match(t, /^The site as it runs — measured locally: php runtime, PHP 8\.2\.36, WordPress 6\.8\.1, MariaDB 10\.11\.6, theme storefront, 10 rounds of 8 configurations, 21\.4 s$/m);
    assert.match(t, /^homepage {4}\+12\.5 ms · \+4,200 KB · \+5 q {2}\+9\.3 ms · \+7,200 KB · \+8 q {4}\+3\.2 ms · -3,000 KB · -3 q$/m);
    assert.match(t, /^admin {7}not measured {17}\+6\.0 ms · \+6,100 KB · \+7 q {4}—$/m);
    const members = t.split('\n').filter((l) => /^(plugin|theme) {2}/.test(l)).map((l) => l.split(/\s+/)[1]);
    assert.deepEqual(members, ['storefront', 'lib-user-a', 'lib-user-b'], 'by what they add in the site, whatever the record order');
    assert.match(t, /^ {2}plugin premium-pro: it breaks the stack \| \*bold\*/m);
    assert.match(t, /^ {2}drop-in wp-content\/object-cache\.php: drop-ins are not measured/m);
    assert.ok(t.includes(HOSTILE_REASON.split('\n')[0]));
  });

  it('names what the sum of the parts could not count, and a must-use plugin measured with its loader', () => {
    const r = siteRecord();
    r.sum_of_alone.not_counted = { activation: [], homepage: ['needs-lib'], admin: ['needs-lib'] };
    r.components.push({ kind: 'plugin', slug: 'loaded-sub', name: 'Loaded Sub', must_use: true, alone: null, in_site: null, left_out: null, note: 'loaded by @config.php: measured with @config', measured_with: '@config' });
    const line = 'Not in the sum of the parts (not measured alone): needs-lib (homepage, admin)';
    assert.ok(siteTable(r).includes(line), siteTable(r));
    assert.ok(siteMarkdownSection(r).includes(line));
    assert.ok(siteHtmlSection(r).includes(line));
    assert.match(siteTable(r), /^must-use loaded-sub: loaded by @config\.php: measured with @config$/m);
    assert.doesNotMatch(siteTable(r), /not measured apart in this version.*loaded-sub/);
  });
});
