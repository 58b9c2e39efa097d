// The instructions rows of the regression reports (`measure --baseline-ref REF --instructions`): their difference and
// result cells, the verdict's word on what judged each context, the note under the table, and their JSON and SARIF
// parts. A report without instructions rows gets nothing from here: it reads as before.
import { CONTEXTS, type MeasureContext } from '../measure/record/method';
import type { MetricComparison, RegressionReport } from '../measure/compare/regression';
import { DEFAULT_INSTRUCTIONS_PERCENT, instructionsRule } from '../measure/compare/instructions';
import { signedInstructions } from '../present/format';

/** The RESULT of a TTFB row in a context judged on instructions. */
export const NOT_JUDGED = 'not judged (instructions decide this context)';

/** The threshold the report was judged with, in percent of the baseline's request. */
export function instructionsPercentOf(r: RegressionReport): number {
  return r.policy.instructionsPercent ?? DEFAULT_INSTRUCTIONS_PERCENT;
}

const judgedOn = (r: RegressionReport): MeasureContext[] => r.judgedOnInstructions ?? [];

/** "+1.74 M instr (+0.6 %)": the difference of the whole request's count, in percent of the baseline's. */
export function instructionsDiffText(m: MetricComparison): string {
  return signedInstructions(m.difference ?? 0, m.baseline ?? undefined);
}

/** "ok (within noise)" inside the run's spread, else "ok". */
export function instructionsOk(m: MetricComparison): string {
  return m.difference !== null && Math.abs(m.difference) <= (m.noise ?? 0) ? 'ok (within noise)' : 'ok';
}

/**
 * What judged the contexts, for the verdict: "Judged on instructions (exact), memory and queries; TTFB shown, not
 * judged." (every context measured at both refs), or the contexts by name; empty without instructions rows.
 */
export function judgedOnText(r: RegressionReport): string {
  const judged = judgedOn(r);
  if (!judged.length) return '';
  const compared = CONTEXTS.filter((c) => r.rows.some((m) => m.context === c && m.current !== null && m.baseline !== null));
  if (compared.every((c) => judged.includes(c))) return 'Judged on instructions (exact), memory and queries; TTFB shown, not judged.';
  return `${judged.join(', ')}: judged on instructions (exact), memory and queries; TTFB shown there, not judged.`;
}

/** The verdict's threshold words when instructions judged: " (instructions: 0.25 % of the baseline's request, beyond the run's spread)". */
export function passedInstructions(r: RegressionReport): string {
  return judgedOn(r).length ? ` (instructions: ${instructionsPercentOf(r)} % of the baseline's request, beyond the run's spread)` : '';
}

/** The line under the table: what the instructions rows compare and when they fail. */
export function instructionsNote(r: RegressionReport): string[] {
  if (!judgedOn(r).length) return [];
  return [`Instructions: CPU instructions PHP executes for the whole request (callgrind; the clean site's count + the component's) at the baseline and at the working tree; a change fails when it adds ${instructionsRule(instructionsPercentOf(r))}; never inconclusive.`];
}

/** JSON's and SARIF's properties: the threshold and the contexts it judged; nothing without instructions rows. */
export function instructionsProperties(r: RegressionReport): { instructionsPercent?: number; judgedOnInstructions?: MeasureContext[] } {
  const judged = judgedOn(r);
  return judged.length ? { instructionsPercent: instructionsPercentOf(r), judgedOnInstructions: judged } : {};
}

/** SARIF: the rule of an instructions regression (only in a log that has instructions rows). */
export const INSTRUCTIONS_RULE = {
  id: 'instructions-regression',
  name: 'InstructionsRegression',
  text: "The component makes PHP execute more CPU instructions per request than at the baseline ref (callgrind, measure --instructions): more than measure.instructions percent (default 0.25 %) of the baseline's request and more than the run's spread. Exact: it judges the context instead of TTFB.",
};

/** SARIF's run properties: every instructions row, whatever its result (a passing run says them too). */
export function instructionsSarifRows(r: RegressionReport): { instructions?: Array<Pick<MetricComparison, 'context' | 'baseline' | 'current' | 'difference' | 'percent' | 'noise' | 'allowed' | 'regression'>> } {
  const rows = r.rows.filter((m) => m.metric === 'instructions');
  return rows.length ? { instructions: rows.map(({ context, baseline, current, difference, percent, noise, allowed, regression }) => ({ context, baseline, current, difference, percent, noise, allowed, regression })) } : {};
}
