// The browser rows of the regression reports (`measure --baseline-ref REF --browser`): the homepage's browser figures
// at REF and at the working tree, their difference, the allowance and the result, as a table, Markdown (the job
// summary), HTML, JSON and SARIF parts; the verdict's word on browser figures the noise left undecided. A report
// without browser rows gets nothing from here: it reads as before. Every string from the record is escaped for its place.
import type { BrowserComparison, BrowserReport } from '../measure/compare/comparison';
import { BROWSER_FLOOR, FIGURE_NAME, formatFigure } from '../measure/compare/browser';
import { MIN_PAIRS, type Exceeded, type RegressionReport } from '../measure/compare/regression';
import type { LocalRecord } from '../measure/record/method';
import { escapeHtml } from '../present/outcome';
import { escapeMarkdown } from '../present/markdownEscape';
import { plainText, textTable } from './plain';

const cell = (m: BrowserComparison, v: number | null) => (v === null ? 'not measured' : formatFigure(m.figure, v));
const allowedCell = (m: BrowserComparison) => (m.allowed === null ? '–' : `+${formatFigure(m.figure, m.allowed)}`);

function diffText(m: BrowserComparison): string {
  if (m.difference === null) return '–';
  return `${formatFigure(m.figure, m.difference, true)}${m.percent !== null ? ` (${m.percent > 0 ? '+' : ''}${m.percent} %)` : ''}`;
}

/** A row's RESULT: REGRESSION, INCONCLUSIVE (noise), ok (and why when the difference of medians reads over), and a budget exceeded. */
export function browserResult(m: BrowserComparison): string {
  if (m.current === null || m.baseline === null) return m.overCeiling ? `over budget ${formatFigure(m.figure, m.ceiling!)}` : '–';
  let r = m.regression ? 'REGRESSION' : m.inconclusive ? 'INCONCLUSIVE (noise)' : 'ok';
  const mt = m.main_thread;
  if (mt) r = mt.verdict === 'grew' ? `REGRESSION (its scripts' main-thread time: at least ${formatFigure('tbt_ms', mt.lower, true)})` : `ok (its scripts' main-thread time unchanged: ${formatFigure('tbt_ms', mt.median, true)} load by load; the page moved with the machine)`;
  else if (r === 'ok' && m.paired && m.difference !== null && m.allowed !== null && m.difference > m.allowed) r = `ok (within noise: load by load ${formatFigure(m.figure, m.paired.median, true)}, median of ${m.paired.n} paired loads)`;
  return m.overCeiling ? `${r}, over budget ${formatFigure(m.figure, m.ceiling!)}` : r;
}

const bad = (m: BrowserComparison) => m.regression || m.overCeiling;

/** How the browser figures were taken, from the working tree's record: "Chromium 140.0.1, desktop, 5 loads a side". */
function howText(current: LocalRecord): string {
  const b = current.local.browser;
  if (!b || 'unavailable' in b) return 'headless Chromium';
  return `Chromium ${plainText(b.chromium, 40)}, ${b.device} (${b.profile.throughput_kbps.toLocaleString('en-US')} kb/s, ${b.profile.rtt_ms} ms RTT${b.profile.cpu_slowdown > 1 ? `, ${b.profile.cpu_slowdown}× CPU` : ''}), ${b.rounds} loads a side${b.confirmation_rounds ? ` (${b.confirmation_rounds} of them a confirmation pass)` : ''}`;
}

/** The title line of the browser block. */
export function browserTitle(r: BrowserReport, current: LocalRecord): string {
  if (r.unavailable) return `In the browser: not measured (${plainText(r.unavailable, 300)}); judged on the server alone.`;
  return `In the browser (homepage; ${howText(current)}): what the component adds at the baseline and at the working tree, judged load by load.`;
}

