// CPU instructions of a local measurement (`measure --instructions`, `check --measure-local --instructions`, the
// editor's Measure Locally) in people's words, for every surface: a context's cell beside its time ("+1.42 M instr
// (+0.9 %)", "±3.10 K instr (within noise)"), and the notice of the contexts whose counted requests varied
// (measure/record/instructionsVarying.ts decides which).
import { l10n } from '../l10n';
import type { LocalRecord, MeasureContext } from '../measure/record/method';
import { CONTEXT_NAMES } from '../model';
import { formatInstructions, instructionsDelta, instructionsPercent } from './format';

/** The instructions the component adds in a context, as a cell beside time; null where that context was not counted. */
export function instructionsCell(r: LocalRecord | undefined, ctx: MeasureContext): string | null {
  const d = r?.contexts[ctx]?.instructions_delta;
  return r && typeof d === 'number' ? instructionsDelta(d, r.local.baseline?.[ctx]?.instructions, r.local.spread?.[ctx]?.instructions) : null;
}

/** Whether any context of the record has an instruction count. */
export function hasInstructions(r: LocalRecord | undefined): boolean {
  return CONTEXT_NAMES.some((c) => instructionsCell(r, c) !== null);
}

/**
 * "CPU instructions varied between identical requests in homepage (by up to 1.20 M instr, 0.41 % of the request): …",
 * or null when no context varied. `label` names a context (the context's id by default).
 */
export function varyingNotice(r: LocalRecord, label: (c: MeasureContext) => string = (c) => c): string | null {
  const varying = r.local.instructions?.varying ?? [];
  if (!varying.length) return null;
  const parts = varying.map((c) => {
    const spread = r.local.spread?.[c]?.instructions;
    const clean = r.local.baseline?.[c]?.instructions;
    if (typeof spread !== 'number') return label(c);
    const share = typeof clean === 'number' ? instructionsPercent(spread, clean).replace(/^[+±]/, '') : '';
    return share ? l10n.t('{0} (by up to {1}, {2} of the request)', label(c), formatInstructions(spread), share) : l10n.t('{0} (by up to {1})', label(c), formatInstructions(spread));
  });
  const list = parts.length === 1 ? parts[0] : l10n.t('{0} and {1}', parts.slice(0, -1).join(', '), parts[parts.length - 1]);
  return l10n.t("CPU instructions varied between identical requests in {0}: work that depends on the time or on the site's state (a counter, a transient that expires, random), so the instruction figures there are not exact", list);
}
