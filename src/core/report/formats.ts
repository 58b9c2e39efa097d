// Renderers of a check: a terminal table, JSON (stable, documented in the README), Markdown for pull-request
// comments and SARIF 2.1.0 for code-scanning UIs. Each format lives in its own module (table.ts, json.ts,
// markdown.ts, sarif.ts; what they all say alike in reportText.ts) and escapes every string from the API or a
// scanned file itself; this is where the CLI and the editor pick a format.
export const REPORT_FORMATS = ['table', 'json', 'markdown', 'sarif', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export { JSON_REPORT_VERSION, toJson } from './json';
export { problemsMarkdown, toMarkdown } from './markdown';
export { toSarif, type SarifOptions } from './sarif';
export { INFORMATION_URI, SARIF_SCHEMA, sarifLog } from './sarifLog';
export { toTable } from './table';
export {
  budgetColumn,
  budgetLines,
  contextCells,
  NO_MEASUREMENT,
  problemLines,
  problemPlace,
  problemsExplanation,
  statusText,
  totalCells,
  unmeasuredNote,
  verdictLine,
  type RenderOptions,
} from './reportText';