/** The rule in words, under the browser rows. */
export function browserNote(r: RegressionReport): string {
  const f = BROWSER_FLOOR;
  return `Browser figures: what the component adds to the homepage in headless Chromium (with − clean, medians of the loads). A figure fails when the paired differences (working tree − baseline, load by load in the same round) are over max(${r.policy.maxRegressionPercent} % of the baseline's, its floor — ${f.bytes_kb} KB, ${f.fcp_ms} ms of FCP, LCP or TBT, ${f.cls} of CLS, one whole request —, the run's noise): FCP, LCP, TBT and CLS by their 95 % lower bound (when only their median is over, FCP, LCP and TBT are decided by the component's own scripts' main-thread time in the same loads — its render-blocking ones for the paints —, else inconclusive), bytes and requests by their median. Budgets: measure.browser of .wp-bench.json.`;
}

/** "homepage FCP (browser): load by load +70.0 ms (median of 5 paired loads) is over the 50.0 ms allowed, but its 95 % lower bound −12.0 ms is not". */
export function browserInconclusiveText(m: BrowserComparison): string {
  const name = `homepage ${FIGURE_NAME[m.figure]} (browser)`;
  const p = m.paired!;
  if (p.n < MIN_PAIRS) return `${name}: ${formatFigure(m.figure, m.difference ?? 0, true)} over the baseline, more than the ${formatFigure(m.figure, m.allowed ?? 0)} allowed, on ${p.n} paired loads: too few for a 95 % bound (${MIN_PAIRS} needed)`;
  return `${name}: load by load ${formatFigure(m.figure, p.median, true)} (median of ${p.n} paired loads) is over the ${formatFigure(m.figure, m.allowed ?? 0)} allowed, but its 95 % lower bound ${formatFigure(m.figure, p.lower, true)} is not`;
}

/** The verdict's INCONCLUSIVE sentence when browser figures are undecided too (undefined: none are). */
export function inconclusiveVerdict(r: RegressionReport): string | undefined {
  const k = r.inconclusive?.length ?? 0;
  const kb = r.browser?.inconclusive.length ?? 0;
  if (!kb) return undefined;
  const parts = [k ? `${k} TTFB difference${k === 1 ? '' : 's'}` : '', `${kb} browser figure${kb === 1 ? '' : 's'}`].filter(Boolean);
  return `INCONCLUSIVE: ${parts.join(' and ')} too close to the threshold for this run's noise${r.browser?.confirmation_rounds ? ', even after a confirmation pass' : ''} (no budget exceeded).`;
}

/** The table's browser block: title, the rows, the undecided ones; nothing without browser rows. */
export function browserTableLines(r: RegressionReport, current: LocalRecord): string[] {
  const b = r.browser;
  if (!b) return [];
  const out = [browserTitle(b, current)];
  if (!b.rows.length) return out;
  const rows = [['FIGURE', 'BASELINE', 'CURRENT', 'DIFFERENCE', 'ALLOWED', 'RESULT']];
  for (const m of b.rows) rows.push([FIGURE_NAME[m.figure], cell(m, m.baseline), cell(m, m.current), diffText(m), allowedCell(m), browserResult(m)]);
  out.push(textTable(rows));
  for (const m of b.inconclusive) out.push(`Inconclusive: ${browserInconclusiveText(m)}.`);
  out.push(browserNote(r));
  return out;
}

/** The Markdown block (the job summary): a table of its own under the server's; nothing without browser rows. */
export function browserMarkdownLines(r: RegressionReport, current: LocalRecord): string[] {
  const b = r.browser;
  if (!b) return [];
  const out = ['', `**${escapeMarkdown(browserTitle(b, current))}**`];
  if (!b.rows.length) return out;
  out.push('', '| Figure | Baseline | Current | Difference | Allowed | Result |', '|:--|--:|--:|--:|--:|:--|');
  for (const m of b.rows) {
    const res = browserResult(m);
    out.push(`| ${escapeMarkdown(FIGURE_NAME[m.figure])} | ${escapeMarkdown(cell(m, m.baseline))} | ${escapeMarkdown(cell(m, m.current))} | ${escapeMarkdown(diffText(m))} | ${escapeMarkdown(allowedCell(m))} | ${bad(m) ? '❌' : m.inconclusive ? '⚠️' : res.startsWith('ok') ? '✅' : '➖'} ${escapeMarkdown(res)} |`);
  }
  if (b.inconclusive.length) out.push('', ...b.inconclusive.map((m) => `- ⚠️ ${escapeMarkdown(browserInconclusiveText(m))}`));
  out.push('', `<sub>${escapeMarkdown(browserNote(r))}</sub>`);
  return out;
}

