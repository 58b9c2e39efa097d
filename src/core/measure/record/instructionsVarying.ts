// record/: `--instructions`, which contexts' counted requests varied. Two identical requests of one side differ by
// about 4,000 instructions of 30 to 60 million (0.01 %: the clock set to the same start, WP-Cron off, opcache warm);
// a component doing work that depends on the time or on its own state (a counter in an option, a transient with a
// short lifetime, random_int) differs by far more, and its instruction figures are then not exact: such a context is
// named in `local.instructions.varying` and said by every surface. Pure; imports only method.ts.
import { CONTEXTS, median, type LocalRecord, type MeasureContext } from './method';

/** Counts of one side's requests that differ by more than this share of their median are not the same work (0.05 %). */
export const VARYING_SHARE = 0.0005;

/** Whether one side's counted requests of a context differ by more than VARYING_SHARE of their median. */
export function countsVary(xs: readonly number[]): boolean {
  if (xs.length < 2) return false;
  return Math.max(...xs) - Math.min(...xs) > median([...xs]) * VARYING_SHARE;
}

/** The contexts in which any side's counted requests vary (the component's, the clean site's or REF's), in context order. */
export function varyingContexts(sides: ReadonlyArray<Partial<Record<MeasureContext, number[]>> | undefined>): MeasureContext[] {
  return CONTEXTS.filter((c) => sides.some((s) => countsVary(s?.[c] ?? [])));
}

/** The record with `local.instructions.varying` (an empty list: counted, none varied); a record without counts as it is. */
export function withVarying(r: LocalRecord, varying: MeasureContext[]): LocalRecord {
  if (!r.local.instructions) return r;
  return { ...r, local: { ...r.local, instructions: { ...r.local.instructions, varying } } };
}