/** The HTML block: a heading, a table, the undecided rows and the rule; nothing without browser rows. */
export function browserHtmlLines(r: RegressionReport, current: LocalRecord): string[] {
  const b = r.browser;
  if (!b) return [];
  const e = (t: string) => escapeHtml(plainText(t, 600));
  const out = ['<h2>In the browser</h2>', `<p class="note">${e(browserTitle(b, current))}</p>`];
  if (!b.rows.length) return out;
  out.push('<table><thead><tr><th scope="col">Figure</th><th scope="col">Baseline</th><th scope="col">Current</th><th scope="col">Difference</th><th scope="col">Allowed</th><th scope="col">Result</th></tr></thead><tbody>');
  for (const m of b.rows) {
    const res = browserResult(m);
    out.push(`<tr><td>${e(FIGURE_NAME[m.figure])}</td><td>${e(cell(m, m.baseline))}</td><td>${e(cell(m, m.current))}</td><td>${e(diffText(m))}</td><td>${e(allowedCell(m))}</td><td class="${bad(m) || m.inconclusive ? 'bad' : res.startsWith('ok') ? 'ok' : 'note'}">${e(res)}</td></tr>`);
  }
  out.push('</tbody></table>');
  for (const m of b.inconclusive) out.push(`<p class="note">Inconclusive: ${e(browserInconclusiveText(m))}</p>`);
  out.push(`<p class="note">${e(browserNote(r))}</p>`);
  return out;
}

/** JSON's part: `browser: {rows, inconclusive (the figures), unavailable?}`; nothing without browser rows. */
export function browserJson(r: RegressionReport): { browser?: { rows: BrowserComparison[]; inconclusive: string[]; confirmation_rounds?: number; unavailable?: string } } {
  const b = r.browser;
  if (!b) return {};
  return { browser: { rows: b.rows, inconclusive: b.inconclusive.map((m) => m.figure), ...(b.confirmation_rounds ? { confirmation_rounds: b.confirmation_rounds } : {}), ...(b.unavailable ? { unavailable: b.unavailable } : {}) } };
}

/** SARIF: the rules of browser figures (only in a log of a run with browser rows). */
export const BROWSER_RULES = [
  { id: 'browser-regression', name: 'BrowserRegression', text: "The component adds more to the homepage in the browser (bytes, requests, render-blocking requests, FCP, LCP, TBT or CLS) than at the baseline ref, load by load beyond the allowed regression (measure.maxRegressionPercent, the figure's floor and the run's noise)." },
  { id: 'browser-budget-exceeded', name: 'BrowserBudgetExceeded', text: 'The component adds more to the homepage in the browser than a budget of measure.browser in .wp-bench.json.' },
];

/** The SARIF rule of an exceeded browser figure: its id among BROWSER_RULES. */
export const browserRuleOf = (e: Exceeded) => (e.rule === 'ceiling' ? BROWSER_RULES[1] : BROWSER_RULES[0]);

/** SARIF's run properties: every browser row, whatever its result. */
export function browserSarifProperties(r: RegressionReport): { browser?: Array<Pick<BrowserComparison, 'figure' | 'baseline' | 'current' | 'difference' | 'allowed' | 'ceiling' | 'regression' | 'overCeiling'> & { inconclusive: boolean }>; browserUnavailable?: string } {
  const b = r.browser;
  if (!b) return {};
  if (b.unavailable) return { browserUnavailable: b.unavailable };
  return { browser: b.rows.map(({ figure, baseline, current, difference, allowed, ceiling, regression, overCeiling, inconclusive }) => ({ figure, baseline, current, difference, allowed, ceiling, regression, overCeiling, inconclusive: inconclusive === true })) };
}
